"""The scene-graph agent on generated conditional episodes (fixed seeds).

Branch-choice accuracy = fraction of episodes whose chosen branch (agent diagnostics) equals
the generator's; first-branch's equals the fraction of episodes whose branch is outcome 0.
The default test probes the decision only (``stop_after_decision``); the slow one navigates.
"""

from __future__ import annotations

import numpy as np
import pytest

from navbench.agents import load_agent, run_episode
from navbench.scene.procgen.indoor import generate_house
from navbench.sim import SPOT, SimSettings, Simulator
from tests.agents.episodes import TAU, conditional_episodes, nav_for


def _episodes(houses: list[int], per_house: int) -> list[tuple[object, list]]:
    out = []
    for h in houses:
        scene = generate_house(h)
        out.append((scene, conditional_episodes(scene, nav_for(scene), per_house, h)))
    return out


def _chosen_accuracy(data: list, noise: float, probe: bool) -> tuple[float, float, int]:
    ok, succ, n = 0, 0, 0
    for scene, eps in data:
        sim = Simulator(scene, SPOT, SimSettings(success_distance=TAU, render=True, width=160,
                                                 height=120))
        agent = load_agent("scene-graph", noise=noise, seed=3, stop_after_decision=probe)
        for ep in eps:
            o = run_episode(sim, agent, ep, max_steps=3000)
            assert o.label != "agent_error", o.error
            ok += o.extra.get("branch_index") == ep.navbench["branch_index"]
            succ += o.label == "success"
            n += 1
        sim.close()
    return ok / n, succ / n, n


@pytest.mark.slow  # ~3 min on 1 core; the done-criterion test (see the report: not met yet)
def test_scene_graph_beats_first_branch_and_degrades_with_noise() -> None:
    data = _episodes([1, 2], 8)
    eps = [e for _, es in data for e in es]
    p0 = float(np.mean([e.navbench["branch_index"] == 0 for e in eps]))  # first-branch accuracy
    clean, _, n = _chosen_accuracy(data, 0.0, probe=True)
    noisy, _, _ = _chosen_accuracy(data, 0.4, probe=True)
    print(f"episodes {n}: first-branch {p0:.2f}, scene-graph noise 0 {clean:.2f}, noise 0.4 {noisy:.2f}")
    assert clean > p0
    assert noisy < clean


@pytest.mark.slow
def test_scene_graph_navigation_100_episodes() -> None:
    data = _episodes(list(range(1, 13)), 12)
    eps = [e for _, es in data for e in es]
    p0 = float(np.mean([e.navbench["branch_index"] == 0 for e in eps]))
    rows = {x: _chosen_accuracy(data, x, probe=False) for x in (0.0, 0.2, 0.4)}
    for x, (acc, sr, n) in rows.items():
        print(f"noise {x}: n={n} chosen-branch accuracy {acc:.2f} SR {sr:.2f} (first-branch {p0:.2f})")
    assert rows[0.0][0] > p0 and rows[0.4][0] < rows[0.0][0]
