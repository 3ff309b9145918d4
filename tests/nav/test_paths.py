"""Shortest paths against closed-form lengths on hand-made worlds (see ``worlds.py``)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from shapely.geometry import LineString, box

from navbench.nav import NavMesh, NavSettings
from tests.conftest import two_room_scene
from tests.nav import worlds

S = NavSettings.preset("indoor")
R, CS = S.agent_radius, S.cell_size


@pytest.fixture(scope="module")
def u_mesh() -> NavMesh:
    return NavMesh.build(worlds.u_corridor(), S)


@pytest.fixture(scope="module")
def pillar_mesh() -> NavMesh:
    return NavMesh.build(worlds.pillar_room(), S)


@pytest.fixture(scope="module")
def rooms_mesh() -> NavMesh:
    return NavMesh.build(two_room_scene(), S)


def _clear_of(points: list[np.ndarray], obstacles: list[shapely.Geometry], grow: float) -> bool:
    line = LineString([(p[0], p[2]) for p in points])
    return not any(line.intersects(o.buffer(grow)) for o in obstacles)


def test_u_corridor_length_and_clearance(u_mesh: NavMesh) -> None:
    a, b = (0.5, 0.0, 1.0), (0.5, 0.0, 3.0)
    expected = worlds.wrap_length((0.5, 1.0), (3.0, 1.9), (3.0, 2.1), (0.5, 3.0), R, side=1)
    p = u_mesh.find_path(a, b)
    assert p.points is not None
    assert abs(p.geodesic_distance - expected) <= CS
    np.testing.assert_allclose(p.points[0], a)
    np.testing.assert_allclose(p.points[-1], b)
    # the path goes around the wall end (x > 3) and never into the wall grown by the radius
    assert max(q[0] for q in p.points) > 3.0 + R - CS
    assert _clear_of(p.points, [box(0, 1.9, 3, 2.1)], R - 0.5 * CS)
    assert p.geodesic_distance == pytest.approx(u_mesh.geodesic_distance(b, a), abs=CS)


def test_pillar_both_sides(pillar_mesh: NavMesh) -> None:
    a, b = (1.0, 2.3), (5.0, 1.8)
    below = worlds.wrap_length(a, (2.5, 1.5), (3.5, 1.5), b, R, side=1)
    above = worlds.wrap_length(a, (2.5, 2.5), (3.5, 2.5), b, R, side=-1)
    p = pillar_mesh.find_path((a[0], 0, a[1]), (b[0], 0, b[1]))
    assert abs(p.geodesic_distance - min(below, above)) <= CS
    assert _clear_of(p.points, [box(2.5, 1.5, 3.5, 2.5)], R - 0.5 * CS)
    # a straight line that misses the pillar is exact
    d = pillar_mesh.geodesic_distance((0.5, 0, 0.5), (5.5, 0, 1.0))
    assert d == pytest.approx(math.hypot(5.0, 0.5), abs=1e-9)


def test_two_rooms_through_door(rooms_mesh: NavMesh) -> None:
    a, b = (3.0, -0.5), (5.0, -0.5)  # both just north of the door's upper jamb (wall w0)
    expected = worlds.wrap_length(a, (3.95, -1.5), (4.05, -1.5), b, R, side=1)
    p = rooms_mesh.find_path((a[0], 0, a[1]), (b[0], 0, b[1]))
    assert abs(p.geodesic_distance - expected) <= CS
    walls = [box(3.95, -1.5, 4.05, 0.0), box(3.95, -4.0, 4.05, -2.5), box(0.5, -1.3, 1.5, -0.7)]
    assert _clear_of(p.points, walls, R - 0.5 * CS)


def test_random_paths_stay_clear(rooms_mesh: NavMesh) -> None:
    walls = [box(3.95, -1.5, 4.05, 0.0), box(3.95, -4.0, 4.05, -2.5), box(0.5, -1.3, 1.5, -0.7)]
    outside = box(-10, -10, 20, 10).difference(box(0, -4, 8, 0))
    rng = np.random.default_rng(0)
    for _ in range(30):
        a, b = rooms_mesh.sample_point(rng), rooms_mesh.sample_point(rng)
        p = rooms_mesh.find_path(a, b)
        assert p.points is not None
        straight = math.dist((a[0], a[2]), (b[0], b[2]))
        assert p.geodesic_distance >= straight - 1e-9
        assert _clear_of(p.points, [*walls, outside], R - 0.5 * CS)


def test_multi_goal_is_min(u_mesh: NavMesh) -> None:
    a = (0.5, 0.0, 1.0)
    far = (0.5, 0.0, 3.0)
    near = (2.0, 0.0, 0.5)
    p = u_mesh.find_path(a, [far, near])
    assert p.goal_index == 1
    assert p.geodesic_distance == pytest.approx(math.hypot(1.5, 0.5), abs=1e-9)
    p2 = u_mesh.find_path(a, [far, (3.5, 0.0, 3.5)])
    single = [u_mesh.geodesic_distance(a, g) for g in (far, (3.5, 0.0, 3.5))]
    assert p2.geodesic_distance == pytest.approx(min(single))
    assert p2.goal_index == int(np.argmin(single))


def test_unreachable_is_inf() -> None:
    # three compartments separated by full walls
    sc = worlds.scene(worlds.floor(0, 0, 6, 2), worlds.wall(1.9, 0, 2.1, 2, 0),
                      worlds.wall(3.9, 0, 4.1, 2, 1))
    nm = NavMesh.build(sc, S)
    assert len(nm.islands) == 3
    p = nm.find_path((1, 0, 1), (5, 0, 1))
    assert p.points is None and p.goal_index is None and math.isinf(p.geodesic_distance)
    assert math.isinf(nm.geodesic_distance((1, 0, 1), [(3, 0, 1), (5, 0, 1)]))
    assert nm.geodesic_distance((1, 0, 1), [(3, 0, 1), (1.5, 0, 1)]) == pytest.approx(0.5)
    # far off the mesh: no snap, inf
    assert math.isinf(nm.geodesic_distance((1, 0, 1), (50, 0, 50)))


def test_off_mesh_points_snap_to_other_endpoint_island() -> None:
    sc = worlds.scene(worlds.floor(0, 0, 6, 2), worlds.wall(2.9, 0, 3.1, 2, 0))
    nm = NavMesh.build(sc, S)
    # the start is inside the wall, as near to either side: it must snap to the goal's side
    for goal_x in (5.0, 1.0):
        p = nm.find_path((3.0, 0, 1.0), (goal_x, 0, 1.0))
        assert p.points is not None
        s = p.points[0]
        assert abs(s[0] - 3.0) >= 0.1 + R - 1e-9 and (s[0] - 3.0) * (goal_x - 3.0) > 0
        assert abs(s[0] - 3.0) <= 0.1 + R + CS
        assert p.geodesic_distance == pytest.approx(math.dist((s[0], s[2]), (goal_x, 1.0)))
