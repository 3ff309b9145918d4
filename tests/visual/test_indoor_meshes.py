"""Indoor object meshes: every catalogue category, checked by an independent ray caster."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from navbench.scene.procgen.catalog import CATALOG
from navbench.visual.indoor_objects import build_indoor
from tests.visual.raycast import front_map, height_map, hits, triangles

X, Y, Z = np.eye(3)


def _mid(label: str) -> tuple[float, float, float]:
    return tuple(round((lo + hi) / 2, 2) for lo, hi in CATALOG[label].size)  # type: ignore[return-value]


@pytest.mark.parametrize("label", sorted(CATALOG))
def test_every_category_is_a_sound_mesh_inside_its_box(label):
    rng = np.random.default_rng(7)
    for k in range(3):
        size = CATALOG[label].sample_size(rng)
        parts = build_indoor(label, size, np.random.default_rng(k))
        assert parts
        tri = triangles(parts)
        assert np.isfinite(tri).all()
        for p in parts:
            assert p.faces.min() >= 0 and p.faces.max() < len(p.vertices)
            t = p.vertices[p.faces]
            area = np.linalg.norm(np.cross(t[:, 1] - t[:, 0], t[:, 2] - t[:, 0]), axis=1) / 2
            assert area.max() > 1e-7  # no part is degenerate
        w, h, d = size
        lo, hi = tri.reshape(-1, 3).min(0), tri.reshape(-1, 3).max(0)
        tol = 0.03 + 0.03 * max(size)  # handles and knobs stand a little proud of the carcass
        assert lo[1] >= -1e-9 and hi[1] <= h + tol
        assert -lo[0] <= w / 2 + tol and hi[0] <= w / 2 + tol
        assert -lo[2] <= d / 2 + tol and hi[2] <= d / 2 + tol
        # fills a good part of its box (not a speck): extent at least 45 % of the box on each axis
        assert ((hi - lo) >= 0.45 * np.array(size) - 1e-9).all()


def test_chair_has_empty_space_under_its_seat():
    w, h, d = _mid("chair")
    for seed in range(4):
        tri = triangles(build_indoor("chair", (w, h, d), np.random.default_rng(seed)))
        down = hits(tri, np.array([0, 2.0, 0.1 * d]), -Y)
        assert 0.4 * h <= 2.0 - down[0] <= 0.6 * h  # the seat
        assert (2.0 - down[1:] > 0.3 * h).all()  # nothing below the seat but...
        side = hits(tri, np.array([-1.0, 0.2 * h, 0.0]), X)
        assert len(side) == 0  # ...a horizontal ray between the legs passes through


def test_table_top_is_above_its_legs():
    size = (1.5, 0.75, 0.9)
    for seed in range(4):
        tri = triangles(build_indoor("dining table", size, np.random.default_rng(seed)))
        down = hits(tri, np.array([0.3 * 1.5, 2.0, 0.3 * 0.9]), -Y)
        assert 2.0 - down[0] == pytest.approx(0.75, abs=0.01)
        assert (2.0 - down > 0.55).all()  # under the top (and apron) only air


def test_bed_has_headboard_at_the_back_and_mattress():
    w, h, d = 1.6, 0.55, 2.05
    tri = triangles(build_indoor("bed", (w, h, d), np.random.default_rng(0)))
    down = hits(tri, np.array([0, 2.0, 0.2 * d]), -Y)
    assert 2.0 - down[0] >= 0.7 * h
    back = hits(tri, np.array([0, 0.97 * h, d]), -Z)  # above the pillows: only the headboard
    # the ray starts at z = d and first meets the headboard front at z = -d/2 + its thickness
    assert len(back) >= 1 and d - back[0] == pytest.approx(-d / 2 + min(0.06, d * 0.04), abs=0.02)


def test_lamp_has_a_shade_over_a_thin_stem():
    w, h, d = 0.3, 0.5, 0.3
    tri = triangles(build_indoor("lamp", (w, h, d), np.random.default_rng(1)))
    shade = hits(tri, np.array([-1.0, h - 0.05, 0.0]), X)
    stem = hits(tri, np.array([-1.0, 0.55 * h, 0.0]), X)
    assert 1.0 - shade[0] > 0.1  # the shade is wide...
    assert 1.0 - stem[0] < 0.03  # ...the stem is thin


def test_fridge_front_is_a_flat_door():
    size = (0.7, 1.8, 0.7)
    fm = front_map(build_indoor("fridge", size, np.random.default_rng(2)), size)
    assert (fm[:, 1:] < 0.1).mean() > 0.9


def test_categories_have_distinct_silhouettes():
    """Height maps (vertical rays) and front depth maps, normalised by each box, plus the box's
    proportions: no two categories look alike (each at its typical catalogue size)."""
    cats = ["bed", "chair", "nightstand", "lamp", "plant", "fridge", "sofa", "dining table", "toilet",
            "bookshelf", "office chair", "bathtub", "washing machine", "piano", "stool", "shower"]
    sig = {}
    for c in cats:
        w, h, d = size = _mid(c)
        parts = build_indoor(c, size, np.random.default_rng(0))
        sig[c] = (np.concatenate([height_map(parts, size, 12).ravel(), front_map(parts, size, 12).ravel()]),
                  np.array([w / h, d / h]))
    for a, b in itertools.combinations(cats, 2):
        dist = np.abs(sig[a][0] - sig[b][0]).mean() + np.abs(sig[a][1] - sig[b][1]).mean()
        assert dist > 0.05, (a, b)


def test_instances_vary_in_shape_or_colour():
    size = _mid("chair")
    a = build_indoor("chair", size, np.random.default_rng(0))
    b = build_indoor("chair", size, np.random.default_rng(1))
    same_mats = sorted(p.material for p in a) == sorted(p.material for p in b)
    same_shape = len(a) == len(b) and all(np.array_equal(p.vertices, q.vertices) for p, q in zip(a, b, strict=True))
    assert not (same_mats and same_shape)


@pytest.mark.parametrize("label", ["ArmChair", "Dining_Table", "refrigerator", "kitchen_cabinet", "xyzzy",
                                   "wall clock", "bar stool"])
def test_foreign_labels_fall_back_to_a_mesh_inside_the_box(label):
    size = (0.8, 0.9, 0.6)
    parts = build_indoor(label, size, np.random.default_rng(0))
    v = triangles(parts).reshape(-1, 3)
    assert parts and v[:, 1].min() >= 0 and v[:, 1].max() <= 0.9 + 0.06
