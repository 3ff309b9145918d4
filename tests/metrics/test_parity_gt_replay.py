"""Done-when of issue 17: replaying a split's own ``_gt`` locations through ``navbench score``
gives SR 1 and nDTW 1 (VLN-CE's NDTW of the ground truth against itself), with both DTWs.

VLN-CE ``habitat_extensions/measures.py`` ``NDTW.update_metric``: a position equal to the
previous one adds no row (``if current_position == self.locations[-1]: return``), and
``nDTW = exp(-dtw(locations, gt_locations) / (len(gt_locations) * SUCCESS_DISTANCE))``. The
``_gt`` locations repeat a position at every turn, so the de-duplicated replay warps onto them
at zero cost: DTW = 0, nDTW = exp(0) = 1 exactly.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from navbench.cli import main
from navbench.episodes.dataset import DatasetSettings, build_dataset
from navbench.episodes.loader import load_dataset
from navbench.scene.procgen.indoor import generate_house


@pytest.fixture(scope="module")
def ds(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("gt") / "ds"
    build_dataset([generate_house(5, 4)], root, tasks=["conditional"], split="eval=1.0", seed=0,
                  settings=DatasetSettings(episodes_per_scene=4))
    return root


def _score(tmp: Path, ds: Path, preds: dict, *extra: str) -> dict:
    (tmp / "p.json").write_text(json.dumps(preds))
    with pytest.raises(SystemExit) as ex:
        main(["score", "--episodes", str(ds), "--predictions", str(tmp / "p.json"),
              "--out", str(tmp / "out"), *extra])
    assert ex.value.code == 0
    return json.loads((tmp / "out" / "metrics.json").read_text())


@pytest.mark.parametrize("dtw", ["exact", "fastdtw"])
def test_replaying_gt_locations_scores_sr_1_and_ndtw_1(ds: Path, tmp_path: Path, dtw: str) -> None:
    d = load_dataset(ds)
    gt = d.gt("conditional", "eval")
    eps = d.episodes("conditional", "eval")
    assert eps and all(e.episode_id in gt for e in eps)
    # the _gt file repeats positions (turns, STOP): the replay must drop them
    assert any(len({tuple(p) for p in g["locations"]}) < len(g["locations"]) for g in gt.values())
    preds = {eid: [{"position": p, "heading": 0.0, "stop": i == len(g["locations"]) - 1}
                   for i, p in enumerate(g["locations"])] for eid, g in gt.items()}
    res = _score(tmp_path, ds, preds, "--dtw", dtw)
    assert res["settings"]["ndtw_reference"] == "gt_locations" and res["settings"]["dtw_method"] == dtw
    # a navbench dataset: each episode's own τ and d ≤ τ by default (SPEC §5), not VLN-CE's 3 m
    assert res["settings"]["tau_source"] == "episodes" and res["settings"]["comparison"] == "<="
    taus = {e.episode_id: e.navbench["success_distance"] for e in eps}
    assert all(r["tau"] == taus[r["episode_id"]] for r in res["episodes"])
    assert res["summary"]["metrics"]["success"]["mean"] == 1.0
    assert res["summary"]["metrics"]["ndtw"]["mean"] == 1.0
    assert all(r["ndtw"] == 1.0 and r["sdtw"] == 1.0 for r in res["episodes"])


def test_reference_path_replay_without_gt_uses_the_dense_reference(ds: Path, tmp_path: Path) -> None:
    """Without the _gt file the reference path resampled every 0.25 m is R; an agent walking
    the reference path in 0.25 m steps then warps onto it at zero cost (nDTW 1), and SPL uses
    the start-to-goal geodesic (habitat), route-SPL the route through the subgoals."""
    import shutil

    copy = tmp_path / "ds"
    shutil.copytree(ds, copy)
    (copy / "conditional" / "eval" / "eval_gt.json.gz").unlink()
    eps = load_dataset(copy).episodes("conditional", "eval")
    walks = {e.episode_id: _walk(e.reference_path, 0.25) for e in eps}
    preds = {eid: [{"position": p, "heading": 0.0, "stop": i == len(w) - 1} for i, p in enumerate(w)]
             for eid, w in walks.items()}
    res = _score(tmp_path, copy, preds)
    assert res["settings"]["ndtw_reference"] == "dense_reference"
    for r, e in zip(res["episodes"], eps, strict=True):
        assert r["ndtw"] == pytest.approx(1.0, abs=1e-12) and r["success"] == 1.0
        L, P = e.navbench["direct_geodesic_distance"], r["path_length"]
        assert r["spl"] == pytest.approx(L / max(L, P), abs=1e-6)
        if e.navbench.get("subgoals"):
            assert r["route_spl"] == pytest.approx(1.0, abs=1e-3) and r["spl"] < 1.0
        else:
            assert r["route_spl"] is None and r["spl"] == pytest.approx(1.0, abs=1e-3)


def _walk(path, step: float) -> list[list[float]]:
    """Points every ``step`` m of arc length along ``path`` plus its end (a hand-rolled walker)."""
    import itertools
    import math

    out, carry = [list(map(float, path[0]))], 0.0
    for a, b in itertools.pairwise(path):
        seg = math.dist(a, b)
        t = step - carry
        while t <= seg + 1e-12:
            out.append([a[k] + (b[k] - a[k]) * t / seg for k in range(3)])
            t += step
        carry = seg - (t - step)
    if math.dist(out[-1], path[-1]) > 1e-9:
        out.append(list(map(float, path[-1])))
    return out
