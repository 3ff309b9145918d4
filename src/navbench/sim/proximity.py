"""Obstacle distance of the robot (per-step record ``obstacle_distance``), pruned exactly.

The distance is the smallest surface distance (``mj_geomDistance``, clipped at 0) between any
robot collision geom and any obstacle geom, capped at ``cutoff``. Only pairs that can be nearer
than the best distance found so far are computed, nearest lower bound first: for the XZ grid
cell (``cell`` m) of the robot's origin, the obstacles near it are listed once, sorted by the
distance of their XZ box to the cell, and taken in that order; the lower bound of a pair is
the distance between the robot geom's world AABB and the obstacle's world AABB (convex bodies
are never nearer than their bounding boxes). Pruning drops only pairs that cannot lower the
result, and every pair computed is computed as a brute-force scan computes it (``distmax`` =
``cutoff``: with the best distance so far as ``distmax``, MuJoCo returns ``distmax`` for a pair
within its tolerance of it, 1 ulp above the scan's minimum on near ties), so the value is the
brute-force minimum over all pairs, bit for bit.

:class:`DownRay` finds the geom under the robot (per-step record ``surface``) as ``mj_ray``
does, trying only the geoms whose XZ box holds the point.

Both (and :class:`SurfaceProbe`) run compiled (:mod:`navbench.sim.proximity_kernels`: the
same operations, MuJoCo's C functions called from numba) when ``compiled`` is true, the
default where :func:`navbench.sim.mjc.available` (not with ``NAVBENCH_MJC=0``);
the Python methods stay as the reference and the fallback.
"""

from __future__ import annotations

import heapq
import math

import mujoco
import numpy as np

from navbench.sim import mjc
from navbench.sim import proximity_kernels as pk

_MESH, _HFIELD, _SDF = (int(t) for t in (mujoco.mjtGeom.mjGEOM_MESH, mujoco.mjtGeom.mjGEOM_HFIELD,
                                         mujoco.mjtGeom.mjGEOM_SDF))
_SLACK = 1e-9  # m
_MAX_CACHED_CELLS = 4096  # candidate lists kept for this many body cells (then rebuilt)
Box6 = tuple[float, float, float, float, float, float]  # AABB: lo x, y, z, hi x, y, z (m)


