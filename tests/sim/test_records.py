"""Per-step records (navbench.sim.records): DTG against numpy's goal_surface_distance, arrays."""

from __future__ import annotations

import math

import numpy as np
import pytest

from navbench.geometry import goal_surface_distance
from navbench.sim.records import FIELDS, GoalDistance, StepRecords


def test_goal_distance_by_hand() -> None:
    dtg = GoalDistance(np.array([[3.0, 0.0, 4.0], [0.0, 1.0, -10.0]]), np.array([0.5, 0.0]))
    assert dtg(0.0, 0.0, 0.0) == 4.5  # |(3, 0, 4)| - 0.5; the other goal is 10.05 m away
    assert dtg(3.0, 0.0, 4.2) == 0.0  # inside the first goal's radius
    assert len(dtg) == 2
    assert GoalDistance(np.zeros((0, 3)), np.zeros(0))(1.0, 2.0, 3.0) == math.inf


@pytest.mark.parametrize("n_goals", [1, 2, 5])
def test_goal_distance_equals_numpy_bit_for_bit(n_goals: int) -> None:
    # the simulator records GoalDistance where it recorded goal_surface_distance (numpy):
    # records stay byte-identical only if every value is the same float
    rng = np.random.default_rng(n_goals)
    for _ in range(3000):
        g = rng.uniform(-60.0, 60.0, (n_goals, 3))
        r = rng.uniform(0.0, 2.0, n_goals) * (rng.random(n_goals) < 0.7)
        p = rng.uniform(-60.0, 60.0, 3)
        if rng.random() < 0.1:  # near or inside a goal
            p = g[0] + rng.uniform(-1.0, 1.0, 3)
        ref = goal_surface_distance(p, g, r)
        assert GoalDistance(g, r)(*p.tolist()) == ref


def test_step_records_arrays() -> None:
    rec = StepRecords()
    assert len(rec) == 0
    rec.add(0.0, [1.0, 0.0, 2.0], 0.5, 0.01, False, 1.25, "floor", True, False, 3.0)
    rec.add(0.1, [1.5, 0.0, 2.0], 0.25, 0.02, True, 0.75, "rug", False, True, 2.5)
    out = rec.arrays(None)
    assert set(out) == {*FIELDS, "label"}
    assert out["position"].tolist() == [[1.0, 0.0, 2.0], [1.5, 0.0, 2.0]]
    assert out["t"].dtype == float and out["collision"].dtype == bool
    assert out["surface"].tolist() == ["floor", "rug"] and out["label"].tolist() == ["", ""]
    assert out["dtg"].tolist() == [3.0, 2.5] and out["stop"].tolist() == [False, True]
    assert rec.arrays("fall")["label"].tolist() == ["", "fall"]
    assert (rec.last_dtg, rec.last_collision) == (2.5, True)
    empty = StepRecords().arrays("success")
    assert empty["position"].shape == (0, 3) and empty["label"].shape == (0,)
