"""Exact geodesic queries to a goal set that is asked for again and again (episode steps).

:func:`navbench.nav.visibility.astar` (the search for one-off queries) adds the edges from
the start and to the goals lazily and guides A* by the Euclidean distance to the nearest
goal; on a generated city it expands hundreds of corners per query. When the same goals come
back (per-step distance to goal in evaluation and metrics, oracle replanning), this module
searches the *same* graph (same bitangent edges, same tangent, blocked-tile and
line-of-sight rules for start and goal edges, checked in the same direction) in two parts:

* :func:`goal_edges` and :func:`goal_tree`, once per goal set: the corners that see each
  goal, then Dijkstra from the goals over the graph: every corner's exact remaining length.
* :func:`tree_query`, per start: the first free start edge in increasing
  ``|s v| + dist[v]``, which is the shortest path, without expanding any corner.

Lengths equal the A* search's to rounding (tests compare both with a brute-force visibility
graph). Coordinates are XZ metres (Habitat frame), lengths metres.
"""

from __future__ import annotations

import heapq
import math

import numba as nb
import numpy as np

from navbench.nav.visibility import _tangent, crosses_blocked, line_of_sight


@nb.njit(cache=True)
def goal_edges(pos, prv, nxt, isl, C, x0, z0, cs, thr, island, goals, B, k):  # type: ignore[no-untyped-def]
    """Edges from corners to goals, as the reference search accepts them: the corner is on
    ``island`` and tangent towards the goal, the segment corner→goal misses every blocked
    tile and is free. Returns CSR ``(ptr (V+1,), goal (E,), length (E,))`` by corner id."""
    n = len(pos)
    cnt = np.zeros(n + 1, np.int64)
    cap = 64
    node = np.empty(cap, np.int64)
    gq = np.empty(cap, np.int64)
    m = 0
    for i in range(n):
        if isl[i] != island:
            continue
        for q in range(len(goals)):
            if not _tangent(pos, prv, nxt, i, goals[q, 0], goals[q, 1]):
                continue
            if crosses_blocked(B, k, x0, z0, cs, pos[i, 0], pos[i, 1], goals[q, 0], goals[q, 1]):
                continue
            if not line_of_sight(C, x0, z0, cs, pos[i, 0], pos[i, 1], goals[q, 0], goals[q, 1], thr):
                continue
            if m == cap:
                cap *= 2
                n2 = np.empty(cap, np.int64)
                q2 = np.empty(cap, np.int64)
                n2[:m] = node[:m]
                q2[:m] = gq[:m]
                node, gq = n2, q2
            node[m] = i
            gq[m] = q
            cnt[i + 1] += 1
            m += 1
    ptr = np.cumsum(cnt)
    goal = gq[:m].copy()  # corners were visited in id order: entries are already grouped
    length = np.empty(m)
    for e in range(m):
        i = node[e]
        length[e] = math.hypot(goals[goal[e], 0] - pos[i, 0], goals[goal[e], 1] - pos[i, 1])
    return ptr, goal, length


@nb.njit(cache=True)
def _before(key, u, v):  # type: ignore[no-untyped-def]
    """Heap order: smaller key first, ties by the smaller corner id (deterministic)."""
    return key[u] < key[v] or (key[u] == key[v] and u < v)


@nb.njit(cache=True)
def _sift_up(heap, where, key, i):  # type: ignore[no-untyped-def]
    v = heap[i]
    while i > 0:
        p = (i - 1) >> 1
        u = heap[p]
        if _before(key, u, v):
            break
        heap[i] = u
        where[u] = i
        i = p
    heap[i] = v
    where[v] = i


@nb.njit(cache=True)
def _sift_down(heap, where, key, i, size):  # type: ignore[no-untyped-def]
    v = heap[i]
    while True:
        c = 2 * i + 1
        if c >= size:
            break
        if c + 1 < size and _before(key, heap[c + 1], heap[c]):
            c += 1
        u = heap[c]
        if _before(key, v, u):
            break
        heap[i] = u
        where[u] = i
        i = c
    heap[i] = v
    where[v] = i


