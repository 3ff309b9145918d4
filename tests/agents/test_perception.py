"""Perception and mapping of the scene-graph agent against hand-computed geometry."""

from __future__ import annotations

import math

import numpy as np
import pytest

from navbench.agents.base import filter_observation
from navbench.agents.mapping import FREE, OCCUPIED, UNKNOWN, Grid, ObjectMap, OccupancyMap, RoomMap
from navbench.agents.perception import (
    NoiseModel,
    Perceiver,
    back_project,
    camera_to_world,
    floor_room,
    room_type,
)
from navbench.errors import ConfigError
from navbench.scene import Box, Room, Scene, SceneObject


class _Semantic:
    sensors = frozenset({"semantic"})


def _box_scene() -> Scene:
    """One 8 m × 8 m room (floor at y = 0), a 1.0 × 0.6 × 0.4 m crate centred at (0, 0.3, -3)."""
    room = Room("r0", "kitchen", ((-4.0, 4.0), (4.0, 4.0), (4.0, -4.0), (-4.0, -4.0)), 0.0, 2.7)
    crate = SceneObject("o0", "crate", (0.0, 0.3, -3.0), "r0", size=(1.0, 0.6, 0.4))
    boxes = (Box("b0", "furniture", (0.0, 0.3, -3.0), (1.0, 0.6, 0.4), label="crate", ref="o0"),)
    return Scene(id="crate", kind="indoor", source="handmade", rooms=(room,), objects=(crate,),
                 boxes=boxes)


def test_pinhole_back_projection_by_hand() -> None:
    # Camera 1 m above the ground point at the origin, no pitch, yaw 90° (facing -X).
    k = np.array([[100.0, 0, 50.0], [0, 100.0, 40.0], [0, 0, 1]])
    depth = np.full((81, 101), 2.0)
    c2w = camera_to_world((0.0, 0.0, 0.0, math.pi / 2), np.eye(4), 1.0)
    pts = back_project(depth, k, c2w)
    # Centre pixel looks straight ahead (-X after the turn) at 2 m.
    assert np.allclose(pts[40, 50], [-2.0, 1.0, 0.0])
    # u = 100 is 50 px right of centre: 1 m to the camera's right; yaw +90° turns body +X
    # into world (cos 90°, -sin 90°) = (0, -1) in (x, z), so right = -Z.
    assert np.allclose(pts[40, 100], [-2.0, 1.0, -1.0])
    # v = 0 is 40 px above centre: 0.8 m up.
    assert np.allclose(pts[0, 50], [-2.0, 1.8, 0.0])


def test_detected_box_centre_within_cm() -> None:
    from navbench.sim import SPOT, SimSettings, Simulator

    sim = Simulator(_box_scene(), SPOT, SimSettings(render=True, visuals=False, rgb=False, width=160, height=120))
    try:
        raw = sim.reset_to((0.0, 0.0, 0.0), 0.0)  # 3 m south of the crate, facing it (-Z)
        obs = filter_observation(raw, _Semantic(), sim.segmentation_labels)
        p = Perceiver()
        frame = p.observe(obs)
    finally:
        sim.close()
    assert frame is not None
    assert p.body_height == pytest.approx(SPOT.sole_height, abs=0.02)  # calibrated from floor
    (det,) = [d for d in frame.detections if d.label == "crate"]
    # The visible faces: the front face at z = -2.8 and the top at y = 0.6 (x ∈ [-0.5, 0.5]).
    assert det.lo[0] == pytest.approx(-0.5, abs=0.04) and det.hi[0] == pytest.approx(0.5, abs=0.04)
    assert det.hi[1] == pytest.approx(0.6, abs=0.04) and det.lo[1] == pytest.approx(0.0, abs=0.04)
    assert det.hi[2] == pytest.approx(-2.8, abs=0.04)
    assert abs(det.center[0]) < 0.03


