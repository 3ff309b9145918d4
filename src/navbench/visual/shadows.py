"""Sun shadows baked onto the ground: the exact shadow of every box (buildings, objects) on
flat ground, clipped to the ground piece it falls on and drawn as a translucent dark sheet just
above it. A CPU renderer pays several extra passes per frame for shadow maps; these sheets cost
one transparent draw per 100 m tile and are drawn in RGB only (never segmented).

The shadow of a box of height ``h`` standing on ground level ``y0`` is the convex hull of its
footprint and the footprint translated by ``h · (dx, dz) / -dy`` for a sun direction
``(dx, dy, dz)`` (dy < 0).
"""

from __future__ import annotations

import math

import numpy as np
import shapely

from navbench.scene.model import Box, Scene
from navbench.visual.mesh import Part

#: Height of the shadow sheets over their ground piece (m): above every ground LIFT.
SHADOW_LIFT = 0.013
TILE_M = 100.0
GROUND_BOXES = frozenset({"ground", "road", "sidewalk", "crosswalk", "green", "water", "curb", "terrain"})


def _footprint(b: Box) -> np.ndarray:
    hx, hz = b.size[0] / 2, b.size[2] / 2
    c, s = math.cos(b.yaw), math.sin(b.yaw)
    loc = np.array([(-hx, -hz), (hx, -hz), (hx, hz), (-hx, hz)])
    # yaw about +Y: x' = c x + s z, z' = -s x + c z
    rot = np.stack([c * loc[:, 0] + s * loc[:, 1], -s * loc[:, 0] + c * loc[:, 1]], axis=1)
    return rot + np.array([b.center[0], b.center[2]])


def shadow_parts(scene: Scene, sun_dir: tuple[float, float, float], material: str = "shadow") -> list[Part]:
    """Translucent shadow sheets (world frame), one :class:`Part` per 100 m tile."""
    d = np.asarray(sun_dir, float)
    if d[1] >= -1e-6:
        return []
    shift = d[[0, 2]] / -d[1]
    casters = []
    for b in scene.boxes:
        if b.kind in GROUND_BOXES or b.kind in ("floor", "wall", "sign") or b.size[1] < 0.3:
            continue
        fp = _footprint(b)
        casters.append(shapely.MultiPoint(np.vstack([fp, fp + b.size[1] * shift])).convex_hull)
    if not casters:
        return []
    tree = shapely.STRtree(casters)
    pieces: list[tuple[shapely.Geometry, float]] = []
    for s in scene.surfaces:
        if s.cls in ("building", "floor"):
            continue
        pieces.append((shapely.Polygon(s.polygon, [list(h) for h in s.holes]), s.y))
    for b in scene.boxes:
        if b.kind in GROUND_BOXES:
            pieces.append((shapely.Polygon(_footprint(b)), b.center[1] + b.size[1] / 2))
    tris: dict[tuple[int, int], list[np.ndarray]] = {}
    for poly, y in pieces:
        if not poly.is_valid:
            poly = shapely.make_valid(poly)
        hits = tree.query(poly, predicate="intersects")
        if len(hits) == 0:
            continue
        inter = poly.intersection(shapely.union_all([casters[i] for i in hits]))
        for g in getattr(inter, "geoms", [inter]):
            if g.geom_type != "Polygon" or g.area < 1e-4:
                continue
            for t in shapely.constrained_delaunay_triangles(g).geoms:
                c = np.asarray(t.exterior.coords)[:3]
                a2 = (c[1, 0] - c[0, 0]) * (c[2, 1] - c[0, 1]) - (c[2, 0] - c[0, 0]) * (c[1, 1] - c[0, 1])
                if abs(a2) < 1e-10:
                    continue
                if a2 > 0:
                    c = c[::-1]
                key = (int(c[0, 0] // TILE_M), int(c[0, 1] // TILE_M))
                tris.setdefault(key, []).append(np.column_stack([c[:, 0], np.full(3, y + SHADOW_LIFT), c[:, 1]]))
    out = []
    for key in sorted(tris):
        v = np.concatenate(tris[key])
        f = np.arange(len(v), dtype=np.int32).reshape(-1, 3)
        out.append(Part(v, f, v[:, [0, 2]] * 0.0, material))
    return out
