"""Procedural city: terrain heights, curbs, reachability, groups, determinism (independent checks)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import ndimage

import navbench.scene as ns
from navbench.errors import ConfigError
from navbench.scene.procgen.outdoor import OutdoorSettings, generate_city
from navbench.scene.procgen.urban import PLACE_CATEGORIES
from tests.geometry_oracle import closest_groups

SMALL = OutdoorSettings(size=(300.0, 260.0), cars=30, sidewalk_objects=150, places_per_category=1)
GROUND = ("sidewalk", "road", "crosswalk", "green", "ground", "water")


@pytest.fixture(scope="module")
def city() -> ns.Scene:
    return generate_city(5, SMALL)


def slab_top(scene: ns.Scene, x: float, z: float) -> float:
    """Brute force: highest top of the ground slabs under (x, z)."""
    tops = [b.center[1] + b.size[1] / 2 for b in scene.boxes if b.kind in GROUND
            and abs(x - b.center[0]) <= b.size[0] / 2 and abs(z - b.center[2]) <= b.size[2] / 2]
    return max(tops) if tops else -math.inf


def surface_at(scene: ns.Scene, x: float, z: float) -> list[ns.Surface]:
    from navbench.geometry import point_in_polygon

    return [s for s in scene.surfaces if point_in_polygon((x, z), s.polygon)
            and not any(point_in_polygon((x, z), h) for h in s.holes)]


def test_roads_are_020_below_sidewalks_and_curbs_are_steps(city: ns.Scene) -> None:
    roads = [s for s in city.surfaces if s.cls == "road"]
    assert roads and all(s.y == pytest.approx(-0.2) and not s.preferred for s in roads)
    assert all(s.y == 0.0 and s.preferred for s in city.surfaces if s.cls in ("sidewalk", "crosswalk"))
    steps = 0
    for r in roads:
        p = np.asarray(r.polygon)
        x0, z0 = p.min(axis=0)
        x1, z1 = p.max(axis=0)
        assert slab_top(city, (x0 + x1) / 2, (z0 + z1) / 2) == pytest.approx(-0.2)
        # probe 0.25 m outside each edge midpoint: a sidewalk there means a 0.2 m curb
        for x, z in (((x0 + x1) / 2, z0 - 0.25), ((x0 + x1) / 2, z1 + 0.25),
                     (x0 - 0.25, (z0 + z1) / 2), (x1 + 0.25, (z0 + z1) / 2)):
            cls = {s.cls for s in surface_at(city, x, z)}
            if "sidewalk" in cls:
                assert slab_top(city, x, z) - (-0.2) == pytest.approx(0.2)
                steps += 1
    assert steps >= 4


def test_place_categories_and_storefront_geometry(city: ns.Scene) -> None:
    assert {p.category for p in city.places} == set(PLACE_CATEGORIES)
    signs = {b.ref: b for b in city.boxes if b.kind == "sign"}
    for p in city.places:
        assert signs[p.id].label == p.category
        # the entrance lies on a sidewalk at y = 0, 1 m in front of the facade, facing away from it
        assert "sidewalk" in {s.cls for s in surface_at(city, p.entrance[0], p.entrance[2])}
        fp = np.asarray(p.footprint).mean(axis=0)
        d = np.array([p.entrance[0], p.entrance[2]]) - fp
        face = np.array([-math.sin(p.yaw), -math.cos(p.yaw)])
        assert float(d @ face) == pytest.approx(1.0 - 0.15, abs=1e-6)
        # no sidewalk object stands in front of a storefront (unoccluded)
        for o in city.objects:
            rel = np.array([o.center[0], o.center[2]]) - fp
            assert not (abs(float(rel @ np.array([face[1], -face[0]]))) < 2.5 and 0 < float(rel @ face) < 4.0), o


def test_every_place_reachable_on_sidewalk_grid(city: ns.Scene) -> None:
    """Independent raster: sidewalks + crosswalks minus object footprints (+0.3 m), 4-connected."""
    res = 0.25
    (bx0, bz0), (bx1, bz1) = city.bounds_xz
    nx, nz = int((bx1 - bx0) / res) + 1, int((bz1 - bz0) / res) + 1
    walk = np.zeros((nz, nx), bool)

    def cells(x0: float, z0: float, x1: float, z1: float) -> tuple[slice, slice]:
        return (slice(max(0, math.ceil((z0 - bz0) / res - 0.5)), max(0, math.floor((z1 - bz0) / res - 0.5)) + 1),
                slice(max(0, math.ceil((x0 - bx0) / res - 0.5)), max(0, math.floor((x1 - bx0) / res - 0.5)) + 1))

    for s in city.surfaces:
        if s.cls in ("sidewalk", "crosswalk"):
            p = np.asarray(s.polygon)
            walk[cells(*p.min(axis=0), *p.max(axis=0))] = True
            for h in s.holes:
                q = np.asarray(h)
                lo, hi = q.min(axis=0), q.max(axis=0)
                walk[cells(lo[0] + 1e-6, lo[1] + 1e-6, hi[0] - 1e-6, hi[1] - 1e-6)] = False
    for b in city.boxes:
        if b.kind in ("object", "building"):
            lo, hi = ns.model.yawed_box_aabb(b.center, b.size, b.yaw)
            walk[cells(lo[0] - 0.3, lo[2] - 0.3, hi[0] + 0.3, hi[2] + 0.3)] = False
    lab, _n = ndimage.label(walk)
    largest = int(np.argmax(np.bincount(lab.ravel())[1:])) + 1
    for p in city.places:
        r, c = round((p.entrance[2] - bz0) / res - 0.5), round((p.entrance[0] - bx0) / res - 0.5)
        assert lab[r, c] == largest, p.id


def test_contextual_groups_are_8m_apart(city: ns.Scene) -> None:
    assert len(city.meta["groups"]) >= 3
    d, a, b = closest_groups(city)
    assert d >= 8.0 - 1e-9, (a, b)


def road_m(scene: ns.Scene) -> float:
    """Road centreline length (m) from the measured road density and the city's area."""
    (x0, z0), (x1, z1) = scene.bounds_xz
    return float(scene.meta["road_density"]) * (x1 - x0) * (z1 - z0) / 1000.0


