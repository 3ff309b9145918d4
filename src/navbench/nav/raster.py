"""Numba rasterisation kernels for the 2.5D navigation grid.

Grid convention (shared by the whole ``navbench.nav`` package): array index ``[row, col]``,
``row`` along +Z and ``col`` along +X; cell ``(r, c)`` has its centre at
``(x0 + (c + 0.5) * cs, z0 + (r + 0.5) * cs)`` in the Habitat XZ plane. A cell belongs to a
polygon when its centre is inside (even-odd rule over all rings, so holes are rings too);
obstacle footprints (:func:`fill_block`) are conservative instead: a cell is blocked when its
square overlaps the footprint.
Polygons are given as concatenated XZ vertices ``pts`` (N, 2) with ring offsets ``starts``.
"""

from __future__ import annotations

import numba as nb
import numpy as np

# Kernels marked `type: ignore[no-untyped-def]` are left unannotated on purpose: numba types
# them at the first call (int/float scalars and arrays of several dtypes) and mypy cannot see that.


@nb.njit(cache=True)
def _row_crossings(pts: np.ndarray, starts: np.ndarray, zc: float, out: np.ndarray) -> int:
    """X coordinates where the rings cross the line z = zc (sorted into ``out``); returns count."""
    n = 0
    for k in range(len(starts) - 1):
        a, b = starts[k], starts[k + 1]
        for i in range(a, b):
            j = i + 1 if i + 1 < b else a
            za, zb = pts[i, 1], pts[j, 1]
            if (za > zc) != (zb > zc):
                t = (zc - za) / (zb - za)
                if n < len(out):
                    out[n] = pts[i, 0] + t * (pts[j, 0] - pts[i, 0])
                    n += 1
    out[:n].sort()
    return n


@nb.njit(cache=True)
def _row_range(pts, z0, cs, nrows):  # type: ignore[no-untyped-def]
    """Rows whose centre line may cross the polygon (inclusive range)."""
    zmin, zmax = pts[:, 1].min(), pts[:, 1].max()
    r0 = max(0, int(np.ceil((zmin - z0) / cs - 0.5)))
    r1 = min(nrows - 1, int(np.floor((zmax - z0) / cs - 0.5)))
    return r0, r1


@nb.njit(cache=True)
def _cols(xa, xb, x0, cs, ncols):  # type: ignore[no-untyped-def]
    """Columns whose centres lie in [xa, xb] (inclusive range, may be empty)."""
    c0 = max(0, int(np.ceil((xa - x0) / cs - 0.5)))
    c1 = min(ncols - 1, int(np.floor((xb - x0) / cs - 0.5)))
    return c0, c1


@nb.njit(cache=True)
def fill_top(H, bad, pts, starts, y, walkable, x0, z0, cs):  # type: ignore[no-untyped-def]
    """Raise the candidate surface height ``H`` to ``y`` inside the polygon.

    A walkable surface above the current top clears ``bad``; a non-walkable one (water,
    building) at or above the current top sets it.
    """
    nrows, ncols = H.shape
    r0, r1 = _row_range(pts, z0, cs, nrows)
    buf = np.empty(len(pts) + 2)
    for r in range(r0, r1 + 1):
        n = _row_crossings(pts, starts, z0 + (r + 0.5) * cs, buf)
        for k in range(0, n - 1, 2):
            c0, c1 = _cols(buf[k], buf[k + 1], x0, cs, ncols)
            for c in range(c0, c1 + 1):
                h = H[r, c]
                if walkable:
                    if not (h >= y):  # also true when h is NaN
                        H[r, c] = y
                        bad[r, c] = False
                elif not (h > y + 1e-9):
                    H[r, c] = y
                    bad[r, c] = True


#: Separation (m) below which a cell square and an obstacle only *touch* (no overlap): a wall
#: face lying on a grid line blocks the cells it covers, not their neighbours.
_TOUCH = 1e-6


