"""The walkable grid: headroom, steps, slopes, layers, islands, point queries."""

from __future__ import annotations

import math

import numpy as np
import pytest

from navbench.errors import ConfigError
from navbench.nav import NavMesh, NavSettings
from navbench.scene import Mesh, Scene, Surface
from tests.nav import worlds

S = NavSettings.preset("indoor")
R, CS = S.agent_radius, S.cell_size


def test_presets() -> None:
    assert NavSettings.preset("indoor").cell_size == 0.05
    assert NavSettings.preset("outdoor").cell_size == 0.25
    spot, tb = NavSettings.preset("spot"), NavSettings.preset("turtlebot")
    assert (spot.agent_radius, spot.max_climb) == (0.6, 0.2)
    assert (tb.agent_radius, tb.max_climb) == (0.18, 0.02)
    assert NavSettings.from_dict(spot.to_dict()) == spot
    with pytest.raises(ConfigError, match="preset"):
        NavSettings.preset("boat")
    with pytest.raises(ConfigError, match="cell_size"):
        NavSettings(cell_size=0)


def test_headroom_and_overhangs() -> None:
    sc = worlds.scene(
        worlds.floor(0, 0, 6, 3),
        worlds.wall(1, 1, 2, 2, 0, y0=0.7, y1=0.8, kind="furniture"),  # table top: too low
        worlds.wall(4, 1, 5, 2, 1, y0=1.6, y1=1.8, kind="furniture"),  # shelf: above 1.5 m
        worlds.wall(2.8, 0.2, 3.2, 0.6, 2, y0=0.0, y1=0.15, kind="object"),  # step-over rug
    )
    nm = NavMesh.build(sc, S)
    assert not nm.is_navigable((1.5, 0, 1.5))
    assert nm.is_navigable((4.5, 0, 1.5))
    assert nm.is_navigable((3.0, 0, 0.4))
    assert nm.distance_to_obstacle((1.5, 0, 1.5)) == 0.0
    # beside the table: distance to its edge x = 2
    assert nm.distance_to_obstacle((2.5, 0, 1.5)) == pytest.approx(0.5, abs=0.5 * CS)


def test_steps_and_platforms() -> None:
    sc = worlds.scene(
        worlds.floor(0, 0, 8, 3),
        worlds.wall(1, 0, 2, 3, 0, y0=0.0, y1=0.15, kind="stairs"),  # climbable step
        worlds.wall(5, 0.5, 7, 2.5, 1, y0=0.0, y1=0.4, kind="stairs"),  # too high: own island
    )
    nm = NavMesh.build(sc, S)
    assert len(nm.islands) == 2
    top = nm.snap_point((1.5, 0.1, 1.5))
    assert top is not None and top[1] == pytest.approx(0.15)
    assert nm.island_of((1.5, 0.15, 1.5)) == nm.island_of((0.5, 0, 1.5)) == 0
    assert nm.island_of((6, 0.4, 1.5)) == 1
    # platform island: 2 x 2 m minus a ledge band and the radius on each side
    side = 2.0 - 2 * (R + CS)
    assert nm.island_area(1) == pytest.approx(side * side, rel=0.1)
    # crossing the climbable step: straight line, 3D length includes the 0.15 m risers
    d = nm.geodesic_distance((0.5, 0, 1.5), (3.5, 0, 1.5))
    assert 3.0 <= d <= 3.0 + 0.3 + 1e-6
    assert math.isinf(nm.geodesic_distance((0.5, 0, 1.5), (6, 0.4, 1.5)))


def test_curb_embodiments() -> None:
    road = Surface("road", "road", ((0, 0), (10, 0), (10, 4), (0, 4)), y=0.0)
    walk = Surface("walk", "sidewalk", ((0, 4), (10, 4), (10, 8), (0, 8)), y=0.15)
    sc = Scene(id="curb", kind="outdoor", source="handmade", surfaces=(road, walk))
    spot = NavMesh.build(sc, NavSettings.preset("spot"))
    tb = NavMesh.build(sc, NavSettings.preset("turtlebot"))
    assert len(spot.islands) == 1
    assert len(tb.islands) == 2
    assert math.isfinite(spot.geodesic_distance((5, 0, 2), (5, 0.15, 6)))
    assert math.isinf(tb.geodesic_distance((5, 0, 2), (5, 0.15, 6)))


