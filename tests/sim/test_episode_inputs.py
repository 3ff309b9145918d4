"""Per-episode inputs through the call (``reset(episode, tau=...)``) and one render per NavEnv step."""

from __future__ import annotations

import pytest

from navbench.agents import run_episode
from navbench.episodes import Episode, Goal
from navbench.errors import ConfigError
from navbench.scene import Box, Scene
from navbench.sim import SPOT, NavEnv, SimSettings, Simulator
from navbench.sim.actions import StopAction
from navbench.sim.sensors import Camera
from tests.conftest import two_room_scene
from tests.eval.pipeline_agents import StopNow

FLOOR = Box("floor", "floor", (0.0, -0.05, 0.0), (10.0, 0.1, 10.0), label="floor")
# Start at the origin facing -Z, a point goal (radius 0) 2.0 m ahead: stopping at the start
# leaves DTG = 2.0 m, between Spot's default τ = 1.0 + 0.6 = 1.6 m and τ = 2.5 m.
EP = Episode("e0", "flat", (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0), (Goal((0.0, 0.0, -2.0)),))


@pytest.fixture(scope="module")
def sim():
    s = Simulator(Scene("flat", "indoor", "handmade", boxes=(FLOOR,)), SPOT)
    yield s
    s.close()


def test_reset_tau_decides_success_for_this_episode_only(sim) -> None:
    assert sim.default_tau == pytest.approx(1.6)
    sim.reset(EP)
    assert sim.tau == pytest.approx(1.6)
    _, done, info = sim.step(StopAction())
    assert done and info["distance_to_goal"] == pytest.approx(2.0, abs=0.01)
    assert info["label"] == "perception_error"
    sim.reset(EP, tau=2.5)
    assert sim.tau == 2.5
    assert sim.step(StopAction())[2]["label"] == "success"
    sim.reset(EP)  # the next episode without a τ is judged with the default again
    assert sim.tau == pytest.approx(1.6)
    assert sim.step(StopAction())[2]["label"] == "perception_error"
    # τ below the distance with a settings default above it: the call wins
    wide = Simulator(Scene("flat", "indoor", "handmade", boxes=(FLOOR,)), SPOT,
                     SimSettings(success_distance=3.0))
    wide.reset(EP, tau=1.9)
    assert wide.step(StopAction())[2]["label"] == "perception_error"
    wide.reset(EP)
    assert wide.step(StopAction())[2]["label"] == "success"


def test_tau_goes_through_run_episode_and_navenv(sim) -> None:
    assert run_episode(sim, StopNow(), EP).label == "perception_error"
    assert run_episode(sim, StopNow(), EP, tau=2.5).label == "success"
    env = NavEnv(Scene("flat", "indoor", "handmade", boxes=(FLOOR,)), [EP], SPOT)
    env.reset(options={"tau": 2.5})
    assert env.step(0)[4]["label"] == "success"  # discrete id 0 = stop
    env.reset()
    assert env.step(0)[4]["label"] == "perception_error"
    env.close()


def test_tau_is_checked_and_read_only(sim) -> None:
    for bad in (-0.1, float("nan"), float("inf")):
        with pytest.raises(ConfigError, match="tau"):
            sim.reset(EP, tau=bad)
    with pytest.raises(AttributeError):
        sim.tau = 3.0  # per-episode τ goes through reset(), not an attribute


def test_navenv_render_reuses_the_observation_frame(monkeypatch) -> None:
    calls = []
    real = Camera.render

    def counted(self, data, rgb=True):
        calls.append(rgb)
        return real(self, data, rgb=rgb)

    monkeypatch.setattr(Camera, "render", counted)
    ep = Episode("e1", "two_rooms", (2.6, 0.0, -1.6), (0.0, 0.0, 0.0, 1.0), (Goal((6.0, 0.0, -3.5)),))
    env = NavEnv(two_room_scene(), [ep], SPOT, SimSettings(render=True, width=32, height=24))
    obs, _ = env.reset()
    assert len(calls) == 1
    frame = env.render()
    assert len(calls) == 1 and frame is obs["rgb"] and frame.shape == (24, 32, 3)
    obs, *_ = env.step(2)  # turn left: one render for the step's observation
    assert len(calls) == 2
    assert env.render() is obs["rgb"] and len(calls) == 2
    env.close()
    lean = NavEnv(two_room_scene(), [ep], SPOT, SimSettings(render=False))
    lean.reset()
    assert lean.render() is None
    lean.close()


def test_reset_to_takes_plain_xyz_goals_as_documented() -> None:
    sim = Simulator(Scene("flat", "indoor", "t", boxes=(FLOOR,)), SPOT)
    sim.reset_to((0.0, 0.0, 0.0), 0.0, [(3.0, 0.0, -4.0), (0.0, 0.0, 1.2)])
    assert sim.distance_to_goal() == pytest.approx(1.2, abs=0.01)  # the nearer point goal
    assert sim.step(StopAction())[2]["label"] == "success"  # 1.2 m ≤ τ = 1.6 m
    with pytest.raises(ConfigError, match="expected a goal record or an"):
        sim.reset_to((0.0, 0.0, 0.0), 0.0, [(1.0, 2.0)])
