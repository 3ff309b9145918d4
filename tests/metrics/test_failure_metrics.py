"""A crashed episode's metrics: exactly what every failing trajectory of the episode shares, and
termination labels that say ``success`` exactly when S = 1."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from navbench.metrics import EpisodeFacts, Trajectory, compute_episode_metrics, failure_metrics
from navbench.metrics.episode import FAILURE_DEFINED, METRIC_KEYS, termination_label
from navbench.metrics.trajectory import TERMINATION_LABELS

GOAL = np.array([[6.0, 0.0, 0.0]])


def _facts(kind: str) -> EpisodeFacts:
    """``plain``: a point goal 6 m away; ``conditional``: + a subgoal, route, branch goal and a
    reference path; ``no_subgoal``: conditional without subgoals; ``unknown_L``: L unknown."""
    ref = np.array([[0.0, 0, 0], [3.0, 0, 0], [6.0, 0, 0]])
    if kind == "plain":
        return EpisodeFacts("p", np.zeros(3), GOAL, np.zeros(1), 1.0, geodesic_distance=6.0,
                            conditional=False)
    if kind == "conditional":
        return EpisodeFacts("c", np.zeros(3), GOAL, np.zeros(1), 1.0, geodesic_distance=6.0,
                            reference_path=ref, subgoals=np.array([[3.0, 0, 2.0]]),
                            branch_goals=np.array([[0.0, 0, 6.0]]), route_length=7.3)
    if kind == "no_subgoal":
        return EpisodeFacts("n", np.zeros(3), GOAL, np.zeros(1), 1.0, geodesic_distance=6.0,
                            reference_path=ref, branch_goals=np.array([[0.0, 0, 6.0]]))
    return EpisodeFacts("u", np.zeros(3), GOAL, np.zeros(1), 1.0, conditional=False)


def _failing_trajectories(rng: np.random.Generator, n: int = 60) -> list[Trajectory]:
    """Random walks from the start (some through the subgoal, some stopping, some at the
    branch goal) that all fail: they never stop within τ = 1 m of the goal."""
    out = []
    while len(out) < n:
        k = int(rng.integers(1, 6))
        pts = np.vstack([np.zeros(3), rng.uniform(-1, 7, (k, 3)) * [1, 0, 1]])
        if rng.random() < 0.3:
            pts = np.vstack([pts, [3.0, 0, 2.0]])  # passes the subgoal
        if rng.random() < 0.2:
            pts = np.vstack([pts, [0.0, 0, 6.0]])  # ends at the other branch's goal
        stopped = bool(rng.random() < 0.5)
        if stopped and np.linalg.norm(pts[-1] - GOAL[0]) <= 1.0:
            continue
        out.append(Trajectory("t", pts, stopped))
    return out


@pytest.mark.parametrize("kind", ["plain", "conditional", "no_subgoal", "unknown_L"])
def test_failure_metrics_are_what_every_failing_trajectory_shares(kind: str) -> None:
    facts = _facts(kind)
    rows = [compute_episode_metrics(t, facts) for t in _failing_trajectories(np.random.default_rng(7))]
    assert all(r["success"] == 0.0 for r in rows)
    crash = failure_metrics(facts)
    for key in METRIC_KEYS:
        values = {r[key] for r in rows}
        if key == "dtg_start":  # d_0 in the caller's distance (geodesic or Euclidean): a length,
            assert crash[key] is None  # not a score; the crash scorer does not measure it
        elif key in FAILURE_DEFINED:  # one value for every failing trajectory: the crash gets it
            assert len(values) == 1 and crash[key] == values.pop(), key
        elif len(values) > 1:  # depends on where the agent went: unknown after a crash
            assert crash[key] is None, key
        else:  # the same for all, but only because it never applies to this episode
            assert values == {None} and crash[key] is None, key
    # by hand: S = 0, SPL = 0 with L, SDTW = 0 with a reference, CSR = 0 with subgoals
    expect = {"plain": (0.0, 0.0, None, None, None), "conditional": (0.0, 0.0, 0.0, 0.0, 0.0),
              "no_subgoal": (0.0, 0.0, None, 0.0, None), "unknown_L": (0.0, None, None, None, None)}
    assert tuple(crash[k] for k in ("success", "spl", "route_spl", "sdtw", "csr")) == expect[kind]
    assert crash["termination"] == "agent_crash" and crash["reachable"] is True
    assert crash["tau"] == 1.0 and crash["subgoals_total"] == (1 if kind == "conditional" else 0)


def test_termination_label_is_success_exactly_when_s_is_one() -> None:
    recorded = [None, *TERMINATION_LABELS, "agent_error", "agent_crash", "unreachable"]
    for rec, stopped, ok in itertools.product(recorded, (False, True), (False, True)):
        label = termination_label(rec, stopped, ok)
        assert (label == "success") == ok, (rec, stopped, ok, label)
        if not ok and rec not in (None, "success", "perception_error"):
            assert label == rec  # a non-distance label stands on a failure
        if not ok and rec in (None, "success", "perception_error"):
            assert label == ("perception_error" if stopped else "timeout")
