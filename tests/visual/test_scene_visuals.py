"""The visual build on hand-placed scenes: semantics, metric depth, materials, no coplanar
floors, the camera against a wall, determinism."""

from __future__ import annotations

import math

import pytest

from navbench.scene.model import Box, Room, Scene, SceneObject
from navbench.sim import SPOT, TURTLEBOT
from navbench.sim.snapshot import Snapshotter
from navbench.visual.build import build_visuals

W, H = 96, 72
WALL_Z, WALL_T = -3.0, 0.15


def studio() -> Scene:
    """Two rooms: bathroom r0 (x in [-3, 0]) and bedroom r1 (x in [0, 3]), z in [-3, 3]; a
    north wall at z = -3 (0.15 m thick), a wall between the rooms at x = 0 for z in [0.5, 3],
    a fridge facing +Z (yaw π) centred at (-1.5, 0.9, -2) and a floor slab of the lot below."""
    rooms = (Room("r0", "bathroom", ((-3, 3), (0, 3), (0, -3), (-3, -3)), 0.0, 2.7),
             Room("r1", "bedroom", ((0, 3), (3, 3), (3, -3), (0, -3)), 0.0, 2.7))
    fridge = SceneObject("f", "fridge", (-1.5, 0.9, -2.0), "r0", size=(0.7, 1.8, 0.7), yaw=math.pi)
    boxes = (
        Box("floor0", "floor", (-1.5, -0.05, 0.0), (3.0, 0.1, 6.0), 0.0, "floor", "r0"),
        Box("floor1", "floor", (1.5, -0.05, 0.0), (3.0, 0.1, 6.0), 0.0, "floor", "r1"),
        Box("slab", "ground", (0.0, -0.4, 0.0), (20.0, 0.8, 20.0), 0.0, "ground", "lot"),
        Box("wn", "wall", (0.0, 1.35, WALL_Z), (6.0, 2.7, WALL_T), 0.0, "wall", "r0"),
        Box("wm", "wall", (0.0, 1.35, 1.75), (0.1, 2.7, 2.5), 0.0, "wall", "r0"),
        Box("bf", "furniture", fridge.center, fridge.size, fridge.yaw, "fridge", "f"),
    )
    return Scene("studio", "hybrid", "handmade", rooms=rooms, objects=(fridge,), boxes=boxes)


@pytest.fixture(scope="module")
def turtle():
    snap = Snapshotter(studio(), TURTLEBOT, width=W, height=H)
    yield snap
    snap.close()


