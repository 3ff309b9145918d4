"""navbench report --dataset: episodes of the task each run evaluated, ids kept apart per task."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from navbench.episodes.dataset import DatasetSettings, build_dataset
from navbench.episodes.loader import load_dataset
from navbench.eval import EpisodeResult, ResultsDB
from navbench.report.build import build_report
from navbench.scene.procgen.indoor import generate_house


def _run(folder: Path, task: str, ids: list[str], success: list[float]) -> None:
    with ResultsDB(folder) as db:
        rid = db.get_or_create_run("oracle-goal", "h", {"task": task, "split": "eval"}, 0, "test")
        for eid, s in zip(ids, success, strict=True):
            db.add_episode(rid, EpisodeResult(
                eid, "s", "success" if s else "timeout", {"success": s, "spl": s},
                trajectory={"positions": np.zeros((2, 3))}))


def test_report_mixes_tasks_whose_episode_ids_overlap(tmp_path: Path) -> None:
    build_dataset([generate_house(31, 4), generate_house(32, 4)], tmp_path / "ds",
                  tasks=["conditional", "objectnav"], split="eval=1.0", seed=0,
                  settings=DatasetSettings(episodes_per_scene=3))
    ds = load_dataset(tmp_path / "ds")
    cond = [e.episode_id for e in ds.episodes("conditional", "eval")][:2]
    obj = [e.episode_id for e in ds.episodes("objectnav", "eval")][:2]
    assert set(cond) & set(obj)  # ids restart at 0 in every task file
    _run(tmp_path / "r1", "conditional", cond, [1.0, 0.0])
    _run(tmp_path / "r2", "objectnav", obj, [1.0, 1.0])
    html = build_report([tmp_path / "r1", tmp_path / "r2"], tmp_path / "rep", dataset=tmp_path / "ds")
    md = (tmp_path / "rep" / "report.md").read_text()
    assert html.is_file()
    # the conditional run: SR 50 % of 2; the objectnav run: 100 % of 2 — rows were not merged
    # Wilson intervals: 1 of 2 → [9.5, 90.5]; 2 of 2 → [1 − (z²/2)/(1 + z²/2), 1] = [34.2, 100.0]
    assert "50.0 [9.5, 90.5] (2)" in md and "100.0 [34.2, 100.0] (2)" in md
    figs = {p.name for p in (tmp_path / "rep" / "figures").iterdir()}
    assert f"bev_conditional-{cond[0]}.png" in figs and f"bev_objectnav-{obj[0]}.png" in figs
    # the failed conditional episode got a page (ids kept apart per task), linked from the report
    page = tmp_path / "rep" / "episodes" / f"conditional-oracle-goal-conditional-{cond[1]}.html"
    assert page.is_file() and f'href="episodes/{page.name}"' in html.read_text()
    assert [p.name for p in (tmp_path / "rep" / "episodes").iterdir()] == [page.name]
