"""Indoor-to-outdoor scenes on a real map: the house stands behind a road-facing mapped building,
its exit on that facade and facing the street, the buildings it replaced gone with their
storefronts; the CLI builds it (``scenes hybrid --osm``); episodes of every task come out of
OSM scenes (slow: a dataset build and oracle runs)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import navbench.scene as ns
from navbench.geometry import heading_vector, point_in_polygon
from navbench.scene.sources.osm_hybrid import load_osm_hybrid
from tests.sources.osm_builder import Osm, bbox

HALF = 70.0


def street_map(tmp: Path) -> Path:
    """Main St along z = 0; a 30 x 20 m building 2 m behind its south sidewalk (z = 11.25..31.25)
    with a bakery, a café across the street, a second building far east."""
    o = Osm()
    o.way([(-90.0, 0.0), (90.0, 0.0)], {"highway": "residential", "name": "Main St"})
    o.rect(-15, 8.25, 15, 28.25, {"building": "yes", "building:levels": "3"}, wid=10)
    o.node(0.0, 20.0, {"shop": "bakery", "name": "Brot"})
    o.rect(-15, -28.25, 15, -8.25, {"building": "yes"}, wid=11)
    o.node(0.0, -20.0, {"amenity": "cafe", "name": "Tasse"})
    o.rect(40, 8.25, 60, 28.25, {"building": "yes"}, wid=12)
    return o.write(tmp / "main.osm")


def test_the_house_stands_behind_a_road_facing_facade(tmp_path: Path) -> None:
    s = load_osm_hybrid(street_map(tmp_path), bbox(-HALF, -HALF, HALF, HALF), seed=0)
    assert s.kind == "hybrid" and s.source == "osm" and s.rooms
    exit_p = next(p for p in s.portals if p.id == s.meta["exit_portal"])
    # the exit faces the street: 4 m out of it (straight) lies Main St's south sidewalk or road
    f = heading_vector(exit_p.yaw)
    out = np.array([exit_p.center[0], exit_p.center[2]])
    gone = set(s.meta["removed_buildings"])
    host = next(iter(gone))
    facade_z = {"bldg_10": 8.25, "bldg_11": -8.25, "bldg_12": 8.25}[host]
    assert abs(out[1] - facade_z) < 0.5  # on the facade line (two wall thicknesses inside)
    ahead = out + f * (abs(facade_z) - 3.25 + 0.5)  # past the sidewalk, on the roadway edge
    assert abs(ahead[1]) < 3.25 + 0.5 + 1e-6
    # the house's rooms stand where the building was, nothing of the building is left
    assert not any(b.ref in gone for b in s.boxes if b.kind == "building")
    assert not any(p.building_id in gone for p in s.places)
    assert all(p.building_id not in gone for p in s.places)
    # no furniture in the house or on the way out
    rooms = [r.floor_polygon for r in s.rooms]
    for o in s.objects:
        if o.room_id is None:
            assert not any(point_in_polygon((o.center[0], o.center[2]), r) for r in rooms), o.id
    assert s.meta["indoor_anchor"] == pytest.approx(list(exit_p.center))
    assert ns.loads(ns.dumps(s)).kind == "hybrid"


def test_cli_hybrid_with_osm(tmp_path: Path) -> None:
    import navbench.cli.outdoor  # noqa: F401  (registers the commands)
    from navbench.cli._app import app

    src = street_map(tmp_path)
    r = CliRunner().invoke(app, ["scenes", "hybrid", "--osm", str(src), "-o", str(tmp_path / "h.json")])
    assert r.exit_code == 0, r.output
    s = ns.load(tmp_path / "h.json")
    assert s.kind == "hybrid" and s.meta["generator"] == "navbench.scene.sources.osm_hybrid"
    r = CliRunner().invoke(app, ["scenes", "hybrid", "--bbox", "1,2,3,4", "-o", str(tmp_path / "x.json")])
    assert r.exit_code != 0 and "--osm" in str(r.exception)


def test_no_site_is_a_clear_error(tmp_path: Path) -> None:
    from navbench.errors import ConfigError

    o = Osm()
    for z in (0.0, 12.0):
        o.way([(-90.0, z), (90.0, z)], {"highway": "residential"})
    for x in (-8.0, 8.0):
        o.way([(x, -90.0), (x, 90.0)], {"highway": "residential"})
    o.rect(-3, 4, 3, 8, {"building": "yes"})  # the only building, in a 9.5 x 5.5 m lot between streets
    with pytest.raises(ConfigError, match="no road-facing building"):
        load_osm_hybrid(o.write(tmp_path / "m.osm"), bbox(-HALF, -HALF, HALF, HALF))


@pytest.mark.slow
def test_every_task_builds_on_a_map_and_the_oracle_succeeds(tmp_path: Path) -> None:
    from navbench.episodes.dataset import DatasetSettings, build_dataset
    from navbench.eval.pipeline import evaluate
    from navbench.eval.settings import EvalSettings
    from navbench.scene.sources.osm import load_osm

    src = street_map(tmp_path)
    scenes = [load_osm(src, bbox(-HALF, -HALF, HALF, HALF)),
              load_osm_hybrid(src, bbox(-HALF, -HALF, HALF, HALF), seed=1)]
    # verify: NavVerse's rollout check drops reference paths Spot cannot follow (without it one
    # ObjectNav path here climbs the 0.2 m curb at a 3° angle beside a parked car and Spot tips over)
    st = DatasetSettings(episodes_per_scene=12, embodiment="spot", verify=True)
    m = build_dataset(scenes, tmp_path / "ds", tasks=["objectnav", "placenav", "route"], seed=0,
                      split="eval=1.0", settings=st)
    for task in ("objectnav", "placenav", "route"):
        assert m.counts[task]["eval"]["total"] >= 4, task
    for task in ("objectnav", "placenav", "route"):
        run = evaluate(tmp_path / "ds", "oracle-path", tmp_path / f"run_{task}", EvalSettings(task=task),
                       progress=False)
        assert run.total >= 4 and run.labels == {"success": run.total}, (task, run.labels)
