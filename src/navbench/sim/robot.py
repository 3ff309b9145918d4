"""The robot's MuJoCo body (:func:`add_robot`): joints, servos, cameras and collision geometry.

Collision geometry. Robot geoms, in this order and all after the static geoms (as
:mod:`navbench.sim.contacts` requires):

- ``foot0``, ``foot1``: two capsule *feet*, rollers along body x at z = ±fz with radius r
  (:meth:`~navbench.sim.embodiments.Embodiment.feet`); their end spheres are tangent to the
  sole's bottom and chamfers;
- ``sole_lifted``: the chamfered sole mesh with its bottom lifted :data:`FOOT_LIFT` up the
  chamfer;
- ``sole``: the full sole mesh;
- ``hull``.

Collision bits (``COLLIDE_*``, set on the static geoms by :mod:`navbench.sim.world`): the feet
and the lifted sole touch static *boxes* and the *heightfield*; the full sole touches convex
mesh prisms only; the hull touches all. (The full sole on the heightfield reached MuJoCo's
50-contact limit per pair on one end of the sole: see :mod:`navbench.sim.embodiments`.)

On a box floor only the feet touch: 4 contacts at the corners of a 2 fx × 2 fz rectangle. So a
physics step runs two capsule-box collisions instead of the mesh's multi-point convex
collision. Measured in the same run (replay of the bench loop, µs per ``mj_step``): Spot
16.2 → 14.5 in the bench house, the Turtlebot 17.0 → 13.9 there and 15.4 → 11.9 on a curb.

A box's step edge, rim or side meets the lifted mesh. Its surface is the full sole's above
1 mm, so the chamfer rule is unchanged: steps ≤ c climb, taller ones block.

Mesh prisms meet the full sole as before, because a capsule-mesh test costs more than the old
mesh-mesh one (standalone: 13.5 against 10.4 µs per step).

The feet are round because a box foot 1 mm below the mesh met a low step's edge with its
vertical face once the chamfer had lifted the sole onto it: Spot reared up 40° on a 1 mm step
at 0.1 m/s.

In a world of boxes only (``add_robot(convex_ground=False)``, as :mod:`navbench.sim.world` finds
it) the full sole takes no part in collisions at all, which saves its midphase.

``World.robot_geoms`` holds ``sole`` and ``hull``, which bound the robot (obstacle distances
are the old ones). ``World.robot_inner_geoms`` holds the others (:data:`INNER_GEOMS`), which
lie inside them and are never drawn. Mass and inertia are set explicitly to those of a uniform
full sole and hull of m / 2 each.
"""

from __future__ import annotations

import functools
import math

import mujoco

from navbench.sim.embodiments import (
    COLLIDE_BOX,
    COLLIDE_CONVEX,
    COLLIDE_HFIELD,
    GROUP_HIDDEN,
    GROUP_ROBOT,
    ROBOT_PREFIX,
    Embodiment,
)

#: Height (m) of the sole mesh's bottom above the feet's: on level ground only the feet touch,
#: so the sole's convex-mesh collision runs only at step edges, rims and walls.
FOOT_LIFT = 0.001
#: Robot geoms inside the outer ones (``World.robot_inner_geoms``; names without the prefix).
INNER_GEOMS = ("foot0", "foot1", "sole_lifted")


def _pitch_quat(pitch: float) -> list[float]:
    """MuJoCo quaternion [w, x, y, z] of a rotation about +X by ``-pitch`` (look down)."""
    return [math.cos(-pitch / 2.0), math.sin(-pitch / 2.0), 0.0, 0.0]


def _hull_shape(g: mujoco.MjsGeom, emb: Embodiment) -> None:
    """Make ``g`` the hull: a box or a vertical cylinder of ``hull_size`` above the sole."""
    hx, hy, hz = (s / 2.0 for s in emb.hull_size)
    g.pos = [0.0, emb.hull_bottom + hy - emb.sole_height, 0.0]
    if emb.hull_shape == "cylinder":
        g.type = mujoco.mjtGeom.mjGEOM_CYLINDER
        g.size = [hx, hy, 0.0]
        g.quat = [math.cos(math.pi / 4), math.sin(math.pi / 4), 0.0, 0.0]  # axis +Z → +Y
    elif emb.hull_shape == "box":
        g.type = mujoco.mjtGeom.mjGEOM_BOX
        g.size = [hx, hy, hz]
    else:
        raise ValueError(f"unknown hull shape {emb.hull_shape!r}")


