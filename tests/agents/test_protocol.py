"""Agent protocol: action conversion, observation filtering, privileged facts, loading, wire."""

from __future__ import annotations

import math

import numpy as np
import pytest

from navbench.agents import (
    Agent,
    HabitatAgentAdapter,
    Task,
    filter_observation,
    load_agent,
    to_action,
)
from navbench.agents.baselines import VLNCE_ACTION_PROBS, ForwardAgent, RandomAgent
from navbench.agents.rollout import make_task
from navbench.agents.wire import decode_array, decode_observation, encode_array, encode_observation
from navbench.episodes import Episode, Goal
from navbench.errors import ConfigError
from navbench.sim.actions import DiscreteAction, StopAction, VelocityAction, WaypointAction


def test_to_action_habitat_forms() -> None:
    assert to_action(0) == DiscreteAction("stop")
    assert to_action(1) == DiscreteAction("forward")
    assert to_action(np.int64(2)) == DiscreteAction("left")
    assert to_action("TURN_RIGHT") == DiscreteAction("right")
    assert to_action({"action": "MOVE_FORWARD"}) == DiscreteAction("forward")
    assert to_action({"action": 3}) == DiscreteAction("right")
    assert to_action({"stop": True}) == StopAction()
    assert to_action({"velocity": [0.5, 0, 0.1]}) == VelocityAction(0.5, 0.0, 0.1)
    w = to_action({"waypoints": [[1, 2], [3, 4, 0.5]], "append": True})
    assert isinstance(w, WaypointAction) and w.append
    assert w.waypoints[0][:2] == (1.0, 2.0) and math.isnan(w.waypoints[0][2])
    assert w.waypoints[1] == (3.0, 4.0, 0.5)
    for bad in (7, "JUMP", {"foo": 1}, True, None, {"velocity": [1, 2]}):
        with pytest.raises(ConfigError):
            to_action(bad)


class _Sem(Agent):
    sensors = frozenset({"semantic"})
    privileged = frozenset({"distance_to_goal"})


def test_filter_observation_keeps_only_allowed() -> None:
    raw = {"pose": np.zeros(4), "time": 0.0, "rgb": np.zeros((2, 2, 3), np.uint8),
           "depth": np.zeros((2, 2), np.float32), "semantic": np.ones((2, 2), np.int32),
           "intrinsics": np.eye(3), "cam_to_body": np.eye(4), "robot_radius": 0.6,
           "secret": 1}
    labels = {1: ("o7", "lamp")}
    plain = filter_observation(raw, Agent(), labels, {"distance_to_goal": 3.0})
    assert set(plain) == {"pose", "time", "rgb", "depth", "intrinsics", "cam_to_body", "robot_radius"}
    sem = filter_observation(raw, _Sem(), labels, {"distance_to_goal": 3.0})
    assert sem["semantic_labels"] == {1: "lamp"}  # the scene id "o7" is not passed on
    assert sem["distance_to_goal"] == 3.0 and "secret" not in sem


def _episode() -> Episode:
    return Episode("e1", "s", (0, 0, 0), (0, 0, 0, 1), (Goal((1, 0, 2)),),
                   instruction_text="go", reference_path=((0, 0, 0), (1, 0, 2)),
                   info={"navbench": {"success_distance": 1.0, "task": "conditional"}})


def test_privileged_facts_only_when_declared() -> None:
    ep = _episode()
    t = make_task(ep, Agent())
    assert t.privileged == {} and t.instruction == "go" and t.kind == "conditional"
    assert t.success_distance == 1.0
    t = make_task(ep, load_agent("oracle-path"))
    assert set(t.privileged) == {"reference_path"}
    assert t.privileged["reference_path"].tolist() == [[0, 0, 0], [1, 0, 2]]
    t = make_task(ep, load_agent("oracle-goal"), scene="SCENE")
    assert set(t.privileged) == {"goals", "goal_radii", "goal_object_ids", "scene", "navmesh"}
    assert t.privileged["goals"].tolist() == [[1, 0, 2]]


class HabitatStyle:
    """Not an Agent subclass: habitat's reset() / act(obs) -> dict."""

    def reset(self) -> None:
        self.n = 0

    def act(self, observations: dict) -> dict:
        self.n += 1
        assert observations["depth"].ndim == 3 and observations["instruction"]["text"] == "go"
        return {"action": 0 if self.n > 1 else 1}


def test_load_agent_names_paths_and_habitat_adapter() -> None:
    assert isinstance(load_agent("random", seed=3), RandomAgent)
    assert isinstance(load_agent("navbench.agents.baselines:ForwardAgent"), ForwardAgent)
    a = load_agent(f"{__name__}:HabitatStyle")
    assert isinstance(a, HabitatAgentAdapter)
    a.reset(Task("e", "vln", "discrete", instruction="go"))
    obs = {"depth": np.zeros((2, 2), np.float32), "pose": np.zeros(4)}
    assert a.act(obs) == DiscreteAction("forward") and a.act(obs) == DiscreteAction("stop")
    for bad in ("no-such-agent", "navbench.agents.baselines:Nope", "nomodule_xyz:X"):
        with pytest.raises(ConfigError):
            load_agent(bad)
    with pytest.raises(ConfigError):
        load_agent("random", wrong_kw=1)


def test_random_agent_uses_vlnce_probabilities() -> None:
    a = RandomAgent(seed=1)
    a.reset(Task("e", "vln", "discrete"))
    n = 20000
    ids = {"stop": 0, "forward": 1, "left": 2, "right": 3}
    counts = np.zeros(4)
    for _ in range(n):
        counts[ids[a.act({}).kind]] += 1
    p = np.array(VLNCE_ACTION_PROBS)
    sd = np.sqrt(p * (1 - p) / n)
    assert np.all(np.abs(counts / n - p) < 5 * sd)
    assert p.tolist() == [0.02, 0.68, 0.15, 0.15]  # VLN-CE nonlearning_agents.RandomAgent


def test_forward_agent_sequence() -> None:
    a = ForwardAgent(seed=5)
    for eid in ("a", "b", "c"):
        a.reset(Task(eid, "vln", "discrete"))
        kinds = [a.act({}).kind for _ in range(80)]
        turns = kinds.index("forward")
        assert 0 <= turns <= 24 and set(kinds[:turns]) <= {"right"}
        assert kinds[turns:turns + 37] == ["forward"] * 37
        assert set(kinds[turns + 37:]) == {"stop"}


def test_wire_round_trip() -> None:
    rgb = np.arange(24, dtype=np.uint8).reshape(2, 4, 3)
    depth = np.array([[0.5, 1e3], [0.0, 2.25]], np.float32)
    assert np.array_equal(decode_array(encode_array(rgb)), rgb)
    obs = {"pose": np.array([1.0, 0.0, -2.0, 0.3]), "time": 0.1, "rgb": rgb, "depth": depth}
    back = decode_observation(encode_observation(obs))
    assert np.array_equal(back["rgb"], rgb) and back["rgb"].dtype == np.uint8
    assert np.array_equal(back["depth"], depth) and back["depth"].dtype == np.float32
    assert back["pose"].tolist() == [1.0, 0.0, -2.0, 0.3]
    with pytest.raises(ConfigError, match=r"observation\.rgb"):
        decode_observation({"rgb": {"b64": "!!", "dtype": "uint8", "shape": [1]}})