class ObstacleDistance:
    """Nearest-obstacle distance of the robot's collision geoms (m, capped at ``cutoff``).

    Parameters: ``robot_geoms`` and ``obstacle_geoms`` (geom ids); ``lo``, ``hi`` (ngeom, 3)
    world AABBs of the static geoms (rows of the obstacle ids are read; Habitat frame, m);
    ``reach``: XZ radius about the robot body's origin that holds all its geoms (m);
    ``cutoff`` (m); ``cell``: grid cell size (m); ``compiled``: use the kernel (``None``:
    where available; ``False``: the Python method).

    Search: for the XZ grid cell holding the body's origin, the obstacles within
    ``cutoff + reach`` of the cell, sorted by their XZ box's distance ``c`` to the cell (built
    on the first visit, kept for ``_MAX_CACHED_CELLS`` cells); an obstacle is more than
    ``c − reach`` from every robot geom, so candidates are taken in that order while
    ``c − reach`` does not exceed the best distance, and pairs are computed nearest AABB bound
    first. The pair nearest at the last call is computed first (it usually still is).
    Plain Python over the few obstacles near the robot (numpy calls cost more here).
    """

    def __init__(self, model: mujoco.MjModel, robot_geoms: np.ndarray,
                 obstacle_geoms: np.ndarray, lo: np.ndarray, hi: np.ndarray, reach: float,
                 cutoff: float, cell: float = 1.0, compiled: bool | None = None) -> None:
        ids = np.asarray(obstacle_geoms, np.int64)
        self._ids: list[int] = ids.tolist()
        self._lo: list[list[float]] = lo[ids].tolist()
        self._hi: list[list[float]] = hi[ids].tolist()
        self._lo_xz, self._hi_xz = lo[ids][:, [0, 2]], hi[ids][:, [0, 2]]
        rg = np.asarray(robot_geoms, int)
        self._robot: list[int] = rg.tolist()
        # local AABBs (centre, half sizes) of the robot geoms
        self._aabb: list[list[float]] = model.geom_aabb[rg].tolist()
        self.cutoff, self.cell, self._reach = float(cutoff), float(cell), float(reach)
        self._last: tuple[int, int] | None = None  # (robot geom index, obstacle) nearest last call
        # body cell -> (c - reach per candidate, ascending; candidate obstacle indices)
        self._near: dict[tuple[int, int], tuple[list[float], list[int]]] = {}
        #: whether calls run the compiled kernel (the same value as the Python method)
        self.compiled = mjc.available() if compiled is None else bool(compiled and mjc.available())
        # the kernel's copies: robot ids and local AABBs, obstacle ids and world boxes, and
        # the per-cell candidates as slices [start, end) of flat arrays
        self._rg = rg.astype(np.int64)
        self._raabb = np.ascontiguousarray(model.geom_aabb[rg], float)
        self._oids = ids
        self._obox = np.ascontiguousarray(np.hstack([lo[ids], hi[ids]]), float)
        self._cb, self._co, self._nflat = np.zeros(0), np.zeros(0, np.int64), 0
        self._slots: dict[tuple[int, int], tuple[int, int]] = {}
        self._state = np.array([-1, -1], np.int64)  # the kernel's nearest pair of the last call
        self._bound: tuple[mujoco.MjData | None, int, int, np.ndarray, np.ndarray] = \
            (None, 0, 0, np.zeros((0, 3)), np.zeros((0, 9)))

    def _cell(self, i: int, j: int) -> tuple[np.ndarray, np.ndarray]:
        """Bounds ``c − reach`` (ascending) and indices of the candidates of cell (i, j)."""
        h = self.cell
        a = np.array([i * h, j * h])
        gap = np.maximum(np.maximum(self._lo_xz - (a + h), a - self._hi_xz), 0.0)
        c = np.hypot(gap[:, 0], gap[:, 1]) - self._reach - 1e-6
        keep = np.flatnonzero(c <= self.cutoff + _SLACK)
        order = keep[np.argsort(c[keep], kind="stable")]
        return c[order], order

    def _slot(self, key: tuple[int, int]) -> tuple[int, int]:
        """The flat-array slice of cell ``key``'s candidates (built on the first visit)."""
        if len(self._slots) > _MAX_CACHED_CELLS:
            self._slots.clear()
            self._nflat = 0
        c, order = self._cell(*key)
        s, e = self._nflat, self._nflat + len(order)
        if e > len(self._cb):
            grow = max(e, 2 * len(self._cb), 64)
            self._cb = np.concatenate([self._cb[:s], np.zeros(grow - s)])
            self._co = np.concatenate([self._co[:s], np.zeros(grow - s, np.int64)])
        self._cb[s:e], self._co[s:e] = c, order
        self._nflat = e
        self._slots[key] = (s, e)
        return s, e

    def _candidates(self, i: int, j: int) -> tuple[list[float], list[int]]:
        """Obstacles within ``cutoff + reach`` of cell (i, j), by ``c − reach`` ascending."""
        key = (i, j)
        near = self._near.get(key)
        if near is None:
            if len(self._near) > _MAX_CACHED_CELLS:
                self._near.clear()
            c, order = self._cell(i, j)
            near = self._near[key] = (c.tolist(), order.tolist())
        return near

    def _robot_boxes(self, data: mujoco.MjData) -> list[Box6]:
        """World AABBs (lo xyz, hi xyz) of the robot geoms for the poses in ``data``."""
        xm, xp = data.geom_xmat, data.geom_xpos
        out: list[Box6] = []
        for r, (cx, cy, cz, hx, hy, hz) in zip(self._robot, self._aabb, strict=True):
            m = xm[r].tolist()
            p = xp[r].tolist()
            wx = p[0] + m[0] * cx + m[1] * cy + m[2] * cz
            wy = p[1] + m[3] * cx + m[4] * cy + m[5] * cz
            wz = p[2] + m[6] * cx + m[7] * cy + m[8] * cz
            ex = abs(m[0]) * hx + abs(m[1]) * hy + abs(m[2]) * hz
            ey = abs(m[3]) * hx + abs(m[4]) * hy + abs(m[5]) * hz
            ez = abs(m[6]) * hx + abs(m[7]) * hy + abs(m[8]) * hz
            out.append((wx - ex, wy - ey, wz - ez, wx + ex, wy + ey, wz + ez))
        return out

    def __call__(self, model: mujoco.MjModel, data: mujoco.MjData, body_xz: tuple[float, float],
                 ) -> float:
        """Distance (m) for the geom poses in ``data`` (``geom_xpos`` / ``geom_xmat``, as
        ``mj_geomDistance`` reads them); ``body_xz``: the robot body's origin (x, z)."""
        h = self.cell
        bi, bj = math.floor(body_xz[0] / h), math.floor(body_xz[1] / h)
        if self.compiled:
            s, e = self._slots.get((bi, bj)) or self._slot((bi, bj))
            bd = self._bound
            if bd[0] is not data:
                bd = self._bound = (data, model._address, data._address, data.geom_xpos,
                                    data.geom_xmat)
            return pk.obstacle_distance(bd[1], bd[2], bd[3], bd[4], self._rg, self._raabb,
                                        self._obox, self._oids, self._cb, self._co, s, e,
                                        self._state, self.cutoff)
        best = self.cutoff
        boxes = self._robot_boxes(data)
        olo, ohi, ids, robot = self._lo, self._hi, self._ids, self._robot
        # Warm start: the pair nearest at the last call is usually still nearest; computed
        # first, it makes ``best`` small, so few other pairs pass the bound test. The result is
        # the same minimum over the same candidates (each pair's distance does not depend on
        # when it is computed).
        last, nearest = self._last, None
        if last is not None:
            dist = mujoco.mj_geomDistance(model, data, robot[last[0]], ids[last[1]], self.cutoff,
                                          None)
            if dist < best:
                best, nearest = max(dist, 0.0), last
        bounds, cands = self._candidates(bi, bj)
        # union of the robot geoms' boxes: its bound is below every geom's (a cheap pre-test)
        ul0, ul1, ul2, uu0, uu1, uu2 = boxes[0]
        for l0, l1, l2, u0, u1, u2 in boxes[1:]:
            ul0, ul1, ul2 = min(ul0, l0), min(ul1, l1), min(ul2, l2)
            uu0, uu1, uu2 = max(uu0, u0), max(uu1, u1), max(uu2, u2)
        heap: list[tuple[float, int, int]] = []
        for n, o in enumerate(cands):
            far = bounds[n]  # every pair from here on is at least this far
            # GJK distances are never below the true distance, which is never below the
            # AABBs' distance: pairs are computed nearest bound first while they can win
            while heap and heap[0][0] <= far and heap[0][0] <= best + _SLACK:
                best, nearest = self._pop(model, data, heap, best, nearest, last)
            if far > best + _SLACK:
                break
            a, b = olo[o], ohi[o]
            lim = best + _SLACK
            gx = a[0] - uu0 if a[0] > uu0 else (ul0 - b[0] if ul0 > b[0] else 0.0)
            gy = a[1] - uu1 if a[1] > uu1 else (ul1 - b[1] if ul1 > b[1] else 0.0)
            gz = a[2] - uu2 if a[2] > uu2 else (ul2 - b[2] if ul2 > b[2] else 0.0)
            if math.sqrt(gx * gx + gy * gy + gz * gz) >= lim:
                continue
            for ri, (l0, l1, l2, u0, u1, u2) in enumerate(boxes):
                gx = a[0] - u0 if a[0] > u0 else (l0 - b[0] if l0 > b[0] else 0.0)
                gy = a[1] - u1 if a[1] > u1 else (l1 - b[1] if l1 > b[1] else 0.0)
                gz = a[2] - u2 if a[2] > u2 else (l2 - b[2] if l2 > b[2] else 0.0)
                bound = math.sqrt(gx * gx + gy * gy + gz * gz)
                if bound < lim:
                    heapq.heappush(heap, (bound, ri, o))
        while heap and heap[0][0] <= best + _SLACK:
            best, nearest = self._pop(model, data, heap, best, nearest, last)
        self._last = nearest
        return best

    def _pop(self, model: mujoco.MjModel, data: mujoco.MjData, heap: list[tuple[float, int, int]],
             best: float, nearest: tuple[int, int] | None, skip: tuple[int, int] | None,
             ) -> tuple[float, tuple[int, int] | None]:
        """Compute the pair of the smallest bound on ``heap`` (unless it is ``skip``, computed
        already); the new (best, nearest pair)."""
        _, ri, o = heapq.heappop(heap)
        if (ri, o) != skip:
            dist = mujoco.mj_geomDistance(model, data, self._robot[ri], self._ids[o], self.cutoff,
                                          None)
            if dist < best:
                return max(dist, 0.0), (ri, o)
        return best, nearest


