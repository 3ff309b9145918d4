"""Evaluation runs the robot a dataset was built for; oracle-path succeeds physically on it."""

from __future__ import annotations

from pathlib import Path

import pytest

from navbench.episodes.dataset import DatasetSettings, build_dataset
from navbench.eval.pipeline import EvalSettings, evaluate, plan_evaluation
from navbench.scene.procgen.indoor import generate_house


@pytest.fixture(scope="module")
def turtle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("embeval") / "ds"
    build_dataset([generate_house(s) for s in (41, 42, 43)], out, tasks=["conditional", "objectnav"],
                  split="eval=1.0", seed=1,
                  settings=DatasetSettings(episodes_per_scene=7, embodiment="turtlebot"))
    return out


def test_default_embodiment_is_the_datasets_and_overrides_warn(turtle: Path) -> None:
    notes: list[str] = []
    run, pairs, kw, _ = plan_evaluation(turtle, "random", EvalSettings(), notes.append)
    assert run["embodiment"] == "turtlebot" and not notes
    assert kw["embodiment"] is None and set(kw["embodiments"].values()) == {"turtlebot"}
    assert set(kw["embodiments"]) == {s for _, s in pairs}
    run, _, kw, _ = plan_evaluation(turtle, "random", EvalSettings(embodiment="spot"), notes.append)
    assert run["embodiment"] == "spot" and set(kw["embodiments"].values()) == {"spot"}
    assert len(notes) == 1 and "planned for turtlebot" in notes[0]
    with pytest.warns(UserWarning, match="planned for turtlebot"):
        plan_evaluation(turtle, "random", EvalSettings(embodiment="spot"))


def test_cli_prints_the_mismatch_warning(turtle: Path, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    from navbench.cli import main

    with pytest.raises(SystemExit) as e:
        main(["evaluate", str(turtle), "--agent", "forward", "--out", str(tmp_path / "r"),
              "--embodiment", "spot", "--episodes", "0", "--max-time", "1"])
    assert e.value.code == 0
    assert "warning: --embodiment spot: the dataset's paths were planned for turtlebot" in capsys.readouterr().err


def test_oracle_path_succeeds_on_a_turtlebot_dataset(turtle: Path, tmp_path: Path) -> None:
    s = evaluate(turtle, "oracle-path", tmp_path / "op", EvalSettings(), progress=False)
    assert s.total >= 18
    assert s.labels.get("success", 0) >= 0.95 * s.total
    assert s.summary["SR"] >= 0.95


@pytest.mark.parametrize("agent", ["oracle-path", "oracle-goal"])
def test_objectnav_oracles_succeed_on_a_turtlebot_dataset(turtle: Path, tmp_path: Path, agent: str) -> None:
    # τ = 1.18 m leaves the follower 0.18 m: approach points sit at DTG ≤ τ − 0.2 m, and
    # oracle-goal plans on the dataset's navmesh (0.32 m clearance), so every goal is reachable
    s = evaluate(turtle, agent, tmp_path / agent, EvalSettings(task="objectnav"), progress=False)
    assert s.total >= 10
    assert s.labels.get("success", 0) >= 0.95 * s.total and not s.labels.get("agent_error")


def test_oracle_fallback_clearance_follows_the_observed_robot() -> None:
    from navbench.agents.oracle import clearance_for_radius

    assert clearance_for_radius(0.18) == 0.32 and clearance_for_radius(0.6) == 0.4
    assert clearance_for_radius(None) == 0.4 and clearance_for_radius(0.3) == 0.3
