"""An imported map is a full outdoor scene: curbs exactly at the tagged road edges (also on a
diagonal road), crosswalks at the map's crossings and derived at a junction, terrain classes
from landuse / leisure / natural / amenity, storefronts on the road-facing facade with their
OSM names, parked cars only where they may park, contextual groups >= 8 m apart, facade
colours, and the same bytes for the same file and seed. The map is drawn by hand below."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

import navbench.scene as ns
from navbench.geometry import box_corners_xz, point_in_polygon
from navbench.scene.model import Scene
from navbench.scene.sources.osm import load_osm
from tests.geometry_oracle import closest_groups
from tests.sources.osm_builder import Osm, bbox

HALF = 80.0
DIAG = math.radians(30.0)  # the diagonal road heads 30° south of east: (cos, sin) in XZ
TERRAIN = ("road", "sidewalk", "green", "crosswalk", "ground", "water")


def town(shops: bool = True) -> Osm:
    o = Osm()
    j = o.node(0.0, 0.0)
    cross = o.node(-50.0, 0.0, {"highway": "crossing", "crossing": "marked"})
    o.way([(-100.0, 0.0), cross, j, (100.0, 0.0)], {"highway": "residential", "name": "Main St"}, wid=1)
    o.way([j, (100 * math.cos(DIAG), 100 * math.sin(DIAG))], {"highway": "residential", "name": "Diagonal"}, wid=2)
    o.rect(-40, 10, -20, 25, {"building": "retail", "building:levels": "2", "building:colour": "red"}, wid=10)
    if shops:
        o.node(-25.0, 20.0, {"shop": "bakery", "name": "Brot & Co"})
        o.node(-35.0, 20.0, {"shop": "hardware", "name": "Nails"})
    o.rect(-70, -60, -20, -15, {"leisure": "park"}, wid=20)
    o.rect(-60, -50, -50, -40, {"natural": "water"}, wid=21)
    o.rect(-78, 12, -55, 35, {"amenity": "parking"}, wid=22)
    return o


@pytest.fixture(scope="module")
def scene(tmp_path_factory: pytest.TempPathFactory) -> Scene:
    p = town().write(tmp_path_factory.mktemp("town") / "town.osm")
    return load_osm(p, bbox(-HALF, -HALF, HALF, HALF))


def top_at(s: Scene, x: float, z: float) -> float:
    """Highest terrain box top over (x, z) (what the robot stands on)."""
    tops = [b.center[1] + b.size[1] / 2 for b in s.boxes if b.kind in TERRAIN
            and point_in_polygon((x, z), box_corners_xz(b.center, b.size, b.yaw))]
    return max(tops) if tops else -math.inf


def surface_at(s: Scene, x: float, z: float) -> set[str]:
    return {f.cls for f in s.surfaces if point_in_polygon((x, z), f.polygon)
            and not any(point_in_polygon((x, z), h) for h in f.holes)}


def test_curbs_are_exactly_at_the_road_edges(scene: Scene) -> None:
    # Main St: 2 lanes x 3.25 m = 6.5 m: its curb is z = ±3.25
    for x in (-65.0, 30.0):
        assert top_at(scene, x, 3.2) == pytest.approx(-0.2, abs=0.004)
        assert top_at(scene, x, 3.3) == pytest.approx(0.0, abs=0.002)
        assert top_at(scene, x, -3.3) == pytest.approx(0.0, abs=0.002)
    # the diagonal road, 40 m from the junction: its curbs are 3.25 m either side of the centreline
    c = 40 * np.array([math.cos(DIAG), math.sin(DIAG)])
    n = np.array([-math.sin(DIAG), math.cos(DIAG)])
    for side in (1, -1):
        assert top_at(scene, *(c + side * 3.2 * n)) == pytest.approx(-0.2, abs=0.004)
        assert top_at(scene, *(c + side * 3.3 * n)) == pytest.approx(0.0, abs=0.002)
    assert surface_at(scene, *(c + 4.5 * n)) == {"sidewalk"}  # 3 m sidewalks
    assert "green" in surface_at(scene, *(c + 7.0 * n))
    widths = {r["osm_id"]: r["width"] for r in scene.meta["roads"]}
    assert widths == {1: 6.5, 2: 6.5}


def test_crosswalks_at_the_crossing_node_and_derived_at_the_junction(scene: Scene) -> None:
    cws = [b for b in scene.boxes if b.kind == "crosswalk"]
    assert scene.meta["crosswalks"] == {"osm": 1, "derived": 3}
    osm = min(cws, key=lambda b: math.hypot(b.center[0] + 50, b.center[2]))
    assert (osm.center[0], osm.center[2]) == pytest.approx((-50.0, 0.0), abs=1e-3)
    assert osm.center[1] + osm.size[1] / 2 == pytest.approx(0.0)  # a raised table at sidewalk height
    assert sorted((osm.size[0], osm.size[2])) == pytest.approx([3.0, 6.5 + 0.6])
    assert top_at(scene, -50.0, 0.0) == pytest.approx(0.0)
    # derived: on each arm, where both its curbs have left the other road, + 0.3 + 1.5 + 0.5 m.
    # West arm: the diagonal is 150° away (obtuse): clear at its half width 3.25 m. East arm and
    # diagonal: 30° apart: clear at 3.25 / sin 30° + 3.25 / tan 30° = 6.5 + 5.629 = 12.129 m.
    acute = 3.25 / math.sin(DIAG) + 3.25 / math.tan(DIAG) + 2.3
    arms = [((-1.0, 0.0), 3.25 + 2.3), ((1.0, 0.0), acute), ((math.cos(DIAG), math.sin(DIAG)), acute)]
    for (dx, dz), off in arms:
        assert any(math.hypot(b.center[0] - off * dx, b.center[2] - off * dz) < 0.05 for b in cws), (dx, dz)


def test_terrain_classes_from_landuse_leisure_natural_amenity(scene: Scene) -> None:
    assert surface_at(scene, -30.0, -25.0) == {"green"}  # the park
    assert surface_at(scene, -55.0, -45.0) == {"water"} and top_at(scene, -55.0, -45.0) == pytest.approx(-0.6)
    assert surface_at(scene, -66.0, 24.0) == {"road"}  # the parking lot, at road level
    assert top_at(scene, -66.0, 24.0) == pytest.approx(-0.2, abs=0.005)
    assert surface_at(scene, -30.0, 17.0) == {"building"}


def test_storefront_on_the_road_facing_facade_with_its_name(scene: Scene) -> None:
    (p,) = scene.places
    assert (p.category, p.name, p.building_id) == ("bakery", "Brot & Co", "bldg_10")
    # the north facade z = 10 faces Main St: entrance 1 m out, facing north (yaw 0)
    assert p.entrance[2] == pytest.approx(9.0, abs=1e-3) and -40 <= p.entrance[0] <= -20
    assert math.cos(p.yaw) == pytest.approx(1.0, abs=1e-6)
    assert scene.meta["osm_places"] == {"mapped": {"bakery": 1}, "unknown": {"shop=hardware": 1}}


def test_no_storefront_is_invented(tmp_path: Path) -> None:
    s = load_osm(town(shops=False).write(tmp_path / "t.osm"), bbox(-HALF, -HALF, HALF, HALF))
    assert s.places == () and not any(b.kind == "sign" for b in s.boxes)


def test_parked_cars_only_on_the_roads_clear_of_junction_and_crossings(scene: Scene) -> None:
    cars = [o for o in scene.objects if o.id.startswith("car_")]
    assert cars
    roads = [f for f in scene.surfaces if f.cls == "road" and f.id.startswith("road_")]
    for c in cars:
        fp = box_corners_xz(c.center, c.size, c.yaw)
        assert all(any(point_in_polygon(tuple(q), r.polygon) for r in roads) for q in fp), c.id
        assert c.center[1] - c.size[1] / 2 == pytest.approx(-0.2)
        assert math.hypot(c.center[0], c.center[2]) > 3.25 + 5.0  # junction: half the road + 5 m
        assert abs(c.center[0] + 50) > 1.5 + 3.0 or abs(c.center[2]) > 4  # the crossing at x = -50


def test_contextual_groups_are_at_least_8m_apart(scene: Scene) -> None:
    assert len(scene.meta["groups"]) >= 2
    d, a, b = closest_groups(scene)
    assert d >= 8.0 - 1e-9, (a, b)
    regions = set(scene.meta["regions"].values())
    assert {"commercial", "residential"} <= regions


def test_facade_colour_is_a_colour_word_the_visual_layer_paints(scene: Scene) -> None:
    from navbench.visual.build import _facade
    from navbench.visual.outdoor_textures import FACADE_BY_COLOUR

    assert scene.meta["building_colours"] == {"bldg_10": "red"}
    box = next(b for b in scene.boxes if b.ref == "bldg_10")
    assert _facade(box, scene.meta["building_colours"], 0) == FACADE_BY_COLOUR["red"]
    assert box.size[1] == pytest.approx(6.0)  # 2 levels


def test_same_file_and_seed_same_bytes(tmp_path: Path, scene: Scene) -> None:
    p = town().write(tmp_path / "town.osm")
    a = ns.dumps(load_osm(p, bbox(-HALF, -HALF, HALF, HALF)))
    assert a == ns.dumps(load_osm(p, bbox(-HALF, -HALF, HALF, HALF)))
    assert a != ns.dumps(load_osm(p, bbox(-HALF, -HALF, HALF, HALF), seed=1))


def test_the_real_extract(tmp_path: Path) -> None:
    """rivne_school.osm (© OpenStreetMap contributors, ODbL): a school with a courtyard
    multipolygon, a street and a service road; no shop."""
    src = Path(__file__).parents[2] / "tests" / "data" / "osm" / "rivne_school.osm"
    s = load_osm(src)
    assert s.places == ()
    widths = sorted(r["width"] for r in s.meta["roads"])
    assert widths == [3.25, 6.5]  # service (1 lane) and unclassified (2 lanes)
    assert sum(1 for f in s.surfaces if f.cls == "building") >= 3
    assert any(o.id.startswith("car_") for o in s.objects) and len(s.meta["groups"]) >= 1


def test_mapped_furniture_does_not_crowd_out_the_groups(tmp_path: Path) -> None:
    """A street whose trees alone exceed the object budget (1000 per km² of the 160 m window:
    26) still gets contextual groups: mapped furniture stands in for singles only."""
    o = town()
    for k in range(40):
        o.node(-98.0 + 5.0 * k, -5.0, {"natural": "tree"})  # the north sidewalk of Main St
    s = load_osm(o.write(tmp_path / "trees.osm"), bbox(-HALF, -HALF, HALF, HALF))
    assert s.meta["furniture"]["furniture_mapped"] > round(1000 * (2 * HALF / 1000) ** 2)
    members = sum(len(v) for v in s.meta["groups"].values())
    assert len(s.meta["groups"]) >= 2 and members <= round(0.4 * 26)


@pytest.mark.parametrize(("blocks", "seed", "dense"), [(2, 11, True), (3, 7, False)])
def test_saved_surfaces_stay_valid_and_plan_routes(tmp_path: Path, blocks: int, seed: int, dense: bool) -> None:
    """Slivers left by the road / sidewalk / building differences must not cross themselves
    once the scene is saved (1 µm rounding): every surface of a reloaded synthetic district is a
    valid polygon and the union of the lawns (what the pedestrian route planner takes) works."""
    import sys

    import shapely

    sys.path.insert(0, str(Path(__file__).parents[2] / "benchmarks"))
    from osm_district import district

    src = tmp_path / "d.osm"
    district(src, blocks, seed=seed, dense=dense)
    s = ns.loads(ns.dumps(load_osm(src)))
    bad = [f.id for f in s.surfaces if not shapely.Polygon(f.polygon, f.holes or None).is_valid]
    assert bad == []
    lawns = shapely.union_all([shapely.Polygon(f.polygon, f.holes or None) for f in s.surfaces if not f.preferred])
    assert lawns.area > 0


def test_terrain_workers_and_the_written_text_do_not_change_the_scene(tmp_path: Path) -> None:
    """Tiles built by one process or by two forked workers (the CLI, in a fresh process) give the
    same scene bytes, and the text :func:`import_osm` returns is what :func:`navbench.scene.save`
    writes and what the CLI writes."""
    import os
    import subprocess
    import sys

    from navbench.scene.sources.osm import import_osm

    sys.path.insert(0, str(Path(__file__).parents[2] / "benchmarks"))
    from osm_district import district

    src = tmp_path / "d.osm"
    district(src, 5, seed=3)
    texts = []
    for workers in ("1", "2"):
        out = tmp_path / f"w{workers}.json"
        subprocess.run([sys.executable, "-m", "navbench", "scenes", "import-osm", str(src), "-o", str(out), "--id", "d"],
                       check=True, capture_output=True, env={**os.environ, "NAVBENCH_WORKERS": workers})
        texts.append(out.read_text(encoding="utf-8"))
    scene, text = import_osm(src)
    assert len({f.id.split("_t")[1].split("_")[0] for f in scene.surfaces if f.id.startswith("green_t")}) >= 3
    assert texts[0] == texts[1] == text
    assert text == ns.dumps(scene) == ns.save(scene, tmp_path / "s.json").read_text(encoding="utf-8")
