"""Pedestrian planner: non-preferred ground (a lawn) costly, not forbidden — lengths by hand.

World (x, z in m): a 10 × 10 m lawn (``green``, not preferred) x ∈ [0, 10], z ∈ [−10, 0],
with an L of sidewalk along its +z side (x ∈ [0, 12], z ∈ [0, 2]) and its +x side
(x ∈ [10, 12], z ∈ [−10, 0]). The walkable union is the convex square [0, 12] × [−10, 2].
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from navbench.nav import NavSettings
from navbench.nav.pedestrian import PedestrianPlanner, non_preferred_classes
from navbench.scene import Scene, Surface


def _rect(x0: float, z0: float, x1: float, z1: float) -> tuple[tuple[float, float], ...]:
    return ((x0, z1), (x1, z1), (x1, z0), (x0, z0))


@pytest.fixture(scope="module")
def planner() -> PedestrianPlanner:
    scene = Scene("lawn", "outdoor", "handmade", surfaces=(
        Surface("lawn", "green", _rect(0, -10, 10, 0), preferred=False),
        Surface("s1", "sidewalk", _rect(0, 0, 12, 2)),
        Surface("s2", "sidewalk", _rect(10, -10, 12, 0)),
    ))
    assert non_preferred_classes(scene) == ("green",)
    return PedestrianPlanner(scene, NavSettings(cell_size=0.05, agent_radius=0.1))


def _length(points: list[np.ndarray]) -> float:
    p = np.asarray(points, float)
    return float(np.linalg.norm(np.diff(p, axis=0), axis=1).sum())


def test_walks_round_the_lawn(planner: PedestrianPlanner) -> None:
    start, goal = (1.0, 0.0, 1.0), (11.0, 0.0, -9.0)
    # the plain shortest path cuts straight across the lawn: √(10² + 10²)
    straight = planner.full.geodesic_distance(start, goal)
    assert straight == pytest.approx(math.hypot(10, 10), abs=0.01)
    sp = planner.find_path(start, goal)
    # round the lawn's corner (10, 0), kept 0.1 m off it: ≈ √(9² + 1²) twice (+ 0.13 m: the
    # corner rasterised on 0.05 m cells, clearance measured to cell squares)
    assert sp.geodesic_distance == pytest.approx(2 * math.hypot(9, 1), abs=0.2)
    assert planner.off_length(np.asarray(sp.points)) < 1e-6
    assert np.allclose(sp.points[-1], goal)


def test_crosses_the_lawn_only_to_the_nearest_sidewalk(planner: PedestrianPlanner) -> None:
    start, goal = (3.0, 0.0, -5.0), (11.0, 0.0, -9.0)  # a start on the lawn: the only way out
    straight = planner.full.find_path(start, goal)
    # straight to the goal stays on the lawn up to x = 10: √(7² + 3.5²) = 7.83 m
    off_straight = planner.off_length(np.asarray(straight.points))
    assert off_straight == pytest.approx(math.hypot(7, 3.5), abs=0.05)
    sp = planner.find_path(start, goal)
    off = planner.off_length(np.asarray(sp.points))
    # the nearest sidewalk edge is z = 0, 5 m north (x = 10 is 7 m east): ~5 m of lawn only
    assert 5.0 - 1e-6 <= off <= 5.3
    assert np.allclose(sp.points[0], start) and np.allclose(sp.points[-1], goal)
    assert sp.geodesic_distance == pytest.approx(_length(sp.points))
    # then along the sidewalk round the corner (10, 0): ≈ 5 + 7 + √(1² + 9²) = 21.06 m (entry
    # points lie ~0.1 m inside the sidewalk, one per 1 m bin)
    assert sp.geodesic_distance == pytest.approx(5 + 7 + math.hypot(1, 9), abs=0.35)
