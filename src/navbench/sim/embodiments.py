"""Robot embodiments: one frozen dataclass each, turned into a MuJoCo body by
:func:`navbench.sim.robot.add_robot`.

Every robot is the same *hybrid base* (DESIGN "Physics and rendering"): world-aligned slide
joints for x and z driven by force-capped velocity servos, a passive vertical slide (gravity and
contacts decide the height), a yaw hinge driven by a velocity servo, and free (lightly damped)
pitch/roll hinges, so the body lies on whatever its sole touches: it tilts with slopes, steps
and edges, and NavVerse's fall rule (body up > 45° from world up) is physical.

Capabilities come from geometry, not from speed (every contact of the robot is frictionless;
the servos alone drive it):

- **Steps.** The collision *sole* is a convex prism (box or 16-gon) whose lower ``c =
  chamfer_height`` metres are chamfered at ``chamfer_angle`` β from the horizontal. A step edge
  of height h ≤ c touches the chamfer, whose normal is β from vertical, and a horizontal push of
  ``F ≥ m g tan β`` lifts the robot onto it; a step of h > c meets the vertical face above the
  chamfer first (horizontal normal) and blocks the robot at every speed. While the sole presses
  on a step edge the drive may push with ``climb_force · m g`` (legs / wheel torque on the edge).
- **Traction.** On its own support the planar drive force is capped at ``min(force_cap, μ) m g``
  (vector norm; μ = friction of the surface under the robot), for both robots: braking from v
  takes ``v² / (2 g min(force_cap, μ))`` metres, and commands faster than the traction allows slip.
  A *wheeled* base (``drive="wheeled"``) also turns through its wheels: drive force, side force
  and yaw torque (wheel force × half track) share one friction budget μ m g
  (:mod:`navbench.sim.traction`), so it skids outward on a curve when ``v² / r > μ g`` and turns
  in place at most at ``μ m g (b / 2) / I_yaw`` rad/s²; a *legged* base re-plants its feet, so
  only acceleration and braking slip, its yaw is not traction-limited.
- **Slopes.** The drive force *along the ground* is capped at ``min(force_cap, μ) m g``: on a
  support tilted by θ the planar servo force may reach that over cos θ, so a slope θ holds the
  robot while ``sin θ ≤ min(force_cap, μ)`` (Spot on μ 0.7: 44°; the Turtlebot's 0.5 m g motor
  cap: 30°); it tilts by θ.
- **Falls and drops.** A tilt > 45° is a fall (NavVerse App. 6.6, the only fall rule). With
  ``SimSettings.drop_rule`` (ours, off by default) an unsupported drop of ``max_drop`` or more
  ends the episode as ``drop``.

Collision geometry (:mod:`navbench.sim.robot`). On static boxes, two capsule *feet* inside
the sole (:meth:`Embodiment.feet`, tangent to its bottom and chamfers) carry the robot, and the
chamfered sole mesh, its bottom lifted 1 mm up the chamfer, meets step edges, rims and sides.
Mesh prisms meet the full sole. The heightfield (triangle-mesh terrain) meets the feet and the
lifted sole, as boxes do: MuJoCo keeps at most 50 contacts per geom pair, and the full sole on
the 5 cm heightfield touched ~440 cell prisms on flat ground, so only the first rows (one end
of the sole) carried the robot and it sank through the crest of a steep ramp; two feet touch
≤ 2 × 22 (and flat mesh terrain steps 5× faster). The hull sits on top. Flat box floors cost
two capsule-box tests instead of a convex-mesh one: per ``mj_step`` −10 % for Spot and −18 %
for the Turtlebot in the bench house, −23 % for the Turtlebot on a curb.

Frames: Habitat world frame (+Y up); the body frame has +Y up and faces -Z; the base origin is
``sole_height`` above the ground point that :class:`~navbench.sim.Simulator` reports as the pose.
Adding an embodiment = creating one :class:`Embodiment` value.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from navbench.nav.settings import EMBODIMENT_CLEARANCE

GRAVITY = 9.81

#: Name prefix of every robot element in the MuJoCo model.
ROBOT_PREFIX = "robot/"

#: Geom groups (rendering and ray filtering).
GROUP_STATIC = 0
GROUP_VISUAL = 1
GROUP_ROBOT = 2
GROUP_HFIELD = 3
GROUP_HIDDEN = 5

#: Collision bits: MuJoCo ``contype`` of the static geoms (``sim.world``), ``conaffinity`` of
#: the robot's (``sim.robot``): static boxes, the heightfield, and every other colliding static
#: geom (convex mesh prisms).
COLLIDE_BOX = 1
COLLIDE_CONVEX = 4
COLLIDE_HFIELD = 8

#: Largest radius (m) of the two capsule feet (:meth:`Embodiment.feet`).
FOOT_RADIUS = 0.04


@dataclass(frozen=True)
class CameraMount:
    """A body-mounted pinhole camera (OpenGL convention: looks along -Z, +Y up).

    Attributes:
        pos: camera position in the body frame (m); the body origin is the base centre.
        pitch: downward tilt (radians, positive looks down).
        fovy: vertical field of view (degrees).
    """

    pos: tuple[float, float, float] = (0.0, 0.3, -0.45)
    pitch: float = 0.0
    fovy: float = 79.0


@dataclass(frozen=True)
class Embodiment:
    """A robot: geometry, mass, actuation limits and kinematic constraints.

    Attributes:
        name: identifier (``"spot"``).
        radius: robot radius r_robot (m), used for success τ = 1.0 + r_robot (SPEC §5).
        mass: total mass (kg).
        sole_shape: ``"box"`` (width × length footprint) or ``"round"`` (a 16-gon of diameter
            ``sole_size[0]``).
        sole_size: full size (width, height, length) of the collision sole (m); its bottom is
            the ground point, its top meets the hull.
        chamfer_height: height c of the chamfered lower rim of the sole (m): steps ≤ c climb,
            higher ones block (module docs).
        chamfer_angle: inclination β of the front and back chamfer faces from the horizontal
            (degrees); a body pitched by φ meets a step at β + φ, so keep tan(β + φ) below
            ``climb_force``.
        side_chamfer_angle: the same for the side faces of a box sole (``None``: β).
        hull_size: full size (sx, sy, sz) of the body above the sole (m).
        hull_shape: ``"box"`` or ``"cylinder"`` (vertical axis, radius ``sx / 2``; round
            robots such as the Turtlebot, whose footprint is then exactly ``radius``).
        hull_bottom: height of the hull's bottom above the ground point (m).
        force_cap: planar drive force cap on the robot's own support, a multiple of m g
            (motor limit); the traction cap μ m g applies too.
        climb_force: drive force cap while the sole presses on a step edge (multiple of m g);
            must exceed tan β to climb.
        holonomic: whether lateral body velocity vy is allowed (False: vy ≡ 0).
        drive: ``"legged"`` (traction bounds acceleration and braking only) or ``"wheeled"``
            (drive, side force and yaw torque share μ m g; module docs).
        wheel_track: distance b between the drive wheels' contact points (m; wheeled only).
        vx_max, vy_max, omega_max: clip limits of the commanded body velocity (m/s, rad/s).
        servo_rate: velocity-servo bandwidth (1/s): gain kv = mass · servo_rate (N s/m; the
            yaw servo uses the same number in N m s/rad).
        servo_integral: integral gain (1/s) of the planar velocity loop: a blocked base pushes
            harder over time, up to the force cap, whatever the commanded speed.
        tilt_stiffness, tilt_damping: pitch/roll spring (N m/rad) and damper (N m s/rad); small,
            so that the body lies on its sole (tilt = terrain tilt).
        max_drop: the drop rule's threshold (m): with ``SimSettings.drop_rule``, an unsupported
            drop of at least this ends the episode as ``drop`` (not a NavVerse rule).
        max_step: climbable step (m) = ``chamfer_height`` rounded down; navmesh ``max_climb``.
        max_slope: steepest slope the robot is meant to drive on (degrees; documentation and
            navmesh ``max_slope_deg``; it holds on steeper ones while ``sin θ ≤ min(force_cap, μ)``).
        max_gap: widest gap in the ground (m) it drives across at every speed (measured:
            :mod:`navbench.sim.limits`, ``tests/sim/test_embodiment_limits.py``).
        clearance: clearance (m) a planner should keep from obstacles for this body to follow
            its paths without touching (footprint half-width plus follower slack; measured on
            procedural houses with the verification rollout); read from
            :data:`navbench.nav.settings.EMBODIMENT_CLEARANCE`, the one source of truth.
        camera: the head camera.
    """

    name: str
    radius: float
    mass: float
    sole_shape: str
    sole_size: tuple[float, float, float]
    chamfer_height: float
    hull_size: tuple[float, float, float]
    hull_bottom: float
    force_cap: float
    holonomic: bool
    max_drop: float
    max_step: float
    drive: str = "legged"
    wheel_track: float = 0.0
    chamfer_angle: float = 60.0
    side_chamfer_angle: float | None = None
    climb_force: float = 3.0
    max_slope: float = 30.0
    max_gap: float = 0.0
    clearance: float = 0.3
    hull_shape: str = "box"
    vx_max: float = 1.5
    vy_max: float = 0.3
    omega_max: float = 1.5
    servo_rate: float = 50.0
    servo_integral: float = 10.0
    tilt_stiffness: float = 20.0
    tilt_damping: float = 20.0
    camera: CameraMount = field(default_factory=CameraMount)

    def __post_init__(self) -> None:
        from navbench.errors import ConfigError

        if self.drive not in ("legged", "wheeled"):
            raise ConfigError(f"Embodiment {self.name!r}: drive must be 'legged' or 'wheeled', "
                              f"got {self.drive!r}")
        if self.drive == "wheeled" and not self.wheel_track > 0.0:
            raise ConfigError(f"Embodiment {self.name!r}: a wheeled drive needs wheel_track > 0 m, "
                              f"got {self.wheel_track!r}")

    @property
    def sole_height(self) -> float:
        """Height of the base origin above the ground point when standing on flat floor (m):
        the top of the chamfer (the pitch/roll pivot)."""
        return self.chamfer_height

    @property
    def weight(self) -> float:
        """m g (N)."""
        return self.mass * GRAVITY

    @property
    def half_extents(self) -> tuple[float, float]:
        """Half width and half length of the footprint (sole or hull, the larger; m)."""
        return (max(self.sole_size[0], self.hull_size[0]) / 2.0,
                max(self.sole_size[2], self.hull_size[2]) / 2.0)

    @property
    def round(self) -> bool:
        """The footprint is a disc (turning in place sweeps nothing new)."""
        return self.sole_shape == "round" and self.hull_shape == "cylinder"

    @property
    def diagonal(self) -> float:
        """Footprint diagonal (m): the narrowest opening it passes at every heading."""
        w, length = self.half_extents
        return 2.0 * (w if self.round else math.hypot(w, length))

    def sole_vertices(self, lift: float = 0.0) -> np.ndarray:
        """Vertices (N, 3) of the convex sole in the body frame (m; origin ``sole_height``
        above the ground point): bottom outline inset by ``c / tan β``, then the full outline
        at the chamfer top ``c`` and at the sole top. ``lift`` (m) moves the bottom outline
        that far up the chamfer (the collision mesh of :func:`~navbench.sim.robot.add_robot`)."""
        w, h, length = self.sole_size
        c = self.chamfer_height
        inset = c / math.tan(math.radians(self.chamfer_angle))
        side = c / math.tan(math.radians(self.side_chamfer_angle or self.chamfer_angle))
        if self.sole_shape == "box":
            corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], float)

            def outline(dx: float) -> np.ndarray:
                return corners * [w / 2.0 - dx * side / inset, length / 2.0 - dx]
        elif self.sole_shape == "round":
            a = np.linspace(0.0, 2.0 * math.pi, 16, endpoint=False)
            ring = np.stack([np.cos(a), np.sin(a)], axis=1)

            def outline(dx: float) -> np.ndarray:
                return ring * (w / 2.0 - dx)
        else:
            raise ValueError(f"unknown sole shape {self.sole_shape!r}")
        rows = []
        for y, dx in ((lift, inset * (1.0 - lift / c)), (c, 0.0), (h, 0.0)):
            o = outline(dx)
            rows.append(np.column_stack([o[:, 0], np.full(len(o), y - c), o[:, 1]]))
        return np.concatenate(rows)

    def feet(self) -> tuple[float, float, float]:
        """The two capsule feet of :func:`~navbench.sim.robot.add_robot` (m): radius
        r = min(``FOOT_RADIUS``, c / 2) and half extents (fx, fz) of their axes, which run
        along body x over [−fx, fx] at z = ±fz, r above the ground point. Each end sphere is
        tangent to the chamfers (box sole: fz = l/2 − c/tan β − r tan(β/2), fx likewise with
        the side angle) or to the cone inscribed in the 16-gon's chamfer (round sole: at
        45°, from the apothem)."""
        w, _, length = self.sole_size
        c = self.chamfer_height
        r = min(FOOT_RADIUS, c / 2.0)
        beta = math.radians(self.chamfer_angle)
        inset = c / math.tan(beta)
        if self.sole_shape == "round":
            e = (w / 2.0 - inset) * math.cos(math.pi / 16.0) - r * math.tan(beta / 2.0)
            return r, e * math.sqrt(0.5), e * math.sqrt(0.5)
        side_beta = math.radians(self.side_chamfer_angle or self.chamfer_angle)
        return (r, w / 2.0 - c / math.tan(side_beta) - r * math.tan(side_beta / 2.0),
                length / 2.0 - inset - r * math.tan(beta / 2.0))


#: Boston Dynamics Spot (legged). Published (Spot SDK "About Spot", robot specifications):
#: 1100 × 500 mm footprint (our sole and hull), 32.5 kg net, maximum speed 1.6 m/s, slopes
#: ±30°, maximum step height 300 mm. Ours: speed clipped at NavVerse's |vx| ≤ 1.5 m/s (App.
#: 6.3), climbable step 0.2 m (SPEC §6 "steps ≤ 0.2 m"; the chamfer climbs ≤ 0.22 m), 30°
#: slopes as published.
SPOT = Embodiment(
    name="spot",
    radius=0.6,
    mass=32.5,
    sole_shape="box",
    sole_size=(0.5, 0.45, 1.1),
    chamfer_height=0.22,
    chamfer_angle=45.0,
    side_chamfer_angle=60.0,
    hull_size=(0.5, 0.2, 1.1),
    hull_bottom=0.45,
    force_cap=3.0,
    climb_force=3.0,
    holonomic=True,
    max_drop=0.4,
    max_step=0.2,
    max_slope=30.0,
    max_gap=0.8,
    clearance=EMBODIMENT_CLEARANCE["spot"],
    tilt_stiffness=100.0,
    tilt_damping=60.0,
    camera=CameraMount(pos=(0.0, 0.3, -0.5), pitch=math.radians(10.0), fovy=79.0),
)

#: TurtleBot 4 on an iRobot Create 3 base (wheeled, differential drive). Published (TurtleBot 4
#: user manual, "Features / Hardware specifications"; Create 3 docs and ``create3_sim``
#: ``irobot_create_control/config/control.yaml``): 342 × 339 × 351 mm, 3.945 kg (3.27 kg Lite),
#: 72 mm wheels, 4.5 mm ground clearance, wheel separation 0.233 m, maximum linear velocity
#: 0.31 m/s in safe mode and 0.46 m/s without, maximum angular velocity 1.90 rad/s, wheel
#: acceleration limit 0.9 m/s²; "designed for traversing relatively-flat, indoor environments",
#: its wheel suspensions "overcome typical carpet or door thresholds". Ours: a 0.34 m sole
#: (0.36 m hull, r = 0.18 m), 0.46 m/s, |ω| ≤ 1.5 rad/s (NavVerse's PID clip, below the
#: published 1.9), thresholds ≤ 0.02 m (SPEC §6: "blocked by small steps"). The drive force
#: cap (0.5 m g) is the wheel motors' limit, not the firmware's 0.9 m/s² ramp (not modelled).
TURTLEBOT = Embodiment(
    name="turtlebot",
    radius=0.18,
    mass=3.945,
    sole_shape="round",
    sole_size=(0.34, 0.07, 0.34),
    chamfer_height=0.022,
    chamfer_angle=45.0,
    hull_size=(0.36, 0.3, 0.36),
    hull_shape="cylinder",
    clearance=EMBODIMENT_CLEARANCE["turtlebot"],
    hull_bottom=0.07,
    force_cap=0.5,
    climb_force=1.5,
    holonomic=False,
    drive="wheeled",
    wheel_track=0.233,
    vx_max=0.46,
    vy_max=0.0,
    omega_max=1.5,
    tilt_stiffness=5.0,
    tilt_damping=3.0,
    max_drop=0.05,
    max_step=0.02,
    max_slope=15.0,
    max_gap=0.2,
    camera=CameraMount(pos=(0.0, 0.35, -0.15), pitch=0.0, fovy=79.0),
)

EMBODIMENTS: dict[str, Embodiment] = {e.name: e for e in (SPOT, TURTLEBOT)}


def get_embodiment(name: str) -> Embodiment:
    """Look an embodiment up by name (``spot``, ``turtlebot``)."""
    from navbench.errors import ConfigError

    try:
        return EMBODIMENTS[name]
    except KeyError:
        raise ConfigError(
            f"unknown embodiment {name!r}; expected one of {sorted(EMBODIMENTS)}"
        ) from None


def camera_to_body(emb: Embodiment) -> np.ndarray:
    """4×4 transform from the camera frame (OpenGL: x right, y up, looks -Z) to the body frame."""
    c, s = math.cos(-emb.camera.pitch), math.sin(-emb.camera.pitch)
    t = np.eye(4)
    t[:3, :3] = np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])
    t[:3, 3] = emb.camera.pos
    return t