class DownRay:
    """``mj_ray`` straight down (−Y) from a point, over the static geoms of ``groups`` only,
    with the robot's body excluded: the same geom as ``mj_ray`` (same per-geom ray functions,
    same eliminations: body, invisible geom / material, group; nearest hit, lowest id on a tie),
    but only the geoms whose XZ AABB holds the point are tried (an XZ grid of ``cell`` m lists
    them per cell, built on the first visit). ``compiled``: use the kernel (``None``: where
    available; ``False``: the Python method).
    """

    def __init__(self, model: mujoco.MjModel, lo: np.ndarray, hi: np.ndarray,
                 groups: np.ndarray, body_exclude: int, cell: float = 2.0,
                 compiled: bool | None = None) -> None:
        grp = np.clip(model.geom_group, 0, len(groups) - 1)
        mat = model.geom_matid
        alpha = np.where(mat < 0, model.geom_rgba[:, 3], model.mat_rgba[np.maximum(mat, 0), 3]
                         if model.nmat else 0.0)
        keep = (model.geom_bodyid != body_exclude) & (alpha != 0) & (groups[grp] != 0)
        ids = np.flatnonzero(keep)
        self._ids = ids
        self._lo, self._hi = lo[ids][:, [0, 2]], hi[ids][:, [0, 2]]
        self._lo_list: list[list[float]] = self._lo.tolist()
        self._hi_list: list[list[float]] = self._hi.tolist()
        self._ids_list: list[int] = ids.tolist()
        self._type: list[int] = model.geom_type[ids].tolist()
        self.supported = not bool(np.any(model.geom_type[ids] == _SDF))
        self.cell = float(cell)
        self._cells: dict[tuple[int, int], list[int]] = {}
        self._vec = np.array([0.0, -1.0, 0.0])
        #: whether calls run the compiled kernel (the same geom as the Python method)
        self.compiled = mjc.available() if compiled is None else bool(compiled and mjc.available())
        # the kernel's copies: per-geom arrays, per-cell candidates as slices of a flat array
        self._ids_a = ids.astype(np.int64)
        self._type_a = model.geom_type[ids].astype(np.int64)
        self._lo_a, self._hi_a = np.ascontiguousarray(self._lo), np.ascontiguousarray(self._hi)
        self._cand, self._nflat = np.zeros(0, np.int64), 0
        self._slots: dict[tuple[int, int], tuple[int, int]] = {}
        self._scratch = np.zeros(9)
        self._bound: tuple[mujoco.MjData | None, int, int, np.ndarray, np.ndarray, np.ndarray] = \
            (None, 0, 0, np.zeros((0, 3)), np.zeros((0, 9)), np.zeros((0, 3)))

    def _cell(self, key: tuple[int, int]) -> np.ndarray:
        """Indices (into the kept geoms, ascending) whose XZ box meets cell ``key``."""
        a = np.array([key[0] * self.cell, key[1] * self.cell]) - 1e-6
        b = a + self.cell + 2e-6
        return np.flatnonzero(np.all((self._lo <= b) & (self._hi >= a), axis=1))

    def _near(self, x: float, z: float) -> list[int]:
        key = (math.floor(x / self.cell), math.floor(z / self.cell))
        near = self._cells.get(key)
        if near is None:
            near = self._cells[key] = self._cell(key).tolist()  # ascending geom id
        return near

    def _slot(self, key: tuple[int, int]) -> tuple[int, int]:
        """The flat-array slice of cell ``key``'s candidates (built on the first visit)."""
        near = self._cell(key)
        s, e = self._nflat, self._nflat + len(near)
        if e > len(self._cand):
            grow = max(e, 2 * len(self._cand), 64)
            self._cand = np.concatenate([self._cand[:s], np.zeros(grow - s, np.int64)])
        self._cand[s:e] = near
        self._nflat = e
        self._slots[key] = (s, e)
        return s, e

    def __call__(self, model: mujoco.MjModel, data: mujoco.MjData, pnt: np.ndarray) -> int:
        """Id of the nearest geom hit below ``pnt`` (world, m), or -1."""
        x, z = float(pnt[0]), float(pnt[2])
        if self.compiled:
            key = (math.floor(x / self.cell), math.floor(z / self.cell))
            s, e = self._slots.get(key) or self._slot(key)
            bd = self._bound
            if bd[0] is not data:
                bd = self._bound = (data, model._address, data._address, data.geom_xpos,
                                    data.geom_xmat, model.geom_size)
            return pk.down_ray(bd[1], bd[2], bd[3], bd[4], bd[5], pnt, self._lo_a, self._hi_a,
                               self._ids_a, self._type_a, self._cand, s, e, self._scratch)
        lo, hi, ids, types = self._lo_list, self._hi_list, self._ids_list, self._type
        vec = self._vec
        best, best_id = -1.0, -1
        for k in self._near(x, z):
            a, b = lo[k], hi[k]
            if not (a[0] - 1e-6 <= x <= b[0] + 1e-6 and a[1] - 1e-6 <= z <= b[1] + 1e-6):
                continue
            g, t = ids[k], types[k]
            if t == _MESH:
                dist = mujoco.mj_rayMesh(model, data, g, pnt, vec)
            elif t == _HFIELD:
                dist = mujoco.mj_rayHfield(model, data, g, pnt, vec)
            else:
                dist = mujoco.mju_rayGeom(data.geom_xpos[g], data.geom_xmat[g], model.geom_size[g],
                                          pnt, vec, t)
            if dist >= 0 and (dist < best or best < 0):
                best, best_id = dist, g
        return best_id


