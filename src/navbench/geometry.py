"""Geometry helpers in the Habitat world frame.

Frame: metres, +Y up, right-handed; the ground plane is XZ; north = -Z, east = +X.
Yaw ``θ`` is a rotation about +Y; ``θ = 0`` faces -Z and positive yaw turns left
(counter-clockwise seen from above), so the facing direction is ``(-sin θ, 0, -cos θ)``.
2D points in this module are ``(x, z)`` pairs.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np

Vec2 = tuple[float, float]
Vec3 = tuple[float, float, float]
Quat = tuple[float, float, float, float]


def vec3(v: Iterable[float] | np.ndarray) -> Vec3:
    """``(x, y, z)`` floats of a 3-element sequence or array (ValueError for another length)."""
    x, y, z = (float(c) for c in v)
    return (x, y, z)


def quat4(v: Iterable[float] | np.ndarray) -> Quat:
    """``(x, y, z, w)`` floats of a 4-element sequence or array (ValueError for another length)."""
    x, y, z, w = (float(c) for c in v)
    return (x, y, z, w)


def yaw_to_quaternion(yaw: float) -> list[float]:
    """Yaw about +Y (radians) → unit quaternion ``[x, y, z, w]`` = ``[0, sin(θ/2), 0, cos(θ/2)]``."""
    return [0.0, math.sin(yaw / 2.0), 0.0, math.cos(yaw / 2.0)]


def quaternion_to_yaw(q: Sequence[float]) -> float:
    """Yaw (radians, in (-π, π]) of a quaternion ``[x, y, z, w]``; ignores any roll/pitch part."""
    x, y, z, w = (float(v) for v in q)
    # Rotate -Z (the forward axis) and measure its heading in the XZ plane.
    fx = -(2.0 * (x * z + w * y))
    fz = -(1.0 - 2.0 * (x * x + y * y))
    return math.atan2(-fx, -fz)


def heading_vector(yaw: float) -> np.ndarray:
    """Unit facing direction in XZ ``(dx, dz)`` for a yaw (radians)."""
    return np.array([-math.sin(yaw), -math.cos(yaw)])


def yaw_of_direction(dx: float, dz: float) -> float:
    """Yaw (radians) that faces the XZ direction ``(dx, dz)``."""
    return math.atan2(-dx, -dz)


def wrap_angle(a: float) -> float:
    """Wrap an angle to (-π, π]."""
    a = math.fmod(a + math.pi, 2.0 * math.pi)
    if a <= 0.0:
        a += 2.0 * math.pi
    return a - math.pi


def rotate_xz(points: np.ndarray, yaw: float) -> np.ndarray:
    """Rotate XZ points (N, 2) by ``yaw`` about the origin, with the same sense as headings."""
    c, s = math.cos(yaw), math.sin(yaw)
    # A yaw rotation about +Y maps (x, z) -> (x cos + z sin, -x sin + z cos).
    r = np.array([[c, -s], [s, c]])
    return np.asarray(points, dtype=float) @ r


def box_corners_xz(center: Sequence[float], size: Sequence[float], yaw: float) -> np.ndarray:
    """The 4 XZ corners (CCW seen from above, i.e. in the (x, -z) plane) of a yawed box."""
    hx, hz = float(size[0]) / 2.0, float(size[2]) / 2.0
    local = np.array([[-hx, hz], [hx, hz], [hx, -hz], [-hx, -hz]])
    return rotate_xz(local, yaw) + np.array([float(center[0]), float(center[2])])


def yawed_box_aabb(
    center: Sequence[float], size: Sequence[float], yaw: float
) -> tuple[Vec3, Vec3]:
    """Axis-aligned bounds ``(min, max)`` of a box of ``size`` rotated by ``yaw`` about +Y."""
    c, s = abs(math.cos(yaw)), abs(math.sin(yaw))
    sx, sy, sz = (float(v) for v in size)
    ex = (c * sx + s * sz) / 2.0
    ez = (s * sx + c * sz) / 2.0
    ey = sy / 2.0
    cx, cy, cz = (float(v) for v in center)
    return (cx - ex, cy - ey, cz - ez), (cx + ex, cy + ey, cz + ez)


def interval_minus(lo: float, hi: float, cuts: Iterable[tuple[float, float]], min_len: float = 0.0
                   ) -> list[tuple[float, float]]:
    """``[lo, hi]`` minus the union of the ``cuts`` intervals, in order, keeping the pieces
    longer than ``min_len``.

    >>> interval_minus(0.0, 10.0, [(5.0, 6.0), (1.0, 2.0), (1.5, 3.0)])
    [(0.0, 1.0), (3.0, 5.0), (6.0, 10.0)]
    >>> interval_minus(0.0, 1.0, [(0.005, 1.0)], min_len=0.01)
    []
    """
    out: list[tuple[float, float]] = []
    cur = lo
    for a, b in sorted(cuts):
        if a > cur:
            out.append((cur, min(a, hi)))
        cur = max(cur, b)
        if cur >= hi:
            break
    if cur < hi:
        out.append((cur, hi))
    return [(a, b) for a, b in out if b - a > min_len]


def polygon_area(poly: Sequence[Sequence[float]] | np.ndarray) -> float:
    """Signed shoelace area of an XZ polygon; positive when CCW seen from above (+Y).

    Seen from above with east = +X and north = -Z, counter-clockwise means the usual
    orientation in the (x, -z) plane.
    """
    p = np.asarray(poly, dtype=float)
    if len(p) < 3:
        return 0.0
    x, y = p[:, 0], -p[:, 1]
    return 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y))


def point_in_polygon(pt: Sequence[float], poly: Sequence[Sequence[float]]) -> bool:
    """Even-odd test of an XZ point in an XZ polygon (boundary points may go either way)."""
    x, z = float(pt[0]), float(pt[1])
    p = np.asarray(poly, dtype=float)
    inside = False
    n = len(p)
    j = n - 1
    for i in range(n):
        xi, zi = p[i]
        xj, zj = p[j]
        if (zi > z) != (zj > z) and x < (xj - xi) * (z - zi) / (zj - zi) + xi:
            inside = not inside
        j = i
    return inside


def points_in_polygon(xz: np.ndarray, poly: Sequence[Sequence[float]]) -> np.ndarray:
    """:func:`point_in_polygon` of each XZ point of ``xz`` (N, 2): a bool (N,) array (same rule)."""
    q = np.asarray(xz, dtype=float).reshape(-1, 2)
    x, z = q[:, 0], q[:, 1]
    p = np.asarray(poly, dtype=float)
    inside = np.zeros(len(q), dtype=bool)
    j = len(p) - 1
    for i in range(len(p)):
        (xi, zi), (xj, zj) = p[i], p[j]
        if zi != zj:
            cross = ((zi > z) != (zj > z)) & (x < (xj - xi) * (z - zi) / (zj - zi) + xi)
            inside ^= cross
        j = i
    return inside


def path_length(points: Sequence[Sequence[float]] | np.ndarray) -> float:
    """Euclidean length of a polyline (any dimension)."""
    p = np.asarray(points, dtype=float)
    if len(p) < 2:
        return 0.0
    return float(np.linalg.norm(np.diff(p, axis=0), axis=1).sum())


def goal_surface_distance(
    position: Sequence[float] | np.ndarray,
    goal_positions: np.ndarray | Sequence[Sequence[float]],
    goal_radii: np.ndarray | Sequence[float] | None = None,
) -> float:
    """NavVerse distance to goal: ``min_i max(0, ‖p − g_i‖ − r_i)`` over goal instances (m).

    ``r_i = ½ max(x_size, z_size)`` of the goal's horizontal size (0 when unknown). Distances
    are 3D Euclidean, as in NavVerse App. 6.5; pass XZ-projected points for a planar distance.
    Returns ``math.inf`` when there are no goals.
    """
    g = np.asarray(goal_positions, dtype=float).reshape(-1, len(position))
    if len(g) == 0:
        return math.inf
    d = np.linalg.norm(g - np.asarray(position, dtype=float), axis=1)
    if goal_radii is not None:
        d = d - np.asarray(goal_radii, dtype=float)
    return float(np.maximum(d, 0.0).min())
