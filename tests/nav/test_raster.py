"""Conservative obstacle rasterisation: thin boxes always block, doors stay open."""

from __future__ import annotations

import math

import numpy as np
import shapely
from shapely.geometry import Polygon

from navbench.geometry import box_corners_xz
from navbench.nav import NavMesh, NavSettings
from navbench.scene import Box
from tests.nav import worlds


def test_thin_wall_between_cell_centres_blocks_on_a_coarse_grid() -> None:
    # 0.25 m cells have centres at x = k * 0.25 + 0.125 (grid origin is a multiple of cs);
    # the 0.1 m wall x in [2.9, 3.0] lies between the centres 2.875 and 3.125, so sampling
    # cell centres misses it entirely; the cell [2.75, 3.0] meets it and must block.
    sc = worlds.scene(worlds.floor(0, 0, 6, 3), worlds.wall(2.9, -0.5, 3.0, 3.5, 0))
    nm = NavMesh.build(sc, NavSettings(cell_size=0.25, agent_radius=0.0))
    left, right = nm.island_of((1.0, 0.0, 1.5)), nm.island_of((5.0, 0.0, 1.5))
    assert left is not None and right is not None and left != right
    assert not nm.is_navigable((2.95, 0.0, 1.5))
    # the neighbour cell [3.0, 3.25] only touches the wall face: still walkable
    assert nm.is_navigable((3.125, 0.0, 1.5))
    assert nm.is_navigable((2.625, 0.0, 1.5))


def test_rotated_thin_boxes_block_exactly_the_cells_they_meet() -> None:
    # a 0.1 m street sign and a 0.25 m bollard, rotated, on a 0.25 m grid: the blocked cells
    # are exactly the cell squares with a positive-area overlap (shapely, brute force)
    obst = [Box("sign", "object", (2.03, 1.0, 1.61), (0.1, 2.0, 0.6), yaw=0.5),
            Box("bollard", "object", (4.41, 0.5, 1.37), (0.25, 1.0, 0.25), yaw=math.radians(30))]
    sc = worlds.scene(worlds.floor(0, 0, 6, 3), *obst)
    nm = NavMesh.build(sc, NavSettings(cell_size=0.25, agent_radius=0.0))
    L = nm.layers[0]
    polys = [Polygon(box_corners_xz(b.center, b.size, b.yaw)) for b in obst]
    nrows, ncols = L.clear.shape
    checked = 0
    for r in range(nrows):
        for c in range(ncols):
            x, z = L.x0 + c * L.cs, L.z0 + r * L.cs
            if not (0.5 < x < 5.5 and 0.5 < z < 2.5):
                continue  # away from the floor edge
            sq = shapely.box(x, z, x + L.cs, z + L.cs)
            meets = any(sq.intersection(p).area > 1e-9 for p in polys)
            assert (L.clear[r, c] < 0) == meets, (r, c)
            checked += meets
    assert checked >= 8  # the sign crosses several cells, the bollard up to 4


def test_door_stays_open_for_turtlebot_radius() -> None:
    # 0.1 m wall at z in [1.97, 2.07] (not on grid lines) with a 0.9 m door x in [1.53, 2.43];
    # radius 0.18 m on 0.05 m cells: the door keeps a 0.9 - 2 * 0.18 = 0.54 m wide passage.
    sc = worlds.scene(worlds.floor(0, 0, 4, 4), worlds.wall(0, 1.97, 1.53, 2.07, 0),
                      worlds.wall(2.43, 1.97, 4, 2.07, 1))
    s = NavSettings.preset("turtlebot")
    nm = NavMesh.build(sc, s)
    a, b = (1.98, 0.0, 1.0), (1.98, 0.0, 3.0)
    assert nm.island_of(a) == nm.island_of(b) is not None
    assert math.isclose(nm.geodesic_distance(a, b), 2.0, abs_tol=1e-6)
    # cells whose centre lies within 0.18 m of the jamb are not navigable, the middle is
    assert nm.is_navigable((1.98, 0.0, 2.02))
    # near the radius, clearance is the exact distance to the jamb x = 1.53 (0.195 m at the
    # cell centre x = 1.725), not to the blocked square [1.50, 1.55] (0.175) nor to the
    # centre-sampled one [1.45, 1.50] (0.225)
    assert math.isclose(nm.distance_to_obstacle((1.725, 0.0, 2.025)), 0.195, abs_tol=1e-4)
    assert not nm.is_navigable((1.53 + 0.13, 0.0, 2.02))
    # a 0.34 m gap (< 2 r) between walls closes
    sc2 = worlds.scene(worlds.floor(0, 0, 4, 4), worlds.wall(0, 1.97, 1.83, 2.07, 0),
                       worlds.wall(2.17, 1.97, 4, 2.07, 1))
    nm2 = NavMesh.build(sc2, s)
    assert nm2.island_of(a) != nm2.island_of(b)


def test_wall_between_centres_blocks_the_reference_path() -> None:
    # a pillar room whose 0.2 m divider sits between 0.25 m cell centres: the path from one
    # side to the other goes around the divider's end (never through it)
    sc = worlds.scene(worlds.floor(0, 0, 6, 6), worlds.wall(2.9, 0, 3.1, 4.0, 0))
    nm = NavMesh.build(sc, NavSettings(cell_size=0.25, agent_radius=0.25))
    p = nm.find_path((1.0, 0.0, 1.0), (5.0, 0.0, 1.0))
    pts = np.asarray(p.points)[:, [0, 2]]
    line = shapely.LineString(pts)
    wall = shapely.box(2.9, 0, 3.1, 4.0)
    assert line.distance(wall) >= 0.25 - 0.125 - 1e-6
    assert p.geodesic_distance > 7.0  # straight line: 4 m
