"""Crosswalk and street-furniture rules of the OSM importer on hand-drawn maps, with values
worked out by hand: crossing nodes closer than a crosswalk's width + 1 m are one crosswalk; a
crossing foot way that meets the road at a junction asks for the junction's own crosswalks even
when a mapped crossing is near; a furniture node on the road moves to the first free spot of
its 0.5 m rings, a second one within 1 m of a placed one and one deep inside a building are
dropped, and each faces the nearest road.

Main St runs along x (2 lanes x 3.25 m: the road is the band |z| < 3.25, sidewalks 3 m).
Sides of a junction meeting at 90 degrees are clear of each other at 3.25 m: a derived crosswalk
centre lies 3.25 + 0.3 + 1.5 + 0.5 = 5.55 m along its arm."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from navbench.scene.model import Scene
from navbench.scene.sources.osm import load_osm
from tests.sources.osm_builder import Osm, bbox

HALF = 60.0


def _load(o: Osm, tmp_path: Path) -> Scene:
    return load_osm(o.write(tmp_path / "m.osm"), bbox(-HALF, -HALF, HALF, HALF))


def _crosswalks(s: Scene) -> list[tuple[float, float]]:
    return sorted((round(b.center[0], 2), round(b.center[2], 2)) for b in s.boxes if b.kind == "crosswalk")


def test_crossing_nodes_closer_than_a_crosswalk_are_one(tmp_path: Path) -> None:
    o = Osm()
    xs = (-40.0, -37.0, -30.0)  # -37 is 3 m from -40 (< 3 m width + 1 m): the same crosswalk
    nodes = [o.node(x, 0.0, {"highway": "crossing"}) for x in xs]
    o.way([(-100.0, 0.0), *nodes, (100.0, 0.0)], {"highway": "residential"})
    s = _load(o, tmp_path)
    assert s.meta["crosswalks"] == {"osm": 2, "derived": 0}
    assert _crosswalks(s) == [(-40.0, 0.0), (-30.0, 0.0)]


def _tee(footway: bool) -> Osm:
    """A T junction at the origin (Main St and a side road to the north, -z), a mapped crossing
    10 m west of it, and (``footway``) a crossing foot way through the junction node."""
    o = Osm()
    j = o.node(0.0, 0.0)
    cross = o.node(-10.0, 0.0, {"highway": "crossing"})
    o.way([(-100.0, 0.0), cross, j, (100.0, 0.0)], {"highway": "residential"})
    o.way([j, (0.0, -100.0)], {"highway": "residential"})
    if footway:
        o.way([(-4.0, 6.0), j, (4.0, -6.0)], {"highway": "footway", "footway": "crossing"})
    return o


def test_a_crossing_footway_through_a_junction_asks_for_its_crosswalks(tmp_path: Path) -> None:
    # without the foot way, the mapped crossing 10 m away stands in for the junction's crosswalks
    plain = _load(_tee(False), tmp_path)
    assert plain.meta["crosswalks"] == {"osm": 1, "derived": 0}
    # with it: derived crosswalks on the three arms; every arm meets the others at 90 degrees
    # (or straight on): clear at the other road's half width 3.25 m, + 0.3 + 1.5 + 0.5 m
    s = _load(_tee(True), tmp_path)
    assert s.meta["crosswalks"] == {"osm": 1, "derived": 3}
    off = 3.25 + 2.3
    assert _crosswalks(s) == [(-10.0, 0.0), (-off, 0.0), (0.0, -off), (off, 0.0)]


def _first_free_spot(x: float, z: float, half: float, road_half: float = 3.25) -> tuple[float, float]:
    """The first candidate (ring radius 0.5 m .. 8 m, 24 directions from angle 0 in order)
    whose footprint (+-``half``) clears the road band |z| < road_half."""
    for r in np.arange(0.5, 8.01, 0.5):
        for a in np.linspace(0.0, 2 * math.pi, 24, endpoint=False):
            cz = z + r * math.sin(a)
            if abs(cz) - half > road_half + 1e-9:
                return x + r * math.cos(a), cz
    raise AssertionError("no free spot")


def test_furniture_moves_off_the_road_and_keeps_its_distance(tmp_path: Path) -> None:
    o = Osm()
    o.way([(-100.0, 0.0), (100.0, 0.0)], {"highway": "residential"})
    o.node(-30.0, 0.0, {"highway": "street_lamp"})  # on the centreline: moves to the sidewalk
    o.node(-29.5, 0.0, {"highway": "street_lamp"})  # moves beside the first, 0.5 m away: dropped
    o.node(10.0, -5.0, {"highway": "street_lamp"})  # on the north sidewalk: stays
    o.rect(10.0, 15.0, 50.0, 55.0, {"building": "yes"})
    o.node(30.0, 35.0, {"amenity": "bench"})  # 20 m inside a building, beyond the 8 m rings: dropped
    s = _load(o, tmp_path)
    assert s.meta["furniture"]["furniture_mapped"] == 2
    assert s.meta["furniture"]["furniture_dropped"] == 2
    lights = sorted((ob for ob in s.objects if ob.id.startswith("osm_")), key=lambda ob: ob.center[0])
    assert [ob.label for ob in lights] == ["street light", "street light"]
    moved, kept = lights
    want = _first_free_spot(-30.0, 0.0, 0.15)
    assert want == pytest.approx((-30.0, 3.5), abs=1e-9)  # ring 3.5 m, due south: 3.5 - 0.15 > 3.25
    assert (moved.center[0], moved.center[2]) == pytest.approx(want, abs=1e-4)
    assert (kept.center[0], kept.center[2]) == pytest.approx((10.0, -5.0), abs=1e-4)
    # each faces the road: the south one looks north (-z, yaw 0), the north one south (yaw pi)
    assert math.cos(moved.yaw) == pytest.approx(1.0) and math.cos(kept.yaw) == pytest.approx(-1.0)


def test_a_crossing_tagged_on_the_junction_node_and_a_short_arm(tmp_path: Path) -> None:
    """The junction node itself tagged as a crossing: no crosswalk of its own, but the junction
    gets its derived ones although a mapped crossing is 10 m away; the side road is 6 m long, too
    short for a crosswalk clear of the junction (5.55 m + 3 m); a crossing node on no road is
    ignored."""
    o = Osm()
    j = o.node(0.0, 0.0, {"highway": "crossing"})
    cross = o.node(-10.0, 0.0, {"highway": "crossing"})
    o.way([(-100.0, 0.0), cross, j, (100.0, 0.0)], {"highway": "residential"})
    o.way([j, (0.0, -6.0)], {"highway": "residential"})
    o.node(30.0, 30.0, {"highway": "crossing"})  # on no road
    s = _load(o, tmp_path)
    assert s.meta["crosswalks"] == {"osm": 1, "derived": 2}
    assert _crosswalks(s) == [(-10.0, 0.0), (-5.55, 0.0), (5.55, 0.0)]
