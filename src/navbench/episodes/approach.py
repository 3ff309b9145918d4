"""Approach points: navigable points next to an object, and paths through them.

A goal object is reached from the navigation mesh, never at its centre (which lies inside
furniture). :func:`approach_points` lists navigable cell centres of one island whose
horizontal (XZ) distance to the object's footprint is at most ``d_min + slack`` (``d_min``:
the closest such cell) and at most ``max_distance``. A reference path visits the nearest of
them (multi-goal shortest path). Frame: Habitat world, metres, +Y up.

Walls: the XZ distance ignores them, so a cell across a wall can be as close as one beside the
target. Given the target's room (:func:`object_room`), only cells whose centres lie inside that
room's floor polygon are candidates (:func:`navbench.geometry.point_in_polygon`, no tolerance:
the rule :meth:`navbench.scene.model.Scene.room_at` and ``navbench dataset check`` apply, so a
doorway cell counts for the room on its side of the polygon edge); targets outside rooms
(outdoors) keep every cell.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from navbench.geometry import points_in_polygon
from navbench.nav import NavMesh
from navbench.scene.model import Room, Scene, SceneObject

#: Most approach points passed to one multi-goal path query (evenly spread by angle).
MAX_POINTS = 48


@dataclass(frozen=True)
class Approach:
    """Approach points of one target.

    Attributes:
        points: (N, 3) navigable points (m), N ≥ 1.
        distances: (N,) XZ distance (m) of each point to the target's footprint.
    """

    points: np.ndarray
    distances: np.ndarray


def footprint(obj: SceneObject) -> tuple[np.ndarray, np.ndarray]:
    """XZ footprint ``(lo, hi)`` of an object: its AABB, else a square of its radius, else a point."""
    b = obj.bounds
    if b is not None:
        return np.array([b[0][0], b[0][2]]), np.array([b[1][0], b[1][2]])
    r = obj.extent_radius or 0.0
    c = np.array([obj.center[0], obj.center[2]])
    return c - r, c + r


def rect_distance(xz: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Distance (m) from each XZ point (N, 2) to the axis-aligned rectangle ``[lo, hi]`` (0 inside)."""
    d = np.maximum(np.maximum(lo - xz, xz - hi), 0.0)
    return np.hypot(d[:, 0], d[:, 1])