@nb.njit(cache=True)
def _square_meets_convex(pts, a, b, qx, qz, half):  # type: ignore[no-untyped-def]
    """Whether the axis-aligned square centred at (qx, qz) with half-edge ``half`` overlaps the
    convex ring ``pts[a:b]`` by more than ``_TOUCH`` (separating-axis test over the ring's edge
    normals; the two square axes are checked by the caller's cell window)."""
    for i in range(a, b):
        j = i + 1 if i + 1 < b else a
        nx = pts[i, 1] - pts[j, 1]
        nz = pts[j, 0] - pts[i, 0]
        ln = np.sqrt(nx * nx + nz * nz)
        if ln < 1e-12:
            continue
        nx /= ln
        nz /= ln
        lo = 1e300
        hi = -1e300
        for k in range(a, b):
            d = pts[k, 0] * nx + pts[k, 1] * nz
            lo = min(lo, d)
            hi = max(hi, d)
        c = qx * nx + qz * nz
        e = half * (abs(nx) + abs(nz))
        if not (c + e > lo + _TOUCH and hi > c - e + _TOUCH):
            return False
    return True


@nb.njit(cache=True)
def fill_block(blocked, H, pts, starts, ylo, yhi, climb, height, x0, z0, cs):  # type: ignore[no-untyped-def]
    """Block every cell whose *square* overlaps a convex ring of the obstacle footprint (exact
    separating-axis test, so 0.1 m signs or walls on a 0.25 m grid always block) and whose
    headroom column (H+climb, H+height) meets [ylo, yhi]. Rings must be convex (box footprints).
    Returns ``(blocked, missed)``: cells it blocked, and overlapped cells with a surface that
    it did not block (their headroom is clear of the box).
    """
    nrows, ncols = H.shape
    half = 0.5 * cs
    count = 0
    missed = 0
    for k in range(len(starts) - 1):
        a, b = starts[k], starts[k + 1]
        if b - a < 3:
            continue
        xmin, xmax = pts[a:b, 0].min(), pts[a:b, 0].max()
        zmin, zmax = pts[a:b, 1].min(), pts[a:b, 1].max()
        # cells whose square overlaps the ring's bounding box (strictly)
        c0 = max(0, int(np.floor((xmin + _TOUCH - x0) / cs)))
        c1 = min(ncols - 1, int(np.ceil((xmax - _TOUCH - x0) / cs)) - 1)
        r0 = max(0, int(np.floor((zmin + _TOUCH - z0) / cs)))
        r1 = min(nrows - 1, int(np.ceil((zmax - _TOUCH - z0) / cs)) - 1)
        axis = b - a == 4 and (pts[a, 0] == pts[a + 1, 0] or pts[a, 1] == pts[a + 1, 1])
        for r in range(r0, r1 + 1):
            qz = z0 + (r + 0.5) * cs
            for c in range(c0, c1 + 1):
                h = H[r, c]
                if h != h:
                    continue
                if not (axis or _square_meets_convex(pts, a, b, x0 + (c + 0.5) * cs, qz, half)):
                    continue
                if ylo < h + height and yhi > h + climb + 1e-6:
                    blocked[r, c] = True
                    count += 1
                else:
                    missed += 1
    return count, missed


@nb.njit(cache=True)
def _convex_distance(pts, a, b, qx, qz):  # type: ignore[no-untyped-def]
    """Euclidean distance (m) from (qx, qz) to the convex ring ``pts[a:b]`` (0 inside)."""
    best = 1e300
    pos = 0
    neg = 0
    for i in range(a, b):
        j = i + 1 if i + 1 < b else a
        ex, ez = pts[j, 0] - pts[i, 0], pts[j, 1] - pts[i, 1]
        wx, wz = qx - pts[i, 0], qz - pts[i, 1]
        cr = ex * wz - ez * wx
        if cr > 0:
            pos += 1
        elif cr < 0:
            neg += 1
        ee = ex * ex + ez * ez
        t = 0.0 if ee < 1e-24 else min(1.0, max(0.0, (wx * ex + wz * ez) / ee))
        dx, dz = wx - t * ex, wz - t * ez
        best = min(best, dx * dx + dz * dz)
    if pos == 0 or neg == 0:
        return 0.0
    return np.sqrt(best)


