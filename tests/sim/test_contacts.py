"""The per-tick contact scan (navbench.sim.contacts) on hand-built scenes, values by hand."""

from __future__ import annotations

import math

import mujoco
import pytest

from navbench.scene import Box, Scene
from navbench.sim import SPOT, TURTLEBOT, SimSettings, Simulator
from navbench.sim.contacts import VOID_DROP

G = 9.81
FLOOR = Box("floor", "floor", (0.0, -0.05, 0.0), (20.0, 0.1, 20.0), label="floor")
WALL = Box("w", "wall", (0.0, 1.0, -3.0), (20.0, 2.0, 0.2), label="wall", ref="w")  # face z=-2.9
STEP = Box("s", "curb", (0.0, 0.075, 2.0), (20.0, 0.15, 1.0), label="curb")  # edge at z = 1.5


def settled(sim: Simulator, x: float, z: float, yaw: float = 0.0) -> Simulator:
    sim.reset_to((x, 0.0, z), yaw)
    return sim


def caps(sim: Simulator) -> tuple[float, float]:
    ax, az, _ = sim._act
    fr = sim.model.actuator_forcerange
    assert fr[ax, 0] == -fr[ax, 1] and fr[az, 0] == -fr[az, 1]
    return float(fr[ax, 1]), float(fr[az, 1])


def test_support_caps_follow_friction_and_the_error_direction() -> None:
    # μ 0.2 on the floor: cap 0.2 m g (below Spot's force_cap 3), split 3:4 → 0.6 / 0.8 of it
    sim = settled(Simulator(Scene("f", "indoor", "t", boxes=(FLOOR,)), SPOT,
                            SimSettings(friction_override={"floor": 0.2})), 0.0, 0.0)
    scan = sim.contacts
    assert scan(3.0, 4.0) is None and not scan.collided
    cap = 0.2 * SPOT.mass * G
    assert caps(sim) == pytest.approx((0.6 * cap, 0.8 * cap), rel=1e-12)
    assert (scan.capx, scan.capz) == caps(sim)  # the model holds what the scan wrote
    assert sim.follower.brake_accel == pytest.approx(0.8 * 0.2 * G)
    scan(0.0, 0.0)  # no error: split evenly, |cap| · √½ each
    assert caps(sim) == pytest.approx((cap * math.sqrt(0.5),) * 2)
    # μ above force_cap: the embodiment's cap binds (force_cap · m g)
    sim2 = settled(Simulator(Scene("f", "indoor", "t", boxes=(FLOOR,)), SPOT,
                             SimSettings(friction_override={"floor": 5.0})), 0.0, 0.0)
    sim2.contacts(1.0, 0.0)
    assert caps(sim2) == pytest.approx((SPOT.force_cap * SPOT.mass * G, 0.0))


def test_airborne_has_no_drive_and_a_deep_fall_is_a_drop() -> None:
    scene = Scene("f", "indoor", "t", boxes=(FLOOR,))
    for rule in (True, False):
        sim = settled(Simulator(scene, TURTLEBOT, SimSettings(drop_rule=rule)), 0.0, 0.0)
        d = sim.data
        d.qpos[1] = 0.5  # lifted 0.5 m: no contact at all
        mujoco.mj_forward(sim.model, d)
        assert d.ncon == 0
        assert sim.contacts(1.0, 1.0) is None  # 0.5 m above the last support: not yet a fall
        assert caps(sim) == (0.0, 0.0)
        d.qpos[1] = -0.2 - 0.6  # fallen through the floor (0.1 m thick; the body 0.37 m tall):
        # 0.8 m below its last support, more than 2 max_drop + 0.1 (0.2 m for the Turtlebot)
        assert 2.0 * TURTLEBOT.max_drop + 0.1 < 0.8 < VOID_DROP
        mujoco.mj_forward(sim.model, d)
        assert d.ncon == 0 and sim.contacts(1.0, 1.0) == ("drop" if rule else None)
        d.qpos[1] = -VOID_DROP - 0.1  # a free fall off the geometry: a drop with or without the rule
        mujoco.mj_forward(sim.model, d)
        assert d.ncon == 0 and sim.contacts(1.0, 1.0) == "drop"


def test_wall_contact_is_a_collision_and_tilt_is_a_fall() -> None:
    far = settled(Simulator(Scene("w", "indoor", "t", boxes=(FLOOR, WALL)), SPOT), 0.0, 0.0)
    assert far.contacts() is None and not far.contacts.collided  # on the floor only
    d = far.data
    d.qpos[2] = -2.4  # Spot reaches 0.55 m ahead: its nose is 5 cm into the wall (z = -2.9)
    mujoco.mj_forward(far.model, d)
    assert far.contacts() is None and far.contacts.collided
    far.contacts.collided = False
    d.qpos[2] = 0.0
    d.qpos[4] = math.radians(50.0)  # pitch 50° > 45°
    mujoco.mj_forward(far.model, d)
    assert far.contacts.tilt() == pytest.approx(math.radians(50.0))
    assert far.contacts() == "tilt"
    d.qpos[4] = math.radians(44.0)
    mujoco.mj_forward(far.model, d)
    assert far.contacts() is None


def test_pressing_on_a_step_edge_gets_the_climb_cap() -> None:
    # Turtlebot driven onto a 0.15 m curb (above its step limit): the sole's chamfer presses on
    # the edge, so the drive cap is climb_force · m g, not the support cap
    sim = Simulator(Scene("c", "outdoor", "t", boxes=(FLOOR, STEP)), TURTLEBOT)
    sim.reset_to((0.0, 0.0, 1.2), math.pi)  # facing +Z, towards the edge at z = 1.5
    from navbench.sim.actions import VelocityAction

    # (the wheeled drive shares that budget with a small yaw torque, sim.traction: the planar
    # caps' norm is within 1 % of it; the support cap, 0.5 m g, is a third of it)
    climb = TURTLEBOT.climb_force * TURTLEBOT.mass * G
    assert TURTLEBOT.force_cap * TURTLEBOT.mass * G < 0.4 * climb
    seen_edge = False
    for _ in range(30):
        sim.step(VelocityAction(0.3, 0.0, 0.0))
        cx, cz = caps(sim)
        if 0.99 * climb <= math.hypot(cx, cz) <= climb * (1.0 + 1e-12):
            seen_edge = True
            break
    assert seen_edge