def approach_points(
    navmesh: NavMesh,
    lo: Sequence[float] | np.ndarray,
    hi: Sequence[float] | np.ndarray,
    island: int,
    max_distance: float,
    *,
    slack: float = 0.25,
    y: float | None = None,
    min_clearance: float = 0.0,
    room: Room | None = None,
) -> Approach | None:
    """Navigable points of ``island`` within ``max_distance`` (m, XZ) of the rectangle ``[lo, hi]``.

    Keeps points whose distance is ≤ ``d_min + slack`` (``d_min`` = closest navigable cell), so
    all sides of the target that the agent can stand next to are represented; at most
    :data:`MAX_POINTS`, spread by bearing around the rectangle's centre. With ``y``, only
    layers whose walkable heights come within 1 m of ``y`` are searched; points closer than
    ``min_clearance`` (m) to an obstacle are skipped (a robot stands and turns there: the
    embodiment's end clearance, :data:`navbench.nav.settings.EMBODIMENT_END_CLEARANCE`).
    With ``room``, only points inside its floor polygon (XZ) are candidates, ``d_min``
    included (points beyond the room's walls are never goals). ``None`` when no navigable
    point is close enough.
    """
    lo_a, hi_a = np.asarray(lo, float), np.asarray(hi, float)
    pts, ds = [], []
    for L in navmesh.layers:
        if y is not None and not (L.y_lo - 1.0 <= y <= L.y_hi + 1.0):
            continue
        nr, nc = L.labels.shape
        c0 = max(0, int((lo_a[0] - max_distance - L.x0) // L.cs))
        c1 = min(nc, int((hi_a[0] + max_distance - L.x0) // L.cs) + 1)
        r0 = max(0, int((lo_a[1] - max_distance - L.z0) // L.cs))
        r1 = min(nr, int((hi_a[1] + max_distance - L.z0) // L.cs) + 1)
        if r0 >= r1 or c0 >= c1:
            continue
        need = max(navmesh.settings.agent_radius, min_clearance)
        ok = (L.labels[r0:r1, c0:c1] == island) & (L.clear[r0:r1, c0:c1] >= need)
        rr, cc = np.nonzero(ok)
        if len(rr) == 0:
            continue
        rr, cc = rr + r0, cc + c0
        xz = np.column_stack([L.x0 + (cc + 0.5) * L.cs, L.z0 + (rr + 0.5) * L.cs])
        d = rect_distance(xz, lo_a, hi_a)
        keep = d <= max_distance
        if room is not None:
            keep &= points_in_polygon(xz, room.floor_polygon)
        if keep.any():
            h = L.height[rr[keep], cc[keep]].astype(np.float64)
            pts.append(np.column_stack([xz[keep, 0], h, xz[keep, 1]]))
            ds.append(d[keep])
    if not pts:
        return None
    p, d = np.concatenate(pts), np.concatenate(ds)
    keep = d <= d.min() + slack
    p, d = p[keep], d[keep]
    centre = 0.5 * (lo_a + hi_a)
    bearing = np.arctan2(p[:, 2] - centre[1], p[:, 0] - centre[0])
    order = np.lexsort((p[:, 2], p[:, 0], d, np.round(bearing, 6)))
    if len(order) > MAX_POINTS:
        order = order[np.linspace(0, len(order) - 1, MAX_POINTS).round().astype(int)]
    return Approach(p[order], d[order])


def object_approach(
    navmesh: NavMesh, obj: SceneObject, island: int, max_distance: float, *, slack: float = 0.25,
    min_clearance: float = 0.0, room: Room | None = None,
) -> Approach | None:
    """:func:`approach_points` around a scene object's XZ footprint (see :func:`footprint`),
    inside ``room`` when given (callers pass :func:`object_room`)."""
    lo, hi = footprint(obj)
    floor_y = obj.bounds[0][1] if obj.bounds is not None else obj.center[1]
    return approach_points(navmesh, lo, hi, island, max_distance, slack=slack, y=floor_y,
                           min_clearance=min_clearance, room=room)


def object_room(scene: Scene, obj: SceneObject | str | None) -> Room | None:
    """The room of a scene object (or object id) by its ``room_id``; ``None`` outdoors, for an
    unknown object or room id, and for ids of other things (places)."""
    if isinstance(obj, str) or obj is None:
        obj = scene.object_index.get(obj) if obj is not None else None
    if obj is None or obj.room_id is None:
        return None
    return scene.room_index.get(obj.room_id)


@dataclass(frozen=True)
class Leg:
    """One leg of a multi-target path: its polyline and the approach point reached."""

    points: np.ndarray
    length: float
    end: np.ndarray
    end_distance: float


def path_through(
    navmesh: NavMesh, start: Sequence[float] | np.ndarray, targets: Sequence[Approach]
) -> list[Leg] | None:
    """Shortest legs start → nearest approach point of ``targets[0]`` → ... (greedy per leg).

    ``None`` if any leg is unreachable.
    """
    legs: list[Leg] = []
    cur = np.asarray(start, float)
    for t in targets:
        sp = navmesh.find_path(cur, t.points)
        if sp.points is None or not math.isfinite(sp.geodesic_distance) or sp.goal_index is None:
            return None
        pts = np.asarray(sp.points, float)
        legs.append(Leg(pts, float(sp.geodesic_distance), pts[-1], float(t.distances[sp.goal_index])))
        cur = pts[-1]
    return legs


def join_legs(start: Sequence[float] | np.ndarray, legs: Sequence[Leg]) -> np.ndarray:
    """One polyline from the legs, without repeated junction points; (N, 3)."""
    out = [np.asarray(start, float)]
    for leg in legs:
        for p in leg.points:
            if np.linalg.norm(p - out[-1]) > 1e-9:
                out.append(p)
    return np.asarray(out)
