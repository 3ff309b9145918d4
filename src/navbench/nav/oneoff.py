"""A* for one-off geodesic queries over a layer's precomputation (:mod:`navbench.nav.prep`).

The same graph as :func:`navbench.nav.visibility.astar` (bitangent corner edges, start and
goal edges that are tangent at the corner, miss every blocked tile and are checked for line
of sight when popped), with two changes that leave the shortest length unchanged:

* start and goal edges are looked for only among the corners of the point's bucket list (a
  proven superset of the corners the full scan would accept), so the same edges are found;
  their blocked-tile walk and line of sight are both checked when the entry is popped, so
  an edge is used exactly when the full scan would use it;
* the heuristic is the larger of the Euclidean distance to the nearest goal and the
  landmark (ALT) bounds. With ``S`` the corners that the search may join to a goal and
  ``d(l, .)`` graph distances from landmark ``l``, every path from corner v to a goal is at
  least ``min_S(d(l, c) + |c g|) - d(l, v)`` and ``d(l, v) - max_S(d(l, c) - |c g|)``
  (triangle inequality in the graph), so the heuristic is admissible and consistent and A*
  returns a shortest path (ties may be broken differently). The ``n_active`` landmarks used
  are those whose distances to the corners nearest the start and the goal differ most. It is
  evaluated lazily: an entry is pushed with the Euclidean key (a lower bound of the full
  one) until its corner's heuristic is known and gets the full key when it pops, so only
  ~150 of ~1,100 corners touched per query (500 m city) read their landmark row.

:func:`find_one` does a whole query (snapping, search, polyline) in one numba call; per-layer
scratch rows (:class:`Scratch`) are stamped per query instead of allocated.

Coordinates are XZ metres (Habitat frame), lengths metres.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass

import numba as nb
import numpy as np

from navbench.nav.visibility import crosses_blocked, line_of_sight, point_info, trace

_EPS = 1e-7  # m taken off the landmark bounds: Dijkstra's rounding never makes them inadmissible
_UP = 1.0 + 2.0 ** -22  # x * _UP >= the next float32 above x >= 0 (one float32 ulp <= x * 2**-23)
#: Landmarks used per query: those whose distances to the corners nearest the start and the
#: goal differ most.
ACTIVE = 16


@nb.njit(cache=True)
def _bucket(ptr, cols, m, B, k, x0, z0, cs, x, z):  # type: ignore[no-untyped-def]
    """(first, last) slice of the bucket list of point (x, z); ``(-1, -1)`` when the point's
    tile is outside the grid or blocked (then every corner is a candidate)."""
    ts = k * cs
    i, j = int(np.floor((x - x0) / ts)), int(np.floor((z - z0) / ts))
    if not (0 <= j < B.shape[0] and 0 <= i < B.shape[1]) or B[j, i]:
        return -1, -1
    b = (j // m) * cols + i // m
    return ptr[b], ptr[b + 1]


def packed(pos: np.ndarray, prv: np.ndarray, nxt: np.ndarray, island: np.ndarray,
           y: np.ndarray) -> np.ndarray:
    """(V, 8) corner table, one 64-byte row per corner: x, z, previous and next ring vertex
    (x, z), island, height y (m, Habitat frame)."""
    return np.ascontiguousarray(np.column_stack([pos, prv, nxt, island, y]), dtype=np.float64)


def rounded_down(a: np.ndarray) -> np.ndarray:
    """``a`` (float64 distances in m, >= 0 and < 1e30, or inf) as float32 rounded towards zero:
    each value <= the original, and the original <= value * (1 + 2**-22) in float64."""
    b = a.astype(np.float32)
    up = b.astype(np.float64) > a
    b[up] = np.nextafter(b[up], np.float32(0))
    return b


@dataclass
class Scratch:
    """Per-layer state of :func:`find_one`: the packed corners (:func:`packed`), the landmark
    table rounded down to float32 (:func:`rounded_down`) and the scratch rows ``IS`` (V, 4), ``FS`` (V, 2) with the last stamp used in ``gen`` (1,).
    Numba holds the GIL in these kernels, so queries from several threads never share it
    at once."""

    geo: np.ndarray
    lmd: np.ndarray  # the table lmd32 was made from (a new table needs a new Scratch)
    lmd32: np.ndarray
    IS: np.ndarray
    FS: np.ndarray
    gen: np.ndarray

    @classmethod
    def of(cls, pos: np.ndarray, prv: np.ndarray, nxt: np.ndarray, island: np.ndarray,
           y: np.ndarray, lmd: np.ndarray) -> Scratch:
        """Fresh state for a layer's corners and landmark table (all stamps 0: nothing valid)."""
        n = len(pos)
        return cls(packed(pos, prv, nxt, island, y), lmd, rounded_down(lmd),
                   np.zeros((n, 4), np.int64), np.zeros((n, 2)), np.zeros(1, np.int64))

    def next_gen(self) -> int:
        """A stamp no earlier query used."""
        self.gen[0] += 1
        return int(self.gen[0])


