"""One compiled call per record row: obstacle distance, surface probe, tilt and collision flag.

:class:`CompiledRow` fills a :class:`navbench.sim.records.StepRecords` row with the values the
simulator's Python path records (the same floats: the kernels do its operations), in one
kernel call (:func:`row_ray` or :func:`row_down`): the base pose from ``qpos``, the tilt from
the body's ``xmat`` (as ``ContactScan.tilt``), the contact scan's collision flag (read and
cleared), the obstacle distance (:func:`navbench.sim.proximity_kernels.obstacle_distance`) and
the surface geom (``mj_ray``, or :func:`~navbench.sim.proximity_kernels.down_ray` in large
worlds, as the :class:`~navbench.sim.proximity.SurfaceProbe` chooses). Python finds the grid
cells' candidate slices (built on a cell's first visit).
"""

from __future__ import annotations

import math

import mujoco
import numba as nb
import numpy as np

from navbench.sim import proximity_kernels as pk
from navbench.sim.proximity import ObstacleDistance, SurfaceProbe
from navbench.sim.records import (
    R_COL,
    R_DTG,
    R_OD,
    R_STOP,
    R_SURF,
    R_T,
    R_TILT,
    R_X,
    R_Y,
    R_YAW,
    R_Z,
    StepRecords,
)


@nb.njit(cache=True)
def _fill(buf, n, t, stop, dtg, qpos, bxmat, sc, icol, od, g, nsurf):
    """Write row ``n`` of ``buf`` from the state and the probes' results ``od``, ``g``."""
    up = bxmat[4]  # ContactScan.tilt: acos(max(-1.0, min(1.0, up_y))), Python's min / max
    up = up if up < 1.0 else 1.0
    up = up if up > -1.0 else -1.0
    r = buf[n]
    r[R_T], r[R_X], r[R_Y], r[R_Z], r[R_YAW] = t, qpos[0], qpos[1], qpos[2], qpos[3]
    r[R_TILT] = math.acos(up)
    r[R_COL] = 1.0 if sc[icol] != 0.0 else 0.0
    r[R_OD] = od
    r[R_SURF] = g if g >= 0 else nsurf
    r[R_STOP] = 1.0 if stop else 0.0
    r[R_DTG] = dtg
    sc[icol] = 0.0


@nb.njit(cache=True)
def row_ray(buf, n, t, stop, dtg, s, e, qpos, bxmat, sc, icol, nsurf, ma, da, gxpos, gxmat,
            robot, raabb, obox, oids, cb, co, state, cutoff, pnt, scratch, groups, body, gid):
    """Fill ``buf[n]`` (``records.R_*`` columns): time ``t`` (s), the pose from ``qpos``, the
    tilt from ``bxmat``, collision ``sc[icol]`` (then cleared), the obstacle distance over the
    candidates ``co[s:e]`` (``obstacle_distance``'s arguments), the surface index by ``mj_ray``
    over every geom of ``groups`` (−1 → ``nsurf``), ``stop`` and ``dtg`` (m). The arguments
    after ``e`` stay the same per simulator (but for the candidate arrays, which grow)."""
    od = pk.obstacle_distance(ma, da, gxpos, gxmat, robot, raabb, obox, oids, cb, co, s, e,
                              state, cutoff)
    g = pk.all_ray(ma, da, pnt, groups, body, scratch, gid)
    _fill(buf, n, t, stop, dtg, qpos, bxmat, sc, icol, od, g, nsurf)


@nb.njit(cache=True)
def row_down(buf, n, t, stop, dtg, s, e, s2, e2, qpos, bxmat, sc, icol, nsurf, ma, da, gxpos,
             gxmat, robot, raabb, obox, oids, cb, co, state, cutoff, pnt, scratch, gsize, lo, hi,
             rids, gtype, cand):
    """:func:`row_ray` with the surface from DownRay's kernel over ``cand[s2:e2]``."""
    od = pk.obstacle_distance(ma, da, gxpos, gxmat, robot, raabb, obox, oids, cb, co, s, e,
                              state, cutoff)
    g = pk.down_ray(ma, da, gxpos, gxmat, gsize, pnt, lo, hi, rids, gtype, cand, s2, e2,
                    scratch)
    _fill(buf, n, t, stop, dtg, qpos, bxmat, sc, icol, od, g, nsurf)


class CompiledRow:
    """Writes the simulator's record rows with :func:`row_ray` / :func:`row_down`.

    Parameters: the simulator's ``proximity`` and ``probe`` (their compiled state is used and
    updated); ``data`` (its ``qpos``, poses and body ``body``'s ``xpos`` / ``xmat``); the contact
    scan's state array ``sc`` and the index ``icol`` of its collision flag; ``nsurf``: the
    surface-table index of "no geom" (the simulator's table: one entry per geom, then "none").
    """

    def __init__(self, model: mujoco.MjModel, data: mujoco.MjData, proximity: ObstacleDistance,
                 probe: SurfaceProbe, body: int, sc: np.ndarray, icol: int, nsurf: int) -> None:
        self._m, self._d = model, data
        self._od, self._probe, self._dr = proximity, probe, probe.down
        self._qpos, self._xmat, self._pnt = data.qpos, data.xmat[body], data.xpos[body]
        self._sc, self._icol, self._nsurf = sc, int(icol), int(nsurf)
        self._addr = (model._address, data._address, data.geom_xpos, data.geom_xmat,
                      model.geom_size)
        self._gid = np.zeros(1, np.int32)
        self._static: tuple[object, ...] = ()
        self._down = False
        self._arrays: tuple[np.ndarray, ...] = ()  # the candidate arrays ``_static`` holds
        self._restatic()

    def _restatic(self) -> None:
        """Collect the kernel's per-simulator arguments (again when the candidate arrays grew
        or the probe changed its method)."""
        od, dr, pr = self._od, self._dr, self._probe
        ma, da, gxpos, gxmat, gsize = self._addr
        self._down = pr.uses_down_ray
        self._arrays = (od._cb, od._co, dr._cand)
        common = (self._qpos, self._xmat, self._sc, self._icol, self._nsurf, ma, da, gxpos,
                  gxmat, od._rg, od._raabb, od._obox, od._oids, od._cb, od._co, od._state,
                  od.cutoff, self._pnt, dr._scratch)
        self._static = (*common, gsize, dr._lo_a, dr._hi_a, dr._ids_a, dr._type_a,
                        dr._cand) if self._down else (*common, pr._groups, pr._body, self._gid)

    def __call__(self, rec: StepRecords, t: float, stop: bool, dtg: float) -> None:
        """Append the row for the current state (time ``t`` s, ``stop``, DTG ``dtg`` m)."""
        od, dr = self._od, self._dr
        x, _, z = self._pnt.tolist()
        h = od.cell
        key = (math.floor(x / h), math.floor(z / h))
        s, e = od._slots.get(key) or od._slot(key)
        down = self._probe.uses_down_ray
        if down:
            h = dr.cell
            key = (math.floor(x / h), math.floor(z / h))
            s2, e2 = dr._slots.get(key) or dr._slot(key)
        a = self._arrays  # a cell built here or by a direct call may have grown them
        if a[0] is not od._cb or a[1] is not od._co or a[2] is not dr._cand or \
                down != self._down:
            self._restatic()
        buf, n = rec.next_row()
        if down:
            row_down(buf, n, t, stop, dtg, s, e, s2, e2, *self._static)
        else:
            row_ray(buf, n, t, stop, dtg, s, e, *self._static)


__all__ = ["CompiledRow", "row_down", "row_ray"]
