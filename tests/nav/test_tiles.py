"""Blocked-tile prefilter of lazy start/goal edges: only certainly blocked segments rejected."""

from __future__ import annotations

import math

import numpy as np

from navbench.nav import NavMesh, NavSettings
from navbench.nav import visibility as vis
from tests.nav import worlds

S = NavSettings(cell_size=0.1, agent_radius=0.2)


def _blocks() -> NavMesh:
    # 12 x 8 m floor with three 2 x 2 m blocks and a thin 0.1 m wall from the floor edge
    sc = worlds.scene(worlds.floor(0, 0, 12, 8), worlds.wall(2, 2, 4, 4, 0),
                      worlds.wall(6, 4.5, 8, 6.5, 1), worlds.wall(9, 1, 11, 3, 2),
                      worlds.wall(5, 0, 5.1, 3.5, 3))
    return NavMesh.build(sc, S)


def _dense_free(L, thr: float, a: np.ndarray, b: np.ndarray) -> bool:  # type: ignore[no-untyped-def]
    n = int(np.hypot(*(b - a)) / 0.005) + 2
    return all(vis.bilinear(L.clear, L.x0, L.z0, L.cs, *(a + t * (b - a))) >= thr
               for t in np.linspace(0, 1, n))


def test_blocked_tiles_hold_no_free_point_and_cover_the_block_interiors() -> None:
    nm = _blocks()
    L, thr = nm.layers[0], nm._thr
    k = 4
    B = vis.blocked_tiles(L.clear, thr, k)
    ts = k * L.cs
    rng = np.random.default_rng(0)
    for j, i in np.argwhere(B):
        for u, v in rng.uniform(0, 1, (20, 2)):  # random points inside the tile: all blocked
            x, z = L.x0 + (i + u) * ts, L.z0 + (j + v) * ts
            assert vis.bilinear(L.clear, L.x0, L.z0, L.cs, x, z) < thr
    # the tile holding the centre (3, 3) of a 2 x 2 m block lies deep inside it: blocked
    assert B[int((3 - L.z0) // ts), int((3 - L.x0) // ts)]
    # a tile on the open floor is not
    assert not B[int((6 - L.z0) // ts), int((1 - L.x0) // ts)]


def test_crosses_blocked_never_rejects_a_free_segment() -> None:
    nm = _blocks()
    L, thr = nm.layers[0], nm._thr
    B = vis.blocked_tiles(L.clear, thr, 4)
    rng = np.random.default_rng(1)
    rejected = 0
    for _ in range(300):
        a, b = rng.uniform((0.3, 0.3), (11.7, 7.7), (2, 2))
        if vis.crosses_blocked(B, 4, L.x0, L.z0, L.cs, a[0], a[1], b[0], b[1]):
            rejected += 1
            assert not _dense_free(L, thr, a, b)
    assert rejected > 30
    # through the middle of the block x, z in [2, 4]: rejected; along the open top: not
    assert vis.crosses_blocked(B, 4, L.x0, L.z0, L.cs, 1.0, 3.0, 5.0, 3.0)
    assert not vis.crosses_blocked(B, 4, L.x0, L.z0, L.cs, 0.5, 7.5, 11.5, 7.5)


def test_paths_with_and_without_tiles_are_identical() -> None:
    nm = _blocks()
    rng = np.random.default_rng(2)
    pairs = [(nm.sample_point(rng), nm.sample_point(rng)) for _ in range(40)]
    with_tiles = [nm.geodesic_distance(a, b) for a, b in pairs]
    nm._tile_cache[0] = np.zeros_like(nm._tiles(0))  # the old method: no prefilter
    without = [nm.geodesic_distance(a, b) for a, b in pairs]
    assert with_tiles == without
    # one closed-form length: around the end z = 3.5 of the thin wall x in [5, 5.1] (its
    # corners grown into 0.2 m circles; see worlds.wrap_length)
    d = nm.geodesic_distance((4.5, 0, 1.0), (5.6, 0, 1.0))
    exact = min(worlds.wrap_length((4.5, 1.0), (5.0, 3.5), (5.1, 3.5), (5.6, 1.0), 0.2, side)
                for side in (1, -1))
    assert math.isclose(d, exact, rel_tol=0.01)
