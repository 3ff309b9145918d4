"""Large imported meshes are cut into ground tiles; the camera hides tiles outside its frustum.

Scene: a 4.9 x 4.9 m floor (x, z in [0, 4.9], y = 0) of 70 x 70 quads (9,800 triangles, quad side
0.07 m) with UV = (x, z) / 4.9, textured red for x < 3 m and blue for x > 3 m (a 49-px-wide
image, column 30 = x 3.0 m). Triangle centroids start at 0.07 / 3 m, so the 3 m tile seam lies at
x = z = 3.0233 m: 43 quad columns (rows) fall before it and 27 after.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import mujoco
import numpy as np
import pytest
import trimesh
from PIL import Image

import navbench.visual.imported as imported
from navbench.scene.sources import import_scene
from navbench.visual.build import build_visuals
from navbench.visual.mesh import Part
from tests.export.test_textured_import import _dominant

os.environ.setdefault("MUJOCO_GL", "egl")
N, SIDE = 70, 4.9
W, H = 96, 72


def _grid() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    xs = np.linspace(0.0, SIDE, N + 1)
    X, Z = np.meshgrid(xs, xs)
    v = np.column_stack([X.ravel(), np.zeros(X.size), Z.ravel()])
    i = np.arange((N + 1) ** 2).reshape(N + 1, N + 1)
    a, b, c, d = i[:-1, :-1].ravel(), i[:-1, 1:].ravel(), i[1:, 1:].ravel(), i[1:, :-1].ravel()
    f = np.vstack([np.column_stack([a, c, b]), np.column_stack([a, d, c])])  # facing +Y
    return v, f, v[:, [0, 2]] / SIDE


@pytest.fixture(scope="module")
def floor_glb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    v, f, uv = _grid()
    img = np.zeros((8, 49, 3), np.uint8)
    img[:, :30] = (255, 0, 0)
    img[:, 30:] = (0, 0, 255)
    mat = trimesh.visual.material.PBRMaterial(baseColorTexture=Image.fromarray(img))
    mesh = trimesh.Trimesh(v, f, visual=trimesh.visual.TextureVisuals(uv=uv, material=mat), process=False)
    path = tmp_path_factory.mktemp("tiles") / "floor.glb"
    trimesh.Scene({"floor": mesh}).export(path)
    return path


def test_tiles_partition_the_triangles_and_keep_their_uvs() -> None:
    v, f, uv = _grid()
    parts = imported.tiles(Part(v, f.astype(np.int32), uv, "m"))
    assert [len(p.faces) for p in parts] == [2 * 43 * 43, 2 * 27 * 43, 2 * 43 * 27, 2 * 27 * 27]
    seen = []
    for p in parts:
        tri = p.vertices[p.faces]
        np.testing.assert_allclose(p.uv, p.vertices[:, [0, 2]] / SIDE, atol=1e-12)  # UV of every vertex kept
        cen = tri.mean(axis=1)
        assert np.ptp(cen[:, 0]) < 3.0 and np.ptp(cen[:, 2]) < 3.0
        seen.append(np.round(tri.reshape(len(tri), -1), 9))
    got = np.vstack(seen)
    want = np.round(v[f].reshape(len(f), -1), 9)
    assert len(got) == len(want)
    assert {tuple(r) for r in got} == {tuple(r) for r in want}
    small = Part(v[:4], np.array([[0, 1, 2]], np.int32), uv[:4], "m")
    assert imported.tiles(small) == [small]


def _render(scene, vis, pos: tuple[float, float, float], yaw: float, frustum: bool = True):
    from navbench.sim import TURTLEBOT
    from navbench.sim.sensors import Camera
    from navbench.sim.world import build_world

    world = build_world(scene, TURTLEBOT, offscreen=(W, H), visuals=vis)
    cam = Camera(world, width=W, height=H)
    cam._frustum = cam._frustum and frustum
    data = mujoco.MjData(world.model)
    data.qpos[:4] = [*pos, yaw]
    mujoco.mj_forward(world.model, data)
    try:
        rgb, depth, seg = cam.render(data)
        drawn = {int(cam._scn.geoms[i].objid) for i in range(cam._scn.ngeom)
                 if cam._scn.geoms[i].objtype == mujoco.mjtObj.mjOBJ_GEOM}
        return rgb, depth, seg, drawn, world, data, cam
    finally:
        cam.close()


def test_tiled_floor_renders_like_the_whole_mesh_with_right_colours(floor_glb: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    scene = import_scene(floor_glb)
    tiled = build_visuals(scene, use_cache=False)
    assert [g.layer for g in tiled.geoms] == ["tile_near", "tile_far"] * 4
    monkeypatch.setattr(imported, "TILE_MIN_TRIANGLES", 10**9)
    whole = build_visuals(scene, use_cache=False)
    assert len(whole.geoms) == 1
    pos = (3.0, 0.0, 4.8)  # on the colour boundary, looking at -Z along the tile seam
    a = _render(scene, tiled, pos, 0.0)[0]
    if os.environ.get("NAVBENCH_TEST_PICS"):
        Image.fromarray(a).save(Path(os.environ["NAVBENCH_TEST_PICS"]) / "tiled_floor.png")
    b = _render(scene, whole, pos, 0.0)[0]
    assert np.abs(a.astype(int) - b.astype(int)).max(axis=2).mean() < 2.0
    for img in (a, b):
        for u in (4, W // 2 - 8):
            assert _dominant(img[H - 4, u]) == "r", img[H - 4, u]  # x < 3 m
        for u in (W // 2 + 8, W - 5):
            assert _dominant(img[H - 4, u]) == "b", img[H - 4, u]  # x > 3 m


def test_frustum_hides_only_tiles_out_of_view(floor_glb: Path) -> None:
    scene = import_scene(floor_glb)
    vis = build_visuals(scene, use_cache=False)
    pos = (3.3, 0.0, 1.5)  # in tile column 1 (x > 3.02 m), looking at +X (yaw -90 deg)
    _rgb, depth, seg, drawn, world, data, cam = _render(scene, vis, pos, -math.pi / 2)
    _, depth0, seg0, drawn0, *_ = _render(scene, vis, pos, -math.pi / 2, frustum=False)
    np.testing.assert_array_equal(seg, seg0)
    np.testing.assert_allclose(depth, depth0, atol=1e-5)
    # brute force: project every vertex of every visual geom into the camera
    m = world.model
    p, rot = data.cam_xpos[cam.cam_id], data.cam_xmat[cam.cam_id].reshape(3, 3)
    ty = math.tan(math.radians(float(m.cam_fovy[cam.cam_id])) / 2)
    tx = ty * W / H
    tiles = [g for g in range(m.ngeom) if world.geoms[g].visual and world.geoms[g].layer == "tile_near"]
    assert len(tiles) == 4
    in_view, behind = set(), set()
    for g in tiles:
        mid = int(m.geom_dataid[g])
        a, n = int(m.mesh_vertadr[mid]), int(m.mesh_vertnum[mid])
        local = m.mesh_vert[a:a + n].astype(float)
        world_v = local @ data.geom_xmat[g].reshape(3, 3).T + data.geom_xpos[g]
        c = (world_v - p) @ rot  # camera frame
        z = -c[:, 2]
        ok = (z > 0.05) & (np.abs(c[:, 0]) <= tx * z) & (np.abs(c[:, 1]) <= ty * z)
        if ok.any():
            in_view.add(g)
        if (z <= 0).all():
            behind.add(g)
    assert in_view <= drawn and in_view  # every tile with a vertex in view is drawn
    assert behind and not behind & drawn  # column 0 (x <= 3.01 m) lies behind: hidden
    assert drawn0 >= set(tiles)


def test_coarse_tile_stays_on_the_surface_with_linear_uvs() -> None:
    v, f, uv = _grid()
    tile = imported.tiles(Part(v, f.astype(np.int32), uv, "m"))[0]  # 3.01 x 3.01 m, 3,698 triangles
    far = imported.coarse(tile, cell=0.15)
    assert far is not None and len(far.faces) <= imported.LOD_MAX_SHARE * len(tile.faces)
    np.testing.assert_allclose(far.vertices[:, 1], 0.0, atol=1e-12)  # still the floor plane
    np.testing.assert_allclose(far.uv, far.vertices[:, [0, 2]] / SIDE, atol=1e-12)  # means of a linear map
    t = far.vertices[far.faces]
    n = np.cross(t[:, 1] - t[:, 0], t[:, 2] - t[:, 0])
    assert (n[:, 1] > 0).all()  # no flipped triangles
    area = n[:, 1].sum() / 2
    assert 0.8 * 3.01**2 < area <= 3.01**2 + 1e-9  # covered up to about half a cell at the rim
    # a second UV chart on the same positions (u + 10) is not merged into the first
    two = Part(np.vstack([tile.vertices] * 2), np.vstack([tile.faces, tile.faces + len(tile.vertices)]).astype(np.int32),
               np.vstack([tile.uv, tile.uv + np.array([10.0, 0.0])]), "m")
    far2 = imported.coarse(two, cell=0.15)
    assert far2 is not None
    u = far2.uv[:, 0]
    assert ((u <= 3.1 / SIDE) | (u >= 10.0)).all() and (u >= 10.0).any() and (u < 1.0).any()


def test_far_tiles_are_drawn_by_their_coarse_versions(floor_glb: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import navbench.sim.sensors as sensors

    monkeypatch.setattr(sensors, "LOD_DISTANCE_M", 1.0)
    scene = import_scene(floor_glb)
    vis = build_visuals(scene, use_cache=False)
    rgb, _, seg, drawn, world, *_ = _render(scene, vis, (3.3, 0.0, 1.5), -math.pi / 2)
    layers = sorted((world.geoms[g].name, world.geoms[g].layer) for g in drawn if world.geoms[g].visual)
    # camera in tile (row 0, col 1): near; tile (row 1, col 1) starts 1.52 m away in z: coarse;
    # column 0 lies behind the camera
    assert [la for _, la in layers] == ["tile_near", "tile_far"], layers
    assert _dominant(rgb[H - 4, W // 2]) == "b" and (seg > 0).mean() > 0.3
