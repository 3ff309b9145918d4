"""Outdoor textures: determinism, and markings / windows at hand-computed pixel positions."""

from __future__ import annotations

import numpy as np
import pytest

from navbench.visual.materials import MATERIALS
from navbench.visual.outdoor_textures import (
    FACADE_BY_COLOUR,
    OUTDOOR_MATERIALS,
    OUTDOOR_TEXTURES,
    TILE_M,
    road_markings,
    road_material,
)


@pytest.mark.parametrize("name", sorted(OUTDOOR_TEXTURES))
def test_seeded_bytes(name: str) -> None:
    fn = OUTDOOR_TEXTURES[name]
    a = fn(np.random.default_rng(3), 96)
    assert a.shape == (96, 96, 3) and a.dtype == np.uint8
    assert a.tobytes() == fn(np.random.default_rng(3), 96).tobytes()
    assert a.tobytes() != fn(np.random.default_rng(4), 96).tobytes()


def test_tables_are_consistent_and_do_not_shadow_indoor_keys() -> None:
    assert set(TILE_M) == set(OUTDOOR_TEXTURES)
    for key, m in OUTDOOR_MATERIALS.items():
        assert m.texture is None or m.texture in OUTDOOR_TEXTURES, key
        assert all(0.0 <= c <= 1.0 for c in m.rgba), key
    assert not set(OUTDOOR_MATERIALS) & set(MATERIALS)


def px(img: np.ndarray, u: float, v: float) -> np.ndarray:
    """Pixel at texture coordinates (u right, v up; row 0 is the top)."""
    n = img.shape[0]
    return img[min(n - 1, int((1.0 - v) * n)), min(n - 1, int(u * n))].astype(int)


def test_facades_have_one_window_per_storey_bay() -> None:
    # tile = 3 m x 3 m; the window spans x 0.8-2.2 m, y 0.9-2.5 m (sill at 0.9 m)
    for name in sorted(set(FACADE_BY_COLOUR.values())):  # brick, concrete, painted renders
        img = OUTDOOR_TEXTURES[name](np.random.default_rng(0), 300)
        glass = [px(img, x / 3, y / 3) for x, y in ((1.1, 1.3), (1.9, 2.3), (1.1, 2.3))]
        wall = [px(img, x / 3, y / 3) for x, y in ((0.3, 1.5), (2.7, 0.5), (1.5, 2.8))]
        for g in glass:
            assert g[2] >= g[0], (name, g)  # bluish glass
        if name.startswith("facade_brick"):
            for w in wall:
                assert w[0] > w[2] + 20, w  # red / brown brick around the window
    glass_wall = OUTDOOR_TEXTURES["facade_glass"](np.random.default_rng(0), 300)
    assert px(glass_wall, 0.3, 0.1).sum() < 3 * 70  # dark spandrel band at the floor slab (y < 0.7 m)
    assert px(glass_wall, 0.3, 0.6)[2] > px(glass_wall, 0.3, 0.6)[0]


def test_road_tile_markings_land_on_the_lane_geometry() -> None:
    # 6 m along (u) x 7 m across (v): edge lines 0.3 m in, yellow centre dashes 3 m on / 3 m off
    img = OUTDOOR_TEXTURES["road"](np.random.default_rng(0), 280)
    centre_dash, centre_gap = px(img, 0.25, 0.5), px(img, 0.75, 0.5)
    assert centre_dash[0] > 180 and centre_dash[1] > 140 and centre_dash[2] < 100  # yellow
    assert centre_gap.max() < 110  # asphalt
    for v in (0.3 / 7, 1 - 0.3 / 7):
        for u in (0.1, 0.6):
            assert px(img, u, v).min() > 200  # solid white edge lines
    assert px(img, 0.5, 0.25).max() < 110  # lane interior


def test_road_markings_raster_counts_dashes() -> None:
    img = road_markings(30.0, 7.0, np.random.default_rng(0), lanes=2, px_per_m=10)
    assert img.shape == (70, 300, 3)
    row = img[35, :, :].astype(int)
    yellow = (row[:, 0] > 180) & (row[:, 2] < 100)
    starts = np.flatnonzero(yellow[1:] & ~yellow[:-1]) + 1
    assert yellow[0] and len(starts) == 4  # 5 dashes of 3 m in 30 m, the first from the start
    assert yellow.sum() == pytest.approx(150, abs=2)
    four = road_markings(12.0, 14.0, np.random.default_rng(0), lanes=4, px_per_m=10)
    lane_line = four[int(140 * 0.75), :15].astype(int)  # divider between lanes 1 and 2, first dash
    assert lane_line.min() > 200


def test_crosswalk_bars_and_paving_joints() -> None:
    cw = OUTDOOR_TEXTURES["crosswalk"](np.random.default_rng(0), 100)
    assert cw[:, :50].mean() > 180 and cw[:, 50:].mean() < 100
    pv = OUTDOOR_TEXTURES["paving"](np.random.default_rng(0), 128)
    assert pv[:, 64].mean() < pv[:, 32].mean() - 40  # a joint between the 0.5 m slabs


def test_four_lane_tile_has_a_double_yellow_centre_and_white_lane_lines() -> None:
    # 14 m across: lane lines at 3.5 m and 10.5 m (dashed), yellow lines at 7 m +- 0.15 m (solid)
    img = OUTDOOR_TEXTURES["road_4lane"](np.random.default_rng(0), 1400)  # 10 cm per pixel across
    for u in (0.25, 0.75):
        for t in (6.85, 7.15):
            y = px(img, u, t / 14)
            assert y[0] > 180 and y[2] < 100, y
        assert px(img, u, 7.0 / 14).max() < 110  # asphalt between the two yellow lines
    assert px(img, 0.25, 3.5 / 14).min() > 200 and px(img, 0.75, 3.5 / 14).max() < 110  # dashed
    assert road_material(6.5) == "road" and road_material(13.0) == "road_4lane"