@nb.njit(cache=True)
def _dist(ax, az, bx, bz):  # type: ignore[no-untyped-def]
    """Euclidean distance (m); ``sqrt`` of the sum of squares (libm's ``hypot`` is slower)."""
    dx, dz = bx - ax, bz - az
    return math.sqrt(dx * dx + dz * dz)


@nb.njit(cache=True)
def _near(x, z, goals):  # type: ignore[no-untyped-def]
    """Euclidean distance (m) from (x, z) to the nearest of ``goals`` (K, 2)."""
    best = np.inf
    for q in range(len(goals)):
        d = _dist(x, z, goals[q, 0], goals[q, 1])
        if d < best:
            best = d
    return best


@nb.njit(cache=True)
def _tan(geo, i, qx, qz):  # type: ignore[no-untyped-def]
    """:func:`navbench.nav.visibility._tangent` on the packed corner table ``geo`` (same sums)."""
    vx, vz = geo[i, 0], geo[i, 1]
    dx, dz = qx - vx, qz - vz
    s1 = dx * (geo[i, 3] - vz) - dz * (geo[i, 2] - vx)
    s2 = dx * (geo[i, 5] - vz) - dz * (geo[i, 4] - vx)
    return s1 * s2 >= -1e-12


@nb.njit(cache=True)
def _heur(geo, v, goals, lmd, act, lo, hi):  # type: ignore[no-untyped-def]
    """Heuristic of corner v: the larger of the Euclidean distance to the nearest goal and the
    landmark bounds of the landmarks ``act`` (module docstring)."""
    h = _near(geo[v, 0], geo[v, 1], goals)
    best = -np.inf
    for col in act:
        d = lmd[v, col]
        if d == np.inf:
            continue
        if lo[col] < np.inf:
            best = max(best, lo[col] - d)
        if hi[col] > -np.inf:
            best = max(best, d - hi[col])
    if best - _EPS > h:
        h = best - _EPS
    return h


