"""Boundary polygons of the navigable area and their reflex vertices (visibility-graph nodes).

The boundary is the ``agent_radius`` level set of a layer's clearance field, traced with
marching squares (``skimage.measure.find_contours``, sub-cell accurate) and simplified with
Douglas–Peucker. Rings are oriented with free space on their left (in XZ coordinates);
a vertex where a ring turns right is a reflex corner of the free space, i.e. a corner a
shortest path may bend around.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import shapely
from skimage.measure import find_contours

from navbench.nav.grid import Layer
from navbench.nav.visibility import bilinear


@dataclass
class Nodes:
    """Visibility-graph nodes of one layer (XZ metres).

    Attributes:
        pos, prv, nxt: (V, 2) node position and its ring neighbours (for tangent tests).
        y: (V,) surface height used for path points (m).
        island: (V,) global island id (-1 if unknown).
        rings: (N, 2) all simplified ring vertices, concatenated; ``ring_starts`` (R+1,) offsets.
    """

    pos: np.ndarray
    prv: np.ndarray
    nxt: np.ndarray
    y: np.ndarray
    island: np.ndarray
    rings: np.ndarray
    ring_starts: np.ndarray


def _sample(layer: Layer, x: float, z: float) -> float:
    return float(bilinear(layer.clear, layer.x0, layer.z0, layer.cs, x, z))


def _cell(layer: Layer, x: float, z: float) -> tuple[int, int]:
    return int((z - layer.z0) // layer.cs), int((x - layer.x0) // layer.cs)


def boundary_rings(layer: Layer, level: float, tolerance: float) -> list[np.ndarray]:
    """Closed XZ rings (without repeated end point) of ``clear == level``, free side on the left."""
    cs = layer.cs
    out = []
    for c in find_contours(layer.clear, level):
        if len(c) < 4:
            continue
        xz = np.column_stack([layer.x0 + (c[:, 1] + 0.5) * cs, layer.z0 + (c[:, 0] + 0.5) * cs])
        if np.linalg.norm(xz[0] - xz[-1]) > 1e-9:
            continue  # open contours only occur at the padded border, which is never free
        ring = shapely.simplify(shapely.LineString(xz), tolerance, preserve_topology=False)
        pts = np.asarray(ring.coords)[:-1]
        if len(pts) < 3:
            continue
        # orient: sample the field on both sides of the longest edge
        d = np.roll(pts, -1, axis=0) - pts
        i = int(np.argmax(np.hypot(d[:, 0], d[:, 1])))
        mid = pts[i] + 0.5 * d[i]
        nrm = np.array([-d[i, 1], d[i, 0]]) / max(float(np.hypot(*d[i])), 1e-12)
        left = _sample(layer, *(mid + 0.5 * cs * nrm))
        right = _sample(layer, *(mid - 0.5 * cs * nrm))
        if left < right:
            pts = pts[::-1]
        out.append(np.ascontiguousarray(pts))
    return out


def reflex_nodes(layer: Layer, rings: list[np.ndarray]) -> Nodes:
    """Reflex vertices of ``rings`` with their neighbours, surface height and island."""
    pos, prv, nxt, ys, isl = [], [], [], [], []
    cs = layer.cs
    nr, nc = layer.labels.shape
    for pts in rings:
        p = np.roll(pts, 1, axis=0)
        n = np.roll(pts, -1, axis=0)
        cross = (pts[:, 0] - p[:, 0]) * (n[:, 1] - pts[:, 1]) - (pts[:, 1] - p[:, 1]) * (
            n[:, 0] - pts[:, 0]
        )
        for i in np.nonzero(cross < -1e-12)[0]:
            v = pts[i]
            # free-side direction: left normals of the two incident edges
            e1 = v - p[i]
            e2 = n[i] - v
            nl = np.array([-e1[1], e1[0]]) / max(float(np.hypot(*e1)), 1e-12)
            nl += np.array([-e2[1], e2[0]]) / max(float(np.hypot(*e2)), 1e-12)
            nl /= max(float(np.hypot(*nl)), 1e-12)
            island, y = -1, np.nan
            for k in (0.75, 1.5, 2.5, 3.5):
                r, c = _cell(layer, *(v + k * cs * nl))
                if 0 <= r < nr and 0 <= c < nc and layer.labels[r, c] >= 0:
                    island, y = int(layer.labels[r, c]), float(layer.height[r, c])
                    break
            if island < 0:
                continue  # a sliver too thin to hold a navigable cell: not a useful corner
            pos.append(v)
            prv.append(p[i])
            nxt.append(n[i])
            ys.append(y)
            isl.append(island)
    starts = np.zeros(len(rings) + 1, np.int64)
    starts[1:] = np.cumsum([len(r) for r in rings])
    all_pts = np.concatenate(rings) if rings else np.zeros((0, 2))

    def arr(a: list[np.ndarray]) -> np.ndarray:
        return np.asarray(a, dtype=np.float64).reshape(-1, 2)

    return Nodes(arr(pos), arr(prv), arr(nxt), np.asarray(ys, dtype=np.float64),
                 np.asarray(isl, dtype=np.int64), all_pts, starts)
