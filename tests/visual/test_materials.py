"""Materials at real scale, chosen per category and varied per instance; the details that name
small objects; a toilet whose cistern stands on its pedestal; a hollow hamper."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from navbench.scene.procgen.catalog import CATALOG
from navbench.visual import finishes as fin
from navbench.visual.build import material_table, metric_uv
from navbench.visual.indoor_objects import build_indoor
from navbench.visual.indoor_textures import INDOOR_TILE_M
from navbench.visual.materials import resolve
from navbench.visual.mesh import Part, box
from tests.visual.raycast import hits, triangles

Y = np.array([0.0, 1.0, 0.0])


def _mid(label: str) -> tuple[float, float, float]:
    return tuple(round((lo + hi) / 2, 2) for lo, hi in CATALOG[label].size)  # type: ignore[return-value]


def test_box_lays_u_along_each_faces_longer_side() -> None:
    b = box((2.0, 0.5, 0.1), "oak")  # a long low plank: on its front face u runs along x (2 m)
    front = b.vertices[16:20], b.uv[16:20]  # the +Z face (axis 2, sign +1) is the fifth quad
    v, uv = front
    du = v[np.argmax(uv[:, 0])] - v[np.argmin(uv[:, 0])]
    assert abs(du[0]) == pytest.approx(2.0) and np.ptp(uv[:, 0]) == pytest.approx(2.0)
    tall = box((0.5, 2.0, 0.1), "oak")  # a door: u runs up it
    v, uv = tall.vertices[16:20], tall.uv[16:20]
    du = v[np.argmax(uv[:, 0])] - v[np.argmin(uv[:, 0])]
    assert abs(du[1]) == pytest.approx(2.0)


def test_metric_uvs_keep_grain_and_tiles_at_real_scale() -> None:
    table = material_table()
    plank = box((1.2, 0.02, 0.15), "walnut")  # 1.2 m of walnut: 2 tiles of 0.6 m
    carpet = box((1.0, 0.01, 1.0), "carpet@808080")  # 1 m of carpet: 2 tiles of 0.5 m
    out = metric_uv([plank, carpet], table)
    assert np.ptp(out[0].uv[:, 0]) == pytest.approx(1.2 / INDOOR_TILE_M["walnut"]) == pytest.approx(2.0)
    assert np.ptp(out[1].uv[:, 0]) == pytest.approx(2.0)
    plain = Part(plank.vertices, plank.faces, plank.uv, "ceramic")  # untextured: untouched
    assert np.array_equal(metric_uv([plain], table)[0].uv, plank.uv)


def _carcass(label: str, seed: int) -> str:
    parts = build_indoor(label, _mid(label), np.random.default_rng(seed))
    areas = Counter()
    for p in parts:
        t = p.vertices[p.faces]
        areas[p.material.split("@")[0]] += float(np.linalg.norm(np.cross(t[:, 1] - t[:, 0], t[:, 2] - t[:, 0]), axis=1).sum())
    return areas.most_common(1)[0][0]


@pytest.mark.parametrize("label", ["tv stand", "counter", "sideboard", "wardrobe"])
def test_casework_finish_follows_its_category_table(label: str) -> None:
    """The largest material of 120 instances: every family of the category's table shows up,
    at its weight's share within 4 binomial standard deviations."""
    n = 120
    counts = Counter(_carcass(label, s) for s in range(n))
    table = dict(fin.CASE_FINISHES[label])
    total = sum(table.values())
    assert set(counts) <= set(table)
    for fam, w in table.items():
        p = w / total
        assert abs(counts[fam] / n - p) <= 4 * np.sqrt(p * (1 - p) / n) + 1e-9, (fam, counts)


def test_instances_of_a_category_differ_in_finish() -> None:
    mats = {next(p.material for p in build_indoor("dresser", _mid("dresser"), np.random.default_rng(s))
                 if p.vertices[:, 1].max() > 0.5) for s in range(12)}
    assert len(mats) >= 5
    bases = {resolve(m, material_table()).texture for m in mats}
    assert len(bases) >= 3  # several wood species / paint / laminate, not one wood texture


@pytest.mark.parametrize("label,material", [("tv", "screen_tv"), ("monitor", "screen_desktop"),
                                            ("keyboard", "keyboard_keys"), ("picture frame", "photo"),
                                            ("alarm clock", "clock_face"), ("printer", "paper")])
def test_small_objects_carry_the_detail_that_names_them(label: str, material: str) -> None:
    for seed in range(3):
        parts = build_indoor(label, _mid(label), np.random.default_rng(seed))
        assert any(p.material.split("@")[0] == material for p in parts)


def test_kettle_spout_reaches_forward_and_speaker_shows_cones_or_grille() -> None:
    w, h, d = _mid("kettle")
    for seed in range(4):
        tri = triangles(build_indoor("kettle", (w, h, d), np.random.default_rng(seed)))
        front = hits(tri, np.array([0.0, 0.8 * h, 1.0]), np.array([0.0, 0.0, -1.0]))
        assert len(front) and 1.0 - front[0] > d / 2 - 0.03  # the spout is the frontmost part up there
        mats = {p.material.split("@")[0] for p in build_indoor("speaker", _mid("speaker"), np.random.default_rng(seed))}
        assert "grille" in mats or {"rubber", "chrome"} <= mats


def test_toilet_cistern_stands_on_the_pedestal() -> None:
    w, h, d = _mid("toilet")
    for seed in range(3):
        tri = triangles(build_indoor("toilet", (w, h, d), np.random.default_rng(seed)))
        tank_z = -d / 2 + 0.12 * d  # under the middle of the cistern
        down = hits(tri, np.array([0.0, 2.0, tank_z]), -Y)
        heights = 2.0 - down
        below = heights[heights < 0.6 * h]  # what the cistern (from 0.49 h up) rests on
        assert len(below) and below.max() > 0.5 * h - 0.06  # ceramic right under it: no gap
        assert heights.min() < 0.01  # ...all the way down to the floor


def test_laundry_basket_is_an_open_hamper_not_a_box() -> None:
    w, h, d = _mid("laundry basket")
    for seed in range(6):
        parts = build_indoor("laundry basket", (w, h, d), np.random.default_rng(seed))
        assert {"wicker", "perforated"} & {p.material.split("@")[0] for p in parts}
        tri = triangles(parts)
        down = 2.0 - hits(tri, np.array([0.0, 2.0, 0.0]), -Y)
        assert down.min() < 0.05 and down.max() > 0.6 * h  # laundry on top, the floor far below: hollow
        lo = hits(tri, np.array([-1.0, 0.1 * h, 0.0]), np.array([1.0, 0.0, 0.0]))
        hi = hits(tri, np.array([-1.0, 0.7 * h, 0.0]), np.array([1.0, 0.0, 0.0]))
        assert 1.0 - hi[0] > 1.0 - lo[0] + 0.02  # wider at the top than at the bottom
