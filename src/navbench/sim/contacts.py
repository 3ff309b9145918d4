"""The simulator's per-tick contact scan (50 Hz): collisions, support, traction caps, falls.

A robot contact with ground geometry is *support* when its normal is within 35° of vertical or
it is within 4 mm of the lowest ground contact, else a *step edge* (the sole's chamfer on a
curb); a contact with any other static geom is a *collision* (NavVerse's non-ground
collision). Drive cap: step edge → ``climb_force · m g``; support → ``min(force_cap, μ) m g``
(μ of the support, after ``friction_scale`` / ``friction_override``); airborne → 0. The cap
bounds the norm of the planar servo force: it is split over the world axes along the servo
error direction and written to the x / z actuators' force ranges. Wheeled bases
(``drive="wheeled"``) share μ N (the climb force on an edge) between drive, side force and yaw
torque instead (:func:`navbench.sim.traction.wheel_limits`; the yaw servo's force range too).
A tilted contact normal on a level box top is that box's corner: the sole rests, pitched, on a
step's edge, which it climbs (or steps down) with the edge force. Falls (NavVerse App. 6.6):
the body tilts more than ``max_tilt``. Drops (ours, only with ``drop_rule``): the lowest support
point is more than ``max_drop`` below every support point of the last 10 ticks (0.2 s: a step
down, at any speed and tilt; not a slope), or the base falls ``2 max_drop + 0.1`` m unsupported
(a hole). Without the rule, only a free fall of more than :data:`VOID_DROP` (off the scene's
geometry: nothing below will catch it) is a drop.

The scan itself is compiled (:func:`navbench.sim.tick_kernels.scan`, over the contact arrays
and per-geom lookup arrays); the simulator calls it from its compiled tick, this class owns
its state.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import mujoco
import numpy as np

from navbench.sim import tick_kernels as tk
from navbench.sim.controller import WaypointFollower
from navbench.sim.embodiments import Embodiment
from navbench.sim.tick_kernels import EDGE_RISE, LEVEL_COS, SUPPORT_COS
from navbench.sim.world import World, level_box_tops

_FALLS = (None, "drop", "tilt")  # by tick_kernels fall code
#: Unsupported free fall (m) that ends an episode as a drop even without the drop rule.
VOID_DROP = 2.0


class ContactScan:
    """Contact bookkeeping of one simulator (module docs); call it after every control tick.

    Parameters: the ``world`` and its ``data``; ``embodiment``; the ``follower`` whose
    ``brake_accel`` follows the traction of the support (0.8 · cap / m, m/s²); actuator ids
    ``act_x``, ``act_z`` of the planar servos and ``act_yaw`` of the yaw servo;
    ``friction_scale`` / ``friction_override`` (surface class → μ), ``max_tilt`` (radians) and
    ``drop_rule`` (module docs) from the simulator settings.

    State read by the simulator: ``capx``, ``capz`` (the force caps in the model, N),
    ``collided`` (a collision since the flag was last cleared); the kernel's arrays ``lut``
    and ``sc`` (layout: :mod:`navbench.sim.tick_kernels`).
    """

    def __init__(self, world: World, data: mujoco.MjData, embodiment: Embodiment,
                 follower: WaypointFollower, act_x: int, act_z: int, act_yaw: int, *,
                 friction_scale: float = 1.0, friction_override: Mapping[str, float] | None = None,
                 max_tilt: float = math.radians(45.0), drop_rule: bool = False) -> None:
        e = embodiment
        if len(world.static_geoms) and world.robot_geoms.min() < world.static_geoms.max():
            raise RuntimeError("robot geoms must come after the static geoms")
        self.data, self.follower = data, follower
        # the contact list of ``data``: it reads the current contacts (and their number) at
        # every field access, so it is fetched once, not per tick
        self.con = data.contact
        over = friction_override or {}
        #: per geom (plus one entry for "no geom"): ground geometry, and its μ (scaled)
        self.ground = np.array([g.ground for g in world.geoms] + [True])
        self.friction = friction_scale * np.array(
            [over.get(g.surface, g.friction) for g in world.geoms] + [1.0])
        #: per geom: ground flag, μ, level-box-top flag (the kernel's lookup table)
        self.lut = np.column_stack([self.ground, self.friction,
                                    [*level_box_tops(world.model), False]]).astype(float)
        self.forcerange = world.model.actuator_forcerange  # a view: the model's buffer
        self._ax, self._az, self._ayaw = act_x, act_z, act_yaw
        self._yaw_range = self.forcerange[act_yaw].copy()  # as built (embodiments.add_robot)
        self.qpos, self.qvel, self.ctrl = data.qpos, data.qvel, data.ctrl
        self.xmat = data.xmat[world.robot_body]  # the body's orientation, a view (9,)
        self.cap = e.force_cap * e.weight  # support cap at μ ≥ force_cap (N)
        self.max_tilt = max_tilt
        sc = self.sc = np.zeros(tk.NSC)
        sc[[tk.SC_CAP, tk.SC_CLIMB, tk.SC_WEIGHT, tk.SC_MASS, tk.SC_MAX_DROP, tk.SC_HOLE_DROP,
            tk.SC_TILT_UP, tk.SC_MAX_TILT, tk.SC_KV, tk.SC_HALF_TRACK, tk.SC_WHEELED,
            tk.SC_AX, tk.SC_AZ, tk.SC_AYAW]] = [
            self.cap, e.climb_force * e.weight, e.weight, e.mass,
            e.max_drop if drop_rule else math.inf,
            2.0 * e.max_drop + 0.1 if drop_rule else VOID_DROP,
            math.cos(max_tilt) + 1e-9,  # above this up_y the tilt is below max_tilt
            max_tilt, e.mass * e.servo_rate, e.wheel_track / 2.0, e.drive == "wheeled",
            act_x, act_z, act_yaw]
        sc[tk.SC_CAPX] = sc[tk.SC_CAPZ] = self.cap
        sc[tk.SC_NREC], sc[tk.SC_HEAD] = 1, 1
        self._ts = np.zeros(tk.NT)  # the servo error of a direct call
        tk.compile_tick()

    @property
    def capx(self) -> float:
        """Force cap of the x servo now in the model (N)."""
        return float(self.sc[tk.SC_CAPX])

    @property
    def capz(self) -> float:
        """Force cap of the z servo now in the model (N)."""
        return float(self.sc[tk.SC_CAPZ])

    @property
    def collided(self) -> bool:
        """A non-ground contact since the flag was last cleared."""
        return bool(self.sc[tk.SC_COLLIDED])

    @collided.setter
    def collided(self, value: bool) -> None:
        self.sc[tk.SC_COLLIDED] = float(value)

    def reset_caps(self) -> None:
        """Write the full support cap to both planar servos (an episode's start)."""
        self.sc[tk.SC_CAPX] = self.sc[tk.SC_CAPZ] = c = self.cap
        fr, ax, az = self.forcerange, self._ax, self._az
        fr[ax, 0], fr[ax, 1], fr[az, 0], fr[az, 1] = -c, c, -c, c
        fr[self._ayaw] = self._yaw_range

    def reset(self) -> None:
        """Start the support history at the base's height; clear the collision flag."""
        sc = self.sc
        sc[tk.SC_SUPPORT_Y] = sc[tk.SC_REC] = float(self.qpos[1])
        sc[tk.SC_NREC], sc[tk.SC_HEAD], sc[tk.SC_COLLIDED] = 1, 1, 0.0

    def tilt(self) -> float:
        """Angle between the body's up axis and world up (radians)."""
        up_y = float(self.xmat[4])
        return math.acos(max(-1.0, min(1.0, up_y)))

    def __call__(self, ex: float = 0.0, ez: float = 0.0) -> str | None:
        """Scan the contacts after a tick with planar servo error ``(ex, ez)`` (world XZ, m/s):
        update ``collided``, the caps and the follower's braking; the fall reason
        (``"drop"`` or ``"tilt"``) or ``None``."""
        con, ts = self.con, self._ts
        ts[tk.T_EX], ts[tk.T_EZ] = ex, ez
        path, align, fs, fi = self.follower.state
        fall = tk.tick(con.geom, con.pos, con.frame, self.lut, self.sc, self.forcerange,
                       self.xmat, path, align, fs, fi, ts, self.qpos, self.qvel, self.ctrl,
                       tk.SCAN)
        return _FALLS[fall]


__all__ = ["EDGE_RISE", "LEVEL_COS", "SUPPORT_COS", "VOID_DROP", "ContactScan"]
