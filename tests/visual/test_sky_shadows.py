"""The sky's cube faces point where the renderer looks; shadows on walls by hand-worked
projection; ground shadows drawn once where ground pieces overlap; objects in a building's
shadow drawn shaded; the awning never hides the band sign from the robots."""

from __future__ import annotations

import math

import mujoco
import numpy as np
import pytest
import shapely

from navbench.scene.model import Box, Scene
from navbench.visual.shadows import _wall_shadows, ground_shadows, shaded_objects, shadow_parts
from navbench.visual.sky import HORIZON, ZENITH, face_directions, sky_faces


def _look(direction, up) -> tuple[np.ndarray, np.ndarray]:
    f = -np.asarray(direction, float)
    f /= np.linalg.norm(f)
    x = np.cross(up, f)
    x /= np.linalg.norm(x)
    rot = np.stack([x, np.cross(f, x), f], axis=1)
    q = np.zeros(4)
    mujoco.mju_mat2Quat(q, rot.ravel())
    return q, rot


def test_skybox_face_directions_match_the_renderer() -> None:
    """A skybox whose texels encode their own direction as colour, rendered through a camera
    turned several ways: each pixel's colour is its ray's direction (within a texel)."""
    from navbench.sim.sensors import gl_context

    n = 32
    spec = mujoco.MjSpec()
    spec.visual.global_.offwidth = spec.visual.global_.offheight = 48
    data = np.clip((face_directions(n) * 0.5 + 0.5) * 255 + 0.5, 0, 255).astype(np.uint8)
    tex = spec.add_texture(name="sky", type=mujoco.mjtTexture.mjTEXTURE_SKYBOX, width=n, height=6 * n, nchannel=3)
    tex.data = data.reshape(6 * n, n, 3).tobytes()
    cam = spec.worldbody.add_camera()
    cam.name, cam.fovy = "c", 60.0
    m = spec.compile()
    d = mujoco.MjData(m)
    ctx = gl_context(48, 48)
    con = mujoco.MjrContext(m, mujoco.mjtFontScale.mjFONTSCALE_100)
    mujoco.mjr_setBuffer(mujoco.mjtFramebuffer.mjFB_OFFSCREEN, con)
    scn, opt, vcam = mujoco.MjvScene(m, maxgeom=10), mujoco.MjvOption(), mujoco.MjvCamera()
    vcam.type, vcam.fixedcamid = mujoco.mjtCamera.mjCAMERA_FIXED, 0
    img = np.empty((48, 48, 3), np.uint8)
    worst = 0.0
    try:
        for look, up in (((1, 0, 0), (0, 1, 0)), ((0, 0, -1), (0, 1, 0)), ((0, 1, 0), (0, 0, -1)),
                         ((0, -1, 0), (0, 0, 1)), ((-1, 0.4, 0.7), (0, 1, 0))):
            q, rot = _look(look, up)
            m.cam_quat[0] = q
            mujoco.mj_forward(m, d)
            mujoco.mjv_updateScene(m, d, opt, None, vcam, mujoco.mjtCatBit.mjCAT_ALL, scn)
            mujoco.mjr_render(mujoco.MjrRect(0, 0, 48, 48), scn, con)
            mujoco.mjr_readPixels(img, None, mujoco.MjrRect(0, 0, 48, 48), con)
            pic = img[::-1]
            t = math.tan(math.radians(30))
            for row, col in ((24, 24), (6, 40), (40, 8)):
                ray = rot @ np.array([(col + 0.5 - 24) / 24 * t, -(row + 0.5 - 24) / 24 * t, -1.0])
                got = pic[row, col] / 255.0 * 2 - 1
                cos = ray @ got / np.linalg.norm(ray) / np.linalg.norm(got)
                worst = max(worst, math.degrees(math.acos(min(1.0, cos))))
    finally:
        con.free()
        ctx.free()
    assert worst < 4.0  # 8-bit colour and 32-texel faces


def test_sky_gradient_and_clouds() -> None:
    img = sky_faces(0, 32).reshape(6, 32, 32, 3).astype(float) / 255
    up = face_directions(32)[..., 1]
    assert np.abs(img[up < -0.05] - np.asarray(HORIZON) * 0.96).max() < 0.06  # below the horizon: haze
    assert img[..., 0][up > 0.5].std() > 0.02  # clouds: not a plain gradient
    clear = img[(up > 0.9) & (img[..., 0] < 0.5)]  # cloudless texels near the zenith
    assert len(clear) and np.allclose(clear.mean(axis=0), ZENITH, atol=0.05)
    assert sky_faces(0, 32).tobytes() == sky_faces(0, 32).tobytes() != sky_faces(1, 32).tobytes()


