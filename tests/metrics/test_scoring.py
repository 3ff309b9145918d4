"""Scoring external runs: hand-written VLN-CE r2r / rxr files give hand-computed numbers."""

from __future__ import annotations

import csv
import gzip
import json
import math

import numpy as np
import pytest
from typer.testing import CliRunner

from navbench.cli import app
from navbench.episodes import read_r2r
from navbench.errors import EpisodeFormatError
from navbench.metrics import Trajectory, load_trajectories, save_trajectories
from navbench.metrics.scoring import read_predictions, score_episodes


def _ep(eid, goal, L, ref, **extra):
    return {"episode_id": eid, "trajectory_id": 0, "scene_id": "scenes/s.glb",
            "start_position": [0, 0, 0], "start_rotation": [0, 0, 0, 1],
            "goals": [{"position": goal, "radius": 3.0}],
            "instruction": {"instruction_text": "go", "instruction_tokens": [], **extra},
            "reference_path": ref, "info": {"geodesic_distance": L}}


EPISODES = {"episodes": [
    _ep(1, [3, 0, 4], 5.0, [[0, 0, 0], [3, 0, 0], [3, 0, 4]], instruction_id=101),
    _ep(2, [0, 0, -6], 6.0, [[0, 0, 0], [0, 0, -6]], instruction_id=102),
    _ep(3, [0, 0, 3], 3.0, [[0, 0, 0], [0, 0, 3]], instruction_id=103),
    _ep(5, [1, 0, 0], 1.0, [[0, 0, 0], [1, 0, 0]], instruction_id=105),
], "instruction_vocab": {"word_list": ["<PAD>", "<UNK>", "go"]}}

PRED = {
    "1": [{"position": [0, 0, 0], "heading": 0.0, "stop": False},
          {"position": [3, 0, 0], "heading": 1.57, "stop": False},
          {"position": [3, 0, 2], "heading": 0.0, "stop": True}],
    "2": [{"position": [0, 0, 0], "heading": 0.0, "stop": False},
          {"position": [0, 0, -1], "heading": 0.0, "stop": False},
          {"position": [0, 0, -2], "heading": 0.0, "stop": False}],
    "3": [{"position": [0, 0, 0], "heading": 0.0, "stop": True}],
    "99": [{"position": [0, 0, 0], "heading": 0.0, "stop": True}],
}


@pytest.fixture
def files(tmp_path):
    ep = tmp_path / "data" / "val_unseen" / "val_unseen.json.gz"
    ep.parent.mkdir(parents=True)
    ep.write_bytes(gzip.compress(json.dumps(EPISODES).encode()))
    # the _gt locations are the reference paths themselves: nDTW is hand-computable
    gt = {str(e["episode_id"]): {"locations": e["reference_path"], "actions": [0], "forward_steps": 0}
          for e in EPISODES["episodes"]}
    (ep.parent / "val_unseen_gt.json.gz").write_bytes(gzip.compress(json.dumps(gt).encode()))
    pr = tmp_path / "pred.json"
    pr.write_text(json.dumps(PRED))
    return ep, pr


def _gt(ep):
    from navbench.episodes import read_gt

    return read_gt(ep.parent / "val_unseen_gt.json.gz")


def test_r2r_hand_computed(files):
    ep, pr = files
    res = score_episodes(read_r2r(ep), read_predictions(pr), fmt="r2r", gt=_gt(ep))  # VLN-CE: τ=3, d < τ
    r = {row["episode_id"]: row for row in res.rows}
    # ep 1: d = 5, 4, 2 → success (2 < 3); P = 3 + 2 = 5 = L → SPL 1; SS = 1 − 2/5
    # DTW: (0,0) 0 + (1,1) 0 + (2,2) 2 = 2 → nDTW = exp(−2 / (3·3))
    assert r["1"]["success"] == 1.0 and r["1"]["spl"] == 1.0 and r["1"]["ne"] == 2.0
    assert r["1"]["soft_success"] == pytest.approx(0.6)
    assert r["1"]["ndtw"] == pytest.approx(math.exp(-2 / 9)) and r["1"]["sdtw"] == r["1"]["ndtw"]
    # ep 2: never stopped; d = 6, 5, 4 → no OS; DTW: 0 + 1 + |−2 − (−6)| = 5 → exp(−5 / 6)
    assert r["2"]["success"] == 0.0 and r["2"]["oracle_success"] == 0.0 and r["2"]["ne"] == 4.0
    assert r["2"]["ndtw"] == pytest.approx(math.exp(-5 / 6)) and r["2"]["sdtw"] == 0.0
    assert r["2"]["termination"] == "timeout"
    # ep 3: stopped at the start, d = 3 = τ → fails with VLN-CE's strict '<'
    assert r["3"]["success"] == 0.0 and r["3"]["spl"] == 0.0 and r["3"]["oracle_success"] == 0.0
    # ep 5 has no prediction: a failed episode (SR 0, SPL 0, SDTW 0; L = 1 m), no NE or nDTW
    assert r["5"]["termination"] == "no_prediction" and r["5"]["geodesic_length"] == 1.0
    assert (r["5"]["success"], r["5"]["spl"], r["5"]["sdtw"], r["5"]["ne"]) == (0.0, 0.0, 0.0, None)
    s = res.summary["metrics"]
    assert s["success"]["mean"] == pytest.approx(1 / 4) and s["spl"]["mean"] == pytest.approx(1 / 4)
    assert s["ne"]["mean"] == pytest.approx(3.0) and s["ne"]["n"] == 3
    assert s["ndtw"]["mean"] == pytest.approx((math.exp(-2 / 9) + math.exp(-5 / 6) + math.exp(-3 / 6)) / 3)
    assert res.missing == ["5"] and res.unmatched == ["99"]
    assert res.terminations["no_prediction"] == 1
    skipped = score_episodes(read_r2r(ep), read_predictions(pr), fmt="r2r", gt=_gt(ep), missing="skip")
    assert skipped.summary["metrics"]["success"]["mean"] == pytest.approx(1 / 3)
    assert [row["episode_id"] for row in skipped.rows] == ["1", "2", "3"]
    inclusive = score_episodes(read_r2r(ep), read_predictions(pr), strict=False)
    assert {row["episode_id"]: row["success"] for row in inclusive.rows}["3"] == 1.0