def test_noise_model_validation_and_misses() -> None:
    with pytest.raises(ConfigError, match="miss_prob"):
        NoiseModel(miss_prob=1.5)
    assert NoiseModel.level(0.0).is_zero and not NoiseModel.level(0.2).is_zero
    # miss_prob = 1: nothing is ever detected; the same seed draws the same fates.
    p = Perceiver(NoiseModel(miss_prob=1.0))
    assert p._fate_of(3, "crate", ["crate", "bed"])[0] is True
    a, b = Perceiver(NoiseModel.level(0.5, seed=7)), Perceiver(NoiseModel.level(0.5, seed=7))
    a.reset("e1")
    b.reset("e1")
    fa = [a._fate_of(s, "crate", ["crate", "bed", "sofa"]) for s in range(20)]
    fb = [b._fate_of(s, "crate", ["crate", "bed", "sofa"]) for s in range(20)]
    assert [(m, lab) for m, lab, _ in fa] == [(m, lab) for m, lab, _ in fb]
    assert 3 <= sum(m for m, _, _ in fa) <= 17  # ~half missed


def test_room_type_votes() -> None:
    assert room_type(["fridge", "oven", "chair"]) == "kitchen"
    assert room_type(["bed", "sofa", "tv"]) == "living room"  # 2 living-room cues vs 1
    assert room_type(["chair", "vase"]) is None


def test_occupancy_frontiers_and_path_on_hand_built_map() -> None:
    # A 4 m × 2 m corridor of floor (x ∈ [0, 4], z ∈ [0, 2]); a wall of points at x = 2 with a
    # 1 m gap at z ∈ [1, 2] (floor seen through it); everything else unknown.
    g = Grid((2.0, 1.0), size=8.0, cell=0.1)
    occ = OccupancyMap(g)
    xs, zs = np.meshgrid(np.arange(0.05, 4.0, 0.1), np.arange(0.05, 2.0, 0.1))
    floor = np.stack([xs.ravel(), np.zeros(xs.size), zs.ravel()], axis=1)
    floor = floor[(np.abs(floor[:, 0] - 2.0) > 0.1) | (floor[:, 2] > 1.0)]  # floor in the gap
    wz = np.arange(0.05, 1.0, 0.05)
    wall = np.stack([np.full(wz.size, 2.0), np.full(wz.size, 0.5), wz], axis=1)
    occ.integrate(floor, wall, 0.0)
    st = occ.state()
    assert st[g.cell_of(1.0, 1.0)] == FREE and st[g.cell_of(2.0, 0.5)] == OCCUPIED
    assert st[g.cell_of(-1.0, 1.0)] == UNKNOWN
    fronts = occ.frontiers()
    cells = np.concatenate(fronts)
    x, z = g.center_of(cells[:, 0], cells[:, 1])
    # Frontier cells lie on the border of the seen floor.
    assert np.all((x < 0.2) | (x > 3.8) | (z < 0.2) | (z > 1.8) | (np.abs(x - 2.0) < 0.3))
    field = occ.plan((0.5, 0.5), clearance=0.25)
    path = field.path_to(*g.cell_of(3.5, 0.5))
    assert len(path) > 0
    # The path must pass the wall through the gap (z > 1 + clearance - cell at x = 2).
    at_wall = path[np.abs(path[:, 0] - 2.0) < 0.06]
    assert len(at_wall) and np.all(at_wall[:, 1] >= 1.2)
    # Its length is at least the straight detour through the gap's edge, by hand.
    length = np.sum(np.hypot(*np.diff(path, axis=0).T))
    assert length >= math.hypot(1.5, 0.75) * 2 - 0.2


def test_room_map_separates_touching_floors() -> None:
    g = Grid((0.0, 0.0), size=10.0, cell=0.1)
    rooms = RoomMap(g)

    def patch(x0: float, x1: float) -> np.ndarray:
        xs, zs = np.meshgrid(np.arange(x0, x1, 0.05), np.arange(-1.0, 1.0, 0.05))
        return np.stack([xs.ravel(), np.zeros(xs.size), zs.ravel()], axis=1)

    a = rooms.integrate(patch(-3.0, -0.5))
    b = rooms.integrate(patch(-2.0, 0.02))  # same room seen again (overlaps a lot)
    c = rooms.integrate(patch(0.0, 3.0))  # the next room: touches along one cell column only
    assert a == b and c != a
    assert rooms.region_at(np.array([1.0, 0, 0]), np.array([1.5, 0.5, 0.3])) == c


