"""The built-in ``oracle-branch-grounded`` agent through the evaluation pipeline (it renders:
160 x 120 images keep it small) on two conditional episodes of a one-house dataset.

Success is checked from the stored trajectory, not from the recorded metrics: the final base
position must lie within the episode's τ of its goal (NavVerse DTG: 3D distance minus the goal's
horizontal half-extent, 0 for point goals).
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from navbench.episodes.dataset import DatasetSettings, build_dataset
from navbench.episodes.loader import load_dataset
from navbench.eval import ResultsDB
from navbench.eval.pipeline import EvalSettings, evaluate
from navbench.scene.procgen.indoor import generate_house

#: SPEC termination labels (one per episode).
LABELS = ("success", "perception_error", "fall", "timeout", "stopped")


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    root = tmp_path_factory.mktemp("grounded")
    ds = root / "ds"
    build_dataset([generate_house(3, 3)], ds, tasks=["conditional"], split="eval=1.0",
                  settings=DatasetSettings(episodes_per_scene=3))
    out = root / "run"
    summary = evaluate(ds, "oracle-branch-grounded", out,
                       EvalSettings(episodes="0,1", width=160, height=120), progress=False)
    assert summary.total == 2 and summary.completed == 2
    return ds, out, summary.run_id


def test_grounded_oracle_labels_and_final_positions(run: tuple[Path, Path, str]) -> None:
    ds_path, out, run_id = run
    eps = {e.episode_id: e for e in load_dataset(ds_path).episodes("conditional", "eval")}
    with ResultsDB(out) as db:
        rows = db.rows(run_id)
        assert sorted(r["episode_id"] for r in rows) == ["0", "1"]
        successes = 0
        for r in rows:
            assert r["label"] in LABELS, (r["episode_id"], r["label"], r["error"])
            traj = db.trajectory(run_id, r["episode_id"])
            assert traj is not None
            assert str(traj["label"][-1]) == r["label"]
            if r["label"] != "success":
                continue
            successes += 1
            ep = eps[r["episode_id"]]
            tau = float(ep.navbench["success_distance"])
            final = [float(v) for v in traj["positions"][-1]]
            d = min(max(0.0, math.dist(final, g.position)
                        - (0.5 * max(g.size[0], g.size[2]) if g.size is not None else 0.0))
                    for g in ep.goals)
            assert d <= tau, (r["episode_id"], final, [g.position for g in ep.goals], tau)
    assert successes >= 1  # the check above must not be vacuous