def test_counts_limits_and_cars_on_roads(city: ns.Scene) -> None:
    cars = [o for o in city.objects if o.id.startswith("car_")]  # parked vehicles
    # 0.55 cars and 2.75 objects per 100 m of road (NavVerse: 200 and 1,000 on 36.4 km),
    # capped at 30 and 150 here
    assert len(cars) == min(30, round(0.55 * road_m(city) / 100.0)) > 0
    assert len(city.objects) - len(cars) <= min(150, round(2.75 * road_m(city) / 100.0))
    assert {c.label for c in cars} <= {"car", "van", "truck", "motorcycle"}
    for c in cars:
        assert {s.cls for s in surface_at(city, c.center[0], c.center[2])} == {"road"}
        assert c.center[1] - c.size[1] / 2 == pytest.approx(-0.2)


def test_full_size_city_geometry_budget() -> None:
    s = generate_city(0)
    (x0, z0), (x1, z1) = s.bounds_xz
    assert x1 - x0 == pytest.approx(1000.0) and z1 - z0 == pytest.approx(1000.0)
    assert 3000 <= len(s.boxes) <= 7000  # 30 km of road per km² by default
    cars = sum(o.id.startswith("car_") for o in s.objects)
    assert cars == round(0.55 * road_m(s) / 100.0) < 200  # ~30 km of road: 165 cars
    assert len(s.objects) - cars <= round(2.75 * road_m(s) / 100.0) < 1000
    assert all(6.0 <= b.size[1] <= 40.0 for b in s.boxes if b.kind == "building")


def test_deterministic_and_round_trips() -> None:
    a = ns.dumps(generate_city(11, SMALL))
    assert a == ns.dumps(generate_city(11, SMALL))
    assert ns.dumps(ns.loads(a)) == a
    assert a != ns.dumps(generate_city(12, SMALL))


def test_bad_settings() -> None:
    with pytest.raises(ConfigError, match="cars"):
        generate_city(0, OutdoorSettings(cars=500))
    with pytest.raises(ConfigError, match="size"):
        generate_city(0, OutdoorSettings(size=(5000.0, 100.0)))


def test_road_length_within_a_disc_is_the_chord() -> None:
    from navbench.scene.procgen.streets import StreetLayout, road_length

    # one street along x (z in [-5, 5]) from x = -50 to 50, one along z at x = 20, an
    # intersection [20±5]² and a crosswalk 3 m deep across the first street
    lay = StreetLayout((-60.0, -60.0, 60.0, 60.0), [],
                       [((-50.0, -5.0, 15.0, 5.0), 2, "x"), ((15.0, 5.0, 25.0, 50.0), 2, "z"),
                        ((15.0, -5.0, 25.0, 5.0), 2, "")], [(-30.0, -5.0, -27.0, 5.0)])
    # centrelines: z=0 over [-50, 15]; x=20 over [5, 50]; intersection: x over [15, 25] at
    # z=0 and z over [-5, 5] at x=20; crosswalk: 3 m along x at z=0
    assert road_length(lay) == pytest.approx(65.0 + 45.0 + 10.0 + 10.0 + 3.0)
    # a disc of r = 30 around (0, 10): the line z=0 meets it over |x| ≤ √(900 − 100)
    h = math.sqrt(800.0)
    along = min(15.0, h) + h + (min(25.0, h) - 15.0)  # street + intersection's x part
    cz = math.sqrt(900.0 - 400.0)  # x = 20 meets it over |z − 10| ≤ √500
    across = (min(50.0, 10 + cz) - 5.0) + (5.0 - max(-5.0, 10 - cz))
    crosswalk = -27.0 - (-h)  # x in [-30, -27] clipped at -h = -28.28
    assert road_length(lay, (0.0, 10.0, 30.0)) == pytest.approx(along + across + crosswalk)
    assert road_length(lay, (0.0, 100.0, 30.0)) == 0.0


@pytest.mark.parametrize("size", [200.0, 500.0])
def test_clutter_per_100m_of_road_does_not_depend_on_city_size(size: float) -> None:
    # before, counts were only capped (1,000 objects): ~100 objects per 100 m of road at
    # 200 m, ~4 at 1 km
    s = generate_city(0, OutdoorSettings(size=(size, size)))
    cars = sum(o.id.startswith("car_") for o in s.objects)
    per = 100.0 / road_m(s)
    assert (len(s.objects) - cars) * per == pytest.approx(2.75, rel=0.05)
    assert cars * per == pytest.approx(0.55, rel=0.15)
    assert s.meta["clutter_per_100m"] == pytest.approx(
        {"objects": (len(s.objects) - cars) * per, "cars": cars * per}, abs=2e-3)
