"""Exact geodesics: find_path (lazy A*) and geodesic_distances (cached goal table) against a
brute-force search (every corner pair, start and goal edge checked eagerly, networkx Dijkstra)."""

from __future__ import annotations

import math
from typing import Any

import networkx as nx
import numpy as np
import pytest

from navbench.nav import NavMesh, NavSettings, query
from navbench.nav import visibility as vis
from tests.nav import worlds

S = NavSettings(cell_size=0.1, agent_radius=0.2)


def _city() -> NavMesh:
    """12 x 8 m floor, three 2 x 2 m blocks, a thin wall from the floor edge, a small pillar."""
    sc = worlds.scene(worlds.floor(0, 0, 12, 8), worlds.wall(2, 2, 4, 4, 0),
                      worlds.wall(6, 4.5, 8, 6.5, 1), worlds.wall(9, 1, 11, 3, 2),
                      worlds.wall(5, 0, 5.1, 3.5, 3), worlds.wall(7.3, 2.2, 7.7, 2.6, 4))
    return NavMesh.build(sc, S)


@pytest.fixture(scope="module")
def city() -> NavMesh:
    return _city()


class Brute:
    """Dijkstra (networkx) over start, goals and all corners with every edge checked eagerly
    by the search's rules: free (line of sight), no blocked tile, tangent at each corner end."""

    def __init__(self, nm: NavMesh) -> None:
        self.nm, self.L, self.n = nm, nm.layers[0], nm.graphs[0].nodes
        self.B = nm._tiles(0)
        self.g: nx.Graph[Any] = nx.Graph()
        pos = self.n.pos
        for i in range(len(pos)):
            for j in range(i + 1, len(pos)):
                if (self.n.island[i] == self.n.island[j] and self._tan(i, pos[j]) and self._tan(j, pos[i])
                        and self._free(pos[i], pos[j])):
                    self.g.add_edge(i, j, weight=float(np.hypot(*(pos[i] - pos[j]))))

    def _tan(self, i: int, q: np.ndarray) -> bool:
        return bool(vis._tangent(self.n.pos, self.n.prv, self.n.nxt, i, q[0], q[1]))

    def _free(self, p: np.ndarray, q: np.ndarray) -> bool:
        L = self.L
        return (not vis.crosses_blocked(self.B, vis.TILE, L.x0, L.z0, L.cs, p[0], p[1], q[0], q[1])
                and bool(vis.line_of_sight(L.clear, L.x0, L.z0, L.cs, p[0], p[1], q[0], q[1],
                                           self.nm._thr)))

    def distance(self, a: np.ndarray, goals: np.ndarray) -> float:
        g = self.g.copy()
        s = np.array([a[0], a[2]])
        isl = self.nm.island_of(a)
        for u in range(len(self.n.pos)):
            if self.n.island[u] == isl and self._tan(u, s) and self._free(s, self.n.pos[u]):
                g.add_edge("s", u, weight=float(np.hypot(*(s - self.n.pos[u]))))
        for gp in goals:
            t = np.array([gp[0], gp[2]])
            if self._free(s, t):
                g.add_edge("s", ("t", tuple(t)), weight=float(np.hypot(*(s - t))))
            for u in range(len(self.n.pos)):
                if self.n.island[u] == isl and self._tan(u, t) and self._free(self.n.pos[u], t):
                    g.add_edge(u, ("t", tuple(t)), weight=float(np.hypot(*(self.n.pos[u] - t))))
        dist = nx.single_source_dijkstra_path_length(g, "s", weight="weight") if "s" in g else {}
        return min((d for k, d in dist.items() if isinstance(k, tuple)), default=math.inf)


@pytest.fixture(scope="module")
def brute(city: NavMesh) -> Brute:
    return Brute(city)


def test_find_path_and_goal_table_equal_brute_force(city: NavMesh, brute: Brute) -> None:
    rng = np.random.default_rng(3)
    goal = city.sample_point(rng)
    starts = np.array([city.sample_point(rng) for _ in range(12)])
    table = city.geodesic_distances(starts, goal)
    for p, d in zip(starts, table, strict=True):
        ref = brute.distance(p, goal[None])
        assert math.isfinite(ref)
        assert city.geodesic_distance(p, goal) == pytest.approx(ref, rel=1e-6)
        assert d == pytest.approx(ref, rel=1e-6)
    # blocked start-goal pairs occur: the sample must exercise corners
    assert sum(d > np.hypot(*(p - goal)[[0, 2]]) + 1e-6 for p, d in zip(starts, table, strict=True)) >= 3


