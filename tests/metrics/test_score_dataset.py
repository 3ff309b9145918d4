"""navbench score on a navbench dataset folder: defaults to the conditional task's eval split."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from navbench.cli import main
from navbench.episodes.dataset import DatasetSettings, build_dataset
from navbench.episodes.loader import load_dataset
from navbench.scene.procgen.indoor import generate_house


def test_score_reference_paths_of_a_navbench_dataset(tmp_path: Path) -> None:
    build_dataset([generate_house(5, 4)], tmp_path / "ds", tasks=["conditional"], split="eval=1.0",
                  seed=0, settings=DatasetSettings(episodes_per_scene=4))
    eps = load_dataset(tmp_path / "ds").episodes("conditional", "eval")
    # an r2r prediction file that walks each reference path and stops at its end (the goal)
    preds = {e.episode_id: [{"position": list(p), "heading": 0.0, "stop": i == len(e.reference_path) - 1}
                            for i, p in enumerate(e.reference_path)] for e in eps}
    (tmp_path / "p.json").write_text(json.dumps(preds))
    with pytest.raises(SystemExit) as ex:
        main(["score", "--episodes", str(tmp_path / "ds"), "--predictions", str(tmp_path / "p.json"),
              "--out", str(tmp_path / "out")])
    assert ex.value.code == 0
    res = json.loads((tmp_path / "out" / "metrics.json").read_text())
    per = res["episodes"]
    assert len(per) == len(eps)
    # ending exactly on the goal: success 1, NE 0. Without subgoals P = L (the path is the
    # reference) → SPL 1. With subgoals the reference runs through them: route-SPL 1, while SPL
    # keeps habitat's L = start-to-goal geodesic, so SPL = L / P (SPEC §5).
    assert all(r["success"] == 1.0 and r["ne"] == pytest.approx(0.0, abs=1e-6) for r in per)
    by_id = {str(e.episode_id): e for e in eps}
    for r in per:
        if r["route_spl"] is None:
            assert r["spl"] == pytest.approx(1.0, abs=1e-3)
        else:
            ep = by_id[str(r["episode_id"])]
            assert r["route_spl"] == pytest.approx(1.0, abs=1e-3)
            direct = ep.info["navbench"]["direct_geodesic_distance"]  # the file keeps both lengths
            assert r["spl"] == pytest.approx(direct / r["path_length"], rel=1e-2)


def test_score_objectnav_predictions_by_navverse_distance(tmp_path: Path) -> None:
    """An ObjectNav split (habitat layout: episodes in content/) is scored: walking each
    reference path to its end stops within τ of an instance, measured like evaluate does
    (3D distance minus half the object's size). Before, the CLI read every file as R2R and
    refused ObjectNav ('instruction_vocab ... mandatory')."""
    import math

    build_dataset([generate_house(5, 4)], tmp_path / "ds", tasks=["objectnav"], split="eval=1.0",
                  seed=0, settings=DatasetSettings(episodes_per_scene=4))
    eps = load_dataset(tmp_path / "ds").episodes("objectnav", "eval")
    assert eps
    preds = {e.episode_id: [{"position": list(p), "heading": 0.0,
                             "stop": i == len(e.reference_path) - 1}
                            for i, p in enumerate(e.reference_path)] for e in eps}
    (tmp_path / "p.json").write_text(json.dumps(preds))
    with pytest.raises(SystemExit) as ex:
        main(["score", "--episodes", str(tmp_path / "ds"), "--task", "objectnav",
              "--predictions", str(tmp_path / "p.json"), "--out", str(tmp_path / "out")])
    assert ex.value.code == 0
    res = json.loads((tmp_path / "out" / "metrics.json").read_text())
    assert res["settings"]["distance_to_goal"] == "euclidean"
    for r in res["episodes"]:  # NE by hand: min over instances of ‖end − centre‖ − ½ max size
        e = next(x for x in eps if str(x.episode_id) == str(r["episode_id"]))
        end = e.reference_path[-1]
        ne = min(max(0.0, math.dist(end, g.position) - 0.5 * max(g.size[0], g.size[2]))
                 for g in e.goals if g.size is not None)
        assert r["ne"] == pytest.approx(ne, abs=1e-6) and r["success"] == 1.0


def test_score_success_rule_habitat_needs_stop_navverse_does_not(tmp_path: Path) -> None:
    build_dataset([generate_house(5, 4)], tmp_path / "ds", tasks=["objectnav"], split="eval=1.0",
                  seed=0, settings=DatasetSettings(episodes_per_scene=3))
    eps = load_dataset(tmp_path / "ds").episodes("objectnav", "eval")
    # walk each reference path to its end (within τ of an instance) and never call STOP
    preds = {e.episode_id: [{"position": list(p), "heading": 0.0, "stop": False}
                            for p in e.reference_path] for e in eps}
    (tmp_path / "p.json").write_text(json.dumps(preds))
    got = {}
    for rule in ("habitat", "navverse"):
        with pytest.raises(SystemExit) as ex:
            main(["score", "--episodes", str(tmp_path / "ds"), "--task", "objectnav",
                  "--predictions", str(tmp_path / "p.json"), "--out", str(tmp_path / rule),
                  "--success-rule", rule])
        assert ex.value.code == 0
        res = json.loads((tmp_path / rule / "metrics.json").read_text())
        assert res["settings"]["success_rule"] == rule
        got[rule] = {(r["success"], r["termination"]) for r in res["episodes"]}
    assert got == {"habitat": {(0.0, "timeout")}, "navverse": {(1.0, "success")}}
    with pytest.raises(SystemExit) as ex:
        main(["score", "--episodes", str(tmp_path / "ds"), "--task", "objectnav",
              "--predictions", str(tmp_path / "p.json"), "--success-rule", "vlnce"])
    assert ex.value.code == 2
