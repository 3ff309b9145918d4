"""Shop fronts: parts on the place's footprint, the sign face where the collision box is, its
texture the right way round, and inside both robots' camera views from the sidewalk."""

from __future__ import annotations

import math

import numpy as np
import pytest

from navbench.geometry import yaw_of_direction
from navbench.scene.model import Box, Place
from navbench.scene.procgen.buildings import Building, storefront
from navbench.scene.procgen.streets import BlockSide
from navbench.sim.embodiments import SPOT, TURTLEBOT
from navbench.visual.mesh import bounds
from navbench.visual.storefront import (
    AWNING_OUT,
    DOOR_HEIGHT,
    DOOR_WIDTH,
    SIGN_BAND,
    SIGN_Z,
    scene_storefronts,
    sign_material,
    sign_materials,
    storefront_parts,
)


def south_place() -> Place:
    """A shop 8 m wide on a wall at z = 0 (x in [-4, 4]) facing south (+Z)."""
    return Place("p0", "bank", "Union Bank", (0.0, 0.0, 1.0), ((-4, 0.3), (4, 0.3), (4, 0.0), (-4, 0.0)),
                 yaw_of_direction(0.0, 1.0))


def east_place() -> Place:
    """A shop 6 m wide on a wall at x = 10 (z in [-3, 3]) facing east (+X)."""
    return Place("p1", "cafe", "Oak Cafe", (11.0, 0.0, 0.0), ((10, 3), (10.3, 3), (10.3, -3), (10, -3)),
                 yaw_of_direction(1.0, 0.0))


def sign_face(parts: list, place: Place) -> np.ndarray:
    """The band sign's face (the fascia higher up shows the same image)."""
    (p,) = [q for q in parts if q.material == sign_material(place) and q.vertices[:, 1].max() < 2.0]
    return p


def test_parts_stay_on_the_footprint_and_the_sign_faces_the_street() -> None:
    place = south_place()
    parts, tex = storefront_parts(place, np.random.default_rng(0))
    lo, hi = bounds(parts)
    assert lo[0] >= -4 - 1e-9 and hi[0] <= 4 + 1e-9 and lo[2] >= -1e-9 and lo[1] >= -1e-9
    low = [p for p in parts if p.vertices[:, 1].min() < 2.05]  # below the awning: on the 0.3 m footprint
    assert bounds(low)[1][2] <= 0.3 + 1e-9
    assert hi[2] <= 0.3 + AWNING_OUT + 0.01  # the awning over the sidewalk, above head height
    fascia = [q for q in parts if q.material == sign_material(place) and q.vertices[:, 1].min() > 2.0]
    assert len(fascia) == 1  # the name again on the fascia, for eyes above the robots' cameras
    face = sign_face(parts, place)
    assert face.vertices[:, 2].max() == pytest.approx(SIGN_Z[1])  # the textured face, out front
    assert SIGN_BAND[0] - 1e-9 <= face.vertices[:, 1].min() and face.vertices[:, 1].max() <= SIGN_BAND[1] + 1e-9
    img = tex[sign_material(place)]
    w = face.vertices[:, 0].max() - face.vertices[:, 0].min()
    h = face.vertices[:, 1].max() - face.vertices[:, 1].min()
    assert img.shape[1] / img.shape[0] == pytest.approx(w / h, rel=0.02)  # letters are not stretched


@pytest.mark.parametrize("make,right", [(south_place, (1.0, 0.0)), (east_place, (0.0, -1.0))])
def test_sign_texture_reads_left_to_right_and_upright_from_the_street(make, right) -> None:
    # A viewer looking at the shop (camera forward f = -n, up +Y) has f x up on the right:
    # shop facing +Z: f = -Z, right = +X; shop facing +X: f = -X, right = -Z.
    place = make()
    face = sign_face(storefront_parts(place, np.random.default_rng(1))[0], place)
    n = np.array([-math.sin(place.yaw), 0.0, -math.cos(place.yaw)])
    outer = (face.vertices - face.vertices.mean(axis=0)) @ n > 0  # the street-side quad
    v, uv = face.vertices[outer], face.uv[outer]
    assert len(v) == 4
    du = v[np.argmax(uv[:, 0])] - v[np.argmin(uv[:, 0])]
    assert np.dot(du[[0, 2]], right) > 0
    top = v[uv[:, 1] == 1][:, 1]
    bottom = v[uv[:, 1] == 0][:, 1]
    assert top.min() > bottom.max()


