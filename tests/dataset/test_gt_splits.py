"""GT follower, split assignment and approach geometry against hand-computed cases."""

from __future__ import annotations

import math

import numpy as np
import pytest

from navbench.episodes.approach import rect_distance
from navbench.episodes.dataset import assign_splits, parse_split
from navbench.episodes.gt import follow_path
from navbench.errors import ConfigError


def test_straight_ahead_three_steps_then_stop() -> None:
    # facing -Z (yaw 0), goal 1 m ahead: 3 steps reach 0.25 m from the goal (= stop radius).
    gt = follow_path([[0, 0, 0], [0, 0, -1]], 0.0)
    assert gt["actions"] == [1, 1, 1, 0]
    assert gt["forward_steps"] == 3
    assert np.allclose(gt["locations"][-1], [0, 0, -0.75])
    assert len(gt["locations"]) == len(gt["actions"]) + 1


def test_goal_to_the_east_turns_right_six_times() -> None:
    # east (+X) is 90° clockwise from -Z: six 15° right turns, then 3 forward steps.
    gt = follow_path([[0, 0, 0], [1, 0, 0]], 0.0)
    assert gt["actions"] == [3] * 6 + [1] * 3 + [0]
    assert np.allclose(gt["locations"][-1], [0.75, 0, 0], atol=1e-9)


def test_l_shaped_path_visits_corner() -> None:
    # north 2 m then west 2 m; yaw 0. The follower must pass within a step of the corner.
    gt = follow_path([[0, 0, 0], [0, 0, -2], [-2, 0, -2]], 0.0)
    locs = np.array(gt["locations"])
    assert np.min(np.hypot(locs[:, 0], locs[:, 2] + 2)) <= 0.25 + 1e-9
    assert np.hypot(locs[-1, 0] + 2, locs[-1, 2] + 2) <= 0.25 + 1e-9
    assert gt["actions"].count(2) == 6  # one left turn of 90°
    assert gt["actions"].count(3) == 0


def test_follower_gives_up_loudly() -> None:
    with pytest.raises(ValueError):
        follow_path([[0, 0, 0], [100, 0, 0]], 0.0, max_actions=10)


def test_parse_and_assign_splits() -> None:
    assert parse_split("train=0.8,eval=0.2") == {"train": 0.8, "eval": 0.2}
    for bad in ("train=0.5", "train", "train=x,eval=1", "a=0.5,a=0.5"):
        with pytest.raises(ConfigError):
            parse_split(bad)
    ids = [f"s{i}" for i in range(7)]
    sp = assign_splits(ids, {"train": 0.8, "eval": 0.2}, 3)
    # 7 * 0.8 = 5.6 -> 5 (+1 by remainder 0.6 > 0.4) = 6; 7 * 0.2 = 1.4 -> 1
    assert len(sp["train"]) == 6 and len(sp["eval"]) == 1
    assert set(sp["train"]).isdisjoint(sp["eval"]) and set(sp["train"]) | set(sp["eval"]) == set(ids)
    assert assign_splits(ids, {"train": 0.8, "eval": 0.2}, 3) == sp


def test_rect_distance_hand_values() -> None:
    lo, hi = np.array([0.0, 0.0]), np.array([2.0, 1.0])
    pts = np.array([[1.0, 0.5], [3.0, 0.5], [3.0, 2.0], [-1.0, -1.0]])
    assert np.allclose(rect_distance(pts, lo, hi), [0.0, 1.0, math.sqrt(2), math.sqrt(2)])


def test_off_grid_line_is_followed_without_zigzag() -> None:
    """A 30 m line 7.6° clockwise of the start heading lies half a turn off the 15° grid: the
    old follower turned before every step (right, forward, left, forward: 118 turns). Now it
    keeps each of the two bracketing headings while within 0.1 m of the line: cross-track
    drift 0.25 m × sin 7.5° ≈ 0.033 m per step, so a turn every ~0.2 / 0.033 ≈ 6 steps, and
    never more than 0.1 m + one step's drift off the line; along it 0.25 × cos 7.5° ≈ 0.248 m
    per step, so 29.75 / 0.248 = 120–121 forward steps reach the stop radius."""
    from navbench.geometry import heading_vector

    h = heading_vector(math.radians(-7.6))
    gt = follow_path([[0, 0, 0], [30 * h[0], 0, 30 * h[1]]], 0.0)
    acts = gt["actions"]
    turns = acts.count(2) + acts.count(3)
    assert 120 <= gt["forward_steps"] <= 121 and len(acts) == gt["forward_steps"] + turns + 1
    assert 121 // 10 <= turns <= 121 // 5
    locs = np.array(gt["locations"])
    assert np.abs(h[1] * locs[:, 0] - h[0] * locs[:, 2]).max() <= 0.1 + 0.25 * math.sin(math.radians(7.6)) + 1e-9
    # track_tolerance 0 keeps the correction at every deviation (more turns, tighter track)
    tight = follow_path([[0, 0, 0], [30 * h[0], 0, 30 * h[1]]], 0.0, track_tolerance=0.0)
    assert tight["actions"].count(2) + tight["actions"].count(3) > 3 * turns