def test_object_map_merges_by_label_and_overlap() -> None:
    m = ObjectMap(gap=0.1)
    m.add("chair", np.array([0.0, 0, 0]), np.array([0.5, 1, 0.5]))
    m.add("chair", np.array([0.4, 0, 0]), np.array([0.9, 1, 0.5]))  # overlaps: same chair
    m.add("chair", np.array([2.0, 0, 0]), np.array([2.5, 1, 0.5]))  # another chair
    m.add("table", np.array([0.0, 0, 0]), np.array([0.5, 1, 0.5]))  # other label
    assert sorted((t.label, t.seen) for t in m.tracks) == [("chair", 1), ("chair", 2), ("table", 1)]
    big = next(t for t in m.tracks if t.seen == 2)
    assert np.allclose(big.lo, [0, 0, 0]) and np.allclose(big.hi, [0.9, 1, 0.5])


def test_room_floor_is_labelled_with_its_room_and_confused_by_noise() -> None:
    from navbench.sim import SPOT, SimSettings, Simulator
    from navbench.sim.world import build_world

    scene = _box_scene()  # no floor geometry: the room polygon becomes the floor
    labels = {g.label for g in build_world(scene).geoms if g.kind == "floor"}
    assert labels == {"floor/kitchen"}
    # A floor box that belongs to a room is labelled too; its surface class stays "floor".
    box = Box("f0", "floor", (0.0, -0.05, 0.0), (8.0, 0.1, 8.0), label="floor", ref="r0")
    w = build_world(Scene(id="b", kind="indoor", source="handmade", rooms=scene.rooms,
                          boxes=(box,)))
    (g,) = [g for g in w.geoms if g.kind == "floor"]
    assert (g.label, g.surface, g.preferred) == ("floor/kitchen", "floor", True)

    sim = Simulator(scene, SPOT, SimSettings(render=True, visuals=False, rgb=False, width=160, height=120))
    try:
        raw = sim.reset_to((0.0, 0.0, 0.0), 0.0)
        obs = filter_observation(raw, _Semantic(), sim.segmentation_labels)
        clean, noisy = Perceiver(), Perceiver(NoiseModel(confusion_prob=1.0))
        fc, fn = clean.observe(obs), noisy.observe(obs)
    finally:
        sim.close()
    assert fc is not None and fn is not None
    assert fc.floor_types == ["kitchen"]
    assert clean.body_height == pytest.approx(SPOT.sole_height, abs=0.02)
    assert len(fn.floor_types) == 1 and fn.floor_types[0] not in ("kitchen", "")
    assert floor_room("floor/living room") == "living room" and floor_room("floor") == ""
    assert floor_room("wall") is None


def test_room_map_types_and_merging_of_typed_patches() -> None:
    g = Grid((0.0, 0.0), size=10.0, cell=0.1)
    rooms = RoomMap(g)

    def patch(x0: float, x1: float) -> np.ndarray:
        xs, zs = np.meshgrid(np.arange(x0, x1, 0.05), np.arange(-1.0, 1.0, 0.05))
        return np.stack([xs.ravel(), np.zeros(xs.size), zs.ravel()], axis=1)

    a = rooms.integrate(patch(-3.0, -1.0), "kitchen")
    b = rooms.integrate(patch(-1.05, 0.0), "kitchen")  # one shared cell column: same room
    c = rooms.integrate(patch(-0.05, 2.0), "bedroom")  # overlaps b's edge but another type
    assert a == b and c != a
    assert rooms.type_of(a) == "kitchen" and rooms.type_of(c) == "bedroom"
    # Majority vote: a smaller confused patch of the kitchen does not flip its type.
    rooms.integrate(patch(-2.0, -1.5), "")
    assert rooms.type_of(a) == "kitchen" and sorted(rooms.regions()) == sorted({a, c})