@nb.njit(cache=True)
def astar_lists(geo, indptr, indices, weights, C, x0, z0, cs, thr, sx, sz, island, goals,  # type: ignore[no-untyped-def]
                B, k, m, cols, ptr, corners, lmd, lmd32, n_active, IS, FS, gen):
    """:func:`navbench.nav.visibility.astar` with the bucket lists ``(ptr, corners)`` (buckets
    of ``m x m`` tiles, ``cols`` per row) and landmark distances ``lmd`` (V, K), and the same
    return value ``(length, goal_index, nodes)``; ``lmd32``: ``lmd`` rounded down to float32
    (:func:`rounded_down`), read for the per-query constants of the bounds only (a looser
    constant keeps the heuristic admissible and consistent; per-corner distances stay exact).

    Corners are the packed table ``geo`` (:func:`packed`); ``IS`` (V, 4) int64 and ``FS`` (V, 2)
    are scratch kept between queries (:class:`Scratch`): a row is valid for this query only
    where its stamp equals ``gen`` (a number no earlier query on them used), so nothing of
    size V is allocated or cleared per query. ``IS[v]``: stamp of ``FS[v]``, closed stamp, goal
    stamp, first goal entry; ``FS[v]``: smallest pushed g, heuristic (``-1``: not computed).

    The heuristic is evaluated lazily: an entry is pushed with the Euclidean key (a lower
    bound of the landmark one) unless the corner's heuristic is known, and re-pushed with
    the full key when it pops and the full key is larger than the heap's next one, so a
    corner is closed only at its full key, as with the full key everywhere."""
    n = len(geo)
    k_goals = len(goals)
    total = n + 1 + k_goals
    start = n
    n_l = lmd.shape[1]
    # goal side: the corners the search may join to each goal (``S``: tangent, in the bucket
    # list; the blocked-tile walk and line of sight are checked when a goal entry pops), as
    # per-corner chains ``IS[c, 3] -> s_nx`` of entries (goal ``s_q``, length ``s_e``)
    n_s = 0
    for q in range(k_goals):
        a, b = _bucket(ptr, cols, m, B, k, x0, z0, cs, goals[q, 0], goals[q, 1])
        n_s += n if a < 0 else b - a
    s_c = np.empty(n_s, np.int64)
    s_e = np.empty(n_s)
    s_q = np.empty(n_s, np.int64)
    s_nx = np.empty(n_s, np.int64)
    n_s = 0
    c_g, e_g = -1, np.inf  # the corner of S nearest to a goal
    for q in range(k_goals):
        gx, gz = goals[q, 0], goals[q, 1]
        a, b = _bucket(ptr, cols, m, B, k, x0, z0, cs, gx, gz)
        full = a < 0
        for t in range(n if full else b - a):
            c = t if full else int(corners[a + t])
            if geo[c, 6] != island or not _tan(geo, c, gx, gz):
                continue
            e = _dist(geo[c, 0], geo[c, 1], gx, gz)
            s_c[n_s], s_e[n_s], s_q[n_s] = c, e, q
            s_nx[n_s] = IS[c, 3] if IS[c, 2] == gen else -1
            IS[c, 2], IS[c, 3] = gen, n_s
            n_s += 1
            if e < e_g:
                c_g, e_g = c, e
    # start side: the candidate corners (tangent, in the bucket list; checked when popped)
    a, b = _bucket(ptr, cols, m, B, k, x0, z0, cs, sx, sz)
    full = a < 0
    cand = np.empty(n if full else b - a, np.int64)
    n_c = 0
    c_s, e_s = -1, np.inf
    for t in range(len(cand)):
        i = t if full else int(corners[a + t])
        if geo[i, 6] == island and _tan(geo, i, sx, sz):
            cand[n_c] = i
            n_c += 1
            e = _dist(sx, sz, geo[i, 0], geo[i, 1])
            if e < e_s:
                c_s, e_s = i, e
    # active landmarks: the largest |d(l, c_g) - d(l, c_s)| (any subset keeps the bounds valid)
    score = np.zeros(n_l)
    if c_g >= 0 and c_s >= 0:
        for col in range(n_l):
            dg, ds = lmd[c_g, col], lmd[c_s, col]
            if dg < np.inf and ds < np.inf:
                score[col] = abs(dg - ds)
    order = np.argsort(-score, kind="mergesort")
    act = order[:min(n_active, n_l)].copy()
    lo = np.full(n_l, np.inf)
    hi = np.full(n_l, -np.inf)
    for t in range(n_s):  # from the float32 table (half the memory read): d32 <= d <= d32 * _UP
        c, e = s_c[t], s_e[t]
        for col in act:
            d = np.float64(lmd32[c, col])
            if d < np.inf:
                lo[col] = min(lo[col], d + e)
                hi[col] = max(hi[col], d * _UP - e)
    xclosed = np.zeros(k_goals + 1, np.bool_)  # the start and the goals, ids n .. n + k_goals
    parent = np.empty(total, np.int64)  # read only where closed
    ex = np.empty((k_goals + 1, 2))
    ex[0, 0], ex[0, 1] = sx, sz
    ex[1:] = goals
    heap = [(0.0, 0.0, 0, 0, 0)]  # (key, g, node, parent, flags: 1 verified, 2 full key)
    heap.pop()
    for q in range(k_goals):
        if crosses_blocked(B, k, x0, z0, cs, sx, sz, goals[q, 0], goals[q, 1]):
            continue
        d = _dist(sx, sz, goals[q, 0], goals[q, 1])
        heap.append((d, d, n + 1 + q, start, 2))
    for t in range(n_c):
        i = int(cand[t])
        g = _dist(sx, sz, geo[i, 0], geo[i, 1])
        heap.append((g + _near(geo[i, 0], geo[i, 1], goals), g, i, start, 0))
    heapq.heapify(heap)
    xclosed[0] = True
    found = -1
    length = np.inf
    while len(heap) > 0:
        f, g, node, par, flag = heapq.heappop(heap)
        if node < n:
            if IS[node, 1] == gen:
                continue
            if flag & 2 == 0:  # Euclidean key: evaluate the heuristic
                if IS[node, 0] != gen:
                    IS[node, 0] = gen
                    FS[node, 0], FS[node, 1] = np.inf, -1.0
                h = FS[node, 1]
                if h < 0.0:
                    h = _heur(geo, node, goals, lmd, act, lo, hi)
                    FS[node, 1] = h
                f = g + h
                if f == np.inf:
                    continue
                if len(heap) > 0 and f > heap[0][0]:
                    heapq.heappush(heap, (f, g, node, par, flag | 2))
                    continue
        elif xclosed[node - n]:
            continue
        if flag & 1 == 0:
            ax, az = (geo[par, 0], geo[par, 1]) if par < n else (ex[par - n, 0], ex[par - n, 1])
            bx, bz = (geo[node, 0], geo[node, 1]) if node < n else (ex[node - n, 0], ex[node - n, 1])
            if (crosses_blocked(B, k, x0, z0, cs, ax, az, bx, bz)
                    or not line_of_sight(C, x0, z0, cs, ax, az, bx, bz, thr)):
                continue
        parent[node] = par
        if node > n:
            found = node
            length = g
            break
        IS[node, 1] = gen
        for e in range(indptr[node], indptr[node + 1]):
            w = indices[e]
            if IS[w, 1] == gen:
                continue
            if IS[w, 0] != gen:
                IS[w, 0] = gen
                FS[w, 0], FS[w, 1] = np.inf, -1.0
            g2 = g + weights[e]
            if g2 > FS[w, 0]:  # pops after a verified entry for w, then discarded
                continue
            FS[w, 0] = g2
            h = FS[w, 1]
            if h >= 0.0:
                if h < np.inf:
                    heapq.heappush(heap, (g2 + h, g2, w, node, 3))
            else:
                heapq.heappush(heap, (g2 + _near(geo[w, 0], geo[w, 1], goals), g2, w, node, 1))
        if IS[node, 2] == gen:
            t = IS[node, 3]
            while t >= 0:
                q = s_q[t]
                if not xclosed[1 + q]:
                    g2 = g + s_e[t]
                    heapq.heappush(heap, (g2, g2, n + 1 + q, node, 2))
                t = s_nx[t]
    if found < 0:
        return np.inf, -1, np.empty(0, np.int64)
    return length, found - n - 1, trace(parent, found, start, n)


