"""SoftSPL, SPL and ``steps`` of scored VLN-CE predictions against habitat-lab's and VLN-CE's
measures, replayed here step by step from their definitions (never a call into navbench):

- habitat-lab ``habitat/tasks/nav/nav.py``: at reset ``_start_end_episode_distance`` = the
  distance to goal there (d_0), ``_agent_episode_distance`` = 0; at every step the agent's
  Euclidean displacement is added, then ``SPL = success · d_0 / max(d_0, agent_distance)`` and
  ``SoftSPL = max(0, 1 − d_T / d_0) · d_0 / max(d_0, agent_distance)``: one start distance in
  both places.
- VLN-CE ``habitat_extensions/measures.py`` ``StepsTaken``: 0 at reset, +1 at every step (every
  action, STOP included). A VLN-CE ``r2r`` prediction file holds the state after reset and one
  entry after each action.

The start distance habitat measures at reset is the episode's recorded ``geodesic_distance``
(VLN-CE computed it with the same simulator); the navmesh a scorer uses gives a slightly
different d at the prediction's first row, which is what made navbench's SoftSPL differ.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from navbench.episodes import Episode, Goal
from navbench.metrics import EpisodeFacts, Trajectory, compute_episode_metrics
from navbench.metrics.scoring import read_predictions, score_episodes
from navbench.rng import derive


def ref_habitat_vlnce(positions, G, d0: float, stopped: bool, tau: float) -> dict[str, float]:
    """habitat-lab Success / SPL / SoftSPL and VLN-CE StepsTaken over one prediction, replayed."""
    steps_taken = 0
    previous = positions[0]
    agent_episode_distance = 0.0
    for p in positions[1:]:  # one entry per action taken
        steps_taken += 1
        agent_episode_distance += math.dist(p, previous)
        previous = p
    d_T = G(positions[-1])
    success = float(stopped and d_T < tau)
    ratio = d0 / max(d0, agent_episode_distance)
    return {"success": success, "spl": success * ratio,
            "soft_spl": max(0.0, 1.0 - d_T / d0) * ratio, "steps": steps_taken}


def _vlnce_actions(rng: np.random.Generator, start: np.ndarray, heading: float, n: int,
                   stop: bool) -> tuple[list[list[float]], list[float]]:
    """Positions after reset and after each of n VLN-CE actions (forward 0.25 m, turns 15°);
    a final STOP adds an entry at the same place."""
    pos, head = [start.tolist()], [heading]
    p, h = start.copy(), heading
    for _ in range(n):
        a = rng.choice(3, p=[0.6, 0.2, 0.2])
        if a == 0:  # forward: the agent faces −Z rotated by its heading
            p = p + 0.25 * np.array([-math.sin(h), 0.0, -math.cos(h)])
        else:
            h += math.radians(15.0) * (1 if a == 1 else -1)
        pos.append(p.tolist())
        head.append(h)
    if stop:
        pos.append(p.tolist())
        head.append(h)
    return pos, head


def _random_run(seed: int, n_episodes: int) -> tuple[list[Episode], dict, dict]:
    """Episodes, r2r predictions and each episode's geodesic factor (the synthetic scene)."""
    rng = derive(seed, "parity-softspl")
    eps, preds, factor = [], {}, {}
    for i in range(n_episodes):
        start = np.array([rng.uniform(-5, 5), 0.0, rng.uniform(-5, 5)])
        goal = start + np.array([rng.uniform(-8, 8), 0.0, rng.uniform(-8, 8)])
        k = float(rng.uniform(1.0, 1.6))  # the geodesic of this episode: k · straight line
        d_start = k * float(np.linalg.norm(goal - start))
        # the episode file's d_0 (habitat's, at dataset creation) vs the scorer's navmesh: ±6 %
        L_file = d_start * float(rng.uniform(0.94, 1.06))
        variant = i % 4  # full run, stopped early ("truncated"), never stopped, standing still
        n = {0: int(rng.integers(10, 80)), 1: int(rng.integers(1, 10)), 2: int(rng.integers(5, 60)),
             3: 0}[variant]
        pos, head = _vlnce_actions(rng, start, float(rng.uniform(-math.pi, math.pi)), n,
                                   stop=variant != 2)
        eid = str(i)
        preds[eid] = [{"position": p, "heading": h, "stop": variant != 2 and j == len(pos) - 1}
                      for j, (p, h) in enumerate(zip(pos, head, strict=True))]
        eps.append(Episode(eid, "scenes/s.glb", tuple(start), (0, 0, 0, 1),
                           (Goal(tuple(goal), radius=3.0),), instruction_text="go",
                           geodesic_distance=L_file))
        factor[eid] = (k, goal)
    return eps, preds, factor


