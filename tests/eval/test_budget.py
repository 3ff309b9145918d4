"""The CondVLN action budget in discrete-action equivalents: B actions for discrete agents,
min(B × 1 s, max_time) simulated seconds for streaming ones; a perfect streaming agent finishes
a long route within it; ``dataset check`` reports episodes whose budget cannot cover the
reference path."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import pytest

from navbench.agents.oracle import OraclePathAgent
from navbench.episodes import Episode, Goal
from navbench.errors import ConfigError
from navbench.eval.budget import action_budget, step_limit, time_budget
from navbench.eval.pipeline import EvalSettings, run_one
from navbench.scene import Box, Scene


def _ep(text: str | None, navbench: dict | None = None, length: float = 24.0) -> Episode:
    """A straight route ``length`` m north on a flat floor (reference path every 1 m)."""
    ref = tuple((0.0, 0.0, -float(k)) for k in range(int(length) + 1))
    return Episode("long", "flat", (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0),
                   (Goal((0.0, 0.0, -length)),), instruction_text=text, reference_path=ref,
                   geodesic_distance=length,
                   info={"navbench": {"success_distance": 1.0, **(navbench or {})}})


SIX = "Walk north to the far wall."  # 6 words: B = 90 discrete-action equivalents


def test_budget_values_by_action_space() -> None:
    ep = _ep(SIX)
    assert action_budget(ep) == 90
    # discrete: 90 actions; streaming: 90 × 1 s = 90 s = 900 agent steps of 0.1 s
    assert step_limit(ep, "discrete") == 90
    assert step_limit(ep, "waypoint") == 900 and step_limit(ep, "velocity") == 900
    assert time_budget(ep) == 90.0
    # 2.5 s per action: 225 s = 2250 steps; 4 s: 360 s > 300 s, the simulator's timeout decides
    assert step_limit(ep, "waypoint", seconds_per_action=2.5) == 2250
    assert step_limit(ep, "waypoint", seconds_per_action=4.0) is None
    assert time_budget(ep, seconds_per_action=4.0) == 300.0
    assert step_limit(ep, "waypoint", max_time=60.0) is None
    assert step_limit(ep, "waypoint", agent_dt=0.2) == 450
    assert step_limit(ep, "waypoint", per_word=1.0) == 60  # 6 × 1 × 1 s / 0.1 s
    assert step_limit(_ep(None), "waypoint") is None and step_limit(ep, "discrete", per_word=0) is None
    assert time_budget(_ep(None)) == 300.0


def test_oracle_linear_episode_keeps_the_conditional_budget() -> None:
    cond = "If there is a lamp in the hall, go to the bed; otherwise go to the sofa."  # 17 words
    ep = _ep("Go to the bed.", {"conditional_text": cond})
    assert action_budget(ep) == 17 * 15 and action_budget(_ep("Go to the bed.")) == 4 * 15


def test_settings_validate_seconds_per_action() -> None:
    assert EvalSettings().seconds_per_action == 1.0
    for bad in (0.0, -1.0, math.inf):
        with pytest.raises(ConfigError, match="seconds-per-action"):
            EvalSettings(seconds_per_action=bad)


def test_perfect_streaming_agent_finishes_a_long_route_within_the_budget() -> None:
    """24 m straight for Spot (vx ≤ 1.5 m/s: ≥ 16 s): the old rule (90 agent steps = 9 s)
    times out; the budget in simulated time (900 steps = 90 s) lets the oracle finish."""
    from navbench.sim import SimSettings, Simulator, get_embodiment

    floor = Box("floor", "floor", (0.0, -0.05, -12.0), (6.0, 0.1, 32.0), label="floor")
    sim = Simulator(Scene("flat", "indoor", "handmade", boxes=(floor,)), get_embodiment("spot"),
                    SimSettings(render=False))
    ep = _ep(SIX)
    try:
        old = run_one(sim, OraclePathAgent(), ep, "flat", distance="euclidean", max_steps=90)
        assert old.label == "timeout" and old.metrics["agent_steps"] == 90
        new = run_one(sim, OraclePathAgent(), ep, "flat", distance="euclidean",
                      max_steps=step_limit(ep, "waypoint"))
        assert new.label == "success"
        assert 16.0 <= new.sim_time_s <= 90.0 and new.metrics["agent_steps"] <= 900
    finally:
        sim.close()


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from navbench.episodes.dataset import DatasetSettings, build_dataset
    from navbench.scene.procgen.indoor import IndoorSettings, generate_house

    out = tmp_path_factory.mktemp("budget") / "ds"
    build_dataset([generate_house(1, None, IndoorSettings(rooms=(3, 3)))], out,
                  tasks=("conditional",), split="eval=1.0", seed=0,
                  settings=DatasetSettings(episodes_per_scene=2))
    return out


def test_evaluate_applies_the_budget_by_action_space(dataset: Path, tmp_path: Path) -> None:
    """Through evaluate: 0.001 s per action leaves a waypoint agent ceil(B × 0.001 s / 0.1 s)
    = ceil(0.15 × words) steps (B = 15 × words; ≤ 1.5 s at 0.46 m/s for these ≤ 100-word
    instructions, too short to arrive); a discrete agent keeps B actions whatever
    seconds_per_action is."""
    from navbench.episodes.loader import load_dataset
    from navbench.eval import ResultsDB
    from navbench.eval.pipeline import evaluate

    eps = {e.episode_id: e for e in load_dataset(dataset).episodes("conditional", "eval")}
    words = {eid: len(str(e.instruction_text).split()) for eid, e in eps.items()}
    s = EvalSettings(seconds_per_action=0.001, episode_timeout_s=120)
    evaluate(dataset, "oracle-path", tmp_path / "wp", s, progress=False)
    # 1 action per word: B = words ≤ 100 turns of 1 s, inside the 300 s timeout
    evaluate(dataset, "tests.eval.pipeline_agents:DiscreteSpinner", tmp_path / "d",
             replace(s, action_budget_per_word=1.0), progress=False)
    with ResultsDB(tmp_path / "wp") as db:
        wp = db.rows(db.resolve_run(None))
    with ResultsDB(tmp_path / "d") as db:
        disc = db.rows(db.resolve_run(None))
    assert len(wp) == len(disc) == len(eps) == 2
    for r in wp:
        assert r["label"] == "timeout" and r["metrics"]["agent_steps"] == -(-15 * words[r["episode_id"]] // 100)
    for r in disc:
        assert r["label"] == "timeout" and r["metrics"]["agent_steps"] == words[r["episode_id"]]


def test_check_budgets_reports_episodes_the_budget_cannot_cover(dataset: Path) -> None:
    from navbench.episodes.loader import load_dataset
    from navbench.eval.budget_check import check_budgets
    from navbench.geometry import path_length

    ds = load_dataset(dataset)
    assert tuple(ds.tasks) == ("conditional", "conditional_oracle")  # the oracle-linear copy too
    eps = [(t, e) for t in ds.tasks for e in ds.episodes(t, "eval")]
    assert check_budgets(dataset).problems == []  # short indoor routes: 300 s cap, B ≫ _gt actions
    # 0.01 per word: B = 1 for every episode (≤ 100 words): 1 action, 1 s for streaming agents
    rep = check_budgets(dataset, per_word=0.01)
    assert rep.episodes == len(eps) == 4
    assert rep.episode_ids == [f"{t}/eval/{e.episode_id}" for t, e in eps]
    for t, e in eps:
        msgs = [p.message for p in rep.problems if p.field == f"episode {t}/eval/{e.episode_id}"]
        assert len(msgs) == 2 and msgs[0].startswith("a discrete agent has 1 actions (B = 1)")
        # the dataset's robot: the Turtlebot, 0.46 m/s (TurtleBot 4's published top speed); a
        # perfect agent stops τ = 1 m early
        need = (path_length(e.reference_path) - 1.0) / 0.46
        assert f"has 1 s (B = 1 × 1 s), the reference path needs {need:.1f} s" in msgs[1]
        assert "m less τ = 1 m at turtlebot's top speed 0.46 m/s" in msgs[1]
    only = check_budgets(dataset, per_word=0.01, action_space="discrete")
    assert all("discrete" in p.message for p in only.problems) and len(only.problems) == len(eps)
    with pytest.raises(ConfigError, match="action-space"):
        check_budgets(dataset, action_space="teleport")


def test_check_budgets_rollout_times_the_reference_path(dataset: Path) -> None:
    """The reference rollout takes at least the path length less τ at top speed, at most 300 s;
    a budget just below the rollout's time is reported, one just above is not."""
    import re

    from navbench.episodes.loader import load_dataset
    from navbench.eval.budget_check import check_budgets
    from navbench.geometry import path_length

    e = load_dataset(dataset).episodes("conditional", "eval")[0]
    words = len(e.instruction_text.split())
    # 1 action per word at 0.01 s: T = words × 0.01 s, far below any rollout
    rep = check_budgets(dataset, per_word=1.0, seconds_per_action=0.01, rollout=True,
                        action_space="waypoint")
    msg = next(p.message for p in rep.problems if p.field.endswith(f"/{e.episode_id}"))
    need = float(re.search(r"needs ([0-9.]+) s \(reference rollout, turtlebot\)", msg).group(1))
    assert (path_length(e.reference_path) - 1.0) / 0.46 <= need <= 300.0  # τ = 1 m, 0.46 m/s
    over = check_budgets(dataset, per_word=1.0, seconds_per_action=(need + 0.2) / words, rollout=True,
                         action_space="waypoint")
    assert not any(p.field.endswith(f"/{e.episode_id}") for p in over.problems)


def test_dataset_check_cli_lists_the_ids(dataset: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from navbench.cli import main

    with pytest.raises(SystemExit) as e:
        main(["dataset", "check", str(dataset), "--action-budget-per-word", "0.01"])
    out = capsys.readouterr()
    assert e.value.code == 2 and "Traceback" not in out.err
    assert "action budget: 4 of 4 episodes cannot be finished within it: conditional/eval/0" in out.out
    with pytest.raises(SystemExit) as e:
        main(["dataset", "check", str(dataset)])
    assert e.value.code == 0 and "OK" in capsys.readouterr().out
