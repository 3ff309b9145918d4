"""The one-off query precomputation (nav/prep.py) against brute force: the bucket lists hold
every corner a point can join by a tangent segment that misses all blocked tiles, the
landmark distances are networkx Dijkstra distances, the landmark heuristic never exceeds the
brute-force remaining length, and find_path equals the brute-force shortest length."""

from __future__ import annotations

import math

import networkx as nx
import numba
import numpy as np
import pytest

from navbench.nav import NavMesh, NavSettings, oneoff, prep, query
from navbench.nav import visibility as vis
from navbench.scene import Box
from tests.nav import worlds
from tests.nav.test_search import Brute

S = NavSettings(cell_size=0.1, agent_radius=0.2)


def _blocks() -> NavMesh:
    """20 x 14 m floor with axis-aligned blocks, three rotated walls and a pillar row."""
    boxes = [worlds.floor(0, 0, 20, 14), worlds.wall(2, 2, 5, 4, 0), worlds.wall(8, 1, 9, 6, 1),
             worlds.wall(12, 8, 17, 9, 2), worlds.wall(3, 9, 6, 12, 3), worlds.wall(14, 2, 15, 5, 4)]
    for i, (x, z, yaw) in enumerate([(11.0, 4.0, 0.6), (7.5, 10.5, -0.4), (17.0, 12.0, 1.1)]):
        boxes.append(Box(f"rot{i}", "wall", (x, 1.25, z), (3.0, 2.5, 0.3), yaw=yaw))
    boxes += [worlds.wall(x, 6.6, x + 0.4, 7.0, 10 + i) for i, x in enumerate((1.0, 3.0, 5.0))]
    return NavMesh.build(worlds.scene(*boxes), S)


@pytest.fixture(scope="module")
def blocks() -> NavMesh:
    return _blocks()


@pytest.fixture(autouse=True)
def _always_precompute(monkeypatch: pytest.MonkeyPatch) -> None:
    """These worlds are small: make find_path use the precomputed search anyway."""
    monkeypatch.setattr(query, "PREP_MIN_CORNERS", 0)


def _points(nm: NavMesh, n_random: int) -> np.ndarray:
    """Every free cell centre plus random navigable points (x, z)."""
    L = nm.layers[0]
    r, c = np.nonzero(L.labels >= 0)
    cells = np.column_stack([L.x0 + (c + 0.5) * L.cs, L.z0 + (r + 0.5) * L.cs])
    rng = np.random.default_rng(11)
    extra = np.array([nm.sample_point(rng)[[0, 2]] for _ in range(n_random)])
    return np.vstack([cells, extra])