def test_rxr_lines_match_instruction_ids(tmp_path, files):
    ep, _ = files
    pr = tmp_path / "rxr.jsonl"
    pr.write_text('{"instruction_id": 101, "path": [[0,0,0],[3,0,0],[3,0,2]]}\n'
                  '{"instruction_id": 102, "path": [[0,0,0],[0,0,-4]]}\n')
    res = score_episodes(read_r2r(ep), read_predictions(pr), fmt="rxr")
    r = {row["episode_id"]: row for row in res.rows}
    assert r["1"]["success"] == 1.0  # rxr paths end where the agent stopped
    assert r["2"]["success"] == 1.0 and r["2"]["ne"] == 2.0 and r["2"]["spl"] == pytest.approx(6 / 6)


def test_unreachable_flagged_via_geodesic(files):
    ep, pr = files

    def geo(episode, positions):  # episode 2 sits on another island: infinite geodesic
        inf = episode.episode_id == "2"
        return np.full(len(positions), math.inf) if inf else np.linalg.norm(
            np.asarray(positions) - np.asarray(episode.goals[0].position), axis=1)

    res = score_episodes(read_r2r(ep), read_predictions(pr), geodesic=geo)
    assert res.unreachable == ["2"]
    # 1 and 3 scored, 5 (no prediction) a failure, 2 excluded
    assert res.summary["unreachable"] == 1 and res.summary["metrics"]["success"]["n"] == 3
    assert res.settings["distance_to_goal"] == "geodesic"


def test_bad_prediction_files(tmp_path):
    p = tmp_path / "p.json"
    p.write_text(json.dumps({"1": [{"position": [0, 0], "heading": 0, "stop": True}]}))
    with pytest.raises(EpisodeFormatError) as ei:
        read_predictions(p, "r2r")
    assert ei.value.field == "1[0].position"
    p.write_text('{"instruction_id": 1}\n')
    with pytest.raises(EpisodeFormatError, match="line 1"):
        read_predictions(p, "rxr")


def test_trajectory_files_round_trip_and_reproducible(tmp_path):
    t = Trajectory("7", [[0, 0, 0], [1, 0, 0]], True, timestamps=[0.0, 0.1], headings=[0.0, 0.5],
                   collisions=[False, True], obstacle_distances=[0.4, 0.0],
                   surfaces=["floor", "road"], termination="fall")
    u = Trajectory("8", [[2, 0, 2]], False)
    for name in ("t.json", "t.json.gz", "t.npz"):
        a, b = tmp_path / name, tmp_path / ("b_" + name)
        save_trajectories(a, [t, u])
        save_trajectories(b, [t, u])
        assert a.read_bytes() == b.read_bytes()
        back = load_trajectories(a)
        assert [x.to_dict() for x in back] == [t.to_dict(), u.to_dict()]
    (tmp_path / "bad.json").write_text('{"schema": "other"}')
    with pytest.raises(EpisodeFormatError, match="schema"):
        load_trajectories(tmp_path / "bad.json")


