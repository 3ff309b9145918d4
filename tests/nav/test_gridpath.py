"""Grid fallback of find_path: points of one island always get a finite, clear path."""

from __future__ import annotations

import math

import numpy as np

from navbench.nav import NavMesh, NavSettings
from navbench.nav.gridpath import grid_astar, string_pull
from navbench.rng import derive
from navbench.scene.procgen.indoor import generate_house
from tests.geometry_oracle import Obstacles


def test_grid_astar_through_a_one_cell_gap() -> None:
    # 5 x 7 cells, a wall in column 3 with a gap at row 4; start (0, 0), goal (0, 6).
    lab = np.zeros((5, 7), np.int32)
    lab[:4, 3] = -1
    cells, k = grid_astar(lab, 0, 0, 0, np.array([[0, 6]], np.int64))
    assert k == 0 and tuple(cells[0]) == (0, 0) and tuple(cells[-1]) == (0, 6)
    # diagonal steps may not cut the wall's corners; the cost must equal a brute-force search
    steps = np.diff(cells, axis=0)
    cost = sum(math.sqrt(2.0) if abs(a) + abs(b) == 2 else 1.0 for a, b in steps)
    assert all(lab[r, c] == 0 for r, c in cells)
    assert abs(cost - _brute(lab, (0, 0), (0, 6))) < 1e-9
    assert grid_astar(lab, 1, 0, 0, np.array([[0, 6]], np.int64))[1] == -1  # wrong island


def _brute(lab: np.ndarray, s: tuple[int, int], g: tuple[int, int]) -> float:
    """Bellman-Ford relaxation over all cells (independent of the heap-based A*)."""
    nr, nc = lab.shape
    d = np.full((nr, nc), np.inf)
    d[s] = 0.0
    for _ in range(nr * nc):
        for r in range(nr):
            for c in range(nc):
                if lab[r, c] != 0 or not math.isfinite(d[r, c]):
                    continue
                for dr in (-1, 0, 1):
                    for dc in (-1, 0, 1):
                        rr, cc = r + dr, c + dc
                        if (dr, dc) == (0, 0) or not (0 <= rr < nr and 0 <= cc < nc) or lab[rr, cc]:
                            continue
                        if dr and dc and (lab[r, cc] or lab[rr, c]):
                            continue
                        d[rr, cc] = min(d[rr, cc], d[r, c] + (math.sqrt(2) if dr and dc else 1.0))
    return float(d[g])


def test_string_pull_straightens_a_free_line() -> None:
    C = np.full((3, 10), 5.0, np.float32)  # everything far from obstacles
    xz = np.array([[0.5 + i, 1.5] for i in range(10)])
    assert string_pull(xz, C, 0.0, 0.0, 1.0, 0.5).tolist() == [0, 9]


def test_same_island_pairs_always_have_clear_finite_paths() -> None:
    # with a 0.32 m radius, narrow passages in these houses used to defeat the visibility graph
    # (~3% of pairs returned inf although both points were on the largest island)
    for seed in (41, 43):  # house 43: 17 of 60 pairs were infinite before the fallback
        scene = generate_house(seed)
        nm = NavMesh.build(scene, NavSettings.preset("indoor").replace(agent_radius=0.32))
        obstacles = Obstacles(scene, climb=nm.settings.max_climb)  # shapely, not the navmesh
        tol = (math.sqrt(2.0) / 2 + 0.5) * nm.settings.cell_size  # rasterisation + LOS slack
        rng = derive(7, "pairs", seed)
        for _ in range(60):
            a, b = nm.sample_point(rng), nm.sample_point(rng)
            sp = nm.find_path(a, b)
            assert math.isfinite(sp.geodesic_distance) and sp.points is not None
            assert sp.geodesic_distance >= math.dist(a, b) - 1e-9
            for p, q in zip(sp.points[:-1], sp.points[1:], strict=True):
                for t in np.linspace(0.0, 1.0, 9):
                    assert obstacles.distance(p + t * (q - p)) >= 0.32 - tol