def test_room_coverage_by_hand() -> None:
    # Seen floor: a 2 m × 2 m square = 20 × 20 cells; grow = 0.5 m = 5 cells, so the box is
    # 30 × 30 cells. Everything else unknown: U = 900 − 400 = 500 → coverage 400 / 900.
    g = Grid((0.0, 0.0), size=10.0, cell=0.1)
    rooms = RoomMap(g)
    xs, zs = np.meshgrid(np.arange(-0.95, 1.0, 0.1), np.arange(-0.95, 1.0, 0.1))
    r = rooms.integrate(np.stack([xs.ravel(), np.zeros(xs.size), zs.ravel()], axis=1), "kitchen")
    assert r is not None
    state = np.full((g.n, g.n), UNKNOWN, np.int8)
    (i0, j0), (i1, j1) = g.cell_of(-0.95, -0.95), g.cell_of(0.95, 0.95)
    state[i0:i1 + 1, j0:j1 + 1] = FREE
    cov, unseen = rooms.coverage(r, state, grow=0.5)
    assert (i1 - i0 + 1, j1 - j0 + 1) == (20, 20)
    assert cov == pytest.approx(400 / 900) and len(unseen) == 500
    # Walls (occupied) all around, one cell out: the unknown beyond them is not this room's.
    state[i0 - 1, j0 - 1:j1 + 2] = OCCUPIED
    state[i1 + 1, j0 - 1:j1 + 2] = OCCUPIED
    state[i0 - 1:i1 + 2, j0 - 1] = OCCUPIED
    state[i0 - 1:i1 + 2, j1 + 1] = OCCUPIED
    assert rooms.coverage(r, state, grow=0.5)[0] == 1.0
    # A 4-cell doorway in the east wall with nothing seen beyond: the room may continue
    # there, so the whole unseen band outside the walls (30² − 22² cells, the walls' ring is
    # 22 × 22) plus the 4 doorway cells count as unseen.
    state[i0 + 8:i0 + 12, j1 + 1] = UNKNOWN
    cov, unseen = rooms.coverage(r, state, grow=0.5)
    assert len(unseen) == 30 * 30 - 22 * 22 + 4 and cov == pytest.approx(400 / 820)
    # The next room's floor seen through the doorway closes it: only the doorway is unseen.
    state[i0 + 8:i0 + 12, j1 + 2] = FREE
    cov, unseen = rooms.coverage(r, state, grow=0.5)
    assert len(unseen) == 4 and cov == pytest.approx(400 / 404)


def test_known_floor_fills_enclosed_blind_spots_only() -> None:
    # A ring of seen floor (the robot's blind spot in the middle) inside a walled room; outside
    # the walls nothing is seen. The hole becomes known floor, the outside stays unknown.
    g = Grid((0.0, 0.0), size=6.0, cell=0.1)
    occ = OccupancyMap(g)
    xs, zs = np.meshgrid(np.arange(-1.45, 1.5, 0.1), np.arange(-1.45, 1.5, 0.1))
    pts = np.stack([xs.ravel(), np.zeros(xs.size), zs.ravel()], axis=1)
    ring = pts[np.hypot(pts[:, 0], pts[:, 2]) > 0.6]
    t = np.arange(-1.55, 1.6, 0.05)
    walls = np.concatenate([np.stack([t, np.full(t.size, 0.5), np.full(t.size, s)], axis=1)
                            for s in (-1.55, 1.55)] +
                           [np.stack([np.full(t.size, s), np.full(t.size, 0.5), t], axis=1)
                            for s in (-1.55, 1.55)])
    occ.integrate(ring, walls, 0.0)
    raw, known = occ.state(fill_holes=False), occ.state()
    assert raw[g.cell_of(0.0, 0.0)] == UNKNOWN and known[g.cell_of(0.0, 0.0)] == FREE
    assert known[g.cell_of(2.5, 0.0)] == UNKNOWN and known[g.cell_of(1.55, 0.0)] == OCCUPIED
    trav, _ = occ.traversable(0.3)
    assert trav[g.cell_of(0.0, 0.0)] and not trav[g.cell_of(1.4, 0.0)]  # 0.15 m from the wall
    assert not occ.frontiers()  # a closed room has nothing left to explore
