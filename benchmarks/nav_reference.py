"""Reference searches for ``bench_nav.py``, kept only to time them in the same run.

* :func:`astar_before` — the A* of the release before last (tile pre-check at push time,
  every push kept);
* :func:`astar_lists_eager` — the prepared one-off search this session started from (landmark
  heuristic computed at push time, snapping and assembly in separate calls).

Both return ``(length, goal_index, nodes)`` as :func:`navbench.nav.visibility.astar`.
"""

from __future__ import annotations

import heapq
import math

import numba as nb
import numpy as np

from navbench.nav.oneoff import _bucket
from navbench.nav.visibility import _h, _tangent, crosses_blocked, line_of_sight, trace

_EPS = 1e-7  # as navbench.nav.oneoff


@nb.njit(cache=True)
def astar_before(pos, prv, nxt, isl, indptr, indices, weights, C, x0, z0, cs, thr,  # type: ignore[no-untyped-def]
          sx, sz, island, goals, B, k):
    """The A* of the previous release (tile pre-check at push time, every improving and
    non-improving push kept): the benchmark-only reference for query times.

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
    return length, found - n - 1, nodes


@nb.njit(cache=True)
def _hval(hv, v, x, z, goals, lmd, act, lo, hi):  # type: ignore[no-untyped-def]
    """Heuristic of corner v from the landmarks ``act`` (cached in ``hv``; ``-1`` = not
    computed yet)."""
    h = hv[v]
    if h >= 0.0:
        return h
    h = _h(x, z, goals)
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
    hv[v] = h
    return h


@nb.njit(cache=True)
def astar_lists_eager(pos, prv, nxt, isl, indptr, indices, weights, C, x0, z0, cs, thr,  # type: ignore[no-untyped-def]
                sx, sz, island, goals, B, k, m, cols, ptr, corners, lmd, n_active):
    """The prepared search this session started from: :func:`navbench.nav.oneoff.astar_lists`
    with the landmark heuristic evaluated for every pushed entry (start candidates included)
    instead of when an entry pops; same arguments and return value."""
    n = len(pos)
    k_goals = len(goals)
    total = n + 1 + k_goals
    start = n
    n_l = lmd.shape[1]
    # goal side: the corners the search may join to each goal (``S``: tangent, in the bucket
    # list; the blocked-tile walk and line of sight are checked when a goal entry pops)
    n_s = 0
    for q in range(k_goals):
        a, b = _bucket(ptr, cols, m, B, k, x0, z0, cs, goals[q, 0], goals[q, 1])
        n_s += n if a < 0 else b - a
    s_c = np.empty(n_s, np.int64)
    s_e = np.empty(n_s)
    gm = np.zeros((k_goals, n), np.bool_)
    n_s = 0
    c_g, e_g = -1, np.inf  # the corner of S nearest to a goal
    for q in range(k_goals):
        gx, gz = goals[q, 0], goals[q, 1]
        a, b = _bucket(ptr, cols, m, B, k, x0, z0, cs, gx, gz)
        full = a < 0
        for t in range(n if full else b - a):
            c = t if full else int(corners[a + t])
            if isl[c] != island or not _tangent(pos, prv, nxt, c, gx, gz):
                continue
            gm[q, c] = True
            e = math.hypot(gx - pos[c, 0], gz - pos[c, 1])
            s_c[n_s], s_e[n_s] = c, e
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
        if isl[i] == island and _tangent(pos, prv, nxt, i, sx, sz):
            cand[n_c] = i
            n_c += 1
            e = math.hypot(pos[i, 0] - sx, pos[i, 1] - sz)
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
    for t in range(n_s):
        c, e = s_c[t], s_e[t]
        for col in act:
            d = lmd[c, col]
            if d < np.inf:
                lo[col] = min(lo[col], d + e)
                hi[col] = max(hi[col], d - e)
    closed = np.zeros(total, np.bool_)
    parent = np.empty(total, np.int64)  # read only where closed
    best = np.full(n, np.inf)  # smallest g of a pushed graph-edge (verified) entry per corner
    hv = np.full(n, -1.0)
    ex = np.empty((k_goals + 1, 2))  # the start and the goals, ids n .. n + k_goals
    ex[0, 0], ex[0, 1] = sx, sz
    ex[1:] = goals
    heap = [(0.0, 0.0, 0, 0, 0)]
    heap.pop()
    for q in range(k_goals):
        if crosses_blocked(B, k, x0, z0, cs, sx, sz, goals[q, 0], goals[q, 1]):
            continue
        d = math.hypot(goals[q, 0] - sx, goals[q, 1] - sz)
        heap.append((d, d, n + 1 + q, start, 0))
    for t in range(n_c):
        i = int(cand[t])
        g = math.hypot(pos[i, 0] - sx, pos[i, 1] - sz)
        f = g + _hval(hv, i, pos[i, 0], pos[i, 1], goals, lmd, act, lo, hi)
        if f < np.inf:
            heap.append((f, g, i, start, 0))
    heapq.heapify(heap)
    closed[start] = True
    found = -1
    length = np.inf
    while len(heap) > 0:
        _f, g, node, par, verified = heapq.heappop(heap)
        if closed[node]:
            continue
        if verified == 0:
            ax, az = (pos[par, 0], pos[par, 1]) if par < n else (ex[par - n, 0], ex[par - n, 1])
            bx, bz = (pos[node, 0], pos[node, 1]) if node < n else (ex[node - n, 0], ex[node - n, 1])
            if (crosses_blocked(B, k, x0, z0, cs, ax, az, bx, bz)
                    or not line_of_sight(C, x0, z0, cs, ax, az, bx, bz, thr)):
                continue
        closed[node] = True
        parent[node] = par
        if node > n:
            found = node
            length = g
            break
        ux, uz = pos[node, 0], pos[node, 1]
        for e in range(indptr[node], indptr[node + 1]):
            w = indices[e]
            if not closed[w]:
                g2 = g + weights[e]
                if g2 > best[w]:  # pops after a verified entry for w, then discarded
                    continue
                best[w] = g2
                f = g2 + _hval(hv, w, pos[w, 0], pos[w, 1], goals, lmd, act, lo, hi)
                if f < np.inf:
                    heapq.heappush(heap, (f, g2, w, node, 1))
        for q in range(k_goals):
            gi = n + 1 + q
            if closed[gi] or not gm[q, node]:
                continue
            g2 = g + math.hypot(goals[q, 0] - ux, goals[q, 1] - uz)
            heapq.heappush(heap, (g2, g2, gi, node, 0))
    if found < 0:
        return np.inf, -1, np.empty(0, np.int64)
    return length, found - n - 1, trace(parent, found, start, n)
