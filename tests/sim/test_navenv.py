"""NavEnv's Gymnasium contract (seeded resets, declared observations, ``check_env`` with every
action type) and its reward, checked against distances worked out by hand from the poses."""

from __future__ import annotations

import math
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from navbench.episodes import Episode, Goal
from navbench.errors import ConfigError
from navbench.scene import Box, Scene
from navbench.sim import SPOT, NavEnv, SimSettings
from navbench.sim.reward import RewardSettings
from tests.conftest import two_room_scene
from tests.nav import worlds

EPISODES = [
    Episode("e0", "two_rooms", (2.6, 0.0, -1.6), (0, 0, 0, 1), (Goal((6.0, 0.0, -3.5)),),
            instruction_text="Go through the door to the sofa."),
    Episode("e1", "two_rooms", (2.0, 0.0, -2.0), (0, 0, 0, 1), (Goal((3.0, 0.0, -2.0)),),
            instruction_text="walk east"),
    Episode("e2", "two_rooms", (3.0, 0.0, -3.0), (0, 0, 0, 1), (Goal((1.0, 0.0, -1.0)),),
            object_category="table"),
]
SMALL = SimSettings(width=32, height=24)
# advice Gymnasium prints for any env with an unbounded pose or a non-normalised Box action
# space, or created without gymnasium.make; everything else it says is a failure here
ADVICE = ("infinity", "symmetric and normalized", "not having a spec")


def _check(env: gymnasium.Env) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env)
    said = [str(w.message) for w in caught]
    assert all(any(a in m for a in ADVICE) for m in said), said


@pytest.mark.parametrize("action_type", ["discrete", "velocity", "waypoint"])
def test_check_env_passes_with_three_episodes(action_type: str) -> None:
    env = NavEnv(two_room_scene(), EPISODES, SPOT, SimSettings(render=False), action_type)
    _check(env)
    env.close()


def test_check_env_passes_through_gymnasium_make_with_rendering() -> None:
    # with a spec, check_env also compares seeded resets and makes an rgb_array env itself
    gymnasium.register("navbench-test/NavEnv-v0", entry_point=lambda **kw: NavEnv(
        two_room_scene(), EPISODES, SPOT, SMALL, **kw))
    try:
        for action_type in ("discrete", "waypoint"):
            env = gymnasium.make("navbench-test/NavEnv-v0", action_type=action_type,
                                 render_mode="rgb_array", disable_env_checker=True)
            assert env.unwrapped.spec is not None and env.unwrapped.render_mode == "rgb_array"
            _check(env.unwrapped)
            env.close()
    finally:
        gymnasium.registry.pop("navbench-test/NavEnv-v0")


def test_the_seed_or_the_option_picks_the_episode() -> None:
    env = NavEnv(two_room_scene(), EPISODES, SPOT, SimSettings(render=False))
    obs_a, info_a = env.reset(seed=4)  # 4 mod 3 = episode 1
    draw = env.np_random.random()
    obs_b, info_b = env.reset(seed=4)
    assert info_a["episode_id"] == info_b["episode_id"] == "e1" and info_a["episode_index"] == 1
    assert np.array_equal(obs_a["pose"], obs_b["pose"]) and info_a == info_b
    assert env.np_random.random() == draw  # the seed also seeds np_random
    assert env.reset()[1]["episode_id"] == "e2"  # then the next one, cycling
    assert env.reset()[1]["episode_id"] == "e0"
    assert env.reset(seed=0, options={"episode": "e2"})[1]["episode_index"] == 2  # option wins
    assert env.reset(options={"index": 1})[1]["episode_id"] == "e1"
    for bad in (3, -1, "e9", True):
        with pytest.raises(ConfigError, match=r"options\['episode'\]"):
            env.reset(options={"episode": bad})
    # a fresh env starts at episode 0, as the old cycling did
    assert NavEnv(two_room_scene(), EPISODES, SPOT).reset()[1]["episode_id"] == "e0"
    env.close()


def test_observation_space_declares_what_reset_and_step_return() -> None:
    env = NavEnv(two_room_scene(), EPISODES, SPOT, SimSettings(render=True, width=32, height=24))
    obs, _ = env.reset(options={"episode": 2})
    assert set(obs) == set(env.observation_space.spaces) == {"pose", "instruction", "rgb", "depth",
                                                             "semantic"}
    assert obs["instruction"] == "table"  # no text: the goal category
    assert obs["rgb"].shape == (24, 32, 3) and obs["depth"].shape == (24, 32, 1)
    assert obs in env.observation_space
    obs, *_ = env.step(1)
    assert obs in env.observation_space and env.render() is obs["rgb"]
    env.close()
    depth_only = NavEnv(two_room_scene(), EPISODES, SPOT,
                        SimSettings(render=True, rgb=False, width=32, height=24))
    obs, _ = depth_only.reset(seed=0)
    assert set(obs) == set(depth_only.observation_space.spaces) == {"pose", "instruction",
                                                                    "depth", "semantic"}
    assert depth_only.render_mode is None and depth_only.render() is None
    assert obs["instruction"] == "Go through the door to the sofa."
    depth_only.close()
    lean = NavEnv(two_room_scene(), EPISODES, SPOT, SimSettings(render=False))
    assert set(lean.reset(seed=1)[0]) == set(lean.observation_space.spaces) == {"pose", "instruction"}
    with pytest.raises(ConfigError, match="render_mode"):
        NavEnv(two_room_scene(), EPISODES, SPOT, render_mode="human")