@nb.njit(cache=True)
def assemble(nodes, pos, y, sa, sg):  # type: ignore[no-untyped-def]
    """Polyline (N, 3) of a search result ``nodes`` (start ``sa``, corners (x, z) with
    heights ``y``, goal ``sg``; (x, y, z) m) and its length (m): segment lengths summed in
    order, each ``sqrt(dx² + dy² + dz²)``."""
    P = np.empty((len(nodes), 3))
    P[0] = sa
    for t in range(1, len(nodes) - 1):
        v = nodes[t]
        P[t, 0], P[t, 1], P[t, 2] = pos[v, 0], y[v], pos[v, 1]
    P[len(nodes) - 1] = sg
    d = 0.0
    for t in range(len(nodes) - 1):
        dx, dy, dz = P[t + 1, 0] - P[t, 0], P[t + 1, 1] - P[t, 1], P[t + 1, 2] - P[t, 2]
        d += math.sqrt(dx * dx + dy * dy + dz * dz)
    return P, d


@nb.njit(cache=True)
def find_one(H, CS, lab, ylo, yhi, gx0, gz0, gcs, radius, max_dy, isl_layer, pl,  # type: ignore[no-untyped-def]
             geo, indptr, indices, weights, C, x0, z0, cs, thr, B, k, m, cols, ptr, corners, lmd,
             lmd32, n_active, IS, FS, gen, a, goals3):
    """One-off query in one call: snapping, :func:`astar_lists` on prepared layer ``pl`` and
    :func:`assemble`, for the common case only — the start and every goal navigable
    (:func:`navbench.nav.visibility.point_info` on the stacked layers ``H, CS, lab, ylo,
    yhi``), all on the start's island, which lies on layer ``pl`` — with the same result as
    :func:`navbench.nav.query.find_path`'s general branches there (the snapped points keep x, z
    and take the surface height). ``IS, FS, gen``: the layer's :class:`Scratch` (``gen`` is
    advanced here). Returns ``(ok, length, goal_index, polyline (N, 3))``; ``ok`` False
    (anything else, or no graph path: grid fallback) leaves the query to those branches."""
    none = np.empty((0, 3))
    li, r, c, ia = point_info(H, CS, lab, ylo, yhi, gx0, gz0, gcs, radius, max_dy, a[0], a[1], a[2])
    if ia < 0:
        return False, np.inf, -1, none
    sa = np.array([a[0], np.float64(H[li, r, c]), a[2]])
    li, r, c, island = point_info(H, CS, lab, ylo, yhi, gx0, gz0, gcs, radius, max_dy, sa[0], sa[1],
                                  sa[2])
    if island < 0 or isl_layer[island] != pl:
        return False, np.inf, -1, none
    k_goals = len(goals3)
    snapped = np.empty((k_goals, 3))
    gxz = np.empty((k_goals, 2))
    for q in range(k_goals):
        li, r, c, ig = point_info(H, CS, lab, ylo, yhi, gx0, gz0, gcs, radius, max_dy, goals3[q, 0],
                                  goals3[q, 1], goals3[q, 2])
        if ig != island:
            return False, np.inf, -1, none
        snapped[q, 0], snapped[q, 1], snapped[q, 2] = goals3[q, 0], np.float64(H[li, r, c]), goals3[q, 2]
        gxz[q, 0], gxz[q, 1] = goals3[q, 0], goals3[q, 2]
    gen[0] += 1
    length, gk, nodes = astar_lists(geo, indptr, indices, weights, C, x0, z0, cs, thr, sa[0], sa[2],
                                    island, gxz, B, k, m, cols, ptr, corners, lmd, lmd32, n_active,
                                    IS, FS, gen[0])
    if not length < np.inf:
        return False, np.inf, -1, none
    P, d = assemble(nodes, geo, geo[:, 7], sa, snapped[-2 - nodes[-1]])
    return True, d, gk, P