def test_bucket_lists_hold_every_joinable_corner(blocks: NavMesh) -> None:
    nm, L, G = blocks, blocks.layers[0], blocks.graphs[0]
    n, B, P = G.nodes, blocks._tiles(0), blocks._prep(0)
    ts = vis.TILE * L.cs
    sizes, needed = [], 0
    for x, z in _points(nm, 300):
        i, j = int(np.floor((x - L.x0) / ts)), int(np.floor((z - L.z0) / ts))
        b = (j // P.m) * P.cols + i // P.m
        listed = set(P.corners[P.ptr[b]:P.ptr[b + 1]].tolist())
        sizes.append(len(listed))
        for c in range(len(n.pos)):
            cx, cz = n.pos[c]
            if not vis._tangent(n.pos, n.prv, n.nxt, c, x, z):
                continue
            if (vis.crosses_blocked(B, vis.TILE, L.x0, L.z0, L.cs, x, z, cx, cz)
                    and vis.crosses_blocked(B, vis.TILE, L.x0, L.z0, L.cs, cx, cz, x, z)):
                continue
            needed += 1
            assert c in listed, (x, z, c)
    assert needed > 0
    # the lists exclude corners: the test exercises the occlusion and tangency rules
    assert np.median(sizes) < 0.6 * len(n.pos)


def test_landmark_distances_are_graph_distances(blocks: NavMesh) -> None:
    G, P = blocks.graphs[0], blocks._prep(0)
    g: nx.Graph[int] = nx.Graph()
    g.add_nodes_from(range(len(G.nodes.pos)))
    for u in range(len(G.nodes.pos)):
        for e in range(G.indptr[u], G.indptr[u + 1]):
            g.add_edge(u, int(G.indices[e]), weight=float(G.weights[e]))
    lmd, isl = P.lmd, G.nodes.island
    big = int(np.bincount(isl).argmax())
    marks = []
    for col in range(lmd.shape[1]):
        src = np.flatnonzero((lmd[:, col] == 0.0) & (isl == big))
        if len(src) == 0:
            continue
        ref = nx.single_source_dijkstra_path_length(g, int(src[0]), weight="weight")
        for v in range(len(lmd)):
            if v in ref:
                assert lmd[v, col] == pytest.approx(ref[v], rel=1e-9, abs=1e-9)
            elif isl[v] == big:
                assert math.isinf(lmd[v, col])
        marks.append(int(src[0]))
    assert len(set(marks)) == len(marks) >= 2
    # farthest first: the second landmark is the corner farthest from the first
    d0 = nx.single_source_dijkstra_path_length(g, marks[0], weight="weight")
    assert d0[marks[1]] == pytest.approx(max(d0.values()))


def test_landmark_heuristic_is_admissible(blocks: NavMesh) -> None:
    """For goals at random points, the heuristic of every corner (computed by the kernel's
    own function) is at most the brute-force shortest length from that corner to the goal."""
    nm, L, G = blocks, blocks.layers[0], blocks.graphs[0]
    n, B, P = G.nodes, blocks._tiles(0), blocks._prep(0)
    geo = oneoff.packed(n.pos, n.prv, n.nxt, n.island, n.y)
    brute = Brute(nm)
    ts = vis.TILE * L.cs
    rng = np.random.default_rng(12)
    tight = 0
    for _ in range(4):
        gp = nm.sample_point(rng)
        gx, gz = gp[0], gp[2]
        isl = nm.island_of(gp)
        g = brute.g.copy()
        for u in range(len(n.pos)):
            if n.island[u] == isl and brute._tan(u, np.array([gx, gz])) and brute._free(n.pos[u], np.array([gx, gz])):
                g.add_edge(u, "t", weight=float(np.hypot(n.pos[u, 0] - gx, n.pos[u, 1] - gz)))
        ref = nx.single_source_dijkstra_path_length(g, "t", weight="weight") if "t" in g else {}
        i, j = int(np.floor((gx - L.x0) / ts)), int(np.floor((gz - L.z0) / ts))
        assert not B[j, i]
        b = (j // P.m) * P.cols + i // P.m
        S_g = [int(c) for c in P.corners[P.ptr[b]:P.ptr[b + 1]]
               if n.island[c] == isl and vis._tangent(n.pos, n.prv, n.nxt, int(c), gx, gz)]
        e = np.hypot(n.pos[S_g, 0] - gx, n.pos[S_g, 1] - gz)
        lo = np.array([min(np.where(np.isfinite(P.lmd[S_g, k]), P.lmd[S_g, k] + e, np.inf))
                       for k in range(P.lmd.shape[1])])
        hi = np.array([max(np.where(np.isfinite(P.lmd[S_g, k]), P.lmd[S_g, k] - e, -np.inf))
                       for k in range(P.lmd.shape[1])])
        goals = np.array([[gx, gz]])
        for v in range(len(n.pos)):
            h = oneoff._heur(geo, v, goals, P.lmd, np.arange(P.lmd.shape[1]), lo, hi)
            true = ref.get(v, math.inf)
            assert h <= true + 1e-9, (v, h, true)
            tight += math.isfinite(true) and h > np.hypot(n.pos[v, 0] - gx, n.pos[v, 1] - gz) + 1e-6
    assert tight > 0  # the landmark bounds beat the Euclidean one somewhere


def test_find_path_equals_brute_force(blocks: NavMesh) -> None:
    blocks._prep_cache.clear()
    blocks.prepare_queries()  # opt-in (PREP_MIN_CORNERS = 0 here: every layer qualifies)
    brute = Brute(blocks)
    rng = np.random.default_rng(13)
    around = 0
    for _ in range(10):
        a, b = blocks.sample_point(rng), blocks.sample_point(rng)
        ref = brute.distance(a, b[None])
        sp = blocks.find_path(a, b)
        assert sp.geodesic_distance == pytest.approx(ref, rel=1e-6)
        around += ref > np.hypot(*(a - b)[[0, 2]]) + 1e-6
    goals = np.array([blocks.sample_point(rng) for _ in range(3)])
    a = blocks.sample_point(rng)
    assert blocks.find_path(a, goals).geodesic_distance == pytest.approx(brute.distance(a, goals), rel=1e-6)
    assert around >= 4
    assert 0 in blocks._prep_cache  # answered by the precomputed search


def test_lists_ignore_a_far_side_corner() -> None:
    """Hand-drawn: behind a 6 x 2 m wall, a corner far on the other side is not listed for a
    point in front of the wall's middle: only corners of the wall's near face are listed."""
    nm = NavMesh.build(worlds.scene(worlds.floor(0, 0, 10, 10), worlds.wall(2, 4, 8, 6, 0),
                                    worlds.wall(4.5, 8.5, 5.5, 9.0, 1)), S)
    L, G, P = nm.layers[0], nm.graphs[0], nm._prep(0)
    pos = G.nodes.pos
    ts = vis.TILE * L.cs
    x, z = 5.0, 2.0
    i, j = int(np.floor((x - L.x0) / ts)), int(np.floor((z - L.z0) / ts))
    b = (j // P.m) * P.cols + i // P.m
    listed = set(P.corners[P.ptr[b]:P.ptr[b + 1]].tolist())
    pillar = [c for c in range(len(pos)) if pos[c, 1] > 8.0]
    near = [c for c in range(len(pos)) if 3.0 < pos[c, 1] < 4.0 and 1.5 < pos[c, 0] < 8.5]
    assert pillar and near
    assert not set(pillar) & listed
    assert listed and listed <= set(near)


def test_precomputation_does_not_depend_on_threads(blocks: NavMesh) -> None:
    """The lists are built in parallel waves: one thread gives byte-identical tables."""
    L, G = blocks.layers[0], blocks.graphs[0]
    n = G.nodes
    P = blocks._prep(0)
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        again = prep.build(n.pos, n.prv, n.nxt, n.island, G.indptr, G.indices, G.weights,
                           blocks._tiles(0), L.x0, L.z0, vis.TILE * L.cs)
    finally:
        numba.set_num_threads(threads)
    for name in ("ptr", "corners", "lmd"):
        assert getattr(again, name).tobytes() == getattr(P, name).tobytes(), name


def test_precomputation_is_opt_in(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without prepare_queries no layer is precomputed (a query stays cheap to start); small
    layers below PREP_MIN_CORNERS are never prepared."""
    nm = _blocks()
    nm.find_path(nm.sample_point(np.random.default_rng(1)), nm.sample_point(np.random.default_rng(2)))
    assert nm._prep_cache == {}
    monkeypatch.setattr(query, "PREP_MIN_CORNERS", len(nm.graphs[0].nodes.pos) + 1)
    nm.prepare_queries()
    assert nm._prep_cache == {}
