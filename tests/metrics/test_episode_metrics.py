"""Per-episode metrics on hand-drawn trajectories; every expected value is worked out by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from navbench.metrics import EpisodeFacts, Trajectory, compute_episode_metrics
from navbench.metrics.distance import dtg_navverse, success
from navbench.metrics.efficiency import coverage_efficiency, soft_success, spl

GOAL = (4.0, 0.0, 0.5)


def facts(**kw) -> EpisodeFacts:
    base = dict(episode_id="e", start_position=(0, 0, 0.5), goal_positions=[GOAL],
                goal_radii=[0.0], success_distance=0.5, geodesic_distance=4.0)
    base.update(kw)
    return EpisodeFacts(**base)


def xs(*x: float, z: float = 0.5) -> np.ndarray:
    return np.array([[v, 0.0, z] for v in x])


def test_straight_line():
    m = compute_episode_metrics(Trajectory("e", xs(0, 1, 2, 3, 4)), facts())
    # d_t = 4,3,2,1,0; P = L = 4; cells along z=0.5: x-cells 0..4 → 5 cells
    assert m["success"] == 1.0 and m["oracle_success"] == 1.0
    assert m["ne"] == 0.0 and m["dtg_start"] == 4.0 and m["path_length"] == 4.0
    assert m["spl"] == 1.0 and m["soft_success"] == 1.0 and m["soft_spl"] == 1.0
    assert m["ce"] == pytest.approx(5 / 4)
    assert m["termination"] == "success" and m["branch_outcome"] == "correct"
    assert m["ndtw"] is None and m["bsa"] == 1.0 and m["csr"] == 1.0  # no subgoals, success
    assert m["cr"] is None and m["ado"] is None and m["nsr"] is None


def test_detour():
    pos = np.array([[0, 0, 0.5], [0, 0, 3.5], [4, 0, 3.5], [4, 0, 0.5]], float)
    m = compute_episode_metrics(Trajectory("e", pos), facts())
    # P = 3 + 4 + 3 = 10; SPL = 4/10
    assert m["path_length"] == 10.0 and m["spl"] == pytest.approx(0.4)
    assert m["soft_spl"] == pytest.approx(0.4)
    # cells: x=0 column z 0..3 (4), row z=3 x 1..4 (4), x=4 column z 0..2 (3) → 11
    assert m["ce"] == pytest.approx(11 / 10)


def test_overshoot():
    m = compute_episode_metrics(Trajectory("e", xs(0, 2, 4, 6)), facts(success_distance=1.0))
    # d_T = 2 > 1 → fail; passed the goal at t=2 → OS; SS = 1 − 2/4; SoftSPL = 0.5 · 4/6
    assert m["success"] == 0.0 and m["oracle_success"] == 1.0 and m["ne"] == 2.0
    assert m["spl"] == 0.0 and m["soft_success"] == 0.5
    assert m["soft_spl"] == pytest.approx(1 / 3)
    assert m["termination"] == "perception_error" and m["branch_outcome"] == "elsewhere"


def test_never_stopping():
    m = compute_episode_metrics(Trajectory("e", xs(0, 2, 4), stopped=False), facts())
    assert m["success"] == 0.0 and m["oracle_success"] == 1.0 and m["spl"] == 0.0
    assert m["soft_success"] == 1.0 and m["termination"] == "timeout"
    assert m["bsa"] is None and m["csr"] is None  # no-subgoal failure: excluded
    # NavVerse-style success without STOP
    m2 = compute_episode_metrics(Trajectory("e", xs(0, 2, 4), stopped=False), facts(), require_stop=False)
    assert m2["success"] == 1.0


def test_strict_vs_inclusive_at_tau():
    t = Trajectory("e", xs(0, 3))  # d_T = 1.0 exactly
    assert compute_episode_metrics(t, facts(), tau=1.0)["success"] == 1.0
    assert compute_episode_metrics(t, facts(), tau=1.0, strict=True)["success"] == 0.0
    assert success(1.0, True, 1.0) and not success(1.0, True, 1.0, strict=True)


def test_navverse_dtg_goal_size_and_instances():
    # goal A at x=4 with size 2×1×1 → r = ½·max(2, 1) = 1; goal B at z=10, r = 0.
    d = dtg_navverse(xs(0, 2.5, 6.5), [(4, 0, 0.5), (0, 0, 10)], [1.0, 0.0])
    assert d.tolist() == [3.0, 0.5, 1.5]
    assert dtg_navverse(xs(3.5), [(4, 0, 0.5)], [1.0]).tolist() == [0.0]  # inside the extent


def test_wrong_branch_goal():
    f = facts(branch_goals=[(0, 0, 6.5)], goal_positions=[(5, 0, 0.5)], geodesic_distance=5.0)
    pos = np.array([[0, 0, 0.5], [0, 0, 6.2]])
    m = compute_episode_metrics(Trajectory("e", pos), f)
    assert m["success"] == 0.0 and m["branch_outcome"] == "other_branch"
    assert m["ne"] == pytest.approx(math.hypot(5, 5.7))
    # BSA excludes this failed no-subgoal episode; BCA counts it as the wrong branch
    assert m["bsa"] is None and m["bca"] == 0.0


def test_branch_commit_accuracy():
    f = facts(branch_goals=[(0, 0, 6.5)], goal_positions=[(5, 0, 0.5)], geodesic_distance=5.0)
    at_goal = compute_episode_metrics(Trajectory("e", np.array([[0, 0, 0.5], [4.5, 0, 0.5]])), f)
    lost = compute_episode_metrics(Trajectory("e", np.array([[0, 0, 0.5], [0, 0, 3.0]])), f)
    # ended 0.5 m from the correct goal (τ = 0.5, inclusive) → 1; ≥ 3.5 m from both → excluded
    assert (at_goal["branch_outcome"], at_goal["bca"]) == ("correct", 1.0)
    assert (lost["branch_outcome"], lost["bca"]) == ("elsewhere", None)
    plain = compute_episode_metrics(Trajectory("e", xs(0, 4)), facts(conditional=False))
    assert plain["bca"] is None


def test_subgoals_out_of_order_and_in_order():
    f = facts(subgoals=[(2, 0, 0.5), (2, 0, 2.5)], goal_positions=[(4, 0, 2.5)])
    out_of_order = np.array([[0, 0, 0.5], [2, 0, 2.5], [2, 0, 0.5], [4, 0, 2.5]])
    m = compute_episode_metrics(Trajectory("e", out_of_order), f)
    # g2 seen first (not counted), then g1 (k=1), g2 never again → BSA 1/2, CSR 0 despite success
    assert m["success"] == 1.0 and m["subgoals_reached"] == 1
    assert m["bsa"] == 0.5 and m["csr"] == 0.0
    in_order = np.array([[0, 0, 0.5], [2, 0, 0.7], [2, 0, 2.5], [4, 0, 2.5]])
    m = compute_episode_metrics(Trajectory("e", in_order), f)
    assert m["bsa"] == 1.0 and m["csr"] == 1.0 and m["subgoals_total"] == 2
    # all subgoals but the final goal missed → BSA 1, CSR 0
    m = compute_episode_metrics(Trajectory("e", in_order[:3]), f)
    assert m["bsa"] == 1.0 and m["success"] == 0.0 and m["csr"] == 0.0


def test_no_subgoal_success_and_failure():
    ok = compute_episode_metrics(Trajectory("e", xs(0, 4)), facts())
    bad = compute_episode_metrics(Trajectory("e", xs(0, 1)), facts())
    assert (ok["bsa"], ok["csr"]) == (1.0, 1.0)
    assert (bad["bsa"], bad["csr"]) == (None, None)
    # a non-conditional episode (plain R2R) has no BSA/CSR at all
    plain = compute_episode_metrics(Trajectory("e", xs(0, 4)), facts(conditional=False))
    assert (plain["bsa"], plain["csr"]) == (None, None)


def test_collision_clearance_and_surface_change():
    t = Trajectory("e", xs(0, 1, 2, 3), collisions=[False, False, True, False],
                   obstacle_distances=[1.0, 0.5, 0.0, 0.5],
                   surfaces=["floor", "floor", "road", "sidewalk"], termination="fall")
    m = compute_episode_metrics(t, facts())
    # NavVerse: ADO and NSR average over t = 1..T (the start row t = 0 excluded)
    assert m["cr"] == 1.0 and m["ado"] == pytest.approx((0.5 + 0.0 + 0.5) / 3)
    assert m["contact_share"] == pytest.approx(1 / 3)  # in contact at t = 2 of t = 1..3
    assert m["nsr"] == pytest.approx(2 / 3)  # floor, road, sidewalk
    assert m["termination"] == "fall"
    clean = compute_episode_metrics(Trajectory("e", xs(0, 1), collisions=[False, False]), facts())
    assert clean["cr"] == 0.0
    grass_ok = compute_episode_metrics(t, facts(), valid_surfaces={"road"})
    assert grass_ok["nsr"] == pytest.approx(1 / 3)
    # the simulator's per-step preferred flags win over the surface classes
    flagged = compute_episode_metrics(
        Trajectory("e", xs(0, 1, 2, 3), surfaces=["floor"] * 4, preferred=[False, True, False, False]),
        facts())
    assert flagged["nsr"] == pytest.approx(1 / 3)
    assert compute_episode_metrics(Trajectory("e", xs(0), obstacle_distances=[1.0]), facts())["ado"] is None


def test_unreachable_goal_is_flagged_not_zero():
    m = compute_episode_metrics(Trajectory("e", xs(0, 1)), facts(geodesic_distance=math.inf))
    assert m["reachable"] is False and m["spl"] is None and m["soft_spl"] is None
    assert m["geodesic_length"] is None
    with pytest.raises(ValueError, match="unreachable"):
        spl(True, math.inf, 3.0)


def test_geodesic_distances_given_by_caller():
    # a wall forces a longer way round: geodesic d_t given per step by the caller
    m = compute_episode_metrics(Trajectory("e", xs(0, 3, 3.8)), facts(), goal_distances=[8.0, 3.0, 0.4])
    assert m["dtg_kind"] == "geodesic" and m["ne"] == 0.4 and m["success"] == 1.0
    # habitat-lab's SoftSPL: one start distance, L = 4 (the file's), not d[0] = 8 of the caller
    assert m["soft_success"] == pytest.approx(1 - 0.4 / 4.0)
    assert m["soft_spl"] == pytest.approx((1 - 0.4 / 4.0) * 4.0 / 4.0)  # P = 3.8 < L
    with pytest.raises(ValueError):
        compute_episode_metrics(Trajectory("e", xs(0, 3)), facts(), goal_distances=[1.0])


def test_soft_success_and_spl_edge_cases():
    assert soft_success(0.0, 0.0) == 1.0 and soft_success(0.3, 0.0) == 0.0
    assert soft_success(5.0, 2.0) == 0.0
    assert spl(True, 0.0, 0.0) == 1.0  # start on the goal, no motion


def test_coverage_efficiency_cells():
    diag = np.array([[0.5, 0, 0.5], [2.5, 0, 2.5]])
    # through the corners (1,1) and (2,2): cells (0,0), (1,1), (2,2) only
    assert coverage_efficiency(diag) == pytest.approx(3 / (2 * math.sqrt(2)))
    line = xs(0.5, 3.5)
    assert coverage_efficiency(line) == pytest.approx(4 / 3)
    assert coverage_efficiency(line, traverse=False) == pytest.approx(2 / 3)
    back_forth = np.array([[0.5, 0, 0.5], [0.5, 0, 1.5], [0.5, 0, 0.5]])
    assert coverage_efficiency(back_forth) == pytest.approx(2 / 2)
    assert coverage_efficiency(xs(0.5)) == 1.0  # P = 0 → max(P, ε = 1 m)
    assert coverage_efficiency(xs(0.5, 0.7), eps=0.1) == pytest.approx(1 / 0.2)
    assert coverage_efficiency(line, cell=0.5) == pytest.approx(7 / 3)


def test_termination_label_follows_the_metrics_success():
    # The simulator labels by its Euclidean DTG; this task scores the geodesic one. Ends at x = 3.8:
    # Euclidean d_T = 0.2 ≤ τ = 0.5 (the simulator said "success"), but the wall makes the way
    # round 0.9 m long (geodesic d_T = 0.9 > τ): S = 0, so the label must say so, and back.
    far = compute_episode_metrics(Trajectory("e", xs(0, 3, 3.8), stopped=True, termination="success"),
                                  facts(), goal_distances=[8.0, 3.5, 0.9])
    assert far["success"] == 0.0 and far["termination"] == "perception_error"
    near = compute_episode_metrics(Trajectory("e", xs(0, 3, 3.2), stopped=True,
                                              termination="perception_error"),
                                   facts(), goal_distances=[8.0, 3.0, 0.4])
    assert near["success"] == 1.0 and near["termination"] == "success"
    # labels that are not a distance test stand, whatever S is
    fell = compute_episode_metrics(Trajectory("e", xs(0, 3, 4), stopped=False, termination="fall"),
                                   facts())
    assert fell["termination"] == "fall"
