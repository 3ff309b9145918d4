"""Numba kernels: clearance sampling, line of sight, reduced visibility graph and lazy A*.

All coordinates are XZ metres in the Habitat frame; the clearance grid ``C`` follows the
grid convention of :mod:`navbench.nav.raster` (``C[row, col]``, row along +Z, col along +X)
and holds, per cell centre, the distance (m) to the nearest non-walkable cell boundary.

Line of sight: a segment is free when the bilinear clearance stays ``>= thr`` along it,
checked by sphere tracing (the field is Lipschitz with constant ``√2``), so open streets
cost a few steps and segments hugging walls step half a cell at a time.

Graph nodes are the reflex vertices of the boundary polygons (free space on the left of
each ring). Two nodes are joined when the segment is free and tangent at both ends
(bitangent). Queries run A* with a Euclidean heuristic; the edges from the start and to
the goals are added lazily and checked for line of sight only when popped.
"""

from __future__ import annotations

import heapq
import math

import numba as nb
import numpy as np

_LIP = 1.4143  # Lipschitz bound of bilinear interpolation of a 1-Lipschitz grid


@nb.njit(cache=True)
def bilinear(C, x0, z0, cs, x, z):  # type: ignore[no-untyped-def]
    """Bilinear sample of ``C`` at (x, z); ``-cs/2`` outside the grid."""
    nr, nc = C.shape
    u = (x - x0) / cs - 0.5
    v = (z - z0) / cs - 0.5
    if u < 0.0 or v < 0.0 or u > nc - 1 or v > nr - 1:
        return -0.5 * cs
    c0 = min(int(u), nc - 2)
    r0 = min(int(v), nr - 2)
    fu = u - c0
    fv = v - r0
    a = C[r0, c0] * (1 - fu) + C[r0, c0 + 1] * fu
    b = C[r0 + 1, c0] * (1 - fu) + C[r0 + 1, c0 + 1] * fu
    return a * (1 - fv) + b * fv


@nb.njit(cache=True)
def line_of_sight(C, x0, z0, cs, ax, az, bx, bz, thr):  # type: ignore[no-untyped-def]
    """True when the clearance along segment a→b stays ``>= thr`` (sphere tracing)."""
    dx, dz = bx - ax, bz - az
    length = math.sqrt(dx * dx + dz * dz)
    if length < 1e-12:
        return bilinear(C, x0, z0, cs, ax, az) >= thr
    ux, uz = dx / length, dz / length
    hmin = 0.5 * cs
    t = 0.0
    while True:
        v = bilinear(C, x0, z0, cs, ax + ux * t, az + uz * t) - thr
        if v < 0.0:
            return False
        if t >= length:
            return True
        t = min(length, t + max(v / _LIP, hmin))


