"""External predictions are scored at the stop point as given: a stop off the navmesh is not
moved onto the nearest navigable point before the success decision, and such stops are counted."""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from navbench.cli import app
from navbench.nav import NavMesh, NavSettings
from tests.nav.worlds import pillar_room

GOAL = [1.40, 0.0, 2.0]
# inside the 1 x 1 m pillar's 0.1 m erosion band (x in [2.4, 3.6]), 1.04 m from the goal
OFF = [2.44, 0.0, 2.0]
ON = [2.30, 0.0, 2.0]  # on the navmesh, in line of sight: geodesic = 0.90 m


def _episode(eid: int) -> dict:
    return {"episode_id": eid, "trajectory_id": 0, "scene_id": "scenes/pillar.glb",
            "start_position": [0.5, 0.0, 2.0], "start_rotation": [0, 0, 0, 1],
            "goals": [{"position": GOAL, "radius": 1.0}],
            "instruction": {"instruction_text": "go", "instruction_tokens": []},
            "reference_path": [[0.5, 0.0, 2.0], GOAL], "info": {"geodesic_distance": 0.9}}


@pytest.fixture(scope="module")
def navmesh() -> NavMesh:
    return NavMesh.build(pillar_room(), NavSettings.preset("indoor"))


def test_stop_off_the_navmesh_is_scored_where_it_is(tmp_path: Path, navmesh: NavMesh) -> None:
    data = tmp_path / "data" / "val_unseen"
    data.mkdir(parents=True)
    (data / "val_unseen.json.gz").write_bytes(gzip.compress(json.dumps(
        {"episodes": [_episode(1), _episode(2)],
         "instruction_vocab": {"word_list": ["go"]}}).encode()))
    (tmp_path / "data" / "navmeshes").mkdir()
    navmesh.save(tmp_path / "data" / "navmeshes" / "pillar.npz")
    start = {"position": [0.5, 0.0, 2.0], "heading": 0.0, "stop": False}
    preds = {"1": [start, {"position": OFF, "heading": 0.0, "stop": True}],
             "2": [start, {"position": ON, "heading": 0.0, "stop": True}]}
    (tmp_path / "p.json").write_text(json.dumps(preds))
    # the nearest navigable point is 0.975 m from the goal: scoring from it called the
    # 1.04 m stop a success with τ = 1.0
    snapped = navmesh.snap_point(OFF)
    assert snapped is not None and navmesh.geodesic_distance(OFF, GOAL) < 1.0
    out = tmp_path / "out"
    res = CliRunner().invoke(app, ["score", "--episodes", str(data / "val_unseen.json.gz"),
                                   "--predictions", str(tmp_path / "p.json"), "--tau", "1.0",
                                   "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "stop points off the navmesh: 1" in res.output
    doc = json.loads((out / "metrics.json").read_text())
    assert doc["settings"]["stop_off_navmesh"] == 1
    r = {row["episode_id"]: row for row in doc["episodes"]}
    # the way from the stop through the navigable point: never below the straight line 1.04 m
    walk = math.dist(OFF, snapped) + math.dist(snapped, GOAL)
    assert r["1"]["stop_off_navmesh"] is True and r["1"]["success"] == 0.0
    assert r["1"]["ne"] == pytest.approx(walk, abs=1e-6) and r["1"]["ne"] >= 1.04
    assert r["2"]["stop_off_navmesh"] is False and r["2"]["success"] == 1.0
    assert r["2"]["ne"] == pytest.approx(0.90, abs=1e-6)


def test_far_off_the_navmesh_is_the_straight_line(navmesh: NavMesh, tmp_path: Path) -> None:
    from navbench.episodes import Episode, Goal
    from navbench.metrics.scoring import NavmeshGeodesic

    (tmp_path / "nm").mkdir()
    navmesh.save(tmp_path / "nm" / "pillar.npz")
    geo = NavmeshGeodesic(tmp_path / "nm")
    ep = Episode("1", "scenes/pillar.glb", (0.5, 0.0, 2.0), (0, 0, 0, 1), (Goal(tuple(GOAL)),))
    # 3 m outside the room: nothing navigable within the 1 m snap radius → ‖p − g‖
    far = np.array([[1.4, 0.0, -3.0], ON, OFF])
    d = geo(ep, far)
    assert d[0] == pytest.approx(5.0) and d[1] == pytest.approx(0.9)
    assert list(geo.off_navmesh(ep, far)) == [True, False, True]
