"""Geodesic path queries of a :class:`~navbench.nav.navmesh.NavMesh`: snapping, search, assembly.

Two exact searches over the same visibility graph (see :mod:`navbench.nav.search`):

* :func:`find_path` — one query, A* with lazy start and goal edges; on a layer prepared by
  :meth:`NavMesh.prepare_queries` or loaded from a file saved with ``queries=True`` (layers with
  at least :data:`PREP_MIN_CORNERS` corners get a static precomputation, :mod:`navbench.nav.prep`:
  per-bucket candidate corners, landmark distances), :func:`navbench.nav.oneoff.astar_lists`
  over it with the same lengths — for a navigable start and goals on its island snapping,
  search and assembly are one numba call (:func:`navbench.nav.oneoff.find_one`); no per-goal
  cache, so its answer never depends on earlier queries. The precomputation is opt-in: it
  costs seconds on a city (4–9 s on a 500 m city, 18 s on 1 km) and saves ~0.8 ms per query
  (1.2–1.4 → 0.4–0.5 ms), so it pays off only past ~5,000–10,000 queries per layer (a
  dataset build asks ~200) unless it is saved with the navmesh.
* :func:`geodesic_distances` — many starts to one goal set (per-step distance to goal): the
  goal set's exact distance table (:func:`navbench.nav.search.goal_tree`) is built once
  and kept in a small LRU cache on the navmesh, then each start costs a sort of its
  tangent corners and a line-of-sight test or a few.

Both return the same lengths to rounding (where two paths tie, either may be returned).
Points are (x, y, z) in the Habitat world frame (m); lengths are 3D polyline lengths (m).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

import numpy as np

from navbench.nav import oneoff, search
from navbench.nav import visibility as vis

if TYPE_CHECKING:
    from navbench.nav.grid import Layer
    from navbench.nav.navmesh import NavMesh

#: One point ``(x, y, z)`` (m, Habitat frame).
Point: TypeAlias = "Sequence[float] | np.ndarray"
#: One goal point, or several (``(G, 3)``): queries take the nearest.
Goals: TypeAlias = "Sequence[float] | Sequence[Sequence[float]] | Sequence[np.ndarray] | np.ndarray"
#: Many points ``(N, 3)``.
Points: TypeAlias = "Sequence[Sequence[float]] | Sequence[np.ndarray] | np.ndarray"

#: Layers with fewer graph corners answer one-off queries with the plain search
#: (:func:`navbench.nav.visibility.astar`, full start/goal scans): there it is as fast as the
#: precomputed one (0.10 vs 0.13 ms on a 244-corner house) and needs no precomputation.
PREP_MIN_CORNERS = 600

#: Largest vertical offset (m) between a query point and the surface it is on.
MAX_Y_DELTA = 0.5

#: Goal sets whose distance tables a navmesh keeps (least recently used dropped first).
TREE_CACHE = 16


@dataclass(frozen=True)
class ShortestPath:
    """Result of :meth:`NavMesh.find_path`.

    Attributes:
        points: polyline (x, y, z) from the snapped start to the snapped goal, or ``None``.
        geodesic_distance: 3D length of ``points`` (m); ``math.inf`` when unreachable.
        goal_index: index of the goal reached (multi-goal queries), or ``None``.
    """

    points: list[np.ndarray] | None
    geodesic_distance: float
    goal_index: int | None


NONE = ShortestPath(None, math.inf, None)


@dataclass(frozen=True)
class _Query:
    """A start and goals snapped onto one island (layer ``li``)."""

    sa: np.ndarray
    isl: int
    li: int
    keep: list[int]
    snapped: list[np.ndarray]
    gxz: np.ndarray


def _goals(b_or_many: Goals) -> np.ndarray | None:
    goals = np.asarray(b_or_many, dtype=np.float64)
    if goals.ndim == 1:
        goals = goals.reshape(1, -1)
    if goals.ndim != 2 or goals.shape[1] != 3 or len(goals) == 0:
        return None
    return goals


def _prepare(nm: NavMesh, a: Sequence[float] | np.ndarray, goals: np.ndarray) -> _Query | None:
    """Snap the start (onto its own island, else a goal's) and the goals onto its island."""
    ia = nm.island_of(a)
    if ia is None:
        for g in goals:
            ia = nm.island_of(g)
            if ia is not None:
                break
    sa = nm.snap_point(a, ia) if ia is not None else None
    if sa is None:
        sa = nm.snap_point(a)
    if sa is None:
        return None
    isl = nm.island_of(sa)
    if isl is None:
        return None
    keep, snapped = [], []
    for k, g in enumerate(goals):
        sg = nm.snap_point(g, isl)
        if sg is not None:
            keep.append(k)
            snapped.append(sg)
    if not keep:
        return None
    gxz = np.array([[p[0], p[2]] for p in snapped])
    return _Query(sa, isl, int(nm._island_layer[isl]), keep, snapped, gxz)


def _finish(nm: NavMesh, q: _Query, length: float, gk: int, nodes: np.ndarray) -> ShortestPath:
    """Polyline and 3D length of a search result (grid fallback when it found nothing)."""
    if not math.isfinite(length):
        return grid_path(nm, nm.layers[q.li], q.isl, q.sa, q.snapped, q.keep)
    n = nm.graphs[q.li].nodes
    # nodes: the start (-1), corners, the goal reached (-2 - k)
    P, d = oneoff.assemble(nodes, n.pos, n.y, q.sa, q.snapped[-2 - int(nodes[-1])])
    return ShortestPath(list(P), float(d), q.keep[int(gk)])


def _scratch(nm: NavMesh, li: int) -> oneoff.Scratch:
    """Prepared layer ``li``'s :class:`~navbench.nav.oneoff.Scratch` (made at its first query,
    kept; not pickled)."""
    S = nm._scratch.get(li)
    if S is None or S.lmd is not nm._prep_cache[li].lmd:
        n = nm.graphs[li].nodes
        S = nm._scratch[li] = oneoff.Scratch.of(n.pos, n.prv, n.nxt, n.island, n.y,
                                                nm._prep_cache[li].lmd)
    return S


def _find_prepared(nm: NavMesh, a: Point, goals: np.ndarray) -> ShortestPath | None:
    """:func:`find_path` in one numba call (:func:`navbench.nav.oneoff.find_one`) when the
    navmesh has a prepared layer and the query is the common case there; else ``None``."""
    if not nm._prep_cache or not nm._same_grid:
        return None
    sa = np.asarray(a, dtype=np.float64)
    if sa.shape != (3,):
        return None
    li = min(nm._prep_cache)
    P, L, G, S = nm._prep_cache[li], nm.layers[li], nm.graphs[li], _scratch(nm, li)
    H, CS, lab, ylo, yhi = nm._stacked()
    L0 = nm.layers[0]
    ok, d, gk, pts = oneoff.find_one(H, CS, lab, ylo, yhi, L0.x0, L0.z0, L0.cs,
                                     nm.settings.agent_radius, MAX_Y_DELTA, nm._island_layer, li,
                                     S.geo, G.indptr, G.indices, G.weights, L.clear, L.x0, L.z0,
                                     L.cs, nm._thr, nm._tiles(li), vis.TILE, P.m, P.cols, P.ptr,
                                     P.corners, P.lmd, S.lmd32, oneoff.ACTIVE, S.IS, S.FS, S.gen,
                                     sa, goals)
    return ShortestPath(list(pts), float(d), int(gk)) if ok else None


def find_path(nm: NavMesh, a: Point, b_or_many: Goals) -> ShortestPath:
    """Shortest path from ``a`` to ``b`` or to the nearest of many goals (A* with landmarks,
    no per-goal cache)."""
    goals = _goals(b_or_many)
    if goals is not None:
        fast = _find_prepared(nm, a, goals)
        if fast is not None:
            return fast
    q = _prepare(nm, a, goals) if goals is not None else None
    if q is None:
        return NONE
    L, G = nm.layers[q.li], nm.graphs[q.li]
    n = G.nodes
    P = nm._prep_cache.get(q.li)
    if P is None:
        length, gk, nodes = vis.astar(n.pos, n.prv, n.nxt, n.island, G.indptr, G.indices, G.weights,
                                      L.clear, L.x0, L.z0, L.cs, nm._thr, float(q.sa[0]),
                                      float(q.sa[2]), q.isl, q.gxz, nm._tiles(q.li), vis.TILE)
        return _finish(nm, q, length, gk, nodes)
    S = _scratch(nm, q.li)
    length, gk, nodes = oneoff.astar_lists(S.geo, G.indptr, G.indices, G.weights, L.clear, L.x0,
                                           L.z0, L.cs, nm._thr, float(q.sa[0]), float(q.sa[2]),
                                           q.isl, q.gxz, nm._tiles(q.li), vis.TILE, P.m, P.cols,
                                           P.ptr, P.corners, P.lmd, S.lmd32, oneoff.ACTIVE, S.IS,
                                           S.FS, S.next_gen())
    return _finish(nm, q, length, gk, nodes)


def _tree(nm: NavMesh, q: _Query) -> tuple[np.ndarray, np.ndarray]:
    """The goal set's (dist, hop) table (:func:`search.goal_tree`), from the LRU cache."""
    key = np.array([q.li, q.isl], np.float64).tobytes() + q.gxz.tobytes()
    cache = nm._goal_trees
    if key in cache:
        cache.move_to_end(key)
        return cache[key]
    L, G = nm.layers[q.li], nm.graphs[q.li]
    n = G.nodes
    ptr, goal, length = search.goal_edges(n.pos, n.prv, n.nxt, n.island, L.clear, L.x0, L.z0,
                                          L.cs, nm._thr, q.isl, q.gxz, nm._tiles(q.li), vis.TILE)
    cache[key] = search.goal_tree(G.indptr, G.indices, G.weights, ptr, goal, length)
    while len(cache) > TREE_CACHE:
        cache.popitem(last=False)
    return cache[key]


def find_path_cached(nm: NavMesh, a: Point, b_or_many: Goals) -> ShortestPath:
    """:func:`find_path` through the goal set's cached distance table (:func:`_tree`)."""
    goals = _goals(b_or_many)
    q = _prepare(nm, a, goals) if goals is not None else None
    if q is None:
        return NONE
    L, n = nm.layers[q.li], nm.graphs[q.li].nodes
    dist, hop = _tree(nm, q)
    length, gk, nodes = search.tree_query(n.pos, n.prv, n.nxt, n.island, L.clear, L.x0, L.z0,
                                          L.cs, nm._thr, float(q.sa[0]), float(q.sa[2]), q.isl,
                                          q.gxz, nm._tiles(q.li), vis.TILE, dist, hop)
    return _finish(nm, q, length, gk, nodes)


def geodesic_distances(nm: NavMesh, points: Points, b_or_many: Goals) -> np.ndarray:
    """(N,) geodesic distance (m) from each of ``points`` (N, 3) to the nearest goal; ``inf``
    where unreachable. Exact, like :func:`find_path`; fast when the goals repeat."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 3)
    return np.array([find_path_cached(nm, p, b_or_many).geodesic_distance for p in pts],
                    dtype=np.float64)


def grid_path(nm: NavMesh, L: Layer, isl: int, sa: np.ndarray, snapped: list[np.ndarray],
              keep: list[int]) -> ShortestPath:
    """Fallback when the visibility graph finds no path between points of one island:
    8-connected grid A* (:mod:`navbench.nav.gridpath`) shortened by line of sight."""
    from navbench.nav.gridpath import grid_astar, string_pull

    def cell(p: np.ndarray) -> tuple[int, int]:
        return int((p[2] - L.z0) // L.cs), int((p[0] - L.x0) // L.cs)

    sr, sc = cell(sa)
    goal_rc = np.array([cell(g) for g in snapped], dtype=np.int64)
    cells, gk = grid_astar(L.labels, isl, sr, sc, goal_rc)
    if gk < 0:
        return NONE
    mid = [np.array([L.x0 + (c + 0.5) * L.cs, float(L.height[r, c]), L.z0 + (r + 0.5) * L.cs])
           for r, c in cells[1:-1]]
    pts = [sa, *mid, snapped[int(gk)]]
    xz = np.array([[p[0], p[2]] for p in pts])
    pts = [pts[i] for i in string_pull(xz, L.clear, L.x0, L.z0, L.cs, nm._thr)]
    d = float(sum(np.linalg.norm(pts[i + 1] - pts[i]) for i in range(len(pts) - 1)))
    return ShortestPath(pts, d, keep[int(gk)])