@nb.njit(cache=True)
def goal_tree(indptr, indices, weights, gptr, ggoal, glen):  # type: ignore[no-untyped-def]
    """Dijkstra from the goal set over the graph plus the :func:`goal_edges` (binary heap
    with decrease-key, ties by corner id: deterministic).

    Returns ``(dist (V,), hop (V,))``: the shortest length (m) from each corner to the nearest
    goal (``inf`` if none is reachable) and the next step on that path: a corner id, or
    ``-2 - q`` when the next step is goal ``q``.
    """
    n = len(indptr) - 1
    dist = np.full(n, np.inf)
    hop = np.full(n, -1, np.int64)
    where = np.full(n, -1, np.int64)  # heap slot, -1 = never queued, -2 = done
    heap = np.empty(n, np.int64)
    size = 0
    for v in range(n):
        for e in range(gptr[v], gptr[v + 1]):
            if glen[e] < dist[v]:
                dist[v] = glen[e]
                hop[v] = -2 - ggoal[e]
        if dist[v] < np.inf:
            heap[size] = v
            where[v] = size
            size += 1
            _sift_up(heap, where, dist, size - 1)
    while size > 0:
        v = heap[0]
        size -= 1
        where[v] = -2
        if size > 0:
            heap[0] = heap[size]
            where[heap[0]] = 0
            _sift_down(heap, where, dist, 0, size)
        d = dist[v]
        for e in range(indptr[v], indptr[v + 1]):
            w = indices[e]
            d2 = d + weights[e]
            if where[w] != -2 and d2 < dist[w]:
                dist[w] = d2
                hop[w] = v
                if where[w] == -1:
                    heap[size] = w
                    where[w] = size
                    size += 1
                _sift_up(heap, where, dist, where[w])
    return dist, hop


@nb.njit(cache=True)
def tree_query(pos, prv, nxt, isl, C, x0, z0, cs, thr, sx, sz, island, goals, B, k,  # type: ignore[no-untyped-def]
               dist, hop):
    """Shortest free polyline from s to the nearest goal, given :func:`goal_tree`'s table.

    The first edge leaves s for a goal directly or for a corner ``v`` (tangent, on
    ``island``, missing every blocked tile, free: the reference search's start-edge rules);
    the rest is exact (``dist[v]``). Candidates are tried in increasing ``|s v| + dist[v]``,
    so the first free one is the answer. Returns ``(length, goal_index, nodes)`` as
    :func:`navbench.nav.visibility.astar` does.
    """
    n = len(pos)
    n_goals = len(goals)
    cand = np.empty(n + n_goals, np.int64)
    heap = [(0.0, 0)]  # (|s v| + dist[v], position in cand): ties keep the candidate order
    heap.pop()
    m = 0
    for q in range(n_goals):
        heap.append((math.hypot(goals[q, 0] - sx, goals[q, 1] - sz), m))
        cand[m] = -2 - q
        m += 1
    for i in range(n):
        if isl[i] != island or dist[i] == np.inf or not _tangent(pos, prv, nxt, i, sx, sz):
            continue
        heap.append((math.hypot(pos[i, 0] - sx, pos[i, 1] - sz) + dist[i], m))
        cand[m] = i
        m += 1
    heapq.heapify(heap)
    while len(heap) > 0:
        fc, j = heapq.heappop(heap)
        c = cand[j]
        if c < 0:
            bx, bz = goals[-2 - c, 0], goals[-2 - c, 1]
        else:
            bx, bz = pos[c, 0], pos[c, 1]
        if crosses_blocked(B, k, x0, z0, cs, sx, sz, bx, bz):
            continue
        if not line_of_sight(C, x0, z0, cs, sx, sz, bx, bz, thr):
            continue
        count = 2
        cur = c
        while cur >= 0:
            cur = hop[cur]
            count += 1
        nodes = np.empty(count, np.int64)
        nodes[0] = -1
        cur = c
        for t in range(1, count):
            nodes[t] = cur
            if cur >= 0:
                cur = hop[cur]
        return fc, -2 - nodes[count - 1], nodes
    return np.inf, -1, np.empty(0, np.int64)
