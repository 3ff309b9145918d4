"""Report run names: two robots evaluated on one dataset are named by agent and robot."""

from __future__ import annotations

import warnings
from pathlib import Path

from navbench.eval.pipeline import EvalSettings, evaluate
from navbench.report.runs import read_runs

AGENT = "tests.eval.pipeline_agents:StopNow"


def test_two_robots_on_one_dataset_are_named_by_agent_and_robot(cond_dataset: Path,
                                                                 tmp_path: Path) -> None:
    out = tmp_path / "run"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the dataset's paths were planned for the other robot
        for robot in ("spot", "turtlebot"):
            evaluate(cond_dataset, AGENT, out, EvalSettings(embodiment=robot, episodes="0,1"),
                     progress=False)
    rows, _ = read_runs([out])
    assert sorted(rows) == [f"{AGENT} · spot · conditional", f"{AGENT} · turtlebot · conditional"]
    assert {r["run_embodiment"] for r in rows[f"{AGENT} · spot · conditional"]} == {"spot"}
    # one more run of the same robot (another seed): the seed names it
    evaluate(cond_dataset, AGENT, out, EvalSettings(embodiment="spot", episodes="0,1", seed=3),
             progress=False, warn=lambda m: None)
    rows, _ = read_runs([out])
    assert set(rows) == {f"{AGENT} · turtlebot · conditional", f"{AGENT} · spot (seed 0) · conditional",
                         f"{AGENT} · spot (seed 3) · conditional"}
