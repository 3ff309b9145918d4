"""The OSM importer on every geometry path real maps contain: shops far from buildings,
bow-tie and zero-area polygons, multipolygons with holes (and split rings), open ways tagged
as areas, nodes shared by roads and buildings, missing nodes, oversized outlines, hostile XML.
Expected values are drawn by hand on small maps (tests/sources/osm_builder.py)."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest

from navbench.errors import SceneFormatError
from navbench.geometry import point_in_polygon, polygon_area
from navbench.scene.model import Scene
from navbench.scene.sources.osm import load_osm
from tests.sources.osm_builder import Osm, bbox

HALF = 60.0


def load(o: Osm, tmp: Path, half: float = HALF, **kw: object) -> Scene:
    return load_osm(o.write(tmp / "map.osm"), bbox(-half, -half, half, half), **kw)  # type: ignore[arg-type]


def street(o: Osm) -> int:
    """An east-west residential street along z = 0 (2 lanes: 6.5 m wide, 3 m sidewalks)."""
    return o.way([(-HALF - 20, 0.0), (HALF + 20, 0.0)], {"highway": "residential"})


def buildings(s: Scene) -> dict[str, float]:
    return {x.id: abs(polygon_area(x.polygon)) - sum(abs(polygon_area(h)) for h in x.holes)
            for x in s.surfaces if x.cls == "building"}


def covered(s: Scene, x: float, z: float, kind: str) -> bool:
    """Whether a box of ``kind`` covers the point (x, z)."""
    from navbench.geometry import box_corners_xz

    return any(point_in_polygon((x, z), box_corners_xz(b.center, b.size, b.yaw)) for b in s.boxes if b.kind == kind)


def test_a_shop_far_from_any_building_gets_a_kiosk_facing_the_street(tmp_path: Path) -> None:
    o = Osm()
    street(o)
    o.rect(-50, 20, -30, 40, {"building": "yes"})
    o.node(30.0, 30.0, {"amenity": "cafe", "name": "Rand"})  # 40+ m from the building
    s = load(o, tmp_path)
    (p,) = s.places
    assert (p.category, p.name) == ("cafe", "Rand")
    kiosk = next(b for b in s.boxes if b.ref == p.building_id and b.kind == "building")
    assert p.building_id.startswith("kiosk_") and kiosk.size[0] == pytest.approx(3.0)
    assert math.hypot(kiosk.center[0] - 30, kiosk.center[2] - 30) < 1e-3
    # the street is north (-Z) of the kiosk: the storefront faces north, the entrance 1 m out of
    # the kiosk's north wall (z = 30 - 1.5)
    assert math.cos(p.yaw) == pytest.approx(1.0, abs=1e-6)
    assert p.entrance[2] == pytest.approx(30 - 1.5 - 1.0, abs=1e-3)


def test_bow_tie_building_is_repaired_into_its_two_triangles(tmp_path: Path) -> None:
    o = Osm()
    street(o)
    o.way([(10, 10), (30, 30), (30, 10), (10, 30)], {"building": "yes"}, closed=True, wid=77)
    s = load(o, tmp_path)
    areas = buildings(s)
    assert sorted(areas) == ["bldg_77", "bldg_77_1"]
    assert sorted(areas.values()) == pytest.approx([100.0, 100.0], rel=1e-3)  # two 20 x 10 / 2 triangles
    assert s.meta["osm_issues"]["repaired"] == 1


def test_zero_area_and_open_buildings_are_skipped_and_counted(tmp_path: Path) -> None:
    o = Osm()
    street(o)
    o.way([(10, 10), (20, 20), (30, 30)], {"building": "yes"}, closed=True)  # collinear: no area
    o.way([(10, 40), (20, 40), (20, 50)], {"building": "yes"})  # open way tagged as an area
    o.way([(-40, 10), (-20, 10), (-20, 30)], {"landuse": "grass"})
    o.rect(-50, 20, -30, 40, {"building": "yes"}, wid=5)
    s = load(o, tmp_path)
    assert list(buildings(s)) == ["bldg_5"]
    assert s.meta["osm_issues"]["zero_area"] == 1 and s.meta["osm_issues"]["open_area_way"] == 2


def test_multipolygon_with_a_hole_and_a_split_outer_ring(tmp_path: Path) -> None:
    o = Osm()
    street(o)
    a, b, c, d = o.node(10, 10), o.node(40, 10), o.node(40, 40), o.node(10, 40)
    w1 = o.way([a, b, c])  # the outer ring drawn as two untagged ways
    w2 = o.way([c, d, a])
    inner = o.rect(20, 20, 30, 30)
    o.relation([(w1, "outer"), (w2, "outer"), (inner, "inner")], {"type": "multipolygon", "building": "yes",
                                                                   "height": "12"}, rid=9)
    s = load(o, tmp_path)
    (bld,) = [x for x in s.surfaces if x.cls == "building"]
    assert bld.id == "bldg_r9" and len(bld.holes) == 1
    assert buildings(s)["bldg_r9"] == pytest.approx(900 - 100, rel=1e-3)
    assert not covered(s, 25.0, 25.0, "building")  # the courtyard is open
    assert covered(s, 15.0, 25.0, "building") and covered(s, 35.0, 15.0, "building")
    tops = [b.center[1] + b.size[1] / 2 for b in s.boxes if b.ref == "bldg_r9"]
    assert tops and all(t == pytest.approx(12.0) for t in tops)


def test_a_building_sharing_a_node_with_a_road_is_cut_back_to_the_curb(tmp_path: Path) -> None:
    o = Osm()
    shared = o.node(0.0, 0.0)
    o.way([(-80.0, 0.0), shared, (80.0, 0.0)], {"highway": "residential"})
    o.way([shared, (20.0, 0.0), (20.0, 20.0), (0.0, 20.0)], {"building": "yes"}, closed=True, wid=3)
    s = load(o, tmp_path)
    # the road is 6.5 m wide: the building keeps z >= 3.25 (20 x 16.75 m)
    assert buildings(s)["bldg_3"] == pytest.approx(20 * (20 - 3.25), rel=1e-3)
    assert s.meta["osm_issues"]["building_cut_by_road"] == 1
    assert not covered(s, 10.0, 2.0, "building")


def test_missing_nodes_split_lines_and_skip_rings(tmp_path: Path) -> None:
    o = Osm()
    a, b = o.node(-80, 0), o.node(80, 0)
    o.way([a, 99999, b], {"highway": "residential"})  # node 99999 is not in the file
    o.way([(10, 10), 99998, (20, 20), (10, 20)], {"building": "yes"}, closed=True)
    o.rect(-30, 10, -10, 30, {"building": "yes"})
    s = load(o, tmp_path)
    assert len(buildings(s)) == 1 and s.meta["osm_issues"]["incomplete_ring"] == 1
    assert s.meta["osm_issues"]["incomplete_line"] == 1


def test_an_outline_over_the_vertex_cap_is_simplified(tmp_path: Path) -> None:
    o = Osm()
    street(o)
    n = 3000
    ring = [(30 + 15 * math.cos(2 * math.pi * k / n), 30 + 15 * math.sin(2 * math.pi * k / n)) for k in range(n)]
    o.way(ring, {"building": "yes"}, closed=True, wid=8)
    s = load(o, tmp_path)
    (bld,) = [x for x in s.surfaces if x.cls == "building"]
    assert len(bld.polygon) <= 256 and s.meta["osm_issues"]["simplified"] == 1
    assert buildings(s)["bldg_8"] == pytest.approx(math.pi * 15**2, rel=0.01)
    assert sum(1 for b in s.boxes if b.ref == "bldg_8") <= 64


@pytest.mark.parametrize(("text", "field"), [
    ('<?xml version="1.0"?><!DOCTYPE osm [<!ENTITY a "aaaa">]><osm>&a;</osm>', "line 1"),
    ('<?xml version="1.0"?>\n<osm version="0.6">\n<node id="1" lat="1.0"/>\n</osm>', "line 3"),
    ('<?xml version="1.0"?>\n<osm version="0.6">\n<node id="1" lat="1" lon="2">\n</osm>', "line 4"),
    ('<?xml version="1.0"?>\n<notosm/>', "<root>"),
    ('<?xml version="1.0"?><osm><node id="1" lat="95" lon="2"/></osm>', "node 1.lat/lon"),
])
def test_bad_xml_is_a_located_format_error(tmp_path: Path, text: str, field: str) -> None:
    p = tmp_path / "bad.osm"
    p.write_text(text)
    with pytest.raises(SceneFormatError) as ei:
        load_osm(p)
    assert ei.value.field.startswith(field) and "bad.osm" in str(ei.value)


def test_billion_laughs_is_refused_before_any_expansion(tmp_path: Path) -> None:
    ents = '<!ENTITY a0 "lol">' + "".join(f'<!ENTITY a{k} "{f"&a{k - 1};" * 10}">' for k in range(1, 10))
    p = tmp_path / "lol.osm"
    p.write_text(f'<?xml version="1.0"?><!DOCTYPE osm [{ents}]><osm>&a9;</osm>')
    with pytest.raises(SceneFormatError, match="document type declaration"):
        load_osm(p)


def test_xml_needs_no_osmium(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "osmium", None)  # import osmium now raises ImportError
    o = Osm()
    street(o)
    o.rect(-30, 10, -10, 30, {"building": "yes"})
    s = load(o, tmp_path)
    assert len(buildings(s)) == 1


@pytest.mark.parametrize(("limit", "text"), [("MAX_NODES", "at most 1 nodes"), ("MAX_WAYS", "at most 1 ways"),
                                             ("MAX_RELATIONS", "at most 1 multipolygon")])
def test_element_limits_are_clear_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str], limit: str, text: str) -> None:
    import navbench.cli.outdoor  # noqa: F401  (registers the commands)
    from navbench.cli import main
    from navbench.scene.sources import osm_parse

    o = Osm()
    street(o)
    o.way([(-HALF, 20.0), (HALF, 20.0)], {"highway": "residential"})
    w = o.rect(-30, 30, -10, 50, {"building": "yes"})
    o.relation([(w, "outer")], {"type": "multipolygon", "building": "yes"})
    o.relation([(w, "outer")], {"type": "multipolygon", "landuse": "grass"})
    monkeypatch.setattr(osm_parse, limit, 1)
    with pytest.raises(SceneFormatError, match=text):
        load(o, tmp_path)
    # the CLI: one line naming the file and the limit, exit status 2
    with pytest.raises(SystemExit) as e:
        main(["scenes", "import-osm", str(tmp_path / "map.osm"), "-o", str(tmp_path / "s.json")])
    err = capsys.readouterr().err.strip()
    assert e.value.code == 2 and len(err.splitlines()) == 1 and "map.osm" in err and text in err
    assert not (tmp_path / "s.json").exists()


def test_bbox_window_keeps_only_nearby_nodes(tmp_path: Path) -> None:
    from navbench.scene.sources.osm_parse import read_osm

    o = Osm()
    street(o)
    o.rect(-30, 10, -10, 30, {"building": "yes"})
    o.rect(2000, 10, 2020, 30, {"building": "yes"})  # 2 km east: outside the window's margin
    p = o.write(tmp_path / "m.osm")
    assert len(read_osm(p).node_ids) == len(read_osm(p, bbox(-HALF, -HALF, HALF, HALF)).node_ids) + 4
    s = load_osm(p, bbox(-HALF, -HALF, HALF, HALF))
    assert len(buildings(s)) == 1
    xs = np.array([b.center[0] for b in s.boxes])
    assert xs.max() < HALF + 5


def test_pbf_reads_the_same_map(tmp_path: Path) -> None:
    osmium = pytest.importorskip("osmium")
    o = Osm()
    street(o)
    o.rect(-30, 10, -10, 30, {"building": "yes", "building:levels": "2"}, wid=4)
    src = o.write(tmp_path / "m.osm")
    dst = tmp_path / "m.osm.pbf"
    writer = osmium.SimpleWriter(str(dst))

    class Copy(osmium.SimpleHandler):  # type: ignore[misc]
        def node(self, n: object) -> None:
            writer.add_node(n)

        def way(self, w: object) -> None:
            writer.add_way(w)

        def relation(self, r: object) -> None:
            writer.add_relation(r)

    Copy().apply_file(str(src))
    writer.close()
    a, b = load_osm(src, bbox(-HALF, -HALF, HALF, HALF)), load_osm(dst, bbox(-HALF, -HALF, HALF, HALF))
    assert buildings(a) == pytest.approx(buildings(b), rel=1e-3)  # PBF keeps 1e-7 degrees (~1 cm)


def test_an_outer_ring_split_into_ways_of_every_direction(tmp_path: Path) -> None:
    # a 30 m square drawn as five untagged ways: one each appended, appended reversed, prepended
    # and prepended reversed to the piece it joins (how mappers leave multipolygon members)
    o = Osm()
    street(o)
    n = [o.node(10, 10), o.node(40, 10), o.node(40, 25), o.node(40, 40), o.node(10, 40), o.node(10, 25)]
    ways = [o.way([n[2], n[3], n[4]]), o.way([n[5], n[4]]), o.way([n[5], n[0]]), o.way([n[2], n[1]]),
            o.way([n[0], n[1]])]
    o.relation([(w, "outer") for w in ways], {"type": "multipolygon", "building": "yes"}, rid=7)
    s = load(o, tmp_path)
    assert buildings(s) == {"bldg_r7": pytest.approx(900.0, rel=1e-3)}
    assert "unclosed_ring" not in s.meta.get("osm_issues", {})
    assert covered(s, 12.0, 12.0, "building") and covered(s, 38.0, 38.0, "building")
    assert covered(s, 25.0, 25.0, "building") and not covered(s, 45.0, 25.0, "building")


def test_a_building_thinner_than_a_cell_is_one_rotated_box(tmp_path: Path) -> None:
    # a 20 m x 0.3 m wall-like building at 30 deg: no 0.5 m grid cell centre falls inside it
    o = Osm()
    street(o)
    c, s30 = math.cos(math.radians(30)), math.sin(math.radians(30))
    u, v = np.array([c, s30]), np.array([-s30, c])
    p0 = np.array([10.0, 20.0])
    corners = [p0, p0 + 20 * u, p0 + 20 * u + 0.3 * v, p0 + 0.3 * v]
    ids = [o.node(float(q[0]), float(q[1])) for q in corners]
    o.way([*ids, ids[0]], {"building": "yes"}, wid=5)
    sc = load(o, tmp_path)
    (box,) = [b for b in sc.boxes if b.ref == "bldg_5"]
    assert sorted((box.size[0], box.size[2])) == pytest.approx([0.3, 20.0], abs=0.02)
    mid = p0 + 10 * u + 0.15 * v
    assert (box.center[0], box.center[2]) == pytest.approx(tuple(mid), abs=0.02)


def test_a_footway_tagged_crossing_makes_a_crosswalk_where_it_meets_the_road(tmp_path: Path) -> None:
    o = Osm()
    street(o)  # along z = 0, 6.5 m wide
    o.way([(20.0, -12.0), (20.0, 12.0)], {"highway": "footway", "footway": "crossing"})
    s = load(o, tmp_path)
    assert s.meta["crosswalks"]["osm"] == 1
    (cw,) = [b for b in s.boxes if b.kind == "crosswalk"]
    assert (cw.center[0], cw.center[2]) == pytest.approx((20.0, 0.0), abs=1e-3)
    assert sorted((cw.size[0], cw.size[2])) == pytest.approx([3.0, 6.5 + 0.6])  # across the road
