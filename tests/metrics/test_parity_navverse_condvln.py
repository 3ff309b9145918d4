"""Parity with NavVerse's (App. 6.5) and CondVLN's (§3.2) metric definitions, re-expressed here.

NavVerse App. 6.5 (papers/001): ``d_t = max(0, ‖p_t − p_goal‖ − r_goal)``, ``r_goal = ½ max(x_size,
y_size)``; success when ``d_T ≤ τ`` with ``τ = 1.0 + r_robot`` for every task;
``ADO = (1/T) Σ_{t=1..T} d_obs(t)``; ``NSR = (1/T) Σ_{t=1..T} 1[s_t ∈ S_valid]``;
``CE = |unique cells| / max(P, ε)``. CondVLN §3.2 (papers/000): ``BSA_i = k_i/m_i`` with
``k_i`` the longest prefix of the ordered subgoals reached within τ; no subgoals: success → 1,
failure → excluded; ``CSR_i = 1[BSA_i = 1 ∧ Success_i]``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from navbench.metrics import EpisodeFacts, Trajectory, compute_episode_metrics
from navbench.rng import derive


def ref_navverse(P, goals, radii, obstacle, preferred, tau):
    d = [max(0.0, min(math.dist(p, g) - r for g, r in zip(goals, radii, strict=True))) for p in P]
    T = len(P) - 1  # steps t = 1..T; row 0 is the start pose
    return {"ne": d[-1], "success": float(d[-1] <= tau),
            "ado": sum(obstacle[1:]) / T, "nsr": sum(bool(x) for x in preferred[1:]) / T}


def ref_bsa_csr(P, subgoals, tau, succeeded):
    k = 0
    for p in P:
        while k < len(subgoals) and math.dist(p, subgoals[k]) <= tau:
            k += 1
    bsa = k / len(subgoals) if subgoals else (1.0 if succeeded else None)
    return bsa, None if bsa is None else float(bsa == 1.0 and succeeded)


@pytest.mark.parametrize("robot_radius", [0.6, 0.18])
def test_navverse_tau_is_one_plus_robot_radius_for_every_task(robot_radius: float):
    """Dataset goals of every NavVerse task carry τ = 1 + r_robot (route VLN no longer 3 m)."""
    from navbench.episodes.route import RouteEpisodeSettings
    from navbench.tasks.objectnav import SUCCESS_DISTANCE

    assert pytest.approx(1.0 + 0.6) == SUCCESS_DISTANCE  # Spot
    assert RouteEpisodeSettings().success_distance is None  # = 1 + r_robot of the dataset's robot
    from navbench.episodes.dataset import DatasetSettings

    emb = "spot" if robot_radius == 0.6 else "turtlebot"
    s = DatasetSettings(embodiment=emb)
    assert s.goal_success_distance("outdoor") == pytest.approx(1.0 + robot_radius)


@pytest.mark.parametrize("case", range(10))
def test_random_trajectories_match_navverse(case: int):
    rng = derive(17, "parity-navverse", case)
    T = int(rng.integers(1, 25))
    P = np.cumsum(rng.normal(size=(T + 1, 3)) * [1, 0.05, 1], axis=0)
    G = rng.normal(scale=3.0, size=(int(rng.integers(1, 4)), 3))
    radii = rng.uniform(0, 1, size=len(G))
    obstacle = rng.uniform(0, 2, size=T + 1)
    preferred = rng.random(T + 1) < 0.7
    tau = 1.6
    f = EpisodeFacts("e", P[0], G, radii, tau, 5.0)
    got = compute_episode_metrics(Trajectory("e", P, True, obstacle_distances=obstacle,
                                             surfaces=["road"] * (T + 1), preferred=preferred), f)
    want = ref_navverse(P.tolist(), G.tolist(), radii.tolist(), obstacle.tolist(), preferred.tolist(), tau)
    for k, v in want.items():
        assert got[k] == pytest.approx(v, rel=1e-12, abs=1e-12), k


@pytest.mark.parametrize("case", range(10))
def test_random_subgoal_walks_match_condvln(case: int):
    rng = derive(17, "parity-condvln", case)
    sub = rng.uniform(-4, 4, size=(int(rng.integers(0, 4)), 3)) * [1, 0, 1]
    goal = rng.uniform(-4, 4, size=3) * [1, 0, 1]
    # a walk that visits a random subset of the subgoals, in a random order, then maybe the goal
    stops = [sub[i] for i in rng.permutation(len(sub))[: int(rng.integers(0, len(sub) + 1))]]
    if rng.random() < 0.6:
        stops.append(goal)
    P = np.array([[0.0, 0.0, 0.0], *stops]) if stops else np.zeros((1, 3))
    tau = 0.5
    f = EpisodeFacts("e", P[0], [goal], [0.0], tau, 3.0, subgoals=sub, conditional=True)
    got = compute_episode_metrics(Trajectory("e", P, True), f)
    ok = math.dist(P[-1], goal) <= tau
    bsa, csr = ref_bsa_csr(P.tolist(), sub.tolist(), tau, ok)
    assert got["success"] == float(ok)
    assert got["bsa"] == (None if bsa is None else pytest.approx(bsa))
    assert got["csr"] == csr