@nb.njit(cache=True)
def _row_span(pts, a, b, zc):  # type: ignore[no-untyped-def]
    """X interval where the line z = zc crosses the convex ring ``pts[a:b]`` (empty: lo > hi)."""
    lo, hi = 1e300, -1e300
    for i in range(a, b):
        j = i + 1 if i + 1 < b else a
        za, zb = pts[i, 1], pts[j, 1]
        if (za > zc) != (zb > zc):
            x = pts[i, 0] + (zc - za) / (zb - za) * (pts[j, 0] - pts[i, 0])
            lo, hi = min(lo, x), max(hi, x)
    return lo, hi


@nb.njit(cache=True)
def obstacle_distance(D, H, pts, starts, ylo, yhi, climb, height, reach, x0, z0, cs):  # type: ignore[no-untyped-def]
    """Lower ``D`` (m) to the exact distance from each cell centre to the convex rings, for the
    cells whose centre lies within ``reach`` of the rings' bounding box and whose headroom
    column (H+climb, H+height) meets [ylo, yhi]; centres inside a ring are skipped (the
    caller blocks those cells)."""
    nrows, ncols = D.shape
    for k in range(len(starts) - 1):
        a, b = starts[k], starts[k + 1]
        if b - a < 3:
            continue
        c0 = max(0, int(np.floor((pts[a:b, 0].min() - reach - x0) / cs)))
        c1 = min(ncols - 1, int(np.ceil((pts[a:b, 0].max() + reach - x0) / cs)))
        r0 = max(0, int(np.floor((pts[a:b, 1].min() - reach - z0) / cs)))
        r1 = min(nrows - 1, int(np.ceil((pts[a:b, 1].max() + reach - z0) / cs)))
        for r in range(r0, r1 + 1):
            qz = z0 + (r + 0.5) * cs
            lo, hi = _row_span(pts, a, b, qz)
            for c in range(c0, c1 + 1):
                qx = x0 + (c + 0.5) * cs
                if lo < qx < hi:
                    continue
                h = H[r, c]
                if not (h == h and ylo < h + height and yhi > h + climb + 1e-6):
                    continue
                d = _convex_distance(pts, a, b, qx, qz)
                if d < D[r, c]:
                    D[r, c] = d


@nb.njit(cache=True)
def _tri_window(ax, az, bx, bz, cx, cz, x0, z0, cs, nrows, ncols):  # type: ignore[no-untyped-def]
    """Twice the signed XZ area of a triangle and the rows/cols whose cell centres its bounding
    box covers: ``(det, r0, r1, k0, k1)`` (empty ranges when outside the grid)."""
    det = (bx - ax) * (cz - az) - (cx - ax) * (bz - az)
    r0 = max(0, int(np.ceil((min(az, bz, cz) - z0) / cs - 0.5)))
    r1 = min(nrows - 1, int(np.floor((max(az, bz, cz) - z0) / cs - 0.5)))
    k0 = max(0, int(np.ceil((min(ax, bx, cx) - x0) / cs - 0.5)))
    k1 = min(ncols - 1, int(np.floor((max(ax, bx, cx) - x0) / cs - 0.5)))
    return det, r0, r1, k0, k1


@nb.njit(cache=True)
def _bary(px, pz, ax, az, bx, bz, cx, cz, det):  # type: ignore[no-untyped-def]
    """Barycentric weights (u of b, v of c) of XZ point p in triangle abc."""
    u = ((px - ax) * (cz - az) - (cx - ax) * (pz - az)) / det
    v = ((bx - ax) * (pz - az) - (px - ax) * (bz - az)) / det
    return u, v


