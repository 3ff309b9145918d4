"""Furnished rooms on a hand-built house: windows only in outside walls and clear of tall
furniture, an open door leaf flat against its wall beside the opening, rugs on the floor,
clutter on furniture tops, each its own segmentation entity; physics and the navmesh see none
of it; seeded."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely

from navbench.scene.model import Box, Portal, Room, Scene, SceneObject
from navbench.scene.procgen.catalog import CATALOG
from navbench.sim import SPOT
from navbench.sim.snapshot import Snapshotter
from navbench.sim.world import build_world
from navbench.visual.build import build_visuals
from navbench.visual.furnish import fittings

H = 2.7
T = 0.2  # wall thickness; walls are centred on the room outlines


def house() -> Scene:
    """Living room r0 (x 0..4) and bedroom r1 (x 4..8), z 0..4; a door d0 (z 1.5..2.5) in the
    wall x = 4; a sofa against the north wall, a coffee table with a vase on its left end in r0; a 2 m
    wardrobe against the south (outside) wall of r1 at x 5..6.5, a bed against the east wall."""
    rooms = (Room("r0", "living room", ((0, 4), (4, 4), (4, 0), (0, 0)), 0.0, H),
             Room("r1", "bedroom", ((4, 4), (8, 4), (8, 0), (4, 0)), 0.0, H))
    objs = (SceneObject("sofa", "sofa", (2.0, 0.42, 0.55), "r0", size=(2.0, 0.85, 0.9), yaw=math.pi),
            SceneObject("tbl", "coffee table", (2.0, 0.21, 2.2), "r0", size=(1.0, 0.42, 0.6), yaw=math.pi),
            SceneObject("vase", "vase", (1.7, 0.57, 2.2), "r0", size=(0.16, 0.3, 0.16), yaw=math.pi, parent_id="tbl"),
            SceneObject("ward", "wardrobe", (5.75, 1.0, 3.6), "r1", size=(1.5, 2.0, 0.6), yaw=0.0),
            SceneObject("bed", "bed", (6.9, 0.27, 2.0), "r1", size=(1.6, 0.55, 2.1), yaw=math.pi / 2))
    boxes = [Box("f0", "floor", (2.0, -0.05, 2.0), (4.0, 0.1, 4.0), 0.0, "floor", "r0"),
             Box("f1", "floor", (6.0, -0.05, 2.0), (4.0, 0.1, 4.0), 0.0, "floor", "r1"),
             Box("wn", "wall", (4.0, H / 2, 0.0), (8.0 + T, H, T), 0.0, "wall", None),
             Box("ws", "wall", (4.0, H / 2, 4.0), (8.0 + T, H, T), 0.0, "wall", None),
             Box("ww", "wall", (0.0, H / 2, 2.0), (T, H, 4.0 - T), 0.0, "wall", None),
             Box("we", "wall", (8.0, H / 2, 2.0), (T, H, 4.0 - T), 0.0, "wall", None),
             Box("wm0", "wall", (4.0, H / 2, 0.8), (T, H, 1.4), 0.0, "wall", None),
             Box("wm1", "wall", (4.0, H / 2, 3.2), (T, H, 1.4), 0.0, "wall", None),
             Box("lintel_d0", "wall", (4.0, 2.4, 2.0), (T, 0.6, 1.0), 0.0, "wall", "d0")]
    for o in objs:
        boxes.append(Box(f"b_{o.id}", "object" if o.parent_id else "furniture", o.center, o.size, o.yaw, o.label, o.id))
    door = Portal("d0", "door", ("r0", "r1"), (4.0, 0.0, 2.0), 1.0, 2.1, -math.pi / 2)
    return Scene("furnish", "indoor", "handmade", rooms=rooms, objects=objs, portals=(door,), boxes=tuple(boxes))


@pytest.fixture(scope="module")
def fits():
    return fittings(house(), 0)


def _xz(parts) -> shapely.Geometry:
    v = np.vstack([p.vertices for p in parts])
    return shapely.MultiPoint(v[:, [0, 2]]).convex_hull


def test_windows_sit_on_outside_walls_clear_of_tall_furniture(fits) -> None:
    panes = [f for f in fits if f.label == "window" and f.daylight and any(p.material == "window_view" for p in f.parts)]
    assert panes
    inner = {("z", 0.1), ("z", 3.9), ("x", 0.1), ("x", 7.9)}  # inside faces of the outside walls
    for f in panes:
        v = np.vstack([p.vertices for p in f.parts if p.material == "window_view"])
        axis = "z" if np.ptp(v[:, 2]) < 0.01 else "x"
        plane = float(v[:, 2 if axis == "z" else 0].max())
        assert any(a == axis and abs(plane - c) < 0.005 for a, c in inner), (axis, plane)  # 3 mm off the wall
        if axis == "z" and plane > 3.0 and v[:, 0].min() > 4.0:  # r1's south wall, where the wardrobe stands
            assert v[:, 0].max() < 5.0 - 0.05 or v[:, 0].min() > 6.5 + 0.05
        assert v[:, 1].min() >= 0.8 and v[:, 1].max() <= H - 0.3  # sill height to below the ceiling


def test_open_door_leaf_lies_flat_against_its_wall_beside_the_opening(fits) -> None:
    (leaf,) = [f for f in fits if f.label == "door"]
    v = np.vstack([p.vertices for p in leaf.parts])
    assert v[:, 0].min() > 4.0 + T / 2 - 1e-6 or v[:, 0].max() < 4.0 - T / 2 + 1e-6  # one side of the wall
    off = np.minimum(np.abs(v[:, 0] - (4.0 + T / 2)), np.abs(v[:, 0] - (4.0 - T / 2)))
    assert np.quantile(off, 0.9) <= 0.071 and off.max() < 0.13  # the leaf flat against the wall; the lever 6 cm proud
    assert v[:, 2].min() >= 2.5 - 1e-6 or v[:, 2].max() <= 1.5 + 1e-6  # never across the opening
    (frame,) = [f for f in fits if f.label == "doorframe"]
    fv = np.vstack([p.vertices for p in frame.parts])
    assert fv[:, 2].min() < 1.5 and fv[:, 2].max() > 2.5  # casings around the opening


def test_rugs_lie_on_the_floor_inside_their_rooms(fits) -> None:
    rugs = [f for f in fits if f.label == "rug"]
    for f in rugs:
        v = np.vstack([p.vertices for p in f.parts])
        assert v[:, 1].min() >= 0.01 and v[:, 1].max() <= 0.03
        room = shapely.Polygon(next(r for r in house().rooms if f.ref.startswith(r.id)).floor_polygon)
        assert room.contains(_xz(f.parts))


def test_clutter_stands_on_furniture_tops_and_is_never_a_catalogue_category(fits) -> None:
    scene = house()
    objs = {o.id: o for o in scene.objects}
    clutter = [f for f in fits if "/clutter" in f.ref]
    assert clutter
    vase = shapely.Point(1.7, 2.2).buffer(0.08)
    for f in clutter:
        assert f.label not in CATALOG
        host = objs[f.ref.split("/")[0]]
        v = np.vstack([p.vertices for p in f.parts])
        assert v[:, 1].min() == pytest.approx(host.center[1] + host.size[1] / 2, abs=0.003)
        c, s = math.cos(host.yaw), math.sin(host.yaw)
        hx, hz = host.size[0] / 2, host.size[2] / 2
        top = shapely.Polygon([(host.center[0] + c * x + s * z, host.center[2] - s * x + c * z)
                               for x, z in ((-hx, -hz), (hx, -hz), (hx, hz), (-hx, hz))])
        assert top.buffer(0.02).contains(_xz(f.parts))
        assert not _xz(f.parts).intersects(vase)


def test_fittings_are_seeded() -> None:
    a, b, c = fittings(house(), 3), fittings(house(), 3), fittings(house(), 4)
    key = [(f.ref, f.label, [p.vertices.tobytes() + p.material.encode() for p in f.parts]) for f in a]
    assert key == [(f.ref, f.label, [p.vertices.tobytes() + p.material.encode() for p in f.parts]) for f in b]
    assert key != [(f.ref, f.label, [p.vertices.tobytes() + p.material.encode() for p in f.parts]) for f in c]


def test_physics_never_sees_the_fittings() -> None:
    scene = house()
    bare = build_world(scene, SPOT, visuals=build_visuals(scene, seed=0, use_cache=False, furnish=False))
    full = build_world(scene, SPOT, visuals=build_visuals(scene, seed=0, use_cache=False))
    m0, m1 = bare.model, full.model
    colliding = [i for i in range(m1.ngeom) if m1.geom_contype[i] or m1.geom_conaffinity[i]]
    assert [m1.geom(i).name for i in colliding] == [m0.geom(i).name for i in range(m0.ngeom)
                                                      if m0.geom_contype[i] or m0.geom_conaffinity[i]]
    decor = [i for i, g in enumerate(full.geoms) if g.kind == "decor"]
    assert decor and not set(decor) & set(full.obstacle_geoms.tolist())
    assert [full.geoms[i].name for i in full.obstacle_geoms] == [bare.geoms[i].name for i in bare.obstacle_geoms]


def test_a_window_has_a_segmentation_id_of_its_own() -> None:
    snap = Snapshotter(house(), SPOT, width=96, height=72)
    try:  # from the middle of r0 look west at its outside wall x = 0
        view = snap.view((1.8, 0.0, 1.6), (0.0, 0.0, 1.6))
    finally:
        snap.close()
    labels = {int(k): v for k, v in view.labels.items()}
    seen = {labels[int(i)] for i in np.unique(view.semantic) if int(i) in labels}
    assert {v[1] for v in seen} >= {"window", "wall"}  # the window and the wall around it, both in view
    window_ids = {k for k, v in labels.items() if v[1] == "window"}
    wall_ids = {k for k, v in labels.items() if v[1] == "wall"}
    assert window_ids and not window_ids & wall_ids
    assert all(labels[k][0].startswith("r0/window") for k in window_ids if int(k) in np.unique(view.semantic))
