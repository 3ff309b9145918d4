"""Parity with VLN-CE's and habitat-lab's measures, re-expressed here from their definitions.

References (quoted in the comments next to each reference function):
- VLN-CE ``habitat_extensions/measures.py`` (Krantz et al. 2020): ``NDTW``, ``SDTW``,
  ``OracleSuccess``, ``PathLength``; config ``NDTW.SUCCESS_DISTANCE = 3.0``, ``FDTW = True``.
- habitat-lab ``habitat/tasks/nav/nav.py``: ``Success``, ``SPL``, ``SoftSPL``.
- ``fastdtw`` 0.3.4 (Salvador & Chan 2007), the approximation VLN-CE calls by default.
Each reference is a plain-Python loop written from the published formula, never a call into
navbench; cases are hand-computed or random trajectories.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from navbench.metrics import EpisodeFacts, Trajectory, compute_episode_metrics
from navbench.metrics.fidelity import fastdtw
from navbench.rng import derive


def ref_dtw(Q, R) -> float:
    """Exact DTW (Berndt & Clifford): D[i][j] = |q_i − r_j| + min(D[i−1][j], D[i][j−1], D[i−1][j−1])."""
    n, m = len(Q), len(R)
    D = [[math.inf] * (m + 1) for _ in range(n + 1)]
    D[0][0] = 0.0
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            D[i][j] = math.dist(Q[i - 1], R[j - 1]) + min(D[i - 1][j], D[i][j - 1], D[i - 1][j - 1])
    return D[n][m]


def ref_vlnce_ndtw(agent_positions, gt_locations, success_distance: float = 3.0) -> float:
    """VLN-CE ``NDTW.update_metric``, replayed step by step::

        if len(self.locations) == 0: self.locations.append(current_position)
        else:
            if current_position == self.locations[-1]: return
            self.locations.append(current_position)
        nDTW = exp(-dtw(locations, gt_locations) / (len(gt_locations) * SUCCESS_DISTANCE))
    """
    locations: list[list[float]] = []
    value = None
    for p in agent_positions:
        p = list(map(float, p))
        if locations and p == locations[-1]:
            continue
        locations.append(p)
        value = math.exp(-ref_dtw(locations, gt_locations) / (len(gt_locations) * success_distance))
    assert value is not None
    return value


def ref_habitat(d, P, L, stopped, tau):
    """habitat-lab: ``Success = stop_called and distance_to_target < success_distance``;
    ``SPL = success * d_0 / max(d_0, agent_episode_distance)``;
    ``SoftSPL = max(0, 1 − d_T/d_0) * d_0 / max(d_0, agent_episode_distance)`` with d_0 the
    geodesic start-to-goal distance at reset (here L); VLN-CE ``OracleSuccess``: any step with
    ``d < success_distance``."""
    s = float(stopped and d[-1] < tau)
    return {"success": s, "spl": s * L / max(L, P),
            "soft_spl": max(0.0, 1 - d[-1] / d[0]) * L / max(L, P),
            "oracle_success": float(any(x < tau for x in d)), "ne": d[-1], "path_length": P}


def test_turns_and_stop_add_no_row_hand_case():
    # R: three gt locations 1 m apart, repeated at a turn; the agent turns twice at (1,0,0).
    R = [[0, 0, 0], [1, 0, 0], [1, 0, 0], [1, 0, 1]]
    Q = np.array([[0, 0, 0], [1, 0, 0], [1, 0, 0], [1, 0, 0], [1, 0, 1], [1, 0, 1]], float)
    f = EpisodeFacts("e", Q[0], [R[-1]], [0.0], 3.0, 2.0, reference_path=R, reference_kind="gt_locations")
    m = compute_episode_metrics(Trajectory("e", Q, True), f, strict=True)
    # de-duplicated Q = R without its repeat: every R row matches a Q row at distance 0
    assert m["ndtw"] == 1.0 == ref_vlnce_ndtw(Q, R)
    # counting every row (navbench before issue 17) still gives 0 here; a shifted agent does not:
    Q2 = Q + np.array([0, 0, 0.5])
    m2 = compute_episode_metrics(Trajectory("e", Q2, True), f, strict=True)
    # hand: Q2 dedup = (0,0,.5), (1,0,.5), (1,0,1.5); best warp: r0–q0 .5, r1–q1 .5, r2–q1 .5,
    # r3–q2 .5 → DTW = 2.0 → nDTW = exp(−2 / (4·3))
    assert m2["ndtw"] == pytest.approx(math.exp(-2.0 / 12.0), rel=1e-12)
    assert m2["ndtw"] == pytest.approx(ref_vlnce_ndtw(Q2, R), rel=1e-12)


@pytest.mark.parametrize("case", range(10))
def test_random_trajectories_match_vlnce_and_habitat(case: int):
    rng = derive(17, "parity-vlnce", case)
    n, m = int(rng.integers(2, 30)), int(rng.integers(2, 30))
    steps = rng.normal(scale=0.5, size=(n, 3)) * [1, 0, 1]
    steps[rng.random(n) < 0.3] = 0.0  # turns: the position repeats
    Q = np.cumsum(steps, axis=0)
    R = (np.cumsum(rng.normal(scale=0.5, size=(m, 3)) * [1, 0, 1], axis=0)).tolist()
    goal = np.asarray(R[-1])
    tau = 3.0
    d = [float(np.linalg.norm(q - goal)) for q in Q]  # point goal: Euclidean = habitat's d
    P = float(sum(np.linalg.norm(Q[i] - Q[i - 1]) for i in range(1, n)))
    L = max(d[0], 0.1)
    f = EpisodeFacts("e", Q[0], [goal], [0.0], tau, L, reference_path=R, reference_kind="gt_locations")
    got = compute_episode_metrics(Trajectory("e", Q, True), f, strict=True, goal_distances=np.array(d))
    want = ref_habitat(d, P, L, True, tau)
    for k, v in want.items():
        assert got[k] == pytest.approx(v, rel=1e-12, abs=1e-12), k
    nd = ref_vlnce_ndtw(Q, R)
    assert got["ndtw"] == pytest.approx(nd, rel=1e-12)
    assert got["sdtw"] == pytest.approx(want["success"] * nd, rel=1e-12)  # SDTW = success · nDTW


def ref_fastdtw(x, y, radius=1):
    """fastdtw 0.3.4 ``__fastdtw``: below ``radius + 2`` points exact DTW; else halve both series
    (means of consecutive pairs), recurse, project the coarse warp path ×2 grown by ``radius``,
    and run DTW inside that window (written from Salvador & Chan 2007, Alg. 1)."""
    if len(x) < radius + 2 or len(y) < radius + 2:
        return _ref_path(x, y, None)
    half = lambda s: [[(a + b) / 2 for a, b in zip(s[i], s[i + 1], strict=True)]  # noqa: E731
                      for i in range(0, len(s) - len(s) % 2, 2)]
    _, low = ref_fastdtw(half(x), half(y), radius)
    grown = {(i + a, j + b) for i, j in low for a in range(-radius, radius + 1)
             for b in range(-radius, radius + 1)}
    cells = {(2 * i + a, 2 * j + b) for i, j in grown for a in (0, 1) for b in (0, 1)}
    window, start = set(), 0
    for i in range(len(x)):  # per row, the contiguous run from the previous row's start
        first = None
        for j in range(start, len(y)):
            if (i, j) in cells:
                window.add((i, j))
                first = j if first is None else first
            elif first is not None:
                break
        start = start if first is None else first
    return _ref_path(x, y, window)


def _ref_path(x, y, window):
    n, m = len(x), len(y)
    D = {(-1, -1): (0.0, None)}
    for i in range(n):
        for j in range(m):
            if window is not None and (i, j) not in window:
                continue
            c = math.dist(x[i], y[j])
            best = min(((D.get(p, (math.inf,))[0], p) for p in ((i - 1, j), (i, j - 1), (i - 1, j - 1))),
                       key=lambda t: t[0])
            D[(i, j)] = (best[0] + c, best[1])
    path, cur = [], (n - 1, m - 1)
    while cur != (-1, -1):
        path.append(cur)
        cur = D[cur][1]
    return D[(n - 1, m - 1)][0], path[::-1]


@pytest.mark.parametrize("case", range(8))
def test_fastdtw_matches_the_reference_algorithm(case: int):
    rng = derive(17, "parity-fastdtw", case)
    x = np.cumsum(rng.normal(size=(int(rng.integers(3, 40)), 3)), axis=0).tolist()
    y = np.cumsum(rng.normal(size=(int(rng.integers(3, 40)), 3)), axis=0).tolist()
    assert fastdtw(np.array(x), np.array(y)) == pytest.approx(ref_fastdtw(x, y)[0], rel=1e-12)
    # a radius at least as long as the series makes FastDTW the exact DTW
    wide = max(len(x), len(y))
    assert fastdtw(np.array(x), np.array(y), radius=wide) == pytest.approx(ref_dtw(x, y), rel=1e-12)
    assert fastdtw(np.array(x), np.array(y)) >= ref_dtw(x, y) - 1e-9


def test_spl_uses_the_start_to_goal_geodesic_with_subgoals():
    # habitat SPL: L = d_0 (start → goal = 4 m) even when the instruction routes via a subgoal;
    # the route (4 + 4 = 8 m here) gives route-SPL instead.
    Q = np.array([[0, 0, 0], [0, 0, -4], [4, 0, -4], [4, 0, 0]], float)
    f = EpisodeFacts("e", Q[0], [[4, 0, 0]], [0.0], 0.5, 4.0, subgoals=[[0, 0, -4]],
                     route_length=12.0)
    m = compute_episode_metrics(Trajectory("e", Q, True), f)
    assert m["path_length"] == 12.0 and m["spl"] == pytest.approx(4 / 12)
    assert m["route_spl"] == 1.0 and m["bsa"] == 1.0
    assert m["soft_spl"] == pytest.approx(1.0 * 4 / 12)  # SS = 1 (ends on the goal), same L