@nb.njit(cache=True)
def point_info(H, C, lab, ylo, yhi, x0, z0, cs, radius, max_dy, x, y, z):  # type: ignore[no-untyped-def]
    """(layer, row, col, island) of point (x, y, z) on layers stacked as (L, R, C) arrays.

    The layer is the one whose surface is vertically nearest (``-1``: outside every grid);
    the island is ``-1`` unless the surface is within ``max_dy`` of ``y`` and the clearance
    there is at least ``radius``, then the label of the cell or of its nearest labelled
    8-neighbour (order: same cell, then rows/cols 0, -1, +1)."""
    best, br, bc = -1, 0, 0
    best_d = np.inf
    nr, nc = H.shape[1], H.shape[2]
    r = int((z - z0) // cs)  # floor division as in Python (NavMesh._locate)
    c = int((x - x0) // cs)
    if not (0 <= r < nr and 0 <= c < nc):
        return -1, 0, 0, -1
    for li in range(H.shape[0]):
        h = H[li, r, c]
        d = abs(y - h) if h == h else abs(y - min(max(y, ylo[li]), yhi[li])) + max_dy
        if d < best_d:
            best, br, bc, best_d = li, r, c, d
    h = H[best, br, bc]
    if not (h == h and abs(y - h) <= max_dy):
        return best, br, bc, -1
    if not bilinear(C[best], x0, z0, cs, x, z) >= radius - 1e-6:
        return best, br, bc, -1
    isl = -1
    bd = 99
    for dr in (0, -1, 1):
        for dc in (0, -1, 1):
            rr, cc = br + dr, bc + dc
            if 0 <= rr < nr and 0 <= cc < nc and lab[best, rr, cc] >= 0:
                d2 = dr * dr + dc * dc
                if d2 < bd:
                    isl, bd = lab[best, rr, cc], d2
    return best, br, bc, isl


#: Cells per edge of a coarse tile of :func:`blocked_tiles`.
TILE = 8


def blocked_tiles(C: np.ndarray, thr: float, k: int = TILE) -> np.ndarray:
    """Coarse (ceil(R/k), ceil(C/k)) mask of tiles of k x k cells where the bilinear clearance
    is ``< thr`` at *every* point: the largest value over the tile's cell centres and their
    one-cell ring (all that bilinear sampling inside the tile reads) is below ``thr``."""
    nr, nc = C.shape
    tr, tc = -(-nr // k), -(-nc // k)
    P = np.full((tr * k + 2, tc * k + 2), np.inf, np.float32)
    P[1:nr + 1, 1:nc + 1] = C
    P[1:nr + 1, 0] = C[:, 0]
    P[1:nr + 1, nc + 1:] = C[:, -1:]
    P[0, :] = P[1, :]
    P[nr + 1:, :] = P[nr:nr + 1, :]
    # max over rows [i*k - 1, i*k + k] (padded index +1) and the same for columns
    inner = P[1:tr * k + 1, 1:tc * k + 1].reshape(tr, k, tc, k).max(axis=(1, 3))
    lo_r = P[0:tr * k:k, 1:tc * k + 1].reshape(tr, tc, k).max(axis=2)
    hi_r = P[k + 1:tr * k + 2:k, 1:tc * k + 1].reshape(tr, tc, k).max(axis=2)
    lo_c = P[1:tr * k + 1, 0:tc * k:k].reshape(tr, k, tc).max(axis=1)
    hi_c = P[1:tr * k + 1, k + 1:tc * k + 2:k].reshape(tr, k, tc).max(axis=1)
    corners = np.maximum.reduce([P[0:tr * k:k, 0:tc * k:k], P[0:tr * k:k, k + 1:tc * k + 2:k],
                                 P[k + 1:tr * k + 2:k, 0:tc * k:k],
                                 P[k + 1:tr * k + 2:k, k + 1:tc * k + 2:k]])
    m = np.maximum.reduce([inner, lo_r, hi_r, lo_c, hi_c, corners])
    return np.ascontiguousarray(m < thr)


@nb.njit(cache=True)
def dda_start(u0, v0, du, dv):  # type: ignore[no-untyped-def]
    """Start of a grid walk (Amanatides–Woo) from ``(u0, v0)`` along ``(du, dv)``, in tile
    units: the first tile ``(i, j)``, the steps ``(si, sj)``, the ray parameter per tile
    ``(tdu, tdv)`` and to the first tile boundary ``(tu, tv)`` (``inf`` along a zero axis)."""
    i, j = int(np.floor(u0)), int(np.floor(v0))
    si = 1 if du > 0 else -1
    sj = 1 if dv > 0 else -1
    tdu = abs(1.0 / du) if du != 0 else np.inf
    tdv = abs(1.0 / dv) if dv != 0 else np.inf
    tu = ((i + 1 - u0) if du > 0 else (u0 - i)) * tdu if du != 0 else np.inf
    tv = ((j + 1 - v0) if dv > 0 else (v0 - j)) * tdv if dv != 0 else np.inf
    return i, j, si, sj, tdu, tdv, tu, tv


@nb.njit(cache=True)
def crosses_blocked(B, k, x0, z0, cs, ax, az, bx, bz):  # type: ignore[no-untyped-def]
    """True when segment a→b passes through a tile of ``B`` (see :func:`blocked_tiles`):
    then it is certainly not free (grid traversal, Amanatides–Woo)."""
    ts = k * cs
    u0, v0 = (ax - x0) / ts, (az - z0) / ts
    u1, v1 = (bx - x0) / ts, (bz - z0) / ts
    nr, nc = B.shape
    i1, j1 = int(np.floor(u1)), int(np.floor(v1))
    i, j, si, sj, tdu, tdv, tu, tv = dda_start(u0, v0, u1 - u0, v1 - v0)
    n = abs(i1 - i) + abs(j1 - j)
    for _ in range(n + 1):
        if 0 <= j < nr and 0 <= i < nc and B[j, i]:
            return True
        if tu < tv:
            i += si
            tu += tdu
        else:
            j += sj
            tv += tdv
    return False


@nb.njit(cache=True)
def _tangent(pos, prv, nxt, i, qx, qz):  # type: ignore[no-untyped-def]
    """Is the line from node ``i`` towards q tangent to the boundary at ``i``?"""
    vx, vz = pos[i, 0], pos[i, 1]
    dx, dz = qx - vx, qz - vz
    s1 = dx * (prv[i, 1] - vz) - dz * (prv[i, 0] - vx)
    s2 = dx * (nxt[i, 1] - vz) - dz * (nxt[i, 0] - vx)
    return s1 * s2 >= -1e-12


@nb.njit(cache=True)
def build_edges(pos, prv, nxt, isl, C, x0, z0, cs, thr):  # type: ignore[no-untyped-def]
    """Bitangent, mutually visible node pairs ``(i, j)`` (i < j) of the same island."""
    n = len(pos)
    cap = max(16, 8 * n)
    out = np.empty((cap, 2), np.int64)
    m = 0
    for i in range(n):
        for j in range(i + 1, n):
            if isl[i] != isl[j]:
                continue
            if not _tangent(pos, prv, nxt, i, pos[j, 0], pos[j, 1]):
                continue
            if not _tangent(pos, prv, nxt, j, pos[i, 0], pos[i, 1]):
                continue
            if not line_of_sight(C, x0, z0, cs, pos[i, 0], pos[i, 1], pos[j, 0], pos[j, 1], thr):
                continue
            if m == cap:
                bigger = np.empty((2 * cap, 2), np.int64)
                bigger[:m] = out[:m]
                out = bigger
                cap *= 2
            out[m, 0] = i
            out[m, 1] = j
            m += 1
    return out[:m]


@nb.njit(cache=True)
def _h(x, z, goals):  # type: ignore[no-untyped-def]
    best = np.inf
    for k in range(len(goals)):
        d = math.hypot(goals[k, 0] - x, goals[k, 1] - z)
        if d < best:
            best = d
    return best


@nb.njit(cache=True)
def trace(parent, found, start, n):  # type: ignore[no-untyped-def]
    """Search nodes from ``start`` to ``found`` along ``parent`` links, as the searches
    return them: -1 for the start, a corner id, ``-2 - q`` for goal ``q`` (node ``n + 1 + q``)."""
    count = 0
    cur = found
    while cur != -1:
        count += 1
        cur = parent[cur] if cur != start else -1
    nodes = np.empty(count, np.int64)
    cur = found
    for i in range(count - 1, -1, -1):
        if cur == start:
            nodes[i] = -1
        elif cur > n:
            nodes[i] = -2 - (cur - n - 1)
        else:
            nodes[i] = cur
        cur = parent[cur] if cur != start else -1
    return nodes


@nb.njit(cache=True)
def astar(pos, prv, nxt, isl, indptr, indices, weights, C, x0, z0, cs, thr,  # type: ignore[no-untyped-def]
          sx, sz, island, goals, B, k):
    """Shortest free polyline from s to the nearest of ``goals`` (K, 2).

    ``B`` is the :func:`blocked_tiles` mask (tile edge ``k`` cells) of ``C`` and ``thr``: lazy
    start and goal edges that cross a blocked tile are never pushed (they are not free).

    Returns ``(length, goal_index, nodes)``: ``nodes`` lists the path from start to goal,
    with ``-1`` for the start, ``-2 - k`` for goal ``k`` and node ids in between.
    ``length`` is ``inf`` (goal ``-1``) when no goal is reachable.
    """
    n = len(pos)
    k_goals = len(goals)
    total = n + 1 + k_goals
    start = n
    closed = np.zeros(total, np.bool_)
    parent = np.full(total, -1, np.int64)
    best = np.full(n, np.inf)  # smallest g of a pushed graph-edge (verified) entry per corner
    px = np.empty(total)
    pz = np.empty(total)
    px[:n] = pos[:, 0]
    pz[:n] = pos[:, 1]
    px[start], pz[start] = sx, sz
    for q in range(k_goals):
        px[n + 1 + q], pz[n + 1 + q] = goals[q, 0], goals[q, 1]
    heap = [(0.0, 0.0, 0, 0, 0)]
    heap.pop()
    for q in range(k_goals):
        if crosses_blocked(B, k, x0, z0, cs, sx, sz, goals[q, 0], goals[q, 1]):
            continue
        d = math.hypot(goals[q, 0] - sx, goals[q, 1] - sz)
        heapq.heappush(heap, (d, d, n + 1 + q, start, 0))
    for i in range(n):
        if isl[i] != island or not _tangent(pos, prv, nxt, i, sx, sz):
            continue
        if crosses_blocked(B, k, x0, z0, cs, sx, sz, pos[i, 0], pos[i, 1]):
            continue
        g = math.hypot(pos[i, 0] - sx, pos[i, 1] - sz)
        heapq.heappush(heap, (g + _h(pos[i, 0], pos[i, 1], goals), g, i, start, 0))
    closed[start] = True
    found = -1
    length = np.inf
    while len(heap) > 0:
        _f, g, node, par, verified = heapq.heappop(heap)
        if closed[node]:
            continue
        if verified == 0 and not line_of_sight(C, x0, z0, cs, px[par], pz[par], px[node],
                                               pz[node], thr):
            continue
        closed[node] = True
        parent[node] = par
        if node > n:
            found = node
            length = g
            break
        ux, uz = px[node], pz[node]
        for e in range(indptr[node], indptr[node + 1]):
            w = indices[e]
            if not closed[w]:
                g2 = g + weights[e]
                if g2 > best[w]:  # pops after a verified entry for w, then discarded
                    continue
                best[w] = g2
                heapq.heappush(heap, (g2 + _h(px[w], pz[w], goals), g2, w, node, 1))
        for q in range(k_goals):
            gi = n + 1 + q
            if closed[gi] or not _tangent(pos, prv, nxt, node, goals[q, 0], goals[q, 1]):
                continue
            if crosses_blocked(B, k, x0, z0, cs, ux, uz, goals[q, 0], goals[q, 1]):
                continue
            g2 = g + math.hypot(goals[q, 0] - ux, goals[q, 1] - uz)
            heapq.heappush(heap, (g2, g2, gi, node, 0))
    if found < 0:
        return np.inf, -1, np.empty(0, np.int64)
    return length, found - n - 1, trace(parent, found, start, n)
