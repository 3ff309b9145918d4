"""Compiled obstacle distance and downward ray of :mod:`navbench.sim.proximity` (numba).

The kernels do what the Python methods do, operation for operation, with MuJoCo's C functions
called directly (:mod:`navbench.sim.mjc`): :func:`obstacle_distance` is
``ObstacleDistance.__call__`` (same robot-geom AABBs, same candidates and bounds, same
nearest-bound-first order, ``mj_geomDistance``), :func:`down_ray` is ``DownRay.__call__``
(same candidates and per-type ray functions) and :func:`all_ray` is ``mj_ray`` over every geom.
Both take plain arrays and addresses, so a larger kernel can call them too.

They run where :func:`navbench.sim.mjc.available` (else the Python path runs).
"""

from __future__ import annotations

import mujoco
import numba as nb
import numpy as np

from navbench.sim import mjc

#: MuJoCo geom types with their own ray functions (``mjtGeom``)
MESH, HFIELD = int(mujoco.mjtGeom.mjGEOM_MESH), int(mujoco.mjtGeom.mjGEOM_HFIELD)
SLACK = 1e-9  # m, as proximity._SLACK
# a distance is clipped as ``max(dist, 0.0)`` clips it (-0.0 stays -0.0):
# ``0.0 if dist < 0.0 else dist``

ray_geom, ray_mesh, ray_hfield = mjc.ray_geom, mjc.ray_mesh, mjc.ray_hfield


@nb.njit(cache=True)
def _gap(a0, a1, a2, b0, b1, b2, l0, l1, l2, u0, u1, u2):
    """Distance between the boxes [a, b] and [l, u] (m), as the Python method computes it."""
    gx = a0 - u0 if a0 > u0 else (l0 - b0 if l0 > b0 else 0.0)
    gy = a1 - u1 if a1 > u1 else (l1 - b1 if l1 > b1 else 0.0)
    gz = a2 - u2 if a2 > u2 else (l2 - b2 if l2 > b2 else 0.0)
    return np.sqrt(gx * gx + gy * gy + gz * gz)


@nb.njit(cache=True)
def _less(hb, hr, ho, i, j):
    """Heap entry i < entry j, as the tuples (bound, robot geom index, obstacle) compare."""
    if hb[i] != hb[j]:
        return hb[i] < hb[j]
    if hr[i] != hr[j]:
        return hr[i] < hr[j]
    return ho[i] < ho[j]


@nb.njit(cache=True)
def _swap(hb, hr, ho, i, j):
    hb[i], hb[j] = hb[j], hb[i]
    hr[i], hr[j] = hr[j], hr[i]
    ho[i], ho[j] = ho[j], ho[i]


@nb.njit(cache=True)
def _push(hb, hr, ho, n, b, r, o):
    """Add (b, r, o) to the binary min-heap of ``n`` entries; the new size."""
    hb[n], hr[n], ho[n] = b, r, o
    i = n
    while i > 0:
        p = (i - 1) >> 1
        if not _less(hb, hr, ho, i, p):
            break
        _swap(hb, hr, ho, i, p)
        i = p
    return n + 1


@nb.njit(cache=True)
def _drop_top(hb, hr, ho, n):
    """Remove the smallest of ``n`` entries (read it first); the new size."""
    n -= 1
    _swap(hb, hr, ho, 0, n)
    i = 0
    while True:
        c = 2 * i + 1
        if c >= n:
            break
        if c + 1 < n and _less(hb, hr, ho, c + 1, c):
            c += 1
        if not _less(hb, hr, ho, c, i):
            break
        _swap(hb, hr, ho, i, c)
        i = c
    return n