class SurfaceProbe:
    """Id of the first static geom straight below a point (−Y; -1 if none), over the geoms of
    ``groups``, the body ``body_exclude`` excluded: ``mj_ray`` (C over every geom: fastest in a
    house) in worlds of up to ``big`` geoms, :class:`DownRay` (the same answer from the geoms
    under the point) in larger ones; compiled or not as ``compiled`` says (see
    :class:`DownRay`; settable through :attr:`compiled`)."""

    def __init__(self, model: mujoco.MjModel, lo: np.ndarray, hi: np.ndarray,
                 groups: np.ndarray, body_exclude: int, big: int = 1000,
                 compiled: bool | None = None) -> None:
        self.down = DownRay(model, lo, hi, groups, body_exclude, compiled=compiled)
        self.uses_down_ray = self.down.supported and model.ngeom > big
        self._groups = np.ascontiguousarray(groups, np.uint8)
        self._body = body_exclude
        self._geomid = np.zeros(1, np.int32)
        self._vec = np.array([0.0, -1.0, 0.0])
        self._scratch = np.zeros(9)
        self._addr: tuple[mujoco.MjData | None, int, int] = (None, 0, 0)

    @property
    def compiled(self) -> bool:
        """Whether calls run compiled (the same geom as the Python path)."""
        return self.down.compiled

    @compiled.setter
    def compiled(self, value: bool) -> None:
        self.down.compiled = bool(value and mjc.available())

    def __call__(self, model: mujoco.MjModel, data: mujoco.MjData, pnt: np.ndarray) -> int:
        """Geom id below ``pnt`` (world, m), or -1."""
        if self.uses_down_ray:
            return self.down(model, data, pnt)
        if self.down.compiled:
            a = self._addr
            if a[0] is not data:
                a = self._addr = (data, model._address, data._address)
            return pk.all_ray(a[1], a[2], pnt, self._groups, self._body, self._scratch,
                              self._geomid)
        dist = mujoco.mj_ray(model, data, pnt.copy(), self._vec, self._groups, 1, self._body,
                             self._geomid)
        return int(self._geomid[0]) if dist >= 0 else -1