def test_cli_score_writes_json_and_csv(files, tmp_path):
    ep, pr = files
    out = tmp_path / "out"
    res = CliRunner().invoke(app, ["score", "--episodes", str(ep.parent.parent), "--predictions",
                                   str(pr), "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "Euclidean" in res.output and "success" in res.output
    doc = json.loads((out / "metrics.json").read_text())
    assert doc["summary"]["metrics"]["success"]["mean"] == pytest.approx(1 / 4)  # 5: no prediction
    assert "without a prediction (scored as failures: SR 0, SPL 0): 1" in " ".join(res.output.split())
    # a VLN-CE file: VLN-CE's defaults (τ = 3.0 m, d < τ, fastdtw) and τ printed
    assert doc["settings"]["comparison"] == "<" and doc["settings"]["dtw_method"] == "fastdtw"
    assert doc["settings"]["tau"] == 3.0 and "τ = 3 m" in res.output
    with open(out / "per_episode.csv") as f:
        rows = list(csv.DictReader(f))
    assert [r["episode_id"] for r in rows] == ["1", "2", "3", "5"] and rows[0]["spl"] == "1.0"
    assert rows[1]["spl"] == "0.0" and rows[0]["bsa"] == ""  # plain R2R: no BSA
    res = CliRunner().invoke(app, ["score", "--episodes", str(ep), "--predictions", str(pr),
                                   "--inclusive", "--dtw", "fastdtw", "--missing", "skip",
                                   "--out", str(tmp_path / "skip")])
    assert res.exit_code == 0, res.output
    assert "(left out of every mean: --missing skip): 1" in " ".join(res.output.split())
    doc = json.loads((tmp_path / "skip" / "metrics.json").read_text())
    assert doc["summary"]["episodes"] == 3


def test_conditional_episode_facts_from_info():
    from navbench.episodes import Episode, Goal

    ep = Episode("c1", "s.glb", (0, 0, 0), (0, 0, 0, 1), (Goal((4, 0, 0), 1.0, "o1", (1.0, 1.0, 3.0)),),
                 "if ...", (), 4.0, info={"navbench": {
                     "task": "conditional", "depth": 2, "success_distance": 1.0,
                     "subgoals": [{"position": [2, 0, 0], "object_id": "o5"}],
                     "branch_goals": [[0, 0, 4]]}})
    # ends at the other branch's goal after passing the subgoal: BSA 1 (1/1), CSR 0
    t = Trajectory("c1", [[0, 0, 0], [2, 0, 0], [0, 0, 4]], True)
    res = score_episodes([ep], {"c1": t}, tau=None, strict=False)
    (r,) = res.rows
    assert r["task"] == "conditional" and r["depth"] == 2 and r["tau"] == 1.0
    # goal size 1×1×3 → r_goal = 1.5; d_T = √32 − 1.5
    assert r["ne"] == pytest.approx(math.sqrt(32) - 1.5)
    assert r["bsa"] == 1.0 and r["csr"] == 0.0 and r["branch_outcome"] == "other_branch"
    assert res.branch_confusion == {"correct": 0, "other_branch": 1, "elsewhere": 0}


def test_object_goal_off_the_navmesh_is_scored_not_flagged(tmp_path):
    """A goal centre the navmesh cannot snap (an object 1.5 m outside the house) is reachable
    through the reference path's end within τ: scored with the NavVerse distance, not excluded."""
    from navbench.episodes import Episode, Goal
    from navbench.metrics.scoring import NavmeshGeodesic
    from navbench.nav import NavMesh, NavSettings
    from tests.conftest import two_room_scene

    (tmp_path / "nm").mkdir()
    NavMesh.build(two_room_scene(), NavSettings.preset("indoor")).save(tmp_path / "nm" / "two_rooms.npz")
    goal = Goal((-1.5, 0.4, -3.0), size=(2.0, 0.8, 2.0))  # r_goal = 1.0 m
    info = {"navbench": {"scene": "two_rooms", "success_distance": 1.18}}
    ok = Episode("o", "scenes/two_rooms/scene.json", (2.0, 0.0, -3.0), (0, 0, 0, 1), (goal,),
                 geodesic_distance=1.5, reference_path=((2.0, 0.0, -3.0), (0.5, 0.0, -3.0)), info=info)
    bad = Episode("b", ok.scene_id, ok.start_position, ok.start_rotation, (goal,), geodesic_distance=1.5,
                  reference_path=((2.0, 0.0, -3.0), (3.0, 0.0, -3.0)), info=info)
    walk = Trajectory("o", np.array([[2.0, 0, -3.0], [1.0, 0, -3.0], [0.5, 0, -3.0]]), True)
    geo = NavmeshGeodesic(tmp_path / "nm")
    res = score_episodes([ok, bad], {"o": walk, "b": Trajectory("b", walk.positions, True)},
                         tau=None, strict=False, geodesic=geo, start_length=geo.start_length)
    r = {row["episode_id"]: row for row in res.rows}
    # ‖(0.5, 0, −3) − (−1.5, 0.4, −3)‖ − 1.0 = hypot(2, 0.4) − 1 = 1.0396 m ≤ 1.18 m → success
    assert r["o"]["reachable"] is True and r["o"]["success"] == 1.0
    assert r["o"]["ne"] == pytest.approx(math.hypot(2.0, 0.4) - 1.0) and r["o"]["dtg_kind"] == "euclidean"
    assert r["b"]["reachable"] is False and res.unreachable == ["b"]  # its reference ends 3.5 m away
