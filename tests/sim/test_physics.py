"""Physical execution: steps, walls, ledges, the follower and discrete primitives in MuJoCo."""

from __future__ import annotations

import math

import numpy as np
import pytest

from navbench.scene import Box, Scene
from navbench.sim import SPOT, TURTLEBOT, SimSettings, Simulator
from navbench.sim.actions import DiscreteAction, StopAction, VelocityAction, WaypointAction

FLOOR = Box("floor", "floor", (0.0, -0.05, 0.0), (20.0, 0.1, 20.0), label="floor")


def step_scene(h: float) -> Scene:
    """Flat floor; a step of height ``h`` whose edge is at z = -2 (the robot drives -Z)."""
    curb = Box("curb", "curb", (0.0, h / 2, -5.0), (20.0, h, 6.0), label="curb")
    return Scene("step", "outdoor", "test", boxes=(FLOOR, curb))


def drive(sim: Simulator, v: float, seconds: float) -> dict:
    info: dict = {}
    for _ in range(round(seconds / 0.1)):
        _, done, info = sim.step(VelocityAction(v))
        if done:
            break
    return info


@pytest.mark.parametrize(("emb", "h", "climbs"), [
    (SPOT, 0.15, True), (SPOT, 0.25, False), (TURTLEBOT, 0.02, True), (TURTLEBOT, 0.05, False)])
def test_step_climbing(emb, h, climbs):
    sim = Simulator(step_scene(h), emb)
    sim.reset_to((0.0, 0.0, 0.0), 0.0)
    drive(sim, 0.5, 9.0)
    _x, y, z, _ = sim.pose()
    if climbs:
        assert z < -3.0 and y == pytest.approx(h, abs=0.02)
        assert sim.records()["surface"][-1] == "curb"
    else:
        # The front of the robot stops at the edge (z = -2): never on top of the step.
        assert -2.0 < z < -1.0 and abs(y) < 0.02
    assert sim.label is None
    # a curb is ground: climbing it or being stopped by it is not a (non-ground) collision
    assert not sim.records()["collision"].any()


def test_wall_collision_does_not_pass_through():
    wall = Box("w", "wall", (0.0, 1.0, -3.0), (20.0, 2.0, 0.2), label="wall", ref="w")
    sim = Simulator(Scene("wall", "indoor", "test", boxes=(FLOOR, wall)), SPOT)
    sim.reset_to((0.0, 0.0, 0.0), 0.0)
    drive(sim, 1.0, 6.0)
    rec = sim.records()
    # Spot's hull is 1.1 m long (reach 0.55 > sole 0.33 + 0.2); the wall face is at z = -2.9.
    assert sim.pose()[2] == pytest.approx(-2.9 + 0.55, abs=0.02)
    assert rec["collision"].any() and not rec["collision"][0]
    assert rec["obstacle_distance"][0] == pytest.approx(2.9 - 0.55, abs=0.01)
    assert rec["obstacle_distance"][-1] < 0.01


def test_drop_off_ledge_is_a_drop_with_the_drop_rule_only():
    high = Box("high", "floor", (0.0, 0.4, 3.0), (20.0, 0.8, 6.0), label="floor")
    scene = Scene("ledge", "outdoor", "test", boxes=(FLOOR, high))
    sim = Simulator(scene, SPOT, SimSettings(drop_rule=True))
    sim.reset_to((0.0, 0.8, 3.0), 0.0)
    info = drive(sim, 0.8, 8.0)
    assert info["label"] == "drop" and sim.fall_reason == "drop"
    assert sim.records()["label"][-1] == "drop"
    sim = Simulator(scene, SPOT)  # NavVerse: only tilt > 45° is a fall; it lands upright
    sim.reset_to((0.0, 0.8, 3.0), 0.0)
    info = drive(sim, 0.8, 8.0)
    assert info["label"] is None and sim.pose()[1] == pytest.approx(0.0, abs=0.01)


def test_follower_reaches_waypoint_in_physics():
    sim = Simulator(Scene("flat", "indoor", "test", boxes=(FLOOR,)), SPOT)
    sim.reset_to((0.0, 0.0, 0.0), 0.0)
    goal = (1.5, -1.0, 0.6)
    sim.step(WaypointAction.of([(0.5, -1.0), goal]))
    for _ in range(150):
        _, _, info = sim.step(WaypointAction((), append=True))
        if info["reached"]:
            break
    x, _, z, yaw = sim.pose()
    assert info["reached"]
    assert math.hypot(x - goal[0], z - goal[1]) < 0.03
    assert abs(math.remainder(yaw - goal[2], 2 * math.pi)) < math.radians(3.0)


@pytest.mark.parametrize("emb", [SPOT, TURTLEBOT])
def test_discrete_forward_and_turn(emb):
    sim = Simulator(Scene("flat", "indoor", "test", boxes=(FLOOR,)), emb)
    sim.reset_to((1.0, 0.0, 1.0), 0.4)
    p0 = sim.pose()
    _, _, info = sim.step(DiscreteAction("forward"))
    p1 = sim.pose()
    assert info["primitive_completed"] and 0.5 <= info["time"] <= 2.0
    assert math.hypot(p1[0] - p0[0], p1[2] - p0[2]) == pytest.approx(0.25, abs=0.03)
    # Moved along the heading (-sin θ, -cos θ).
    d = (p1[[0, 2]] - p0[[0, 2]]) / np.linalg.norm(p1[[0, 2]] - p0[[0, 2]])
    assert d == pytest.approx([-math.sin(0.4), -math.cos(0.4)], abs=0.05)
    sim.step(DiscreteAction("left"))
    assert sim.pose()[3] - p1[3] == pytest.approx(math.radians(15), abs=math.radians(3))


class _Goal:
    def __init__(self, position, size=None):
        self.position, self.size, self.radius = position, size, None


def test_stop_labels_and_records():
    scene = Scene("flat", "indoor", "test", boxes=(FLOOR,))
    sim = Simulator(scene, SPOT)
    # Goal 2.0 m away with size 1.0 → r_goal = 0.5, DTG = 1.5 ≤ τ = 1.6 → success.
    sim.reset_to((0.0, 0.0, 0.0), 0.0, [_Goal((0.0, 0.0, -2.0), (1.0, 0.5, 0.4))])
    _, done, info = sim.step(StopAction())
    assert done and info["label"] == "success"
    rec = sim.records()
    assert rec["stop"].tolist() == [False, True] and rec["label"][-1] == "success"
    assert rec["dtg"][0] == pytest.approx(1.5, abs=0.01)
    with pytest.raises(RuntimeError):
        sim.step(StopAction())
    sim.reset_to((0.0, 0.0, 0.0), 0.0, [_Goal((0.0, 0.0, -2.2))])  # DTG 2.2 > 1.6
    assert sim.step(DiscreteAction("stop"))[2]["label"] == "perception_error"
    sim.reset_to((0.0, 0.0, 0.0), 0.0)
    assert sim.step(StopAction())[2]["label"] == "stopped"


def test_timeout_label():
    sim = Simulator(Scene("flat", "indoor", "test", boxes=(FLOOR,)), SPOT,
                    SimSettings(max_time=0.5))
    sim.reset_to((0.0, 0.0, 0.0), 0.0)
    labels = [sim.step(VelocityAction(0.0))[2]["label"] for _ in range(5)]
    assert labels == [None] * 4 + ["timeout"]
