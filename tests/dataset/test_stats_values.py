"""``navbench.episodes.stats.dataset_tables`` against plain-Python counts, means, medians and
path-length histograms computed from the episode files.

Bin edges (read from stats.py, written out here by hand): 0, 2.5, 5, 7.5, 10, 15, 20, 30, 50 m,
each bin ``[lo, hi)``, the last one ``>= 50`` open.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from navbench.episodes import Episode, Goal
from navbench.episodes.dataset import SCHEMA, DatasetSettings, build_dataset
from navbench.episodes.loader import Dataset, load_dataset
from navbench.episodes.stats import LENGTH_BINS, dataset_tables
from navbench.episodes.vlnce import write_r2r
from navbench.scene.procgen.indoor import generate_house

EDGES = (0.0, 2.5, 5.0, 7.5, 10.0, 15.0, 20.0, 30.0, 50.0)
LABELS = ["[0, 2.5)", "[2.5, 5)", "[5, 7.5)", "[7.5, 10)", "[10, 15)", "[15, 20)", "[20, 30)",
          "[30, 50)", ">= 50"]


def _median(xs: list[float]) -> float:
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def _hist(xs: list[float]) -> list[int]:
    counts = [0] * len(EDGES)
    for x in xs:
        for k, lo in enumerate(EDGES):
            hi = EDGES[k + 1] if k + 1 < len(EDGES) else float("inf")
            if lo <= x < hi:
                counts[k] += 1
                break
    return counts


def _expected(ds: Dataset) -> tuple[list[dict], list[dict]]:
    """(episodes rows, path_length rows) by hand, in task-major, split-minor order."""
    ep_rows, hist_rows = [], []
    for task in ds.tasks:
        for split in ds.splits:
            eps = ds.episodes(task, split)
            L = [e.geodesic_distance for e in eps]
            ep_rows.append({
                "task": task, "split": split, "episodes": len(L),
                "scenes": len({e.navbench.get("scene", e.scene_id) for e in eps}),
                "mean_L": round(sum(L) / len(L), 2) if L else None,
                "median_L": round(_median(L), 2) if L else None,
            })
            for label, n in zip(LABELS, _hist(L), strict=True):
                hist_rows.append({"task": task, "split": split, "L (m)": label, "episodes": n})
    return ep_rows, hist_rows


def test_bin_edges_are_the_documented_ones() -> None:
    assert tuple(LENGTH_BINS) == EDGES


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Dataset:
    out = tmp_path_factory.mktemp("stats") / "ds"
    build_dataset([generate_house(41, n_rooms=4), generate_house(42, n_rooms=4)], out,
                  tasks=["conditional", "objectnav", "route"], split="train=0.5,eval=0.5", seed=3,
                  settings=DatasetSettings(episodes_per_scene=4))
    return load_dataset(out)


def test_built_dataset_tables_match_hand_values(built: Dataset) -> None:
    t = dataset_tables(built)
    ep_rows, hist_rows = _expected(built)
    assert sum(r["episodes"] for r in ep_rows) > 0
    assert t["episodes"] == ep_rows
    assert t["path_length"] == hist_rows
    # every episode lands in exactly one bin
    for r in ep_rows:
        assert sum(h["episodes"] for h in hist_rows
                   if (h["task"], h["split"]) == (r["task"], r["split"])) == r["episodes"]


def _ep(eid: str, scene: str, L: float) -> Episode:
    return Episode(eid, f"scenes/{scene}/scene.json", (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0),
                   (Goal((1.0, 0.0, 0.0)),), instruction_text="go to the lamp",
                   geodesic_distance=L, info={"navbench": {"scene": scene, "task": "route"}})


def test_hand_built_dataset_bin_edges(tmp_path: Path) -> None:
    """Lengths on and around the edges: a value equal to an edge opens the next bin."""
    lengths = {"a": [0.0, 2.4999, 2.5, 7.5], "b": [12.0, 49.99, 50.0, 123.4]}
    eps = [_ep(str(i), s, L) for i, (s, L) in enumerate((s, L) for s, ls in lengths.items() for L in ls)]
    files = {"route": {sp: {"episodes": f"route/{sp}/{sp}.json.gz"} for sp in ("train", "eval")}}
    write_r2r(tmp_path / "route/train/train.json.gz", eps)
    write_r2r(tmp_path / "route/eval/eval.json.gz", [])
    (tmp_path / "manifest.json").write_text(json.dumps({
        "schema": SCHEMA, "seed": 0, "tasks": ["route"],
        "splits": {"train": ["a", "b"], "eval": []}, "counts": {}, "files": files,
        "dropped": {}, "scenes": {}}))
    t = dataset_tables(load_dataset(tmp_path))
    # by hand: sum = 0 + 2.4999 + 2.5 + 7.5 + 12 + 49.99 + 50 + 123.4 = 247.8899 → mean 30.99;
    # median = (7.5 + 12) / 2 = 9.75
    assert t["episodes"] == [
        {"task": "route", "split": "train", "episodes": 8, "scenes": 2, "mean_L": 30.99,
         "median_L": 9.75},
        {"task": "route", "split": "eval", "episodes": 0, "scenes": 0, "mean_L": None,
         "median_L": None},
    ]
    train = {r["L (m)"]: r["episodes"] for r in t["path_length"] if r["split"] == "train"}
    assert list(train) == LABELS
    assert train == {"[0, 2.5)": 2, "[2.5, 5)": 1, "[5, 7.5)": 0, "[7.5, 10)": 1, "[10, 15)": 1,
                     "[15, 20)": 0, "[20, 30)": 0, "[30, 50)": 1, ">= 50": 2}
    assert [r["episodes"] for r in t["path_length"] if r["split"] == "eval"] == [0] * 9
    assert set(t) == {"episodes", "path_length"}  # no grouping field set: no by_* tables