@nb.njit(cache=True)
def _pop_while(mp, dp, robot, oids, hb, hr, ho, hn, far, best, nr_, no_, lr, lo, cutoff):
    """Compute the pairs of smallest bound while that bound is ≤ ``far`` and can still win
    (skipping the pair (lr, lo), computed already); (heap size, best, nearest pair)."""
    while hn > 0 and hb[0] <= far and hb[0] <= best + SLACK:
        r, o = hr[0], ho[0]
        hn = _drop_top(hb, hr, ho, hn)
        if r != lr or o != lo:
            dist = mjc.geom_distance(mp, dp, robot[r], oids[o], cutoff, mjc.ptr(0))
            if dist < best:
                best, nr_, no_ = (0.0 if dist < 0.0 else dist), r, o
    return hn, best, nr_, no_


@nb.njit(cache=True)
def obstacle_distance(ma, da, gxpos, gxmat, robot, aabb, obox, oids, cb, co, s, e, state,
                      cutoff):
    """``ObstacleDistance.__call__`` (m): ``ma``, ``da`` model / data addresses; ``gxpos``,
    ``gxmat`` the data's ``geom_xpos`` / ``geom_xmat``; ``robot`` geom ids with local ``aabb``
    rows (centre, half sizes); ``obox`` (n, 6) world AABBs of the obstacles ``oids``; the
    cell's candidates ``co[s:e]`` with bounds ``cb[s:e]`` (ascending); ``state`` int64
    ``[robot index, obstacle index]`` of the last nearest pair (−1: none), updated."""
    nr = robot.shape[0]
    bx = np.empty((nr, 6))
    for r in range(nr):
        g = robot[r]
        cx, cy, cz, hx, hy, hz = aabb[r, 0], aabb[r, 1], aabb[r, 2], aabb[r, 3], aabb[r, 4], \
            aabb[r, 5]
        m, p = gxmat[g], gxpos[g]
        wx = p[0] + m[0] * cx + m[1] * cy + m[2] * cz
        wy = p[1] + m[3] * cx + m[4] * cy + m[5] * cz
        wz = p[2] + m[6] * cx + m[7] * cy + m[8] * cz
        ex = abs(m[0]) * hx + abs(m[1]) * hy + abs(m[2]) * hz
        ey = abs(m[3]) * hx + abs(m[4]) * hy + abs(m[5]) * hz
        ez = abs(m[6]) * hx + abs(m[7]) * hy + abs(m[8]) * hz
        bx[r, 0], bx[r, 1], bx[r, 2] = wx - ex, wy - ey, wz - ez
        bx[r, 3], bx[r, 4], bx[r, 5] = wx + ex, wy + ey, wz + ez
    mp, dp = mjc.ptr(ma), mjc.ptr(da)
    best = cutoff
    lr, lo = state[0], state[1]
    nr_, no_ = -1, -1  # the nearest pair found by this call
    if lr >= 0:
        dist = mjc.geom_distance(mp, dp, robot[lr], oids[lo], cutoff, mjc.ptr(0))
        if dist < best:
            best, nr_, no_ = (0.0 if dist < 0.0 else dist), lr, lo
    ul0, ul1, ul2, uu0, uu1, uu2 = bx[0, 0], bx[0, 1], bx[0, 2], bx[0, 3], bx[0, 4], bx[0, 5]
    for r in range(1, nr):
        ul0, ul1, ul2 = min(ul0, bx[r, 0]), min(ul1, bx[r, 1]), min(ul2, bx[r, 2])
        uu0, uu1, uu2 = max(uu0, bx[r, 3]), max(uu1, bx[r, 4]), max(uu2, bx[r, 5])
    cap = nr * (e - s)
    hb, hr, ho = np.empty(cap), np.empty(cap, np.int64), np.empty(cap, np.int64)
    hn = 0
    for n in range(s, e):
        far = cb[n]  # every pair from here on is at least this far
        hn, best, nr_, no_ = _pop_while(mp, dp, robot, oids, hb, hr, ho, hn, far, best, nr_,
                                        no_, lr, lo, cutoff)
        if far > best + SLACK:
            break
        o = co[n]
        a0, a1, a2, b0, b1, b2 = obox[o, 0], obox[o, 1], obox[o, 2], obox[o, 3], obox[o, 4], \
            obox[o, 5]
        lim = best + SLACK
        if _gap(a0, a1, a2, b0, b1, b2, ul0, ul1, ul2, uu0, uu1, uu2) >= lim:
            continue
        for r in range(nr):
            bound = _gap(a0, a1, a2, b0, b1, b2, bx[r, 0], bx[r, 1], bx[r, 2], bx[r, 3],
                         bx[r, 4], bx[r, 5])
            if bound < lim:
                hn = _push(hb, hr, ho, hn, bound, r, o)
    hn, best, nr_, no_ = _pop_while(mp, dp, robot, oids, hb, hr, ho, hn, np.inf, best, nr_, no_,
                                    lr, lo, cutoff)
    state[0], state[1] = nr_, no_
    return best