@nb.njit(cache=True)
def mesh_top(H, bad, V, F, use, lo, hi, x0, z0, cs):  # type: ignore[no-untyped-def]
    """Rasterise walkable triangles (``use[i]``) into ``H`` with their plane height at cell centres."""
    nrows, ncols = H.shape
    for t in range(len(F)):
        if not use[t]:
            continue
        ax, ay, az = V[F[t, 0], 0], V[F[t, 0], 1], V[F[t, 0], 2]
        bx, by, bz = V[F[t, 1], 0], V[F[t, 1], 1], V[F[t, 1], 2]
        cx, cy, cz = V[F[t, 2], 0], V[F[t, 2], 1], V[F[t, 2], 2]
        det, r0, r1, k0, k1 = _tri_window(ax, az, bx, bz, cx, cz, x0, z0, cs, nrows, ncols)
        if abs(det) < 1e-12:
            continue
        for r in range(r0, r1 + 1):
            pz = z0 + (r + 0.5) * cs
            for c in range(k0, k1 + 1):
                u, v = _bary(x0 + (c + 0.5) * cs, pz, ax, az, bx, bz, cx, cz, det)
                if u < -1e-9 or v < -1e-9 or u + v > 1 + 1e-9:
                    continue
                y = ay + u * (by - ay) + v * (cy - ay)
                if y < lo or y > hi:
                    continue
                if not (H[r, c] >= y):
                    H[r, c] = y
                    bad[r, c] = False


@nb.njit(cache=True)
def _block_cell(blocked, H, r, c, ylo, yhi, climb, height):  # type: ignore[no-untyped-def]
    h = H[r, c]
    if h == h and ylo < h + height and yhi > h + climb + 1e-6:
        blocked[r, c] = True


@nb.njit(cache=True)
def mesh_block(blocked, H, V, F, use, climb, height, x0, z0, cs):  # type: ignore[no-untyped-def]
    """Block cells touched by obstacle triangles (``use[i]``): centre inside or an edge passing."""
    nrows, ncols = H.shape
    for t in range(len(F)):
        if not use[t]:
            continue
        ylo = min(V[F[t, 0], 1], V[F[t, 1], 1], V[F[t, 2], 1])
        yhi = max(V[F[t, 0], 1], V[F[t, 1], 1], V[F[t, 2], 1])
        # edges: sample every quarter cell (conservative for vertical wall triangles)
        for e in range(3):
            i, j = F[t, e], F[t, (e + 1) % 3]
            dx, dz = V[j, 0] - V[i, 0], V[j, 2] - V[i, 2]
            n = int(np.sqrt(dx * dx + dz * dz) / (0.25 * cs)) + 1
            for s in range(n + 1):
                px = V[i, 0] + dx * s / n
                pz = V[i, 2] + dz * s / n
                c = int(np.floor((px - x0) / cs))
                r = int(np.floor((pz - z0) / cs))
                if 0 <= r < nrows and 0 <= c < ncols:
                    _block_cell(blocked, H, r, c, ylo, yhi, climb, height)
        ax, az = V[F[t, 0], 0], V[F[t, 0], 2]
        bx, bz = V[F[t, 1], 0], V[F[t, 1], 2]
        cx, cz = V[F[t, 2], 0], V[F[t, 2], 2]
        det, r0, r1, k0, k1 = _tri_window(ax, az, bx, bz, cx, cz, x0, z0, cs, nrows, ncols)
        if abs(det) < 1e-12:
            continue
        for r in range(r0, r1 + 1):
            pz = z0 + (r + 0.5) * cs
            for c in range(k0, k1 + 1):
                u, v = _bary(x0 + (c + 0.5) * cs, pz, ax, az, bx, bz, cx, cz, det)
                if u >= 0 and v >= 0 and u + v <= 1:
                    _block_cell(blocked, H, r, c, ylo, yhi, climb, height)


@nb.njit(cache=True)
def ledge_mask(H, walk, climb):  # type: ignore[no-untyped-def]
    """Cells next to a 4-neighbour whose surface differs by more than ``climb`` (both sides)."""
    nrows, ncols = H.shape
    out = np.zeros((nrows, ncols), np.bool_)
    for r in range(nrows):
        for c in range(ncols):
            if not walk[r, c]:
                continue
            h = H[r, c]
            if c + 1 < ncols and walk[r, c + 1] and abs(H[r, c + 1] - h) > climb + 1e-6:
                out[r, c] = True
                out[r, c + 1] = True
            if r + 1 < nrows and walk[r + 1, c] and abs(H[r + 1, c] - h) > climb + 1e-6:
                out[r, c] = True
                out[r + 1, c] = True
    return out
