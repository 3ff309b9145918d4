"""Navigation on procedural cities and hybrid scenes (needs navbench.nav)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import navbench.nav as nav
from navbench.scene.procgen.hybrid import generate_hybrid
from navbench.scene.procgen.outdoor import OutdoorSettings, generate_city
from navbench.scene.stages import classify_positions
from tests.conftest import two_room_scene

TINY = OutdoorSettings(size=(200.0, 200.0), cars=20, sidewalk_objects=80, places_per_category=1)


@pytest.fixture(scope="module")
def city():  # type: ignore[no-untyped-def]
    return generate_city(1, TINY)


def test_every_place_reachable_from_largest_island(city) -> None:  # type: ignore[no-untyped-def]
    nm = nav.NavMesh.build(city, nav.NavSettings.preset("outdoor"))
    rng = np.random.default_rng(0)
    starts = [nm.sample_point(rng, "largest") for _ in range(3)]
    for p in city.places:
        assert nm.island_of(p.entrance) == nm.island_of(starts[0]), p.id
        for s in starts:
            assert math.isfinite(nm.geodesic_distance(s, p.entrance))


def test_curbs_block_turtlebot_but_not_spot(city) -> None:  # type: ignore[no-untyped-def]
    road = next(s for s in city.surfaces if s.cls == "road"
                and min(np.ptp(np.asarray(s.polygon), axis=0)) > 6.0
                and max(np.ptp(np.asarray(s.polygon), axis=0)) > 40)
    p = np.asarray(road.polygon)
    (x0, z0), (x1, z1) = p.min(axis=0), p.max(axis=0)
    mid = ((x0 + x1) / 2, -0.2, (z0 + z1) / 2)
    # a sidewalk point 2 m beyond the road's long edge
    side = (mid[0], 0.0, z0 - 2.0) if x1 - x0 > z1 - z0 else (x0 - 2.0, 0.0, mid[2])
    spot = nav.NavMesh.build(city, nav.NavSettings.preset("spot"))
    d = spot.geodesic_distance(side, mid)
    assert d < math.dist(side, mid) + 1.0  # straight over the 0.2 m curb
    turtle = nav.NavMesh.build(city, nav.NavSettings.preset("turtlebot"))
    assert turtle.island_of(side) is not None
    assert turtle.island_of(mid) != turtle.island_of(side)  # the road is cut off by curbs
    assert math.isinf(turtle.geodesic_distance(side, mid))
    # yet turtlebot reaches every storefront through the raised crosswalks
    e0 = city.places[0].entrance
    assert all(math.isfinite(turtle.geodesic_distance(e0, q.entrance)) for q in city.places)


def test_hybrid_path_to_storefront_passes_exit() -> None:
    house = two_room_scene()
    hyb = generate_hybrid(3, house=house)
    ex = next(p for p in hyb.portals if p.kind == "exit")
    nm = nav.NavMesh.build(hyb, nav.NavSettings.preset("indoor", cell_size=0.1))
    room = hyb.room_index["h_r0"]
    start = (room.centroid[0], 0.0, room.centroid[1])
    assert classify_positions(hyb, [start])[0] == "indoor"
    shop = min((p for p in hyb.places if p.id.startswith("place_")),
               key=lambda p: math.dist(p.entrance, ex.center))
    path = nm.find_path(start, shop.entrance)
    pts = np.asarray(path.points)
    assert math.isfinite(path.geodesic_distance) and len(pts) >= 2
    # some path vertex or the segment through the opening passes within half the door width
    dense = np.concatenate([np.linspace(pts[i], pts[i + 1], 50) for i in range(len(pts) - 1)])
    near = np.linalg.norm(dense[:, [0, 2]] - np.array([ex.center[0], ex.center[2]]), axis=1).min()
    assert near <= ex.width / 2 + 1e-6
    labels = classify_positions(hyb, dense)
    assert labels[0] == "indoor" and labels[-1] == "outdoor"
