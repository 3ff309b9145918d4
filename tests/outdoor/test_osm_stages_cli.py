"""OSM import (file written here), stage labels and the CLI."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import navbench.scene as ns
from navbench.geometry import point_in_polygon, polygon_area
from navbench.scene.stages import classify_positions, first_outdoor_index
from tests.conftest import two_room_scene

LON0, LAT0 = 13.40, 52.52
KX = 6_371_008.8 * math.radians(1) * math.cos(math.radians(LAT0))
KZ = 6_371_008.8 * math.radians(1)


def ll(x: float, z: float) -> tuple[float, float]:
    return LON0 + x / KX, LAT0 - z / KZ


def write_osm(path: Path) -> None:
    nodes: list[str] = []
    ways: list[str] = []

    def node(x: float, z: float, tags: dict[str, str] | None = None) -> int:
        i = len(nodes) + 1
        lon, lat = ll(x, z)
        t = "".join(f'<tag k="{k}" v="{v}"/>' for k, v in (tags or {}).items())
        nodes.append(f'<node id="{i}" version="1" lat="{lat:.9f}" lon="{lon:.9f}">{t}</node>')
        return i

    def way(i: int, pts: list[tuple[float, float]], tags: dict[str, str], closed: bool = False) -> None:
        ids = [node(*p) for p in pts]
        ids += [ids[0]] if closed else []
        nd = "".join(f'<nd ref="{k}"/>' for k in ids)
        t = "".join(f'<tag k="{k}" v="{v}"/>' for k, v in tags.items())
        ways.append(f'<way id="{i}" version="1">{nd}{t}</way>')

    way(100, [(-100, 0), (100, 0)], {"highway": "residential", "lanes": "2", "name": "Main St"})
    way(101, [(0, -100), (0, 100)], {"highway": "primary", "width": "10"})
    way(200, [(-60, -15), (-40, -15), (-40, -30), (-60, -30)], {"building": "yes", "building:levels": "4"}, True)
    way(201, [(20, -12), (50, -12), (50, -40), (35, -40), (35, -25), (20, -25)], {"building": "retail", "height": "25"}, True)
    way(202, [(-60, 15), (-30, 15), (-30, 35), (-60, 35)], {"building": "yes"}, True)
    node(-50, -20, {"shop": "bakery", "name": "Brot"})
    node(-45, 25, {"amenity": "fast_food"})
    path.write_text('<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6" generator="test">\n'
                    + "\n".join(nodes + ways) + "\n</osm>\n")


@pytest.fixture(scope="module")
def osm_scene(tmp_path_factory: pytest.TempPathFactory) -> ns.Scene:
    from navbench.scene.sources.osm import load_osm

    p = tmp_path_factory.mktemp("osm") / "town.osm"
    write_osm(p)
    lo, la = ll(-100, 100)
    hi_lo, hi_la = ll(100, -100)
    return load_osm(p, (lo, la, hi_lo, hi_la))


def surf_at(scene: ns.Scene, x: float, z: float) -> set[str]:
    return {s.cls for s in scene.surfaces if point_in_polygon((x, z), s.polygon)
            and not any(point_in_polygon((x, z), h) for h in s.holes)}


def test_osm_footprints(osm_scene: ns.Scene) -> None:
    b = {s.id: s for s in osm_scene.surfaces if s.cls == "building"}
    assert set(b) == {"bldg_200", "bldg_201", "bldg_202"}
    assert abs(polygon_area(b["bldg_200"].polygon)) == pytest.approx(20 * 15, rel=1e-3)
    assert abs(polygon_area(b["bldg_201"].polygon)) == pytest.approx(30 * 13 + 15 * 15, rel=1e-3)
    xs = np.asarray(b["bldg_200"].polygon)
    assert xs.min(axis=0) == pytest.approx([-60, -30], abs=0.05) and xs.max(axis=0) == pytest.approx([-40, -15], abs=0.05)
    box = next(x for x in osm_scene.boxes if x.ref == "bldg_200" and x.kind == "building")
    assert box.size[1] == pytest.approx(12.0)  # 4 levels x 3 m
    # L-shape: exactly two boxes (its edges run along its own frame), 25 m tall, covering 615 m²
    ls = [x for x in osm_scene.boxes if x.ref == "bldg_201" and x.kind == "building"]
    assert len(ls) == 2 and not osm_scene.meshes
    assert sum(x.size[0] * x.size[2] for x in ls) == pytest.approx(30 * 13 + 15 * 15, rel=1e-4)
    assert all(x.size[1] == pytest.approx(25.0) and x.center[1] == pytest.approx(12.5) for x in ls)


def test_osm_road_widths(osm_scene: ns.Scene) -> None:
    # Main St: 2 lanes x 3.25 m = 6.5 m; the primary road: width tag 10 m
    assert surf_at(osm_scene, 70, 3.25 - 0.1) == {"road"} and "road" not in surf_at(osm_scene, 70, 3.25 + 0.1)
    assert surf_at(osm_scene, 70, 3.25 + 0.5) == {"sidewalk"}
    assert surf_at(osm_scene, 4.9, 70) == {"road"} and surf_at(osm_scene, 5.2, 70) == {"sidewalk"}
    assert all(s.y == pytest.approx(-0.2) for s in osm_scene.surfaces if s.cls == "road")
    widths = {r["osm_id"]: r["width"] for r in osm_scene.meta["roads"]}
    assert widths == {100: pytest.approx(6.5), 101: pytest.approx(10.0)}


def test_osm_places(osm_scene: ns.Scene) -> None:
    cats = {p.category: p for p in osm_scene.places}
    assert set(cats) == {"bakery", "fast food"}
    bak = cats["bakery"]
    assert bak.name == "Brot" and bak.building_id == "bldg_200"
    # the road-facing facade is the south edge z = -15; entrance 1 m in front, facing +Z (south)
    assert bak.entrance[2] == pytest.approx(-14.0, abs=0.05) and -60 <= bak.entrance[0] <= -40
    assert math.cos(bak.yaw) == pytest.approx(-1.0, abs=1e-6)
    assert cats["fast food"].entrance[2] == pytest.approx(14.0, abs=0.05)  # north facade of bldg_202
    assert ns.dumps(ns.loads(ns.dumps(osm_scene))) == ns.dumps(osm_scene)


def test_stage_labels_by_hand() -> None:
    s = two_room_scene()  # rooms cover x in [0, 8], z in [-4, 0], floor 0, height 2.7
    pts = [(1, 0, -1), (7.9, 0.1, -3.9), (8.5, 0, -2), (1, 3.0, -1), (-0.1, 0, -1)]
    assert list(classify_positions(s, pts)) == ["indoor", "indoor", "outdoor", "outdoor", "outdoor"]
    assert first_outdoor_index(["indoor", "indoor", "outdoor", "indoor"]) == 2
    assert first_outdoor_index(["outdoor", "outdoor"]) is None


def test_cli_import_osm_and_city(tmp_path: Path) -> None:
    import navbench.cli.outdoor  # noqa: F401  (registers the commands)
    from navbench.cli._app import app

    src = tmp_path / "t.osm"
    write_osm(src)
    r = CliRunner().invoke(app, ["scenes", "import-osm", str(src), "--out", str(tmp_path / "o.json")])
    assert r.exit_code == 0, r.output
    assert {p.category for p in ns.load(tmp_path / "o.json").places} == {"bakery", "fast food"}
    r = CliRunner().invoke(app, ["scenes", "import-osm", str(src), "-o", str(tmp_path / "x.json"), "--bbox", "1,2,3"])
    assert r.exit_code != 0 and "--bbox" in str(r.exception)
    r = CliRunner().invoke(app, ["scenes", "city", "-o", str(tmp_path / "c.json"), "--size", "200",
                                 "--cars", "5", "--objects", "20"])
    assert r.exit_code == 0, r.output
    assert ns.load(tmp_path / "c.json").kind == "outdoor"