def test_nearest_of_many_goals(city: NavMesh, brute: Brute) -> None:
    rng = np.random.default_rng(4)
    goals = np.array([city.sample_point(rng) for _ in range(3)])
    starts = np.array([city.sample_point(rng) for _ in range(6)])
    table = city.geodesic_distances(starts, goals)
    for p, d in zip(starts, table, strict=True):
        ref = brute.distance(p, goals)
        assert d == pytest.approx(ref, rel=1e-6)
        sp = city.find_path(p, goals)
        assert sp.geodesic_distance == pytest.approx(ref, rel=1e-6)
        assert sp.goal_index is not None
        # the goal reached is the nearest one
        assert sp.geodesic_distance == pytest.approx(min(city.geodesic_distance(p, g) for g in goals), rel=1e-9)


def test_closed_form_around_a_wall() -> None:
    nm = NavMesh.build(worlds.u_corridor(), NavSettings.preset("indoor"))
    r, cs = nm.settings.agent_radius, nm.settings.cell_size
    a, b = (0.5, 0.0, 1.0), (0.5, 0.0, 3.0)
    expected = worlds.wrap_length((0.5, 1.0), (3.0, 1.9), (3.0, 2.1), (0.5, 3.0), r, side=1)
    d = nm.geodesic_distances([a, (0.5, 0.0, 1.5)], b)
    assert abs(d[0] - expected) <= cs
    assert d[1] < d[0]


def test_unreachable_and_off_mesh_points() -> None:
    sc = worlds.scene(worlds.floor(0, 0, 3, 3), worlds.floor(5, 0, 8, 3, i=1))
    nm = NavMesh.build(sc, S)
    d = nm.geodesic_distances([(1.0, 0.0, 1.0), (6.0, 0.0, 1.0), (20.0, 0.0, 20.0)], (2.0, 0.0, 2.0))
    assert d[0] == pytest.approx(math.sqrt(2.0), abs=1e-9)
    assert math.isinf(d[2])
    assert d[1] == nm.geodesic_distance((6.0, 0.0, 1.0), (2.0, 0.0, 2.0))
    assert nm.geodesic_distances(np.zeros((0, 3)), (2.0, 0.0, 2.0)).shape == (0,)


def test_deterministic_and_independent_of_history(city: NavMesh) -> None:
    rng = np.random.default_rng(5)
    goal = city.sample_point(rng)
    starts = np.array([city.sample_point(rng) for _ in range(5)])
    fresh = _city()
    assert fresh.geodesic_distances(starts, goal).tobytes() == city.geodesic_distances(starts, goal).tobytes()
    # find_path caches nothing: the same polyline before and after other queries
    before = fresh.find_path(starts[0], goal)
    for p in starts[1:]:
        fresh.find_path(p, starts[0])
    after = fresh.find_path(starts[0], goal)
    assert before.points is not None and after.points is not None
    assert np.array(before.points).tobytes() == np.array(after.points).tobytes()


def test_goal_table_cache_is_bounded(city: NavMesh) -> None:
    rng = np.random.default_rng(6)
    for _ in range(query.TREE_CACHE + 3):
        city.geodesic_distances([city.sample_point(rng)], city.sample_point(rng))
    assert len(city._goal_trees) == query.TREE_CACHE


def test_point_lookup_matches_python_reference() -> None:
    """The one-call lookup equals _locate + the Python island test, on two storeys."""
    sc = worlds.scene(worlds.floor(0, 0, 4, 4), worlds.floor(0, 0, 2, 4, y=3.0, i=1),
                      worlds.wall(1.5, 1.5, 2.5, 2.5, 0, y1=2.5))
    nm = NavMesh.build(sc, S)
    assert len(nm.layers) == 2
    rng = np.random.default_rng(7)
    pts = np.column_stack([rng.uniform(-1, 5, 400), rng.choice([0.0, 0.3, 1.4, 3.0, 3.6], 400),
                           rng.uniform(-1, 5, 400)])
    for x, y, z in pts:
        loc = nm._locate(x, y, z)
        isl = nm._island_of_slow(x, y, z)
        li, r, c, got = nm._info(x, y, z)
        assert (li, r, c) == (loc if loc is not None else (-1, 0, 0)) or loc is None
        assert got == (-1 if isl is None else isl)
