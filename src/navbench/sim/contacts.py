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
step's edge, which it climbs (or steps down) with the edge force. Falls: the lowest support
point is more than ``max_drop`` below every support point of the last 10 ticks (0.2 s: a step
down, at any speed and tilt; not a slope), the base falls ``2 max_drop + 0.1`` m unsupported
(a hole), or the body tilts more than ``max_tilt``.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Mapping

import mujoco
import numpy as np

from navbench.sim.controller import WaypointFollower
from navbench.sim.embodiments import Embodiment
from navbench.sim.traction import wheel_limits
from navbench.sim.world import World, level_box_tops

SUPPORT_COS = math.cos(math.radians(35.0))  # support normals are within 35° of vertical
EDGE_RISE = 0.004  # a step edge touches the sole at least this far above its lowest contact (m)
LEVEL_COS = math.cos(math.radians(5.0))  # a contact normal this close to vertical is a box's top
_HALF = math.sqrt(0.5)


class ContactScan:
    """Contact bookkeeping of one simulator (module docs); call it after every control tick.

    Parameters: the ``world`` and its ``data``; ``embodiment``; the ``follower`` whose
    ``brake_accel`` follows the traction of the support (0.8 · cap / m, m/s²); actuator ids
    ``act_x``, ``act_z`` of the planar servos and ``act_yaw`` of the yaw servo; ``friction_scale`` / ``friction_override``
    (surface class → μ) and ``max_tilt`` (radians) from the simulator settings.

    State read by the simulator: ``capx``, ``capz`` (the force caps in the model, N),
    ``collided`` (a collision since the flag was last cleared).
    """

    def __init__(self, world: World, data: mujoco.MjData, embodiment: Embodiment,
                 follower: WaypointFollower, act_x: int, act_z: int, act_yaw: int, *,
                 friction_scale: float = 1.0, friction_override: Mapping[str, float] | None = None,
                 max_tilt: float = math.radians(45.0)) -> None:
        e = embodiment
        if len(world.static_geoms) and world.robot_geoms.min() < world.static_geoms.max():
            raise RuntimeError("robot geoms must come after the static geoms")
        self.data, self.follower = data, follower
        # the contact list of ``data``: it reads the current contacts (and their number) at
        # every field access, so it is fetched once, not per tick
        self._con = data.contact
        over = friction_override or {}
        #: per geom (plus one entry for "no geom"): ground geometry, and its μ (scaled)
        self.ground = np.array([g.ground for g in world.geoms] + [True])
        self.friction = friction_scale * np.array(
            [over.get(g.surface, g.friction) for g in world.geoms] + [1.0])
        self._ground_list: list[bool] = self.ground.tolist()
        self._friction_list: list[float] = self.friction.tolist()
        self._level_list: list[bool] = [*level_box_tops(world.model), False]
        self._forcerange = world.model.actuator_forcerange  # a view: the model's buffer
        self._ax, self._az, self._ayaw = act_x, act_z, act_yaw
        self._wheeled = e.drive == "wheeled"
        self._yaw_range = self._forcerange[act_yaw].copy()  # as built (embodiments.add_robot)
        self._half_track = e.wheel_track / 2.0
        self._kv = e.mass * e.servo_rate
        self._ctrl, self._qvel = data.ctrl, data.qvel
        self._qpos, self._body_xmat = data.qpos, data.xmat[world.robot_body]
        self.cap = e.force_cap * e.weight  # support cap at μ ≥ force_cap (N)
        self._climb_cap = e.climb_force * e.weight
        self._weight, self._mass = e.weight, e.mass
        self._max_drop, self._hole_drop = e.max_drop, 2.0 * e.max_drop + 0.1
        self.max_tilt = max_tilt
        self._tilt_up = math.cos(max_tilt) + 1e-9  # above this up_y the tilt is below max_tilt
        self.capx = self.capz = self.cap
        self.collided = False
        self._support_y = 0.0
        self._recent: deque[float] = deque([0.0], maxlen=10)

    def reset_caps(self) -> None:
        """Write the full support cap to both planar servos (an episode's start)."""
        self.capx = self.capz = c = self.cap
        fr, ax, az = self._forcerange, self._ax, self._az
        fr[ax, 0], fr[ax, 1], fr[az, 0], fr[az, 1] = -c, c, -c, c
        fr[self._ayaw] = self._yaw_range

    def reset(self) -> None:
        """Start the support history at the base's height; clear the collision flag."""
        self._support_y = float(self._qpos[1])
        self._recent = deque([self._support_y], maxlen=10)
        self.collided = False

    def tilt(self) -> float:
        """Angle between the body's up axis and world up (radians)."""
        up_y = float(self._body_xmat[4])
        return math.acos(max(-1.0, min(1.0, up_y)))

    def __call__(self, ex: float = 0.0, ez: float = 0.0) -> str | None:
        """Scan the contacts after a tick with planar servo error ``(ex, ez)`` (world XZ, m/s):
        update ``collided``, the caps and the follower's braking; the fall reason
        (``"drop"`` or ``"tilt"``) or ``None``."""
        supported = edge = False
        # Plain Python over the few contacts (numpy per-call overhead dominates here). The
        # robot is the only moving body, so every contact pairs it with a static geom, whose
        # id is the smaller one (the robot's geoms are added last).
        con = self._con
        pairs = con.geom.tolist()
        if pairs:
            ground_of = self._ground_list
            pos = con.pos.tolist()
            ground = []  # (index, static geom) of the ground contacts
            ground_y = math.inf  # the lowest ground contact (support unless a level top's corner)
            for k, (a, b) in enumerate(pairs):
                g = a if a < b else b
                if ground_of[g]:
                    ground.append((k, g))
                    y = pos[k][1]
                    if y < ground_y:
                        ground_y = y
            if len(ground) < len(pairs):
                self.collided = True
            if ground:
                low = ground_y + EDGE_RISE
                fric, mu, level = self._friction_list, 0.0, self._level_list
                ny: list[float] | None = None  # contact normals' y, read only when needed
                support_y = math.inf
                for k, g in ground:
                    high = pos[k][1] >= low  # not at the lowest level: support if near-vertical
                    if high or level[g]:
                        if ny is None:
                            ny = con.frame[:, 1].tolist()
                        n_y = ny[k]
                        if (high and not (n_y > SUPPORT_COS or -n_y > SUPPORT_COS)) or \
                                (level[g] and abs(n_y) < LEVEL_COS):  # a level top's corner
                            edge = True
                            continue
                    supported = True
                    if fric[g] > mu:
                        mu = fric[g]
                    if pos[k][1] < support_y:
                        support_y = pos[k][1]
                ground_y = support_y
        if edge:
            cap = self._climb_cap
        elif supported:
            cap = min(self.cap, mu * self._weight)
            self.follower.brake_accel = 0.8 * cap / self._mass  # the traction it can brake with
        else:
            cap = 0.0
        if self._wheeled:  # one friction budget for drive, side force and yaw (sim.traction)
            # the servos' own demand now: reference (command + integral) minus velocity
            ax, az, ayaw = self._ax, self._az, self._ayaw
            c, qv = self._ctrl.tolist(), self._qvel[:4].tolist()
            cx, cz, ct = wheel_limits(
                c[ax] - qv[0], c[az] - qv[2], float(self._qpos[3]), c[ayaw] - qv[3], self._kv,
                self._climb_cap if edge else (mu * self._weight if supported else 0.0),
                self._climb_cap if edge else self.cap, self._half_track)
            self._forcerange[ayaw] = (-ct, ct)
        else:  # legged: the cap bounds the planar force's norm, along the servo error
            n = math.hypot(ex, ez)
            if n > 1e-9:
                cx, cz = cap * (abs(ex) / n), cap * (abs(ez) / n)
            else:
                cx = cz = cap * _HALF
        if cx != self.capx or cz != self.capz:  # the model holds the last caps written
            self.capx, self.capz = cx, cz
            fr, ax, az = self._forcerange, self._ax, self._az
            fr[ax, 0], fr[ax, 1], fr[az, 0], fr[az, 1] = -cx, cx, -cz, cz
        fall = None
        if supported:  # a step down: the ground under the sole is lower by more than max_drop
            recent = self._recent  # than anywhere it stood on in the last 10 ticks
            if min(recent) - ground_y > self._max_drop:
                fall = "drop"
            recent.append(ground_y)
            self._support_y = ground_y
        elif self._support_y - self._qpos[1] > self._hole_drop:  # into a hole
            fall = "drop"
        # tilt > max_tilt ⇔ up_y < cos(max_tilt); the exact test runs only near the threshold
        if fall is None and self._body_xmat[4] < self._tilt_up and self.tilt() > self.max_tilt:
            fall = "tilt"
        return fall


__all__ = ["EDGE_RISE", "LEVEL_COS", "SUPPORT_COS", "ContactScan"]
