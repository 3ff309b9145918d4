"""The ``stuck`` label (``SimSettings.stuck_time``): asked to move, the robot does not move."""

from __future__ import annotations

import pytest

from navbench.episodes import Episode, Goal
from navbench.scene import Box, Scene
from navbench.sim import SPOT, TURTLEBOT, SimSettings, Simulator
from navbench.sim.actions import VelocityAction, WaypointAction

FLOOR = Box("floor", "floor", (0.0, -0.05, 0.0), (20.0, 0.1, 20.0), label="floor")
#: A wall across the way at z = -3 (faces at z = -2.9 and -3.1), 2 m high.
WALL = Box("w", "wall", (0.0, 1.0, -3.0), (20.0, 2.0, 0.2), label="wall", ref="w")
SCENE = Scene("wall", "indoor", "test", boxes=(FLOOR, WALL))


def run(sim: Simulator, action: object, seconds: float) -> list[float]:
    """Step ``action`` until the episode ends or ``seconds`` pass; returns the z per step."""
    zs = []
    for _ in range(round(seconds / 0.1)):
        _, done, _ = sim.step(action)  # type: ignore[arg-type]
        zs.append(sim.pose()[2])
        if done:
            break
    return zs


@pytest.mark.parametrize("compiled", [True, False])
def test_driving_into_a_wall_is_stuck_after_stuck_time(compiled):
    sim = Simulator(SCENE, SPOT, SimSettings(stuck_time=2.0), compiled=compiled)
    sim.reset_to((0.0, 0.0, 0.0), 0.0)
    zs = run(sim, VelocityAction(1.0), 20.0)
    assert sim.label == "stuck"
    # Spot's hull reaches 0.55 m ahead of its centre: it stands at z = -2.9 + 0.55 = -2.35.
    assert sim.pose()[2] == pytest.approx(-2.35, abs=0.03)
    # It arrives at the wall after 2.35 m at up to 1 m/s (>= 2.35 s), then 2 s of not moving
    # (it counts from the last point more than 0.1 m back: the end comes at least 2.0 s after
    # it was 0.1 m short of the wall, and at most 2 s plus the approach of the last 0.1 m).
    first_near = next(i for i, z in enumerate(zs) if z < -2.35 + 0.1) + 1
    t_end = 0.1 * len(zs)
    assert t_end == pytest.approx(sim.time, abs=1e-6)
    assert 2.0 - 0.1 - 1e-6 <= t_end - 0.1 * first_near <= 2.5
    assert t_end < 2.35 + 2.0 + 1.5


def test_compiled_and_python_paths_agree():
    ends = []
    for compiled in (True, False):
        sim = Simulator(SCENE, TURTLEBOT, SimSettings(stuck_time=1.5), compiled=compiled)
        sim.reset_to((0.0, 0.0, 0.0), 0.0)
        run(sim, VelocityAction(0.5), 20.0)
        ends.append((sim.label, round(sim.time, 6), tuple(round(v, 9) for v in sim.pose())))
    assert ends[0] == ends[1] and ends[0][0] == "stuck"


def test_off_by_default_and_standing_still_is_not_stuck():
    sim = Simulator(SCENE, SPOT, SimSettings(max_time=6.0))  # stuck_time None: NavVerse's labels
    sim.reset_to((0.0, 0.0, 0.0), 0.0)
    run(sim, VelocityAction(1.0), 20.0)
    assert sim.label == "timeout" and sim.time == pytest.approx(6.0)
    # Not asked to move (a zero command, or below 0.05 m/s) for 5 s: never stuck.
    sim = Simulator(SCENE, SPOT, SimSettings(stuck_time=1.0, max_time=5.0))
    sim.reset_to((0.0, 0.0, 0.0), 0.0)
    run(sim, VelocityAction(0.0), 3.0)
    run(sim, VelocityAction(0.04), 3.0)
    assert sim.label == "timeout"


def test_a_waypoint_path_through_the_wall_is_stuck_and_a_reached_one_is_not():
    sim = Simulator(SCENE, SPOT, SimSettings(stuck_time=2.0, max_time=30.0))
    sim.reset_to((0.0, 0.0, 0.0), 0.0)
    run(sim, WaypointAction.of([(0.0, -1.0)]), 8.0)  # reached after ~2 s, then at rest
    assert sim.label is None and sim.pose()[2] == pytest.approx(-1.0, abs=0.05)
    run(sim, WaypointAction.of([(0.0, -5.0)]), 20.0)  # behind the wall
    assert sim.label == "stuck" and sim.pose()[2] == pytest.approx(-2.35, abs=0.03)


def test_a_stuck_episode_keeps_its_goal_distance_label_rules():
    """A stuck robot does not stop: the habitat rule (STOP within τ) never calls it a success."""
    sim = Simulator(SCENE, SPOT, SimSettings(stuck_time=1.0))
    ep = Episode("e", "wall", (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0), (Goal((0.0, 0.0, -3.5)),))
    sim.reset(ep)
    run(sim, VelocityAction(1.0), 20.0)
    rec = sim.records()
    assert sim.label == "stuck" and rec["label"][-1] == "stuck" and not rec["stop"].any()
