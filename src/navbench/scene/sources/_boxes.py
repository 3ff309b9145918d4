"""Box decompositions used by the loaders that build geometry from annotations (ProcTHOR):
floor slabs from a room polygon, and wall boxes with rectangular holes (doors, windows).

All coordinates are in the Habitat frame (XZ ground plane, +Y up).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np

from navbench.geometry import Vec2, interval_minus, point_in_polygon
from navbench.scene.model import Box

_EPS = 1e-6


def is_rectilinear(poly: Sequence[Vec2]) -> bool:
    """True when every edge of the polygon is parallel to the X or Z axis."""
    n = len(poly)
    for i in range(n):
        (x0, z0), (x1, z1) = poly[i], poly[(i + 1) % n]
        if abs(x0 - x1) > 1e-6 and abs(z0 - z1) > 1e-6:
            return False
    return True


def polygon_rects(poly: Sequence[Vec2]) -> list[tuple[float, float, float, float]]:
    """Axis-aligned rectangles ``(x0, x1, z0, z1)`` covering a polygon.

    Exact for rectilinear polygons: the plane is cut into cells at every vertex coordinate,
    cells whose centre is inside are kept, merged along X within each Z strip and then across
    consecutive strips with identical X runs. Other polygons get a staircase approximation.
    """
    xs = sorted({round(p[0], 6) for p in poly})
    zs = sorted({round(p[1], 6) for p in poly})
    open_rects: dict[tuple[float, float], float] = {}
    out: list[tuple[float, float, float, float]] = []
    for zi in range(len(zs) - 1):
        za, zb = zs[zi], zs[zi + 1]
        zc = 0.5 * (za + zb)
        runs: list[tuple[float, float]] = []
        start: float | None = None
        for xi in range(len(xs) - 1):
            inside = point_in_polygon((0.5 * (xs[xi] + xs[xi + 1]), zc), poly)
            if inside and start is None:
                start = xs[xi]
            if not inside and start is not None:
                runs.append((start, xs[xi]))
                start = None
        if start is not None:
            runs.append((start, xs[-1]))
        for key in list(open_rects):
            if key not in runs:
                out.append((key[0], key[1], open_rects.pop(key), za))
        for run in runs:
            open_rects.setdefault(run, za)
    for key, z0 in open_rects.items():
        out.append((key[0], key[1], z0, zs[-1]))
    return sorted(out)


def floor_slabs(room_id: str, poly: Sequence[Vec2], floor_y: float, thickness: float,
                label: str = "floor") -> list[Box]:
    """Floor boxes (``kind="floor"``, ``ref=room_id``) with their top at ``floor_y``."""
    boxes = []
    for n, (x0, x1, z0, z1) in enumerate(polygon_rects(poly)):
        boxes.append(Box(
            f"floor:{room_id}:{n}", "floor",
            (0.5 * (x0 + x1), floor_y - 0.5 * thickness, 0.5 * (z0 + z1)),
            (x1 - x0, thickness, z1 - z0), 0.0, label, room_id,
        ))
    return boxes


def wall_boxes(wall_id: str, start: Vec2, end: Vec2, base_y: float, height: float,
               thickness: float, holes: Sequence[tuple[float, float, float, float]],
               ref: str | None = None) -> list[Box]:
    """Boxes of a straight wall from ``start`` to ``end`` (XZ) minus rectangular holes.

    ``holes`` are ``(t0, t1, y0, y1)``: distance along the wall from ``start`` and height
    above ``base_y`` (m). Doors become gaps with a lintel above; windows leave a sill and a
    lintel. Pieces narrower than 1 cm are dropped.
    """
    dx, dz = end[0] - start[0], end[1] - start[1]
    length = math.hypot(dx, dz)
    if length < 0.01 or height <= 0:
        return []
    ux, uz = dx / length, dz / length
    yaw = math.atan2(-uz, ux)  # local +X along the wall
    clipped = []
    for t0, t1, y0, y1 in holes:
        a, b = max(0.0, min(t0, t1)), min(length, max(t0, t1))
        c, d = max(0.0, min(y0, y1)), min(height, max(y0, y1))
        if b - a > _EPS and d - c > _EPS:
            clipped.append((a, b, c, d))
    cuts = sorted({0.0, length, *(h[0] for h in clipped), *(h[1] for h in clipped)})
    columns: list[tuple[float, float, list[tuple[float, float]]]] = []
    for a, b in itertools.pairwise(cuts):
        if b - a <= _EPS:
            continue
        m = 0.5 * (a + b)
        solid = interval_minus(0.0, height, [(h[2], h[3]) for h in clipped if h[0] <= m <= h[1]], min_len=0.01)
        if columns and columns[-1][2] == solid and abs(columns[-1][1] - a) < _EPS:
            columns[-1] = (columns[-1][0], b, solid)
        else:
            columns.append((a, b, solid))
    boxes: list[Box] = []
    for a, b, solid in columns:
        if b - a < 0.01:
            continue
        tm = 0.5 * (a + b)
        cx, cz = start[0] + ux * tm, start[1] + uz * tm
        for y0, y1 in solid:
            boxes.append(Box(
                f"{wall_id}:{len(boxes)}", "wall",
                (float(cx), base_y + 0.5 * (y0 + y1), float(cz)),
                (b - a, y1 - y0, thickness), yaw, "wall", ref,
            ))
    return boxes


def unit_normal_towards(start: Vec2, end: Vec2, target_poly: Sequence[Vec2] | None,
                        away_from: Sequence[Vec2] | None = None) -> np.ndarray:
    """Unit XZ normal of a wall segment pointing into ``target_poly`` (or out of ``away_from``)."""
    d = np.array([end[0] - start[0], end[1] - start[1]], dtype=float)
    d /= max(float(np.linalg.norm(d)), 1e-12)
    n = np.array([-d[1], d[0]])
    mid = 0.5 * (np.asarray(start, dtype=float) + np.asarray(end, dtype=float))
    probe = tuple(mid + 0.2 * n)
    if target_poly is not None:
        return n if point_in_polygon(probe, target_poly) else -n
    if away_from is not None:
        return -n if point_in_polygon(probe, away_from) else n
    return n