def _centre(view):
    return view.labels.get(int(view.semantic[H // 2, W // 2])), float(view.depth[H // 2, W // 2])


def test_wall_at_known_distance_has_metric_depth(turtle):
    # base at (1.5, 0, 0) facing -Z: camera 0.35 m up and 0.15 m ahead (z = -0.15), pitch 0;
    # the wall's face is at z = -3 + 0.075, so the centre ray's z-depth is 2.775 m.
    label, depth = _centre(turtle.view((1.5, 0.0, 0.0), yaw=0.0))
    assert label == ("r0", "wall")
    assert depth == pytest.approx(2.775, abs=0.01)


def test_object_centre_pixel_has_its_id_and_depth(turtle):
    # fridge door front at z = -2 + 0.35 - 0.005 (the doors stand 5 mm inside the box)
    label, depth = _centre(turtle.view((-1.5, 0.0, 0.0), yaw=0.0))
    assert label == ("f", "fridge")
    assert depth == pytest.approx(-0.15 - (-2.0 + 0.345), abs=0.01)


def test_room_floor_wins_over_the_coplanar_lot_slab(turtle):
    view = turtle.view((1.5, 0.0, 0.0), yaw=0.0)
    bottom = {view.labels.get(int(v)) for v in view.semantic[-4:].ravel()}
    assert bottom == {("r1", "floor/bedroom")}  # never ("lot", "ground") stripes
    vis = build_visuals(studio(), seed=0)
    floors = [vis.meshes[g.mesh] for g in vis.geoms if g.kind == "floor"]
    assert min(p.vertices[:, 1].max() for p in floors) >= 0.005  # above the slab top y = 0


def test_turtlebot_pressed_against_a_wall_still_sees_it(turtle):
    # hull radius 0.18 touching the wall face: the camera is 0.03 m from the wall (near plane 0.02)
    view = turtle.view((1.5, 0.0, WALL_Z + WALL_T / 2 + 0.18), yaw=0.0)
    label, depth = _centre(view)
    assert label == ("r0", "wall")
    assert depth == pytest.approx(0.03, abs=0.005)
    assert view.rgb.mean() > 40 and (view.depth > 0).all()


def test_materials_by_room_and_semantics_map_to_scene_ids():
    scene = studio()
    vis = build_visuals(scene, seed=0)
    ids = {r.id for r in scene.rooms} | {o.id for o in scene.objects} | {b.ref for b in scene.boxes}
    assert {g.ref for g in vis.geoms if g.kind not in ("shadow", "decor")} <= ids
    # fittings are entities of their own, named after the room / object / portal they belong to
    assert {g.ref.split("/")[0] for g in vis.geoms if g.kind == "decor"} <= ids
    assert {g.label for g in vis.geoms if g.kind == "decor"} <= {"skirting", "wall art", "window", "curtain",
                                                                 "blind", "rug", "mirror", "doorframe", "door"}
    floor0 = {g.material for g in vis.geoms if g.ref == "r0" and g.kind == "floor"}
    assert all(m.startswith("tile") for m in floor0)  # bathrooms are tiled
    middle_paints = {g.material for g in vis.geoms if g.kind == "wall" and g.material.startswith("paint")}
    assert len(middle_paints) >= 3  # bathroom side, bedroom side, wall tops
    assert {g.label for g in vis.geoms if g.kind == "ceiling"} == {"ceiling"}


def test_same_seed_same_meshes_and_pixels_other_seed_differs():
    scene = studio()
    a, b, c = (build_visuals(scene, seed=s) for s in (0, 0, 1))
    key = [(g.mesh, g.material) for g in a.geoms]
    assert key == [(g.mesh, g.material) for g in b.geoms]
    assert all(a.meshes[k].vertices.tobytes() == b.meshes[k].vertices.tobytes() for k in a.meshes)
    assert all(a.textures[k].tobytes() == b.textures[k].tobytes() for k in a.textures)
    assert key != [(g.mesh, g.material) for g in c.geoms] or any(
        a.meshes[k].vertices.tobytes() != c.meshes[k].vertices.tobytes() for k in a.meshes if k in c.meshes)
    pics = []
    for _ in range(2):
        snap = Snapshotter(scene, SPOT, width=W, height=H)
        pics.append(snap.view((-1.5, 0.0, 0.5), (-1.5, 0.0, -2.0)).rgb.tobytes())
        snap.close()
    assert pics[0] == pics[1]


def test_visuals_cache_returns_the_same_build(tmp_path):
    scene = studio()
    fresh = build_visuals(scene, seed=2, use_cache=False)
    first = build_visuals(scene, seed=2, cache=tmp_path)
    (cached,) = tmp_path.glob("scene-*.npz")
    warm = build_visuals(scene, seed=2, cache=tmp_path)
    for v in (first, warm):
        assert v.geoms == fresh.geoms and v.materials == fresh.materials and v.lights == fresh.lights
        assert sorted(v.meshes) == sorted(fresh.meshes)
        assert all(v.meshes[k].vertices.tobytes() == fresh.meshes[k].vertices.tobytes()
                   and v.meshes[k].faces.tobytes() == fresh.meshes[k].faces.tobytes() for k in fresh.meshes)
    cached.write_bytes(b"torn")  # an unreadable entry is rebuilt, not an error
    assert build_visuals(scene, seed=2, cache=tmp_path).geoms == fresh.geoms