FLOOR = Box("floor", "floor", (0.0, -0.05, 0.0), (12.0, 0.1, 12.0), label="floor")


def test_rewards_hand_computed_on_a_flat_floor() -> None:
    """Open floor: the geodesic is the straight line, so every reward is worked out from the
    poses: r = (d_prev − d) − 0.01, and +2.5 on the successful stop (τ = 1.6 m for Spot)."""
    goal = (0.0, 0.0, -4.0)
    ep = Episode("f", "flat", (0.0, 0.0, 0.0), (0, 0, 0, 1), (Goal(goal),))
    env = NavEnv(Scene("flat", "indoor", "handmade", boxes=(FLOOR,)), [ep], SPOT)
    obs, info = env.reset(seed=0)

    def d(o: dict) -> float:  # XZ distance from the pose to the goal (both on the floor, y = 0)
        return math.hypot(o["pose"][0] - goal[0], o["pose"][2] - goal[2])

    assert info["reward_distance"] == pytest.approx(4.0, abs=1e-9) == d(obs)
    assert info["reward_distance_kind"] == "geodesic"
    total, d0, prev = 0.0, d(obs), d(obs)
    for _ in range(10):  # 0.25 m forward each
        obs, r, term, trunc, info = env.step(1)
        assert r == pytest.approx(prev - d(obs) - 0.01, abs=1e-9) and not (term or trunc)
        assert info["reward_terms"]["progress"] == pytest.approx(prev - d(obs), abs=1e-9)
        total, prev = total + r, d(obs)
    assert 1.4 < d(obs) < 1.6  # 2.5 m walked, each primitive within 3 cm of its 0.25 m
    obs, r, term, _, info = env.step(0)  # stop within 1.6 m: no progress, success bonus, slack
    assert info["label"] == "success" and term and r == pytest.approx(2.5 - 0.01, abs=1e-12)
    total += r
    assert total == pytest.approx(d0 - d(obs) + 2.5 - 11 * 0.01, abs=1e-9)  # it telescopes
    env.close()
    # habitat's numbers are settings: no slack, a bonus of 10
    env = NavEnv(Scene("flat", "indoor", "handmade", boxes=(FLOOR,)), [ep], SPOT,
                 SimSettings(success_distance=5.0),
                 reward=RewardSettings(success_reward=10.0, slack_reward=0.0))
    env.reset()
    assert env.step(0)[1] == 10.0
    with pytest.raises(ConfigError, match=r"RewardSettings\.distance"):
        RewardSettings(distance="manhattan")


def test_reward_follows_the_geodesic_around_a_wall() -> None:
    """U corridor (a wall z ∈ [1.9, 2.1] from x = 0 to 3): from (0.5, 1) to (0.5, 3) the way
    round the wall's end is the closed form of tests/nav/worlds.py (radius 0.1 m, within a
    cell); the straight line would be 2 m. A step away from the wall (north, −Z) lengthens it."""
    ep = Episode("u", "u_corridor", (0.5, 0.0, 1.0), (0, 0, 0, 1), (Goal((0.5, 0.0, 3.0)),))
    env = NavEnv(worlds.u_corridor(), [ep], SPOT)
    obs, info = env.reset()

    def way(p: np.ndarray) -> float:
        return worlds.wrap_length((p[0], p[2]), (3.0, 1.9), (3.0, 2.1), (0.5, 3.0), 0.1, side=1)

    assert info["reward_distance"] == pytest.approx(way(obs["pose"]), abs=0.05)
    assert info["reward_distance"] > 4.0 > info["distance_to_goal"] + 1.9
    before = info["reward_distance"]
    obs, r, *_ , info = env.step(1)
    hand = before - way(obs["pose"]) - 0.01
    assert r == pytest.approx(hand, abs=0.05) and r < -0.05  # walked away along the way round
    env.close()


def test_euclidean_when_the_goal_is_off_the_navmesh() -> None:
    # a goal 20 m off the floor has no geodesic: the episode uses the simulator's distance
    goal = (0.0, 0.4, -20.0)
    ep = Episode("o", "flat", (0.0, 0.0, 0.0), (0, 0, 0, 1), (Goal(goal),))
    env = NavEnv(Scene("flat", "indoor", "handmade", boxes=(FLOOR,)), [ep], SPOT)
    obs, info = env.reset()
    assert info["reward_distance_kind"] == "euclidean"
    prev = math.dist(obs["pose"][:3], goal)
    assert info["reward_distance"] == pytest.approx(prev, abs=1e-9)
    obs, r, *_ = env.step(1)
    assert r == pytest.approx(prev - math.dist(obs["pose"][:3], goal) - 0.01, abs=1e-9)
    env.close()
