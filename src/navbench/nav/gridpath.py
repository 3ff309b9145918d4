"""Exact-on-the-grid fallback paths: 8-connected A* over one island's cells, then string pulling.

The visibility graph (:mod:`navbench.nav.visibility`) is built on simplified contours of the
eroded free space. In passages only a cell or two wide, simplification can drop every vertex a
point could see, so the graph misses a connection that the grid has. :meth:`NavMesh.find_path`
then falls back to this module, so that two points on the same island always get a finite path
(slightly longer than the true shortest path where the passage forces grid steps).
"""

from __future__ import annotations

import heapq
import math

import numba as nb
import numpy as np

from navbench.nav.visibility import line_of_sight

_SQ2 = math.sqrt(2.0)


# Kernels marked `type: ignore[no-untyped-def]` are left unannotated on purpose: numba types
# them at the first call (int/float scalars and arrays of several dtypes) and mypy cannot see that.


@nb.njit(cache=True)
def grid_astar(labels, island, sr, sc, goal_rc):  # type: ignore[no-untyped-def]
    """Cells (K, 2) of the 8-connected shortest grid path from (sr, sc) to the nearest goal cell.

    Only cells with ``labels == island`` are walkable; a diagonal step needs both orthogonal
    neighbours walkable (no corner cutting). Returns ``(cells, goal_index)``; ``goal_index`` is
    ``-1`` (and ``cells`` empty) when no goal is reachable. Costs are in cells.
    """
    nr, nc = labels.shape
    k_goals = goal_rc.shape[0]
    is_goal = np.full(nr * nc, -1, np.int64)
    for k in range(k_goals):
        is_goal[goal_rc[k, 0] * nc + goal_rc[k, 1]] = k
    dist = np.full(nr * nc, np.inf)
    parent = np.full(nr * nc, -1, np.int64)
    start = sr * nc + sc
    dist[start] = 0.0
    heap = [(0.0, start)]
    found = -1
    while len(heap) > 0:
        d, u = heapq.heappop(heap)
        if d > dist[u]:
            continue
        if is_goal[u] >= 0:
            found = u
            break
        r, c = u // nc, u % nc
        for dr in range(-1, 2):
            for dc in range(-1, 2):
                if dr == 0 and dc == 0:
                    continue
                rr, cc = r + dr, c + dc
                if rr < 0 or cc < 0 or rr >= nr or cc >= nc or labels[rr, cc] != island:
                    continue
                if dr != 0 and dc != 0 and (labels[r, cc] != island or labels[rr, c] != island):
                    continue
                w = _SQ2 if dr != 0 and dc != 0 else 1.0
                v = rr * nc + cc
                if d + w < dist[v]:
                    dist[v] = d + w
                    parent[v] = u
                    heapq.heappush(heap, (d + w, v))
    if found < 0:
        return np.empty((0, 2), np.int64), -1
    count = 0
    cur = found
    while cur != -1:
        count += 1
        cur = parent[cur]
    cells = np.empty((count, 2), np.int64)
    cur = found
    for i in range(count - 1, -1, -1):
        cells[i, 0], cells[i, 1] = cur // nc, cur % nc
        cur = parent[cur]
    return cells, is_goal[found]


@nb.njit(cache=True)
def string_pull(xz, C, x0, z0, cs, thr):  # type: ignore[no-untyped-def]
    """Indices of a shortcut polyline through the points ``xz`` (N, 2): from each kept point,
    jump to the farthest later point in line of sight (clearance ``>= thr``); consecutive grid
    cells are always kept, so the result is never worse than the grid path."""
    n = xz.shape[0]
    keep = np.empty(n, np.int64)
    m = 0
    i = 0
    keep[m] = 0
    m += 1
    while i < n - 1:
        j = n - 1
        while j > i + 1 and not line_of_sight(C, x0, z0, cs, xz[i, 0], xz[i, 1], xz[j, 0],
                                              xz[j, 1], thr):
            j -= 1
        keep[m] = j
        m += 1
        i = j
    return keep[:m]
