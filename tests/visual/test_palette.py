"""The colour-palette atlas (one geom for an object's flat parts) and the merged walls: exact
colours, exact semantics, same pixels as the unmerged parts, deterministic."""

from __future__ import annotations

from dataclasses import replace

import mujoco
import numpy as np

from navbench.scene.model import Box, Room, Scene, SceneObject
from navbench.sim import TURTLEBOT
from navbench.sim.sensors import Camera
from navbench.sim.world import build_world
from navbench.visual.build import build_visuals, material_table
from navbench.visual.materials import resolve
from navbench.visual.mesh import Part, box, transform
from navbench.visual.palette import PALETTE, Palette

W, H = 96, 72
RED, BLUE = "paper@ff0000", "paper@0000ff"  # matte: merged


def _sample(img: np.ndarray, uv: np.ndarray) -> np.ndarray:
    """Texel under each UV (row 0 = top = v 1)."""
    h, w = img.shape[:2]
    cols = np.floor(uv[:, 0] * w).astype(int)
    rows = np.floor((1.0 - uv[:, 1]) * h).astype(int)
    return img[rows, cols]


def _halves() -> list[Part]:
    """A 0.8 x 0.7 x 0.2 m block (bottom at y = 0): left half (x < 0) red, right half blue."""
    left = transform(box((0.4, 0.7, 0.2), RED), offset=(-0.2, 0.35, 0.0))
    right = transform(box((0.4, 0.7, 0.2), BLUE), offset=(0.2, 0.35, 0.0))
    return [left, right]


def test_flat_parts_merge_into_one_part_whose_uvs_hit_their_colours():
    table = material_table()
    wood = transform(box((0.1, 0.1, 0.1), "wood"), offset=(0.0, 1.0, 0.0))
    chrome = transform(box((0.1, 0.1, 0.1), "chrome"), offset=(0.0, 2.0, 0.0))  # shiny: kept
    plastic = transform(box((0.1, 0.1, 0.1), "plastic@00ff00"), offset=(0.0, 3.0, 0.0))  # satin: kept
    parts = [*_halves(), wood, chrome, plastic]
    pal = Palette()
    out = pal.merge(parts, {p.material: resolve(p.material, table) for p in parts})
    assert [p.material for p in out[:3]] == ["wood", "chrome", "plastic@00ff00"]
    assert len(out) == 4 and out[3].material.startswith(PALETTE + "/")
    meshes = {"a": out[3]}
    img = pal.finish(meshes)
    assert img is not None
    atlas = meshes["a"]
    n = len(parts[0].vertices)  # the red half's vertices come first
    assert (_sample(img, atlas.uv[:n]) == (255, 0, 0)).all()
    assert (_sample(img, atlas.uv[n:]) == (0, 0, 255)).all()
    np.testing.assert_array_equal(atlas.vertices, np.vstack([parts[0].vertices, parts[1].vertices]))
    assert pal.materials[atlas.material].rgba == (1.0, 1.0, 1.0, 1.0)


def _scene() -> Scene:
    """One bedroom (x, z in [-3, 3]); object c (the two-colour block, centre (0, 0.35, -2)),
    object d (a box at x = 1.5, z = -2.5), two anonymous walls (z = -3, x = 3)."""
    room = Room("r0", "bedroom", ((-3, 3), (3, 3), (3, -3), (-3, -3)), 0.0, 2.7)
    c = SceneObject("c", "cube", (0.0, 0.35, -2.0), "r0", size=(0.8, 0.7, 0.2))
    d = SceneObject("d", "cube", (1.5, 0.35, -2.5), "r0", size=(0.6, 0.7, 0.6))
    boxes = (Box("floor0", "floor", (0.0, -0.05, 0.0), (6.0, 0.1, 6.0), 0.0, "floor", "r0"),
             Box("bc", "object", c.center, c.size, 0.0, "cube", "c"),
             Box("bd", "object", d.center, d.size, 0.0, "cube", "d"),
             Box("w1", "wall", (0.0, 1.35, -3.0), (6.0, 2.7, 0.1), 0.0, "wall", None),
             Box("w2", "wall", (3.0, 1.35, 0.0), (0.1, 2.7, 6.0), 0.0, "wall", None))
    return Scene("palette", "indoor", "handmade", rooms=(room,), objects=(c, d), boxes=boxes)


