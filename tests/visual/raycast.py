"""An independent ray caster over raw triangles (Möller–Trumbore), for mesh tests."""

from __future__ import annotations

import numpy as np

from navbench.visual.mesh import Part


def triangles(parts: list[Part]) -> np.ndarray:
    """(T, 3, 3) world triangles of all parts."""
    return np.concatenate([p.vertices[p.faces] for p in parts])


def hits(tri: np.ndarray, origin: np.ndarray, direction: np.ndarray) -> np.ndarray:
    """Sorted distances along the ray at which it crosses any triangle (both faces)."""
    o, d = np.asarray(origin, float), np.asarray(direction, float)
    e1, e2 = tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0]
    p = np.cross(d, e2)
    det = np.einsum("ij,ij->i", e1, p)
    ok = np.abs(det) > 1e-12
    inv = np.where(ok, 1.0 / np.where(ok, det, 1.0), 0.0)
    s = o - tri[:, 0]
    u = np.einsum("ij,ij->i", s, p) * inv
    q = np.cross(s, e1)
    v = (q @ d) * inv
    t = np.einsum("ij,ij->i", e2, q) * inv
    good = ok & (u >= -1e-9) & (v >= -1e-9) & (u + v <= 1 + 1e-9) & (t > 1e-9)
    return np.sort(t[good])


def height_map(parts: list[Part], size: tuple[float, float, float], n: int = 8) -> np.ndarray:
    """Top-hit height / box height on an n × n grid of vertical rays over the footprint."""
    w, h, d = size
    tri = triangles(parts)
    out = np.zeros((n, n))
    for i, x in enumerate((np.arange(n) + 0.5) / n - 0.5):
        for j, z in enumerate((np.arange(n) + 0.5) / n - 0.5):
            t = hits(tri, np.array([x * w, 2 * h + 1, z * d]), np.array([0.0, -1.0, 0.0]))
            out[i, j] = (2 * h + 1 - t[0]) / h if len(t) else 0.0
    return out


def front_map(parts: list[Part], size: tuple[float, float, float], n: int = 8) -> np.ndarray:
    """First-hit depth / box depth on an n × n grid of rays from the front (+Z) towards -Z."""
    w, h, d = size
    tri = triangles(parts)
    out = np.ones((n, n))
    for i, x in enumerate((np.arange(n) + 0.5) / n - 0.5):
        for j, y in enumerate((np.arange(n) + 0.5) / n):
            t = hits(tri, np.array([x * w, y * h, d + 1]), np.array([0.0, 0.0, -1.0]))
            out[i, j] = min(1.0, (t[0] - d / 2 - 1) / d) if len(t) else 1.0
    return out