@nb.njit(cache=True)
def down_ray(ma, da, gxpos, gxmat, gsize, pnt, lo, hi, ids, gtype, cand, s, e, scratch):
    """``DownRay.__call__``: the id of the nearest geom hit straight down (−Y) from ``pnt``
    among the cell's candidates ``cand[s:e]`` (indices into ``ids`` / ``gtype`` / the XZ boxes
    ``lo``, ``hi``), −1 if none; ``gsize``: the model's ``geom_size``; ``scratch`` (9,)."""
    x, z = pnt[0], pnt[2]
    mp, dp = mjc.ptr(ma), mjc.ptr(da)
    scratch[0], scratch[1], scratch[2] = pnt[0], pnt[1], pnt[2]
    scratch[3], scratch[4], scratch[5] = 0.0, -1.0, 0.0
    base = scratch.ctypes.data
    pp, vp, nrm = mjc.ptr(base), mjc.ptr(base + 24), mjc.ptr(base + 48)
    xp, xm, sz = gxpos.ctypes.data, gxmat.ctypes.data, gsize.ctypes.data
    best, best_id = -1.0, -1
    for n in range(s, e):
        k = cand[n]
        if not (lo[k, 0] - 1e-6 <= x <= hi[k, 0] + 1e-6 and
                lo[k, 1] - 1e-6 <= z <= hi[k, 1] + 1e-6):
            continue
        g, t = ids[k], gtype[k]
        if t == MESH:
            dist = ray_mesh(mp, dp, g, pp, vp, nrm)
        elif t == HFIELD:
            dist = ray_hfield(mp, dp, g, pp, vp, nrm)
        else:
            dist = ray_geom(mjc.ptr(xp + 24 * g), mjc.ptr(xm + 72 * g), mjc.ptr(sz + 24 * g),
                            pp, vp, t, nrm)
        if dist >= 0 and (dist < best or best < 0):
            best, best_id = dist, g
    return best_id


@nb.njit(cache=True)
def all_ray(ma, da, pnt, groups, body, scratch, gid):
    """``mj_ray`` straight down (−Y) from ``pnt`` over the static geoms of ``groups`` (uint8),
    the body ``body`` excluded: the geom id, −1 if none; ``scratch`` (9,), ``gid`` int32 (1,)."""
    scratch[0], scratch[1], scratch[2] = pnt[0], pnt[1], pnt[2]
    scratch[3], scratch[4], scratch[5] = 0.0, -1.0, 0.0
    base = scratch.ctypes.data
    dist = mjc.ray(mjc.ptr(ma), mjc.ptr(da), mjc.ptr(base), mjc.ptr(base + 24),
                   mjc.ptr(groups.ctypes.data), 1, body, mjc.ptr(gid.ctypes.data),
                   mjc.ptr(base + 48))
    return gid[0] if dist >= 0 else -1


__all__ = ["SLACK", "all_ray", "down_ray", "obstacle_distance", "ray_geom",
           "ray_hfield", "ray_mesh"]
