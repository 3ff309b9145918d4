"""Obstacle distance of the robot (per-step record ``obstacle_distance``), pruned exactly.

The distance is the smallest surface distance (``mj_geomDistance``, clipped at 0) between any
robot collision geom and any obstacle geom, capped at ``cutoff``. Only pairs that can be nearer
than the best distance found so far are computed, nearest lower bound first: an XZ grid of
cells (``cell`` m) keeps per cell the obstacles whose XZ box is within ``cutoff + reach`` of it
(built on the first visit), and the lower bound of a pair is the distance between the robot
geom's world AABB and the obstacle's world AABB (convex bodies are never nearer than their
bounding boxes). Pruning drops only pairs that cannot lower the result, so the value is the
minimum over all pairs, as a brute-force scan computes it.

:class:`DownRay` finds the geom under the robot (per-step record ``surface``) as ``mj_ray``
does, trying only the geoms whose XZ box holds the point.
"""

from __future__ import annotations

import math

import mujoco
import numpy as np

_MESH, _HFIELD, _SDF = (int(t) for t in (mujoco.mjtGeom.mjGEOM_MESH, mujoco.mjtGeom.mjGEOM_HFIELD,
                                         mujoco.mjtGeom.mjGEOM_SDF))
_SLACK = 1e-9  # m


class ObstacleDistance:
    """Nearest-obstacle distance of the robot's collision geoms (m, capped at ``cutoff``).

    Parameters: ``robot_geoms`` and ``obstacle_geoms`` (geom ids); ``lo``, ``hi`` (ngeom, 3)
    world AABBs of the static geoms (rows of the obstacle ids are read; Habitat frame, m);
    ``reach``: XZ radius about the robot body's origin that holds all its geoms (m);
    ``cutoff`` (m); ``cell``: grid cell size (m).
    """

    def __init__(self, model: mujoco.MjModel, robot_geoms: np.ndarray,
                 obstacle_geoms: np.ndarray, lo: np.ndarray, hi: np.ndarray, reach: float,
                 cutoff: float, cell: float = 2.0) -> None:
        self._ids = np.asarray(obstacle_geoms, int)
        olo, ohi = lo[self._ids], hi[self._ids]
        self._c, self._h = 0.5 * (olo + ohi), 0.5 * (ohi - olo)  # (N, 3) centres, half sizes
        self._robot = np.asarray(robot_geoms, int)
        self._robot_list: list[int] = self._robot.tolist()
        self._aabb_c = model.geom_aabb[self._robot, :3].copy()  # local AABBs of the robot geoms
        self._aabb_h = model.geom_aabb[self._robot, 3:].copy()
        self.cutoff, self.cell = float(cutoff), float(cell)
        self._reach = float(reach)
        self._cells: dict[tuple[int, int], tuple[list[int], np.ndarray, np.ndarray]] = {}

    def _near(self, x: float, z: float) -> tuple[list[int], np.ndarray, np.ndarray]:
        """Obstacle geom ids within ``cutoff + reach`` (XZ) of the cell of (x, z), with their
        AABB centres and half sizes."""
        key = (math.floor(x / self.cell), math.floor(z / self.cell))
        near = self._cells.get(key)
        if near is None:
            lo = np.array([key[0] * self.cell, key[1] * self.cell])
            c = lo + 0.5 * self.cell
            gap = np.abs(self._c[:, [0, 2]] - c) - self._h[:, [0, 2]] - 0.5 * self.cell
            np.maximum(gap, 0.0, out=gap)
            lim = self.cutoff + self._reach + 1e-6
            k = np.flatnonzero((gap * gap).sum(axis=1) <= lim * lim)
            near = (self._ids[k].tolist(), self._c[k][None, :, :], self._h[k][None, :, :])
            self._cells[key] = near
        return near

    def __call__(self, model: mujoco.MjModel, data: mujoco.MjData, body_xz: tuple[float, float],
                 ) -> float:
        """Distance (m) for the geom poses in ``data`` (``geom_xpos`` / ``geom_xmat``, as
        ``mj_geomDistance`` reads them); ``body_xz``: the robot body's origin (x, z)."""
        best = self.cutoff
        ids, oc, oh = self._near(*body_xz)
        n = len(ids)
        if n == 0:
            return best
        rg = self._robot
        rot = data.geom_xmat[rg].reshape(-1, 3, 3)
        centre = data.geom_xpos[rg] + (rot @ self._aabb_c[:, :, None])[:, :, 0]
        half = (np.abs(rot) @ self._aabb_h[:, :, None])[:, :, 0]
        gap = np.abs(oc - centre[:, None, :])
        gap -= oh
        gap -= half[:, None, :]
        np.maximum(gap, 0.0, out=gap)
        gap *= gap
        bound = np.sqrt(gap.sum(axis=2)).ravel()  # (robot geom, obstacle) pairs, row-major
        # GJK distances are never below the true distance, which is never below the AABBs'
        # distance (the slack covers rounding in the bound)
        cand = np.flatnonzero(bound < best + _SLACK)
        if len(cand) == 0:
            return best
        order = cand[np.argsort(bound[cand], kind="stable")].tolist()
        bounds = bound[order].tolist()
        robot = self._robot_list
        for b, p in zip(bounds, order, strict=True):
            if b > best + _SLACK:
                break
            r, k = divmod(p, n)
            dist = mujoco.mj_geomDistance(model, data, robot[r], ids[k], best, None)
            best = min(best, max(dist, 0.0))
        return best


class DownRay:
    """``mj_ray`` straight down (−Y) from a point, over the static geoms of ``groups`` only,
    with the robot's body excluded: the same geom as ``mj_ray`` (same per-geom ray functions,
    same eliminations: body, invisible geom / material, group; nearest hit, lowest id on a tie),
    but only the geoms whose XZ AABB holds the point are tried (an XZ grid of ``cell`` m lists
    them per cell, built on the first visit).
    """

    def __init__(self, model: mujoco.MjModel, lo: np.ndarray, hi: np.ndarray,
                 groups: np.ndarray, body_exclude: int, cell: float = 2.0) -> None:
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

    def _near(self, x: float, z: float) -> list[int]:
        key = (math.floor(x / self.cell), math.floor(z / self.cell))
        near = self._cells.get(key)
        if near is None:
            a = np.array([key[0] * self.cell, key[1] * self.cell]) - 1e-6
            b = a + self.cell + 2e-6
            hit = np.all((self._lo <= b) & (self._hi >= a), axis=1)
            near = np.flatnonzero(hit).tolist()  # ascending geom id (ids are sorted)
            self._cells[key] = near
        return near

    def __call__(self, model: mujoco.MjModel, data: mujoco.MjData, pnt: np.ndarray) -> int:
        """Id of the nearest geom hit below ``pnt`` (world, m), or -1."""
        x, z = float(pnt[0]), float(pnt[2])
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


__all__ = ["DownRay", "ObstacleDistance"]
