"""Robot embodiments: one frozen dataclass each, turned into a MuJoCo body by :func:`add_robot`.

Every robot is the same *hybrid base* (DESIGN "Physics and rendering"): world-aligned slide
joints for x and z driven by force-capped velocity servos, a passive vertical slide (gravity and
contacts decide the height), a yaw hinge driven by a velocity servo, and sprung pitch/roll
hinges so that the body tilts on uneven ground (fall detection reads that tilt). The collision
"sole" decides what the robot can climb: a horizontal force ``F`` pushing a round sole of radius
``R`` against a step edge of height ``h`` lifts the robot when ``F ≥ m g tan φ`` with
``cos φ = (R − h) / R`` (contacts of the sole are frictionless, so this is exact up to contact
softness). Spot: ``R = 0.33 m``, ``F = 3 m g`` → climbs up to 0.226 m. Turtlebot: wheels of
``R = 0.05 m``, ``F = 0.5 m g`` (and at most ``μ m g``, μ the friction of the floor under it)
→ blocked by steps above ~5 mm.

Frames: Habitat world frame (+Y up); the body frame has +Y up and faces -Z; the base origin is
``sole_height`` above the ground point that :class:`~navbench.sim.Simulator` reports as the pose.
Adding an embodiment = creating one :class:`Embodiment` value.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import mujoco
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
        sole: ``"capsule"`` (one round sole along the body axis) or ``"wheels"`` (4 spheres).
        sole_radius: radius of the capsule sole or of each wheel sphere (m).
        sole_half_length: half length of the capsule's straight part along the body axis (m).
        wheel_offsets: (x, z) body-frame positions of the wheel spheres (wheels only).
        hull_size: full size (sx, sy, sz) of the body above the sole (m).
        hull_shape: ``"box"`` or ``"cylinder"`` (vertical axis, radius ``sx / 2``; round
            robots such as the Turtlebot, whose footprint is then exactly ``radius``).
        hull_bottom: height of the hull's bottom above the ground point (m).
        force_cap: planar drive force cap as a multiple of m g, per world axis.
        traction_limited: also cap the drive force at μ m g (μ = friction under the robot).
        holonomic: whether lateral body velocity vy is allowed (False: vy ≡ 0).
        vx_max, vy_max, omega_max: clip limits of the commanded body velocity (m/s, rad/s).
        servo_rate: velocity-servo bandwidth (1/s): gain kv = mass · servo_rate (N s/m; the
            yaw servo uses the same number in N m s/rad).
        servo_integral: integral gain (1/s) of the planar velocity loop: a blocked base pushes
            harder over time, up to the force cap, whatever the commanded speed.
        tilt_stiffness, tilt_damping: pitch/roll spring (N m/rad) and damper (N m s/rad).
        max_drop: an unsupported drop larger than this (m) is a fall (explicit drop rule).
        max_step: nominal climbable step (m), for documentation and navmesh settings.
        clearance: clearance (m) a planner should keep from obstacles for this body to follow
            its paths without touching (footprint half-width plus follower slack; measured on
            procedural houses with the verification rollout); read from
            :data:`navbench.nav.settings.EMBODIMENT_CLEARANCE`, the one source of truth.
        camera: the head camera.
    """

    name: str
    radius: float
    mass: float
    sole: str
    sole_radius: float
    hull_size: tuple[float, float, float]
    hull_bottom: float
    force_cap: float
    holonomic: bool
    max_drop: float
    max_step: float
    sole_half_length: float = 0.0
    clearance: float = 0.3
    hull_shape: str = "box"
    wheel_offsets: tuple[tuple[float, float], ...] = ()
    traction_limited: bool = False
    vx_max: float = 1.5
    vy_max: float = 0.3
    omega_max: float = 1.5
    servo_rate: float = 50.0
    servo_integral: float = 10.0
    tilt_stiffness: float = 2000.0
    tilt_damping: float = 150.0
    camera: CameraMount = field(default_factory=CameraMount)

    @property
    def sole_height(self) -> float:
        """Height of the base origin above the ground point when standing on flat floor (m)."""
        return self.sole_radius

    @property
    def weight(self) -> float:
        """m g (N)."""
        return self.mass * GRAVITY


SPOT = Embodiment(
    name="spot",
    radius=0.6,
    mass=32.0,
    sole="capsule",
    sole_radius=0.33,
    sole_half_length=0.2,
    hull_size=(0.5, 0.2, 1.1),
    hull_bottom=0.45,
    force_cap=3.0,
    holonomic=True,
    max_drop=0.4,
    max_step=0.2,
    clearance=EMBODIMENT_CLEARANCE["spot"],
    camera=CameraMount(pos=(0.0, 0.3, -0.5), pitch=math.radians(10.0), fovy=79.0),
)

