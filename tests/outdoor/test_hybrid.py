"""Indoor-to-outdoor assembly with the hand-built two-room house (exit at x = 8, facing +X)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import navbench.scene as ns
from navbench.geometry import box_corners_xz, heading_vector, point_in_polygon
from navbench.scene.procgen.hybrid import HybridSettings, generate_hybrid
from navbench.scene.stages import classify_positions
from tests.conftest import two_room_scene


@pytest.fixture(scope="module")
def hyb() -> ns.Scene:
    return generate_hybrid(3, house=two_room_scene())


def test_exit_portal_faces_a_sidewalk(hyb: ns.Scene) -> None:
    ex = [p for p in hyb.portals if p.kind == "exit"]
    assert len(ex) == 1 and ex[0].regions == ("h_r1", "outdoor") and hyb.kind == "hybrid"
    e = ex[0]
    f = heading_vector(e.yaw)
    out = np.array([e.center[0], e.center[2]]) + f * 1.5  # 1.5 m outside: on the sidewalk
    inside = np.array([e.center[0], e.center[2]]) - f * 1.0
    cls = {s.cls for s in hyb.surfaces if point_in_polygon(out, s.polygon)
           and not any(point_in_polygon(out, h) for h in s.holes)}
    assert "sidewalk" in cls
    assert list(classify_positions(hyb, [(inside[0], 0.0, inside[1]), (out[0], 0.0, out[1])])) == ["indoor", "outdoor"]
    assert all(r.floor_y == 0.0 for r in hyb.rooms)  # floor height = sidewalk height
    assert hyb.meta["indoor_anchor"] == pytest.approx(list(e.center))


def test_rigid_transform_preserves_house(hyb: ns.Scene) -> None:
    src = two_room_scene()
    a = {r.id: r for r in src.rooms}
    for r in hyb.rooms:
        assert r.area == pytest.approx(a[r.id[2:]].area)
    d_src = math.dist(src.portals[0].center, src.portals[1].center)
    d_h = math.dist(hyb.portals[0].center, hyb.portals[1].center)
    assert d_h == pytest.approx(d_src)


def test_facade_is_open_only_at_exit(hyb: ns.Scene) -> None:
    """Walls (height > 1 m) block every ray leaving the house except the one through the exit."""
    ex = next(p for p in hyb.portals if p.kind == "exit")
    walls = [b for b in hyb.boxes if b.kind == "wall"]

    def blocked(p: np.ndarray, q: np.ndarray) -> bool:
        for t in np.linspace(0, 1, 400):
            x, z = p + (q - p) * t
            for b in walls:
                c, s = math.cos(b.yaw), math.sin(b.yaw)
                dx, dz = x - b.center[0], z - b.center[2]
                lx, lz = dx * c - dz * s, dx * s + dz * c
                if abs(lx) <= b.size[0] / 2 and abs(lz) <= b.size[2] / 2:
                    return True
        return False

    r1 = hyb.room_index["h_r1"]
    c = np.array(r1.centroid)
    e = np.array([ex.center[0], ex.center[2]])
    f = heading_vector(ex.yaw)
    assert not blocked(c, e + f * 2.0)
    side = np.array([f[1], -f[0]])
    assert blocked(c, e + side * 1.5 + f * 2.0)
    assert blocked(c, c - f * 10.0)


def test_objects_within_radius_and_no_building_overlap(hyb: ns.Scene) -> None:
    a = np.array(hyb.meta["indoor_anchor"])[[0, 2]]
    outdoor = [o for o in hyb.objects if o.room_id is None]
    assert outdoor and all(np.hypot(*(np.array([o.center[0], o.center[2]]) - a)) <= 50.0 + 3.0 for o in outdoor)
    rooms = [r.floor_polygon for r in hyb.rooms]
    for b in hyb.boxes:
        if b.kind == "building" and b.ref != "house":
            assert not any(point_in_polygon((b.center[0], b.center[2]), p) for p in rooms)


def test_hybrid_deterministic() -> None:
    s = HybridSettings(radius=30.0)
    assert ns.dumps(generate_hybrid(4, s, house=two_room_scene())) == ns.dumps(generate_hybrid(4, s, house=two_room_scene()))


def test_the_exit_has_shops_of_several_categories_in_placenav_range() -> None:
    """The site is chosen for shops near the exit: measured from the scene's own places, at
    least 4 categories have an entrance 5-40 m (straight line) from the exit. Before, 4 of
    seeds 0-7 had one shop or none within 50 m, so every PlaceNav episode had the same goal."""
    import math

    from navbench.scene.procgen.hybrid import generate_hybrid

    for seed in (0, 7):
        sc = generate_hybrid(seed)
        ax, _, az = sc.meta["indoor_anchor"]
        cats = {p.category for p in sc.places if p.entrance is not None
                and 5.0 <= math.hypot(p.entrance[0] - ax, p.entrance[2] - az) <= 40.0}
        assert len(cats) >= 4, (seed, sorted(cats))


def test_an_exit_in_a_recess_is_set_back_behind_the_facade() -> None:
    # a third room r2 (x 4..11, z 0..3) reaches 3 m beyond the exit plane x = 8: before, the
    # house was put with its exit on the facade line, so r2 stuck out of every lot (3 of 30
    # generated houses failed so); now the house's front is on the facade, the exit 3 m back
    import dataclasses

    house = two_room_scene()
    r2 = ns.Room("r2", "bedroom", ((4.0, 3.0), (11.0, 3.0), (11.0, 0.0), (4.0, 0.0)), 0.0, 2.7)
    house = dataclasses.replace(house, rooms=(*house.rooms, r2))
    hyb = generate_hybrid(3, house=house)
    e = next(p for p in hyb.portals if p.kind == "exit")
    f = heading_vector(e.yaw)
    c = np.array([e.center[0], e.center[2]])
    # every room lies behind the line 3 m ahead of the exit (the facade), r2 up to it
    ahead = max(float(((np.asarray(r.floor_polygon) - c) @ f).max()) for r in hyb.rooms)
    assert ahead == pytest.approx(3.0, abs=1e-6)
    # straight out of the exit: 3 m of forecourt (outdoor, no obstacle box), then the sidewalk
    path = [c + f * t for t in np.arange(0.3, 4.5, 0.1)]
    assert set(classify_positions(hyb, [(p[0], 0.0, p[1]) for p in path])) == {"outdoor"}
    for b in hyb.boxes:
        if b.kind in ("wall", "building", "object", "door"):
            poly = box_corners_xz(b.center, b.size, b.yaw)
            assert not any(point_in_polygon(p, poly) for p in path), b.id
    out = c + f * 4.5
    cls = {s.cls for s in hyb.surfaces if point_in_polygon(out, s.polygon)
           and not any(point_in_polygon(out, h) for h in s.holes)}
    assert "sidewalk" in cls


@pytest.mark.slow
def test_every_seed_builds_a_hybrid() -> None:
    # seeds 11, 15 and 23 drew houses whose exit sits in a recess; 0 failures in 100 seeds
    for seed in range(100):
        assert generate_hybrid(seed).kind == "hybrid"


@pytest.mark.parametrize("seed", [11, 15, 23])
def test_seeds_whose_house_has_a_recessed_exit_build(seed: int) -> None:
    assert generate_hybrid(seed).kind == "hybrid"