@functools.lru_cache(maxsize=16)
def _body_inertia(emb: Embodiment) -> tuple[float, list[float], list[float], list[float]]:
    """Mass (kg), COM (m, body frame), principal-axes quaternion and principal inertia
    (kg m²) of a uniform full sole (mass m / 2) plus a uniform hull (m / 2), as MuJoCo
    computes them from the geoms."""
    spec = mujoco.MjSpec()
    body = spec.worldbody.add_body()
    mesh = spec.add_mesh()
    mesh.name = "sole"
    mesh.uservert = emb.sole_vertices().ravel().tolist()
    sole = body.add_geom()
    sole.type = mujoco.mjtGeom.mjGEOM_MESH
    sole.meshname = "sole"
    hull = body.add_geom()
    _hull_shape(hull, emb)
    for g in (sole, hull):
        g.mass = emb.mass / 2.0
    m = spec.compile()
    return (float(m.body_mass[1]), m.body_ipos[1].tolist(), m.body_iquat[1].tolist(),
            m.body_inertia[1].tolist())


def add_robot(spec: mujoco.MjSpec, emb: Embodiment, convex_ground: bool = True) -> None:
    """Add the robot body, its joints, servos and head camera to ``spec`` (Habitat frame).

    Joint qpos layout (in order): ``x, y, z`` slides (world displacement of the ground point),
    ``yaw``, ``pitch``, ``roll`` hinges. Actuators: velocity servos on x, z (force-capped at
    ``force_cap · m g``; the simulator resets the caps every control tick) and on yaw.
    ``convex_ground``: the world has colliding static geoms other than boxes; without them the
    full sole takes no part in collisions (it still bounds the robot for obstacle distances).
    """
    p = ROBOT_PREFIX
    body = spec.worldbody.add_body()
    body.name = p + "base"
    body.pos = [0.0, emb.sole_height, 0.0]
    body.sleep = mujoco.mjtSleepPolicy.mjSLEEP_NEVER  # the servos drive it: never put to sleep
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
            j.range = [-85.0, 85.0]  # degrees: MjSpec's default angle unit
            j.armature = 0.05
        elif name == "yaw":
            j.armature = 0.1

    # Collision geometry (module docs), robot geoms after the static ones (sim.contacts):
    # against static boxes and the heightfield the capsule feet and the lifted sole mesh,
    # against mesh prisms the full sole mesh; the hull against all.
    r, fx, fz = emb.feet()
    on_boxes = []
    for k, z in enumerate((fz, -fz)):
        foot = body.add_geom()
        foot.name = p + f"foot{k}"
        foot.type = mujoco.mjtGeom.mjGEOM_CAPSULE
        foot.size = [r, 0.0, 0.0]
        foot.fromto = [-fx, r - emb.chamfer_height, z, fx, r - emb.chamfer_height, z]
        on_boxes.append(foot)
    soles = []
    for name, lift in (("sole_lifted", FOOT_LIFT), ("sole", 0.0)):
        mesh = spec.add_mesh()
        mesh.name = p + name
        mesh.uservert = emb.sole_vertices(lift=lift).ravel().tolist()
        g = body.add_geom()
        g.name = p + name
        g.type = mujoco.mjtGeom.mjGEOM_MESH
        g.meshname = p + name
        soles.append(g)
    on_boxes.append(soles[0])
    hull = body.add_geom()
    hull.name = p + "hull"
    _hull_shape(hull, emb)
    for g in (*on_boxes, soles[1], hull):
        g.group = GROUP_ROBOT
        g.condim = 1  # frictionless: the servos drive the base, geometry decides climbing
        g.priority = 2
        g.rgba = [0.95, 0.75, 0.1, 1.0]
        g.contype = 2  # static geoms have no bit 2: only their contype selects pairs
        g.conaffinity = COLLIDE_BOX | COLLIDE_CONVEX | COLLIDE_HFIELD
    for g in on_boxes:  # inside the full sole (up to the 1 mm lift): never drawn
        g.conaffinity = COLLIDE_BOX | COLLIDE_HFIELD
        g.group = GROUP_HIDDEN
    soles[1].conaffinity = COLLIDE_CONVEX
    if not convex_ground:  # nothing for the full sole to touch: out of collision entirely
        soles[1].contype = soles[1].conaffinity = 0
    # Mass and inertia as a uniform sole (the full chamfered prism) and hull of m / 2 each.
    body.explicitinertial = True
    body.mass, body.ipos, body.iquat, body.inertia = _body_inertia(emb)

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
    cap = max(emb.force_cap, emb.climb_force) * emb.weight
    for jname, gain, limit in (("x", kv, cap), ("z", kv, cap), ("yaw", kv, 1e4)):
        a = spec.add_actuator()
        a.name = p + "v" + jname
        a.target = p + jname
        a.trntype = mujoco.mjtTrn.mjTRN_JOINT
        a.set_to_velocity(kv=gain)
        a.forcelimited = mujoco.mjtLimited.mjLIMITED_TRUE
        a.forcerange = [-limit, limit]