TURTLEBOT = Embodiment(
    name="turtlebot",
    radius=0.18,
    mass=6.0,
    sole="wheels",
    sole_radius=0.05,
    wheel_offsets=((-0.11, -0.11), (0.11, -0.11), (-0.11, 0.11), (0.11, 0.11)),
    hull_size=(0.36, 0.3, 0.36),
    hull_shape="cylinder",
    clearance=EMBODIMENT_CLEARANCE["turtlebot"],
    hull_bottom=0.07,
    force_cap=0.5,
    traction_limited=True,
    holonomic=False,
    vx_max=0.7,
    vy_max=0.0,
    omega_max=1.5,
    tilt_stiffness=300.0,
    tilt_damping=20.0,
    max_drop=0.1,
    max_step=0.005,
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


def _pitch_quat(pitch: float) -> list[float]:
    """MuJoCo quaternion [w, x, y, z] of a rotation about +X by ``-pitch`` (look down)."""
    return [math.cos(-pitch / 2.0), math.sin(-pitch / 2.0), 0.0, 0.0]


def add_robot(spec: mujoco.MjSpec, emb: Embodiment) -> None:
    """Add the robot body, its joints, servos and head camera to ``spec`` (Habitat frame).

    Joint qpos layout (in order): ``x, y, z`` slides (world displacement of the ground point),
    ``yaw``, ``pitch``, ``roll`` hinges. Actuators: velocity servos on x, z (force-capped at
    ``force_cap · m g``) and on yaw.
    """
    p = ROBOT_PREFIX
    body = spec.worldbody.add_body()
    body.name = p + "base"
    body.pos = [0.0, emb.sole_height, 0.0]
    for name, axis, jtype in (
        ("x", (1, 0, 0), mujoco.mjtJoint.mjJNT_SLIDE),
        ("y", (0, 1, 0), mujoco.mjtJoint.mjJNT_SLIDE),
        ("z", (0, 0, 1), mujoco.mjtJoint.mjJNT_SLIDE),
        ("yaw", (0, 1, 0), mujoco.mjtJoint.mjJNT_HINGE),
        ("pitch", (1, 0, 0), mujoco.mjtJoint.mjJNT_HINGE),
        ("roll", (0, 0, 1), mujoco.mjtJoint.mjJNT_HINGE),
    ):
        j = body.add_joint()
        j.name = p + name
        j.type = jtype
        j.axis = list(axis)
        if name in ("pitch", "roll"):
            j.stiffness = [emb.tilt_stiffness, 0.0, 0.0]
            j.damping = [emb.tilt_damping, 0.0, 0.0]
            j.limited = mujoco.mjtLimited.mjLIMITED_TRUE
            j.range = [-1.4, 1.4]
            j.armature = 0.5
        elif name == "yaw":
            j.armature = 0.1

    sole_geoms: list[mujoco.MjsGeom] = []
    if emb.sole == "capsule":
        g = body.add_geom()
        g.type = mujoco.mjtGeom.mjGEOM_CAPSULE
        g.size = [emb.sole_radius, emb.sole_half_length, 0.0]  # capsule axis = local z
        sole_geoms.append(g)
        g.name = p + "sole"
    elif emb.sole == "wheels":
        for i, (wx, wz) in enumerate(emb.wheel_offsets):
            g = body.add_geom()
            g.type = mujoco.mjtGeom.mjGEOM_SPHERE
            g.size = [emb.sole_radius, 0.0, 0.0]
            g.pos = [wx, 0.0, wz]
            g.name = f"{p}wheel{i}"
            sole_geoms.append(g)
    else:
        raise ValueError(f"unknown sole type {emb.sole!r}")
    hull = body.add_geom()
    hull.name = p + "hull"
    hx, hy, hz = (s / 2.0 for s in emb.hull_size)
    hull.pos = [0.0, emb.hull_bottom + hy - emb.sole_height, 0.0]
    if emb.hull_shape == "cylinder":
        hull.type = mujoco.mjtGeom.mjGEOM_CYLINDER
        hull.size = [hx, hy, 0.0]
        hull.quat = [math.cos(math.pi / 4), math.sin(math.pi / 4), 0.0, 0.0]  # axis +Z → +Y
    elif emb.hull_shape == "box":
        hull.type = mujoco.mjtGeom.mjGEOM_BOX
        hull.size = [hx, hy, hz]
    else:
        raise ValueError(f"unknown hull shape {emb.hull_shape!r}")
    # Mass sits in the sole / hull in proportion to volume; total = emb.mass.
    n = len(sole_geoms) + 1
    for g in [*sole_geoms, hull]:
        g.mass = emb.mass / n
        g.group = GROUP_ROBOT
        g.condim = 1  # frictionless: the servos drive the base, geometry decides climbing
        g.priority = 2
        g.rgba = [0.95, 0.75, 0.1, 1.0]
        g.contype = 2
        g.conaffinity = 1

    cam = body.add_camera()
    cam.name = p + "head"
    cam.pos = list(emb.camera.pos)
    cam.quat = _pitch_quat(emb.camera.pitch)
    cam.fovy = emb.camera.fovy
    chase = body.add_camera()  # third-person view for videos
    chase.name = p + "chase"
    chase.pos = [0.0, 1.2 + 2.0 * emb.radius, 1.5 + 3.0 * emb.radius]
    chase.quat = _pitch_quat(math.radians(35.0))
    chase.fovy = 70.0

    kv = emb.mass * emb.servo_rate
    cap = emb.force_cap * emb.weight
    for jname, gain, limit in (("x", kv, cap), ("z", kv, cap), ("yaw", kv, 1e4)):
        a = spec.add_actuator()
        a.name = p + "v" + jname
        a.target = p + jname
        a.trntype = mujoco.mjtTrn.mjTRN_JOINT
        a.set_to_velocity(kv=gain)
        a.forcelimited = mujoco.mjtLimited.mjLIMITED_TRUE
        a.forcerange = [-limit, limit]


def camera_to_body(emb: Embodiment) -> np.ndarray:
    """4×4 transform from the camera frame (OpenGL: x right, y up, looks -Z) to the body frame."""
    c, s = math.cos(-emb.camera.pitch), math.sin(-emb.camera.pitch)
    t = np.eye(4)
    t[:3, :3] = np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])
    t[:3, 3] = emb.camera.pos
    return t