def test_softspl_spl_and_steps_match_habitat_and_vlnce_on_random_predictions(tmp_path: Path) -> None:
    eps, preds, factor = _random_run(29, 400)
    f = tmp_path / "preds.json"
    f.write_text(json.dumps(preds))

    def geodesic(ep: Episode, positions: np.ndarray) -> np.ndarray:  # the scorer's navmesh
        k, goal = factor[ep.episode_id]
        return k * np.linalg.norm(np.asarray(positions, float) - goal, axis=1)

    res = score_episodes(eps, read_predictions(f, "r2r"), fmt="r2r", tau=3.0, strict=True,
                         geodesic=geodesic)
    assert len(res.rows) == 400
    gaps = []
    for row, ep in zip(res.rows, eps, strict=True):
        k, goal = factor[ep.episode_id]
        steps = preds[ep.episode_id]
        want = ref_habitat_vlnce([s["position"] for s in steps],
                                 lambda p, k=k, goal=goal: k * math.dist(p, goal),
                                 ep.geodesic_distance, steps[-1]["stop"], 3.0)
        for key, v in want.items():
            assert row[key] == pytest.approx(v, abs=1e-6), (ep.episode_id, key)
        assert row["steps"] == want["steps"] == len(steps) - 1
        # what the old form (SS from the first row's d, ratio from L) would have given
        d0_row = k * math.dist(steps[0]["position"], goal)
        old = max(0.0, 1 - row["ne"] / d0_row) * ep.geodesic_distance / max(
            ep.geodesic_distance, row["path_length"])
        gaps.append(abs(old - want["soft_spl"]))
    assert max(gaps) > 0.01  # the randomized runs do tell the two forms apart


def test_softspl_hand_computed_one_start_distance() -> None:
    # The file's L = 10 m; the scorer's navmesh puts the start 8 m from the goal. The agent walks
    # 3 m and stops 4 m short: habitat's SoftSPL = (1 − 4/10) · 10/max(10, 3) = 0.6
    # (d[0] in the soft success would give (1 − 4/8) · 1 = 0.5). Three actions, STOP included.
    Q = np.array([[0, 0, 0], [0, 0, -1.5], [0, 0, -3], [0, 0, -3]], float)
    facts = EpisodeFacts("e", Q[0], [[0, 0, -7]], [0.0], 3.0, 10.0)
    m = compute_episode_metrics(Trajectory("e", Q, True), facts, strict=True,
                                goal_distances=np.array([8.0, 6.5, 4.0, 4.0]))
    assert m["soft_success"] == pytest.approx(0.6) and m["soft_spl"] == pytest.approx(0.6)
    assert m["success"] == 0.0 and m["steps"] == 3
    # a detour: P = 14 m > L, d_T = 1 m → SoftSPL = 0.9 · 10/14
    D = np.array([[0, 0, 0], [7, 0, 0], [7, 0, -7], [0, 0, -7.0]])
    m = compute_episode_metrics(Trajectory("e", D[:3], True), facts, strict=True,
                                goal_distances=np.array([8.0, 8.5, 1.0]))
    assert m["path_length"] == 14.0 and m["soft_spl"] == pytest.approx(0.9 * 10 / 14)
    assert m["spl"] == pytest.approx(10 / 14) and m["steps"] == 2


def test_navverse_soft_success_keeps_the_euclidean_start_distance() -> None:
    # NavVerse (Euclidean d, App. 6.5): S_p = 1 − d_T/d_0 with d_0 the Euclidean distance at the
    # start (5 m), not L = 9 m (the way round a wall): standing still scores 0, not 1 − 5/9
    facts = EpisodeFacts("e", [0, 0, 0], [[0, 0, -5]], [0.0], 1.6, 9.0)
    m = compute_episode_metrics(Trajectory("e", np.array([[0, 0, 0.0]]), True), facts)
    assert m["soft_success"] == 0.0 and m["soft_spl"] == 0.0 and m["steps"] == 0
    Q = np.array([[0, 0, 0], [0, 0, -3.0]])  # 3 m closer: S_p = 1 − 2/5, ratio L/max(L, 3) = 1
    m = compute_episode_metrics(Trajectory("e", Q, True), facts)
    assert m["soft_success"] == pytest.approx(0.6) and m["soft_spl"] == pytest.approx(0.6)
