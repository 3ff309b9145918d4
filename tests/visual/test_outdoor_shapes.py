"""Extra mesh primitives: closed-form volumes and areas, orientation, fitting."""

from __future__ import annotations

import math

import numpy as np

from navbench.visual.mesh import Part, bounds, box
from navbench.visual.shapes import extrude, fit_to_box, rod, torus, triangulate


def signed_volume(p: Part) -> float:
    """Divergence theorem over the triangles (positive for a closed, outward-wound mesh)."""
    t = p.vertices[p.faces]
    return float(np.einsum("ij,ij->i", t[:, 0], np.cross(t[:, 1], t[:, 2])).sum() / 6.0)


L_SHAPE = [(0.0, 0.0), (3.0, 0.0), (3.0, 1.0), (1.0, 1.0), (1.0, 2.0), (0.0, 2.0)]  # area 4 (concave)


def test_triangulate_concave_polygon_covers_its_area() -> None:
    poly = np.array(L_SHAPE)
    tris = triangulate(poly)
    assert len(tris) == 4
    area = 0.0
    for a, b, c in tris:
        (x0, y0), (x1, y1), (x2, y2) = poly[a], poly[b], poly[c]
        cross = (x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0)
        assert cross > 0  # counter-clockwise
        area += cross / 2
    assert math.isclose(area, 4.0)


def test_extrude_volume_is_area_times_depth_in_every_plane() -> None:
    for plane, axis in (("xy", 2), ("zy", 0), ("xz", 1)):
        p = extrude(L_SHAPE, 0.5, "m", plane=plane)
        assert math.isclose(signed_volume(p), 4.0 * 0.5, rel_tol=1e-9), plane
        lo, hi = bounds([p])
        assert math.isclose(hi[axis] - lo[axis], 0.5)
    lo, _ = bounds([extrude(L_SHAPE, 0.5, "m", plane="xz")])
    assert lo[1] == 0.0  # floor plans stand on y = 0


def test_torus_volume_and_axis() -> None:
    R, r = 0.3, 0.1
    p = torus(R, r, "tyre", axis="z", segments=96, sides=48)
    assert math.isclose(signed_volume(p), 2 * math.pi**2 * R * r * r, rel_tol=0.01)
    lo, hi = bounds([p])
    assert np.allclose(hi - lo, (0.8, 0.8, 0.2), atol=1e-3)
    for axis, thin in (("x", 0), ("y", 1)):
        q = torus(R, r, "tyre", axis=axis, segments=48, sides=24)
        assert signed_volume(q) > 0
        lo, hi = bounds([q])
        assert math.isclose(hi[thin] - lo[thin], 0.2, abs_tol=1e-3)


def test_rod_joins_its_end_points() -> None:
    a, b = (1.0, 0.0, 0.0), (1.0, 2.0, 2.0)
    p = rod(a, b, 0.05, "metal", segments=32)
    axis = np.subtract(b, a) / np.linalg.norm(np.subtract(b, a))
    s = (p.vertices - a) @ axis
    assert math.isclose(s.min(), 0.0, abs_tol=1e-9) and math.isclose(s.max(), math.sqrt(8), abs_tol=1e-9)
    radial = np.linalg.norm((p.vertices - a) - np.outer(s, axis), axis=1)
    assert radial.max() <= 0.05 + 1e-9
    assert math.isclose(signed_volume(p), math.pi * 0.05**2 * math.sqrt(8), rel_tol=0.01)


def test_fit_to_box_only_shrinks_and_lifts() -> None:
    inside = [box((0.5, 0.5, 0.5), "m", center=(0.0, 0.25, 0.0))]
    assert fit_to_box(inside, (1.0, 1.0, 1.0)) is inside
    big = [box((2.0, 1.0, 1.0), "m", center=(0.0, 0.4, 0.0))]  # too wide, 0.1 below ground
    lo, hi = bounds(fit_to_box(big, (1.0, 1.0, 1.0)))
    assert np.allclose(lo, (-0.5, 0.0, -0.5)) and np.allclose(hi, (0.5, 1.0, 0.5))
    lo, hi = bounds(fit_to_box(big, (1.0, 1.0, 1.0), allow=(2.0, 1.0, 1.0)))
    assert np.allclose((lo[0], hi[0]), (-1.0, 1.0))
