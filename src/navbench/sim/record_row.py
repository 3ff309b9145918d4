"""One compiled call per record row: obstacle distance, surface probe, tilt and collision flag.

:class:`CompiledRow` fills a :class:`navbench.sim.records.StepRecords` row with the values the
simulator's Python path records (the same floats: the kernels do its operations), in one
kernel call (:func:`row`): the base pose from ``qpos``, the tilt from
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

from navbench.sim import mjc
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


# the argument table of :func:`row` (int64): addresses of the arrays it reads (C order) ...
(T_QPOS, T_BXMAT, T_PNT, T_SC, T_GXPOS, T_GXMAT, T_GSIZE, T_RG, T_RAABB, T_OBOX, T_OIDS, T_CB,
 T_CO, T_STATE, T_SCRATCH, T_GROUPS, T_GID, T_LO, T_HI, T_RIDS, T_GTYPE, T_CAND,
 # ... their sizes ...
 T_NGEOM, T_NR, T_NO, T_NFLAT, T_NK, T_NCAND, T_NSC,
 # ... and integers: model / data addresses, collision flag index, "no geom" index, excluded
 # body, whether the surface comes from DownRay's kernel
 T_MA, T_DA, T_ICOL, T_NSURF, T_BODY, T_DOWN) = range(35)
NTAB = 35
NGROUP = mujoco.mjNGROUP  # entries of mj_ray's geomgroup
_DTYPES = {T_RG: np.int64, T_OIDS: np.int64, T_CO: np.int64, T_STATE: np.int64,
           T_RIDS: np.int64, T_GTYPE: np.int64, T_CAND: np.int64, T_GROUPS: np.uint8,
           T_GID: np.int32}  # the others: float64


@nb.njit(cache=True)
def _f1(tab, k, n):
    """The float64 array of ``n`` at address ``tab[k]``."""
    return nb.carray(mjc.ptr(tab[k]), n, np.float64)


@nb.njit(cache=True)
def _f2(tab, k, n, m):
    """The C-ordered float64 array of ``n`` × ``m`` at address ``tab[k]``."""
    return nb.carray(mjc.ptr(tab[k]), (n, m), np.float64)


@nb.njit(cache=True)
def _i8(tab, k, n):
    """The int64 array of ``n`` at address ``tab[k]``."""
    return nb.carray(mjc.ptr(tab[k]), n, np.int64)


@nb.njit(cache=True)
def row(buf, n, t, stop, dtg, s, e, s2, e2, tab, cutoff):
    """Fill ``buf[n]`` (``records.R_*`` columns): time ``t`` (s), the pose from ``qpos``, the
    tilt from the body's ``xmat``, the collision flag ``sc[icol]`` (then cleared), the obstacle
    distance over the candidates ``co[s:e]`` (capped at ``cutoff``, m), the surface index
    (``mj_ray``, or DownRay's kernel over ``cand[s2:e2]``; −1 → ``nsurf``), ``stop`` and
    ``dtg`` (m). Every array is read through its address in ``tab`` (``T_*``), so a call passes
    two arrays, not thirty."""
    ng, nr, no, nk = tab[T_NGEOM], tab[T_NR], tab[T_NO], tab[T_NK]
    ma, da = tab[T_MA], tab[T_DA]
    qpos, bxmat, pnt = _f1(tab, T_QPOS, 4), _f1(tab, T_BXMAT, 9), _f1(tab, T_PNT, 3)
    sc, scratch = _f1(tab, T_SC, tab[T_NSC]), _f1(tab, T_SCRATCH, 9)
    gxpos, gxmat = _f2(tab, T_GXPOS, ng, 3), _f2(tab, T_GXMAT, ng, 9)
    od = pk.obstacle_distance(ma, da, gxpos, gxmat, _i8(tab, T_RG, nr),
                              _f2(tab, T_RAABB, nr, 6), _f2(tab, T_OBOX, no, 6),
                              _i8(tab, T_OIDS, no), _f1(tab, T_CB, tab[T_NFLAT]),
                              _i8(tab, T_CO, tab[T_NFLAT]), s, e, _i8(tab, T_STATE, 2), cutoff)
    if tab[T_DOWN]:
        g = pk.down_ray(ma, da, gxpos, gxmat, _f2(tab, T_GSIZE, ng, 3), pnt,
                        _f2(tab, T_LO, nk, 2), _f2(tab, T_HI, nk, 2), _i8(tab, T_RIDS, nk),
                        _i8(tab, T_GTYPE, nk), _i8(tab, T_CAND, tab[T_NCAND]), s2, e2, scratch)
    else:
        g = pk.all_ray(ma, da, pnt, nb.carray(mjc.ptr(tab[T_GROUPS]), NGROUP, np.uint8),
                       tab[T_BODY], scratch, nb.carray(mjc.ptr(tab[T_GID]), 1, np.int32))
    _fill(buf, n, t, stop, dtg, qpos, bxmat, sc, tab[T_ICOL], od, g, tab[T_NSURF])


class CompiledRow:
    """Writes the simulator's record rows with :func:`row`.

    Parameters: the simulator's ``proximity`` and ``probe`` (their compiled state is used and
    updated); ``data`` (its ``qpos``, poses and body ``body``'s ``xpos`` / ``xmat``); the contact
    scan's state array ``sc`` and the index ``icol`` of its collision flag; ``nsurf``: the
    surface-table index of "no geom" (the simulator's table: one entry per geom, then "none").
    The argument table holds the addresses of arrays this object keeps referenced; it is
    rebuilt whenever a candidate array grew (a new array) or the probe changed its method.
    """

    def __init__(self, model: mujoco.MjModel, data: mujoco.MjData, proximity: ObstacleDistance,
                 probe: SurfaceProbe, body: int, sc: np.ndarray, icol: int, nsurf: int) -> None:
        self._m, self._d = model, data
        self._od, self._probe, self._dr = proximity, probe, probe.down
        self._pnt = data.xpos[body]
        self._fixed = (data.qpos, data.xmat[body], self._pnt, sc, data.geom_xpos,
                       data.geom_xmat, model.geom_size)
        self._gid = np.zeros(1, np.int32)
        self._tab = np.zeros(NTAB, np.int64)
        t = self._tab
        t[T_NGEOM], t[T_NSC], t[T_MA], t[T_DA] = model.ngeom, len(sc), model._address, \
            data._address
        t[T_ICOL], t[T_NSURF], t[T_BODY] = icol, nsurf, probe._body
        self._keep: tuple[np.ndarray, ...] = ()  # every array whose address is in the table
        self._restatic()

    def _restatic(self) -> None:
        """Fill the table with the current arrays' addresses and sizes."""
        od, dr, pr = self._od, self._dr, self._probe
        arrays = {T_RG: od._rg, T_RAABB: od._raabb, T_OBOX: od._obox, T_OIDS: od._oids,
                  T_CB: od._cb, T_CO: od._co, T_STATE: od._state, T_SCRATCH: dr._scratch,
                  T_GROUPS: pr._groups, T_GID: self._gid, T_LO: dr._lo_a, T_HI: dr._hi_a,
                  T_RIDS: dr._ids_a, T_GTYPE: dr._type_a, T_CAND: dr._cand}
        for k, a in zip((T_QPOS, T_BXMAT, T_PNT, T_SC, T_GXPOS, T_GXMAT, T_GSIZE), self._fixed,
                        strict=True):
            arrays[k] = a
        t = self._tab
        if len(pr._groups) != NGROUP:
            raise RuntimeError(f"record_row: {NGROUP} geom groups expected")
        for k, a in arrays.items():
            want = _DTYPES.get(k, np.float64)
            if not a.flags.c_contiguous or a.dtype != want:
                raise RuntimeError(f"record_row: array {k} is not C-ordered {want}")
            t[k] = a.ctypes.data
        t[T_NR], t[T_NO], t[T_NFLAT] = len(od._rg), len(od._oids), len(od._cb)
        t[T_NK], t[T_NCAND], t[T_DOWN] = len(dr._ids_a), len(dr._cand), pr.uses_down_ray
        self._keep = tuple(arrays.values())
        self._grown = (od._cb, od._co, dr._cand, pr.uses_down_ray)

    def __call__(self, rec: StepRecords, t: float, stop: bool, dtg: float) -> None:
        """Append the row for the current state (time ``t`` s, ``stop``, DTG ``dtg`` m)."""
        od, dr = self._od, self._dr
        x, _, z = self._pnt.tolist()
        h = od.cell
        key = (math.floor(x / h), math.floor(z / h))
        s, e = od._slots.get(key) or od._slot(key)
        s2 = e2 = 0
        down = self._probe.uses_down_ray
        if down:
            h = dr.cell
            key = (math.floor(x / h), math.floor(z / h))
            s2, e2 = dr._slots.get(key) or dr._slot(key)
        g = self._grown  # a cell built here or by a direct call may have grown the arrays
        if g[0] is not od._cb or g[1] is not od._co or g[2] is not dr._cand or g[3] != down:
            self._restatic()
        buf, n = rec.next_row()
        row(buf, n, t, stop, dtg, s, e, s2, e2, self._tab, od.cutoff)


__all__ = ["NTAB", "CompiledRow", "row"]
