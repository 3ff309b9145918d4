"""Rendering: depth against mj_ray, segmentation against the scene, intrinsics, GL errors."""

from __future__ import annotations

import sys

import mujoco
import numpy as np
import pytest

from navbench.errors import MissingDependencyError
from navbench.sim import SPOT, SimSettings, Simulator
from tests.conftest import two_room_scene

W, H = 64, 48


@pytest.fixture(scope="module")
def rendered():
    sim = Simulator(two_room_scene(), SPOT, SimSettings(render=True, width=W, height=H))
    # Stand in room r0 looking west-north-west towards the table (centre (1.0, 0.4, -1.0)).
    obs = sim.reset_to((2.6, 0.0, -1.6), 1.2)
    yield sim, obs
    sim.close()


def _pixel_rays(sim: Simulator, obs: dict, pixels: list[tuple[int, int]]):
    """Cast mj_ray through pixel centres using K and the camera pose; returns z-depth, geom."""
    m, d = sim.model, sim.data
    cam = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_CAMERA, "robot/head")
    k = obs["intrinsics"]
    rot = d.cam_xmat[cam].reshape(3, 3)
    # the groups the camera draws: the visual layer (meshes 1, self-drawn boxes 3, ceilings 4)
    # or the collision geoms
    groups = np.array([0, 1, 0, 1, 1, 0] if sim.world.appearance else [1, 1, 0, 1, 0, 0], np.uint8)
    out = []
    for u, v in pixels:
        # OpenGL camera frame: x right, y up, looks -Z; with z = -1 the ray parameter is z-depth.
        ray = np.array([(u - k[0, 2]) / k[0, 0], -(v - k[1, 2]) / k[1, 1], -1.0])
        gid = np.zeros(1, np.int32)
        t = mujoco.mj_ray(m, d, d.cam_xpos[cam].copy(), rot @ ray, groups, 1,
                          sim.world.robot_body, gid)
        out.append((t, int(gid[0])))
    return out


def test_depth_matches_ray_cast(rendered):
    sim, obs = rendered
    depth = obs["depth"]
    assert depth.shape == (H, W) and depth.dtype == np.float32
    rng = np.random.default_rng(0)
    pixels = [(int(u), int(v)) for u, v in zip(rng.integers(0, W, 100), rng.integers(0, H, 100), strict=False)]
    checked = 0
    for u, v in pixels:
        hood = [(u, v), (u - 1, v), (u + 1, v), (u, v - 1), (u, v + 1)]
        rays = _pixel_rays(sim, obs, hood)
        (t, gid) = rays[0]
        if t < 0:
            assert depth[v, u] == 0.0  # nothing there
            continue
        if any(g != gid for _, g in rays):  # skip edges, where one pixel straddles two geoms
            continue
        assert depth[v, u] == pytest.approx(t, abs=0.02)
        checked += 1
    assert checked >= 30


def test_segmentation_maps_to_scene_objects(rendered):
    sim, obs = rendered
    sem = obs["semantic"]
    labels = sim.segmentation_labels
    # The hand-built scene's geometry: box f0 = table o0, walls w0/w1 of r0, floor surface s0;
    # the visual layer adds one ceiling per room and the storefront of place p0, and fittings
    # (entities of their own named after their room / portal): skirting, door casings, a picture.
    fittings = {v for v in labels.values() if "/" in (v[0] or "")}
    assert set(labels.values()) - fittings == {("r0", "wall"), ("o0", "table"), ("s0", "floor"),
                                               ("r0", "ceiling"), ("r1", "ceiling"), ("p0", "cafe")}
    assert {("r0/skirting", "skirting"), ("r1/skirting", "skirting"), ("d0/frame", "doorframe"),
            ("d1/frame", "doorframe")} <= fittings
    seen = {labels[i] for i in np.unique(sem) if i > 0}
    assert ("o0", "table") in seen and ("s0", "floor") in seen
    rng = np.random.default_rng(1)
    pixels = [(int(u), int(v)) for u, v in zip(rng.integers(0, W, 80), rng.integers(0, H, 80), strict=False)]
    agree = total = 0
    for (u, v), (t, gid) in zip(pixels, _pixel_rays(sim, obs, pixels), strict=False):
        expected = ("<none>",) if t < 0 else (sim.world.geoms[gid].ref, sim.world.geoms[gid].label)
        got = labels.get(int(sem[v, u]), ("<none>",))
        total += 1
        agree += got == expected
    assert agree / total > 0.95  # boundary pixels may differ


def test_intrinsics_and_pose(rendered):
    _sim, obs = rendered
    k = obs["intrinsics"]
    f = (H / 2) / np.tan(np.radians(SPOT.camera.fovy) / 2)
    assert k == pytest.approx(np.array([[f, 0, (W - 1) / 2], [0, f, (H - 1) / 2], [0, 0, 1]]))
    assert obs["pose"][[0, 2]] == pytest.approx([2.6, -1.6], abs=0.01)
    assert obs["cam_to_body"][:3, 3] == pytest.approx(SPOT.camera.pos)
    assert obs["rgb"].shape == (H, W, 3) and obs["rgb"].std() > 5


def test_no_render_means_no_images():
    sim = Simulator(two_room_scene(), SPOT)
    obs = sim.reset_to((2.0, 0.0, -2.0), 0.0)
    assert "rgb" not in obs and sim.segmentation_labels == {}


def test_missing_gl_library_names_apt_package(monkeypatch):
    from navbench.sim.sensors import gl_context

    monkeypatch.setenv("MUJOCO_GL", "osmesa")
    monkeypatch.setitem(sys.modules, "mujoco.osmesa", None)
    with pytest.raises(MissingDependencyError, match="libosmesa6"):
        gl_context(32, 32)


def test_depth_and_semantic_without_the_rgb_pass(rendered):
    sim, obs = rendered
    lean = Simulator(two_room_scene(), SPOT, SimSettings(render=True, width=W, height=H, rgb=False))
    o = lean.reset_to((2.6, 0.0, -1.6), 1.2)
    assert "rgb" not in o
    assert np.array_equal(o["depth"], obs["depth"])
    lab_a, lab_b = sim.segmentation_labels, lean.segmentation_labels
    assert [lab_a.get(int(v)) for v in obs["semantic"].ravel()] == [lab_b.get(int(v)) for v in o["semantic"].ravel()]
    lean.close()