def _quad(x0: float, x1: float, z0: float, z1: float, y0: float, y1: float) -> tuple:
    """A quad from x0 to x1 rising linearly in y from y0 to y1 (two triangles)."""
    v = np.array([[x0, y0, z0], [x1, y1, z0], [x1, y1, z1], [x0, y0, z1]], dtype=float)
    return v, np.array([[0, 1, 2], [0, 2, 3]])


def test_mesh_slopes() -> None:
    flat_v, flat_f = _quad(0, 4, 0, 2, 0.0, 0.0)
    gentle_v, gentle_f = _quad(4, 6, 0, 2, 0.0, 2 * math.tan(math.radians(20)))
    steep_v, steep_f = _quad(0, 1, 3, 5, 0.0, math.tan(math.radians(60)))
    ground_v, ground_f = _quad(1, 4, 3, 5, 0.0, 0.0)
    sc = Scene(id="mesh", kind="indoor", source="handmade", meshes=(
        Mesh("m0", "floor", flat_v, flat_f), Mesh("m1", "ramp", gentle_v, gentle_f),
        Mesh("m2", "terrain", steep_v, steep_f), Mesh("m3", "floor", ground_v, ground_f)))
    nm = NavMesh.build(sc, S)
    assert nm.is_navigable((2, 0, 1))
    y = 1.0 * math.tan(math.radians(20))
    assert nm.is_navigable((5, y, 1))
    assert nm.snap_point((5, y, 1))[1] == pytest.approx(y, abs=0.02)
    assert not nm.is_navigable((0.5, 0.8, 4))
    assert nm.is_navigable((2.5, 0, 4))


def test_two_storeys_are_separate_layers() -> None:
    sc = worlds.scene(worlds.floor(0, 0, 4, 4, y=0.0, i=0), worlds.floor(0, 0, 4, 4, y=3.0, i=1))
    nm = NavMesh.build(sc, S)
    assert len(nm.layers) == 2 and len(nm.islands) == 2
    assert nm.is_navigable((2, 0, 2)) and nm.is_navigable((2, 3.0, 2))
    assert not nm.is_navigable((2, 1.5, 2))
    assert nm.snap_point((2, 2.9, 2))[1] == pytest.approx(3.0)
    assert math.isinf(nm.geodesic_distance((2, 0, 2), (2, 3, 2)))
    assert nm.geodesic_distance((1, 3, 1), (3, 3, 3)) == pytest.approx(math.hypot(2, 2))


def test_island_areas_and_sampling() -> None:
    # two open rooms 4 x 2 and 2 x 2 m separated by a full wall x in [3.9, 4.1]
    sc = worlds.scene(worlds.floor(0, 0, 6, 2), worlds.wall(3.9, 0, 4.1, 2, 0))
    nm = NavMesh.build(sc, S)
    big = (3.9 - 2 * R) * (2 - 2 * R)
    small = (1.9 - 2 * R) * (2 - 2 * R)
    assert nm.island_area(0) == pytest.approx(big, rel=0.03)
    assert nm.island_area(1) == pytest.approx(small, rel=0.03)
    rng = np.random.default_rng(1)
    pts = [nm.sample_point(rng, island=None) for _ in range(3000)]
    assert all(nm.is_navigable(p) for p in pts)
    frac = np.mean([p[0] < 4 for p in pts])
    expect = big / (big + small)
    assert abs(frac - expect) < 4 * math.sqrt(expect * (1 - expect) / 3000)
    assert nm.sample_point(np.random.default_rng(2))[0] < 4  # "largest" is the default
    # deterministic for a seed
    a = nm.sample_point(np.random.default_rng(5), island=1)
    b = nm.sample_point(np.random.default_rng(5), island=1)
    assert np.array_equal(a, b) and a[0] > 4
    with pytest.raises(ConfigError, match="island"):
        nm.sample_point(rng, island=7)


def test_snap_point() -> None:
    sc = worlds.scene(worlds.floor(0, 0, 6, 2), worlds.wall(2.0, 0, 4.0, 1.0, 0))
    nm = NavMesh.build(sc, S)
    p = nm.snap_point((3.0, 0, 0.5))  # inside the block: nearest free point is north of it
    assert p is not None and nm.is_navigable(p)
    assert p[2] == pytest.approx(1.0 + R, abs=CS)
    assert nm.snap_point((3.0, 0, 5.0)) is None  # beyond snap_radius
    q = (1.0, 0.0, 1.0)
    assert np.array_equal(nm.snap_point(q), np.array(q))
