"""Which rule ends an episode: CondVLN episodes end by their action budget alone (the simulator's
timeout must not cut them), NavVerse route episodes keep the 300 s timeout; the builder drops
episodes whose reference cannot fit (``over_budget`` / ``over_timeout``)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from navbench.episodes import Episode, Goal
from navbench.episodes.budget import within_budget
from navbench.eval.budget import (
    discrete_cap,
    reference_shortfall,
    run_max_time,
    step_limit,
    time_budget,
    timeout_caps,
)
from navbench.eval.pipeline import EvalSettings


def _ep(words: int, verify: float | None = None) -> Episode:
    nb: dict = {"success_distance": 1.0}
    if verify is not None:
        nb["verify"] = {"duration": verify}
    return Episode("e", "s", (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0), (Goal((0.0, 0.0, -5.0)),),
                   instruction_text=" ".join(["word"] * words), geodesic_distance=5.0,
                   info={"navbench": nb})


def test_condvln_budget_is_not_capped_by_the_timeout_navverse_is() -> None:
    ep = _ep(60)  # B = 900 discrete-action equivalents
    assert [timeout_caps(t) for t in ("conditional", "conditional_oracle", "route", "objectnav", None)] \
        == [False, False, True, True, True]
    # CondVLN: 900 actions, 900 s = 9000 agent steps of 0.1 s; NavVerse: 300 actions, 300 s
    assert discrete_cap(900, capped=False) == 900 and discrete_cap(900) == 300
    assert time_budget(ep, capped=False) == 900.0 and time_budget(ep) == 300.0
    assert step_limit(ep, "waypoint", capped=False) == 9000
    assert step_limit(ep, "waypoint") is None  # the 300 s timeout decides
    assert step_limit(ep, "discrete", capped=False) == step_limit(ep, "discrete") == 900
    # the run's simulator timeout: raised above every CondVLN budget, kept for NavVerse
    eps = [_ep(10), ep]  # B = 150, 900
    assert run_max_time(eps, "velocity", capped=False) == pytest.approx(900.1)
    assert run_max_time(eps, "discrete", capped=False) == 2700.0  # 900 primitives ≤ 3 s each
    assert run_max_time(eps, "waypoint", capped=True) == 300.0
    assert run_max_time([_ep(10)], "waypoint", capped=False) == 300.0  # 150 s < 300 s


def test_reference_shortfall_and_the_builder_drop_rule() -> None:
    ep = _ep(40)  # B = 600
    assert reference_shortfall(ep, "conditional", 600) is None
    assert reference_shortfall(ep, "conditional", 601) == "601 reference actions > B = 600"
    assert reference_shortfall(ep, "route", 300) is None
    assert reference_shortfall(ep, "route", 301) == "301 reference actions > 300 (300 s / 1 s)"
    # a recorded verification rollout: 400 s fits CondVLN's 600 s, not the route's 300 s
    slow = _ep(40, verify=400.0)
    assert reference_shortfall(slow, "conditional", 100) is None
    assert reference_shortfall(slow, "route", 100) == "verification rollout 400.0 s > 300 s"
    assert reference_shortfall(_ep(0), "route", 10_000) is None  # no instruction: no budget
    drop: Counter[str] = Counter()
    pairs = [(ep, {"actions": [1] * 601}), (ep, {"actions": [1] * 562}), (slow, {"actions": [1]})]
    assert within_budget("conditional", pairs, drop) == pairs[1:] and drop == {"over_budget": 1}
    drop.clear()
    assert within_budget("route", pairs, drop) == [] and drop == {"over_timeout": 3}


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from navbench.episodes.dataset import DatasetSettings, build_dataset
    from navbench.scene.procgen.indoor import IndoorSettings, generate_house

    out = tmp_path_factory.mktemp("rule") / "ds"
    build_dataset([generate_house(1, None, IndoorSettings(rooms=(3, 3)))], out,
                  tasks=("conditional", "route"), split="eval=1.0", seed=0,
                  settings=DatasetSettings(episodes_per_scene=2))
    return out


def _rows(out: Path) -> list[dict]:
    from navbench.eval import ResultsDB

    with ResultsDB(out) as db:
        return db.rows(db.resolve_run(None))


def test_a_short_simulator_timeout_cuts_route_runs_but_not_condvln_ones(dataset: Path, tmp_path: Path) -> None:
    """``max_time`` = 2 s: the Turtlebot (≤ 0.46 m/s) cannot cover these ≥ 5 m routes in 2 s.
    Route VLN (NavVerse) ends as ``timeout`` at 2 s; a conditional episode runs on within its
    budget (B = 15 × words s ≫ 2 s) and the oracle arrives; a discrete spinner on a 1 action /
    word budget takes exactly B = words turns (~1 s each), far past 2 s."""
    from navbench.episodes.loader import load_dataset
    from navbench.eval.pipeline import evaluate

    ds = load_dataset(dataset)
    words = {e.episode_id: len(str(e.instruction_text).split()) for e in ds.episodes("conditional", "eval")}
    s = EvalSettings(max_time=2.0, episode_timeout_s=120)
    evaluate(dataset, "oracle-path", tmp_path / "c", replace(s, task="conditional"), progress=False)
    evaluate(dataset, "oracle-path", tmp_path / "r", replace(s, task="route"), progress=False)
    evaluate(dataset, "tests.eval.pipeline_agents:DiscreteSpinner", tmp_path / "d",
             replace(s, task="conditional", action_budget_per_word=1.0), progress=False)
    cond, route, spin = _rows(tmp_path / "c"), _rows(tmp_path / "r"), _rows(tmp_path / "d")
    assert len(cond) == len(spin) == len(words) == 2 and len(route) >= 1
    for r in cond:
        assert r["label"] == "success" and r["sim_time_s"] > 2.0
    for r in route:
        assert r["label"] == "timeout" and r["sim_time_s"] == pytest.approx(2.0, abs=0.11)
    for r in spin:
        n = words[r["episode_id"]]
        assert r["label"] == "timeout" and r["metrics"]["agent_steps"] == n
        assert r["sim_time_s"] >= 0.9 * n > 2.0