def test_sign_follows_the_scene_sign_box() -> None:
    place = east_place()
    box = Box("p1_sign", "sign", (10.15, 1.5, -1.0), (3.0, 0.6, 0.06), place.yaw, label="cafe", ref="p1")
    face = sign_face(storefront_parts(place, np.random.default_rng(0), box)[0], place)
    lo, hi = face.vertices.min(axis=0), face.vertices.max(axis=0)
    assert np.allclose((lo[2], hi[2]), (-2.5, 0.5)) and np.allclose((lo[1], hi[1]), (1.2, 1.8))


def test_sign_band_is_inside_both_robot_cameras_views_at_3_8_and_15_m() -> None:
    for emb in (SPOT, TURTLEBOT):
        h = emb.sole_height + emb.camera.pos[1]
        ahead = -emb.camera.pos[2]  # the camera sits this far in front of the base (body -Z)
        half = math.radians(emb.camera.fovy) / 2
        lo_ang, hi_ang = -emb.camera.pitch - half, -emb.camera.pitch + half  # elevation limits of the view
        for d in (3.0, 8.0, 15.0):  # the robot's base this far from the wall, facing it
            for y in SIGN_BAND:
                ang = math.atan2(y - h, d - ahead - SIGN_Z[1])
                assert lo_ang + math.radians(1.0) < ang < hi_ang - math.radians(1.0), (emb.name, d, y)


def test_procgen_sign_box_spans_the_front_and_the_door_is_at_the_entrance() -> None:
    side = BlockSide("s", ((0.0, 0.0), (20.0, 0.0)), (0.0, 1.0), True)
    b = Building("b0", [(0.0, -15.0, 20.0, 0.0)], 12.0, side, "blk", (0.0, 20.0))
    sf = storefront(b, "bank", "p0", 4.0, np.random.default_rng(0))
    (x0, _), (x1, _), _, _ = sf.place.footprint
    s = sf.sign
    assert s.center[1] - s.size[1] / 2 == pytest.approx(SIGN_BAND[0]) and s.center[1] + s.size[1] / 2 == pytest.approx(SIGN_BAND[1])
    assert s.center[2] == pytest.approx(0.15)  # 0.15 m out of the wall, facing +Z
    assert s.center[0] - s.size[0] / 2 == pytest.approx(x0 + 0.25) and s.center[0] + s.size[0] / 2 == pytest.approx(x1 - 0.25)
    parts, _ = storefront_parts(sf.place, np.random.default_rng(0), s)
    face = sign_face(parts, sf.place)
    assert face.vertices[:, 0].min() == pytest.approx(x0 + 0.25) and face.vertices[:, 0].max() == pytest.approx(x1 - 0.25)
    ex = sf.place.entrance[0]
    handles = [p for p in parts if p.material == "chrome"]
    assert len(handles) == 1 and abs(handles[0].vertices[:, 0].mean() - ex) < DOOR_WIDTH / 2  # door at the entrance
    _, hi = bounds(handles)
    assert hi[1] < SIGN_BAND[0]  # the handle stays visible below the sign


def test_narrow_front_keeps_door_and_sign_on_the_footprint() -> None:
    place = Place("p2", "florist", "Elm Florist", (0.0, 0.0, 1.0), ((-1.25, 0.3), (1.25, 0.3), (1.25, 0.0), (-1.25, 0.0)),
                  yaw_of_direction(0.0, 1.0))
    parts, _ = storefront_parts(place, np.random.default_rng(0))
    lo, hi = bounds(parts)
    assert lo[0] >= -1.25 - 1e-9 and hi[0] <= 1.25 + 1e-9
    face = sign_face(parts, place)
    assert np.allclose((face.vertices[:, 0].min(), face.vertices[:, 0].max()), (-1.0, 1.0))
    doors = [p for p in parts if np.isclose(p.vertices[:, 1].max(), DOOR_HEIGHT) and np.isclose(np.ptp(p.vertices[:, 0]), DOOR_WIDTH)]
    assert len(doors) == 1 and abs(doors[0].vertices[:, 0].mean()) < 1e-9  # centred on the entrance


def test_scene_storefronts_one_per_place_seeded() -> None:
    from tests.conftest import two_room_scene

    scene = two_room_scene()  # its one place has a 2-point footprint (a facade segment)
    a = scene_storefronts(scene, 3)
    b = scene_storefronts(scene, 3)
    assert [p.id for p, _, _ in a] == [p.id for p in scene.places]
    for (_, pa, ta), (_, pb, tb) in zip(a, b, strict=True):
        assert all(np.array_equal(x.vertices, y.vertices) and x.material == y.material for x, y in zip(pa, pb, strict=True))
        assert all(ta[k].tobytes() == tb[k].tobytes() for k in ta)
        mats = sign_materials(ta)
        assert set(mats) == set(ta) and all(m.texture == k and m.rgba == (1.0, 1.0, 1.0, 1.0) for k, m in mats.items())