def highest_ground(model: mujoco.MjModel, data: mujoco.MjData, ground: np.ndarray,
                   groups: np.ndarray, body_exclude: int, x: float, y: float, z: float,
                   yaw: float, half_width: float, half_length: float, rise: float) -> float:
    """Highest ground top (m, world Y) under a footprint, from ``y`` up to ``y + rise``.

    The footprint is the ``2 half_width × 2 half_length`` rectangle of a base at ``(x, z)``
    with ``yaw`` (Habitat frame: yaw 0 faces −Z); a 3 × 3 grid of its points (corners, edge
    midpoints, centre) is probed with downward rays from ``y + rise`` over the geoms of
    ``groups`` (``body_exclude`` excluded). A ray's first hit counts only if that geom is
    ``ground`` (bool per geom id) and its top lies within ``(y, y + rise]``; ``y`` when none does.
    ``data`` must hold the static geoms' poses (after ``mj_forward``)."""
    s, c = math.sin(yaw), math.cos(yaw)
    vec = np.array([0.0, -1.0, 0.0])
    geomid = np.zeros(1, np.int32)
    top, best = y + rise, y
    for f in (-half_length, 0.0, half_length):
        for left in (-half_width, 0.0, half_width):
            # body (forward, left) → world XZ, as controller.body_to_world
            pnt = np.array([x - s * f - c * left, top, z - c * f + s * left])
            dist = mujoco.mj_ray(model, data, pnt, vec, groups, 1, body_exclude, geomid)
            g = int(geomid[0])
            if dist < 0 or g < 0 or not ground[g]:
                continue
            hit = top - dist
            if hit > best:
                best = hit
    return best


__all__ = ["DownRay", "ObstacleDistance", "SurfaceProbe", "highest_ground"]