def test_a_box_shadows_a_sun_facing_wall_as_projected_by_hand() -> None:
    """A 1 m cube (x 0..1, y 3..4, z 2..3) in front of a wall face z = 0 facing +Z, the sun
    travelling (0, -1, -2)/√5 (towards the wall, 26.6° up): a corner (x, y, z) meets the wall
    at height y - z/2, so the corners land at y 1.5, 2, 2.5, 3 and the shadow is the
    rectangle x 0..1, y 1.5..3 (1.5 m²)."""
    sun = np.array([0.0, -1.0, -2.0]) / math.sqrt(5)
    wall = Box("w", "building", (0.5, 5.0, -1.0), (6.0, 10.0, 2.0))  # its +Z face at z = 0
    cube = Box("c", "object", (0.5, 3.5, 2.5), (1.0, 1.0, 1.0))
    tris = _wall_shadows(Scene("s", "outdoor", "t", boxes=(wall, cube)), sun, [])
    assert tris
    v = np.vstack(tris)
    assert np.allclose(v[:, 2], 0.013, atol=1e-6)  # on the wall face, lifted off it
    area = sum(0.5 * np.linalg.norm(np.cross(t[1] - t[0], t[2] - t[0])) for t in tris)
    assert v[:, 0].min() == pytest.approx(0.0) and v[:, 0].max() == pytest.approx(1.0)
    assert v[:, 1].min() == pytest.approx(1.5) and v[:, 1].max() == pytest.approx(3.0)
    assert area == pytest.approx(1.0 * 1.5)
    for t in tris:  # facing out of the wall
        assert np.cross(t[1] - t[0], t[2] - t[0])[2] > 0


def test_ground_shadow_is_drawn_once_where_ground_pieces_overlap() -> None:
    sun = (0.0, -1.0, 0.0)  # straight down: a box's shadow is its footprint
    ground = Box("g", "ground", (0.0, -0.5, 0.0), (20.0, 1.0, 20.0))
    walk = Box("s", "sidewalk", (0.0, 0.05, 0.0), (20.0, 0.1, 4.0))  # on top of the ground slab
    post = Box("p", "object", (0.0, 1.0, 0.0), (1.0, 2.0, 1.0), label="kiosk")
    parts = shadow_parts(Scene("s", "outdoor", "t", boxes=(ground, walk, post)), sun)
    tri = np.concatenate([p.vertices[p.faces] for p in parts])
    area = sum(0.5 * np.linalg.norm(np.cross(t[1] - t[0], t[2] - t[0])) for t in tri)
    assert area == pytest.approx(1.0)  # once, on the sidewalk (the top piece), not twice
    assert np.allclose(tri[:, :, 1], 0.1 + 0.013)


def test_objects_standing_in_a_buildings_shadow_are_shaded() -> None:
    sun = (1.0, -1.0, 0.0)  # 45°: a 10 m building shadows 10 m east of it
    bldg = Box("b", "building", (0.0, 5.0, 0.0), (4.0, 10.0, 4.0))
    near = Box("bin1", "object", (6.0, 0.5, 0.0), (0.5, 1.0, 0.5), label="trash can", ref="o1")
    far = Box("bin2", "object", (15.0, 0.5, 0.0), (0.5, 1.0, 0.5), label="trash can", ref="o2")
    scene = Scene("s", "outdoor", "t", boxes=(bldg, near, far))
    assert shaded_objects(scene, sun) == {"bin1"}
    polys, _ = ground_shadows(scene, sun)
    assert shapely.Point(11.9, 0.0).within(polys[0]) and not shapely.Point(12.1, 0.0).within(polys[0])


def test_awning_never_hides_the_band_sign_from_either_robot() -> None:
    from navbench.scene.model import Place
    from navbench.scene.storefront_geometry import SIGN_BAND, SIGN_Z
    from navbench.sim.embodiments import SPOT, TURTLEBOT
    from navbench.visual.storefront import storefront_parts
    from tests.visual.raycast import hits

    place = Place("p0", "bank", "Union Bank", (0.0, 0.0, 1.0), ((-4, 0.3), (4, 0.3), (4, 0.0), (-4, 0.0)), 0.0 + math.pi)
    for seed in range(4):
        parts, _ = storefront_parts(place, np.random.default_rng(seed))
        awning = [p for p in parts if p.material.split("@")[0] in ("awning", "awning_stripes")]
        tri = np.concatenate([p.vertices[p.faces] for p in awning])
        for emb in (SPOT, TURTLEBOT):
            cam_y = emb.sole_height + emb.camera.pos[1]
            for dist in (3.0, 8.0, 15.0):
                cam = np.array([0.0, cam_y, dist + emb.camera.pos[2]])  # base dist m out, camera ahead
                for x in (-3.5, 0.0, 3.5):
                    for y in SIGN_BAND:
                        target = np.array([x, y, SIGN_Z[1]])
                        ray = target - cam
                        t = hits(tri, cam, ray / np.linalg.norm(ray))
                        assert not len(t) or t[0] > np.linalg.norm(ray) - 1e-6, (emb.name, dist, x, y)