def _render(atlas: bool) -> tuple[np.ndarray, np.ndarray, dict[int, tuple[str | None, str]], np.ndarray]:
    scene = _scene()
    vis = build_visuals(scene, seed=0, use_cache=False)
    vis.geoms = [g for g in vis.geoms if g.ref != "c"]
    table = material_table()
    parts = _halves()
    if atlas:
        pal = Palette()
        parts = pal.merge(parts, {p.material: resolve(p.material, table) for p in parts})
        meshes = {"c-atlas": parts[0]}
        vis.textures[PALETTE] = pal.finish(meshes)  # type: ignore[assignment]
        parts = [meshes["c-atlas"]]
        vis.materials.update(pal.materials)
    for i, p in enumerate(parts):
        vis.materials.setdefault(p.material, resolve(p.material, table))
        vis.add(p, ref="c", label="cube", kind="object", layer="object", pos=(0.0, 0.0, -2.0), mesh_key=f"c{i}")
    vis.geoms = [replace(g, name=f"vis:{i}") for i, g in enumerate(vis.geoms)]  # unique names again
    world = build_world(scene, TURTLEBOT, offscreen=(W, H), visuals=vis)
    data = mujoco.MjData(world.model)
    data.qpos[:4] = [0.0, 0.0, 0.0, 0.0]  # base at the origin facing -Z
    mujoco.mj_forward(world.model, data)
    cam = Camera(world, width=W, height=H)
    try:
        rgb, _, sem = cam.render(data)
        assert rgb is not None
        return rgb, sem, dict(cam.segmentation_labels), cam.intrinsics()
    finally:
        cam.close()


def test_merged_object_keeps_its_colours_and_its_one_segment_id():
    rgb, sem, labels, k = _render(atlas=True)
    ref_rgb, ref_sem, ref_labels, _ = _render(atlas=False)
    # camera 0.15 m ahead of the base at 0.35 m height, pitch 0: the block's front face is at
    # z-depth 2 - 0.1 - 0.15 = 1.75 m; x = -0.2 / +0.2 m project to these columns on the centre row
    f, cx = k[0, 0], k[0, 2]
    row = H // 2
    left, right = round(cx - f * 0.2 / 1.75), round(cx + f * 0.2 / 1.75)
    r, g, b = (int(v) for v in rgb[row, left])
    assert r > 3 * max(g, b, 1)
    r, g, b = (int(v) for v in rgb[row, right])
    assert b > 3 * max(r, g, 1)
    # the same pixels as the two separate flat-colour geoms (the independent rendering)
    assert np.abs(rgb[row, [left, right]].astype(int) - ref_rgb[row, [left, right]].astype(int)).max() <= 2
    assert sem[row, left] == sem[row, right] != 0
    assert labels[int(sem[row, left])] == ("c", "cube")
    assert ref_labels[int(ref_sem[row, left])] == ref_labels[int(ref_sem[row, right])] == ("c", "cube")
    # object d (centre x = 1.5, front face at z = -2.2: depth 2.05 m) keeps its own id
    u = round(cx + f * 1.5 / 2.05)
    assert labels[int(sem[row, u])] == ("d", "cube")


def test_palette_and_merged_walls_are_deterministic():
    a = build_visuals(_scene(), seed=3, use_cache=False)
    b = build_visuals(_scene(), seed=3, use_cache=False)
    assert sorted(a.textures) == sorted(b.textures)
    for key in a.textures:
        assert a.textures[key].tobytes() == b.textures[key].tobytes()
    walls = [g for g in a.geoms if g.kind == "wall"]
    # both anonymous walls, all faces: one geom per paint (room side, outer side, top)
    assert sorted(g.material for g in walls) == sorted({g.material for g in walls})
    assert len(walls) == 3 and {g.ref for g in walls} == {None}
