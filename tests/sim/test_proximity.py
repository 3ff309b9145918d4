"""Obstacle distance and surface ray of the simulator: hand-built values, brute force, mj_ray."""

from __future__ import annotations

import math

import mujoco
import numpy as np
import pytest

from navbench.scene import Box, Scene
from navbench.sim import SPOT, TURTLEBOT, Embodiment, Simulator
from navbench.sim.embodiments import GROUP_HFIELD, GROUP_STATIC

FLOOR = Box("floor", "floor", (0.0, -0.05, 0.0), (20.0, 0.1, 20.0), label="floor")
WALL = Box("w", "wall", (0.0, 1.0, -3.0), (20.0, 2.0, 0.2), label="wall", ref="w")  # face z=-2.9
TABLE = Box("t", "furniture", (1.5, 0.4, 0.0), (1.0, 0.8, 1.0), label="table", ref="t")  # x=1.0
SHELF = Box("s", "furniture", (-2.0, 1.6, 1.0), (0.4, 0.2, 0.4), label="shelf", ref="s")  # high


def place(sim: Simulator, x: float, z: float, yaw: float, y: float = 0.0) -> None:
    """Put the base at ground point (x, y, z) with ``yaw``, upright, and update the kinematics."""
    d = sim.data
    d.qpos[:] = 0.0
    d.qpos[:4] = [x, y, z, yaw]
    mujoco.mj_forward(sim.model, d)


def brute_force(sim: Simulator) -> float:
    """Every robot geom against every obstacle geom, no pruning (m, capped at the cutoff)."""
    cut = sim.settings.obstacle_cutoff
    best = cut
    for r in sim.world.robot_geoms.tolist():
        for k in sim.world.obstacle_geoms.tolist():
            best = min(best, max(mujoco.mj_geomDistance(sim.model, sim.data, r, k, cut, None), 0.0))
    return best


def previous_pruning(sim: Simulator) -> float:
    """The simulator's former method: obstacles ordered by the XZ gap of their box to a disc
    about the body origin holding all robot geoms, exact distances until the gap exceeds the
    best one."""
    m, d, w = sim.model, sim.data, sim.world
    rg, ids, cut = w.robot_geoms, w.obstacle_geoms, sim.settings.obstacle_cutoff
    reach = float((m.geom_rbound[rg] + np.hypot(m.geom_pos[rg, 0], m.geom_pos[rg, 2])).max())
    lo, hi = w.aabb_lo[ids][:, [0, 2]], w.aabb_hi[ids][:, [0, 2]]
    b = d.xpos[w.robot_body]
    gap = np.maximum(np.abs(0.5 * (lo + hi) - (b[0], b[2])) - 0.5 * (hi - lo), 0.0)
    g = np.hypot(gap[:, 0], gap[:, 1]) - reach
    near = np.flatnonzero(g < cut)
    best = cut
    for k in near[np.argsort(g[near])].tolist():
        if g[k] > best:
            break
        for r in rg.tolist():
            best = min(best, max(mujoco.mj_geomDistance(m, d, r, int(ids[k]), best, None), 0.0))
    return best


@pytest.mark.parametrize(("emb", "yaw", "expect"), [
    # Spot's hull and sole are 0.5 m wide, 1.1 m long: facing -Z the table face (x = 1.0) is
    # 1.0 - 0.25 away, the wall face (z = -2.9) 2.9 - 0.55; turned 90° the table is 1.0 - 0.55.
    (SPOT, 0.0, 0.75), (SPOT, math.pi / 2, 0.45),
    # the Turtlebot's hull is a 0.18 m-radius cylinder: the table face is 1.0 - 0.18 away
    (TURTLEBOT, 0.0, 0.82), (TURTLEBOT, 1.0, 0.82),
])
def test_obstacle_distance_by_hand(emb: Embodiment, yaw: float, expect: float) -> None:
    sim = Simulator(Scene("room", "indoor", "t", boxes=(FLOOR, WALL, TABLE, SHELF)), emb)
    place(sim, 0.0, 0.0, yaw)
    assert sim.obstacle_distance() == pytest.approx(expect, abs=1e-4)
    assert sim.obstacle_distance() == brute_force(sim) == previous_pruning(sim)


def test_obstacle_distance_cutoff_and_empty_cells() -> None:
    sim = Simulator(Scene("room", "indoor", "t", boxes=(FLOOR, WALL, TABLE, SHELF)), SPOT)
    place(sim, 0.0, 8.0, 0.0)  # 8 m from the table's near edge, 10.35 m from the wall
    assert sim.obstacle_distance() == sim.settings.obstacle_cutoff == brute_force(sim)
    place(sim, 40.0, 40.0, 0.0)  # off the floor, far from everything: an empty grid cell
    assert sim.obstacle_distance() == sim.settings.obstacle_cutoff
    place(sim, 0.0, -2.0, 0.0)  # the hull's front 0.35 m from the wall
    assert sim.obstacle_distance() == pytest.approx(0.35, abs=1e-4)
    place(sim, 0.8, 0.0, 0.0)  # overlapping the table: 0, not negative
    assert sim.obstacle_distance() == 0.0 == brute_force(sim)


@pytest.mark.parametrize("emb", [SPOT, TURTLEBOT])
def test_obstacle_distance_matches_brute_force_in_a_house(emb: Embodiment) -> None:
    from navbench.scene.procgen.indoor import generate_house

    sim = Simulator(generate_house(0, n_rooms=4), emb)
    rooms = sim.scene.rooms
    rng = np.random.default_rng(7)
    values = []
    for i in range(40):  # about each room's centre, in walls and furniture now and then
        cx, cz = rooms[i % len(rooms)].centroid
        x, z = cx + rng.uniform(-1.5, 1.5), cz + rng.uniform(-1.5, 1.5)
        place(sim, float(x), float(z), float(rng.uniform(-math.pi, math.pi)),
              y=float(rng.choice([0.0, 0.0, 0.3])))
        v = sim.obstacle_distance()
        assert v == brute_force(sim) == previous_pruning(sim)
        values.append(v)
    # a real mix of cases: overlapping walls or furniture, and free poses at various distances
    assert min(values) == 0.0 and sum(v > 0.05 for v in values) >= 8


def mj_ray_geom(sim: Simulator) -> int:
    """``mj_ray``'s geom straight below the body origin over the static groups (-1: none)."""
    groups = np.zeros(6, np.uint8)
    groups[[GROUP_STATIC, GROUP_HFIELD]] = 1
    gid = np.zeros(1, np.int32)
    pnt = sim.data.xpos[sim.world.robot_body].copy()
    dist = mujoco.mj_ray(sim.model, sim.data, pnt, np.array([0.0, -1.0, 0.0]), groups, 1,
                         sim.world.robot_body, gid)
    return int(gid[0]) if dist >= 0 else -1


def test_surface_ray_by_hand() -> None:
    curb = Box("c", "curb", (3.0, 0.075, 0.0), (2.0, 0.15, 2.0), label="curb")
    twin = Box("c2", "curb", (3.0, 0.075, 0.0), (2.0, 0.15, 2.0), label="curb")  # same box
    sim = Simulator(Scene("s", "outdoor", "t", boxes=(FLOOR, curb, twin, TABLE)), TURTLEBOT)
    names = [g.name for g in sim.world.geoms]
    for (x, z, y), expect in [((0.0, -5.0, 0.0), "box:floor"), ((3.0, 0.5, 0.15), "box:c"),
                              ((1.2, 0.0, 0.8), "box:t"), ((30.0, 0.0, 0.0), None)]:
        place(sim, x, z, 0.0, y=y)
        gid = sim.recorder.down(sim.model, sim.data, sim.data.xpos[sim.world.robot_body])
        assert gid == mj_ray_geom(sim)  # the lower id of the two coincident curbs wins
        assert (names[gid] if gid >= 0 else None) == expect
    place(sim, 30.0, 0.0, 0.0)
    assert sim.recorder.surface() == ("none", False)


def test_surface_ray_matches_mj_ray_on_a_city() -> None:
    from navbench.scene.procgen.outdoor import OutdoorSettings, generate_city

    sim = Simulator(generate_city(0, OutdoorSettings(size=(120.0, 120.0))), SPOT)
    rng = np.random.default_rng(3)
    kinds = set()
    for _ in range(150):
        x, z = rng.uniform(-65.0, 65.0, 2)
        place(sim, float(x), float(z), 0.0, y=float(rng.uniform(-0.2, 0.5)))
        gid = sim.recorder.down(sim.model, sim.data, sim.data.xpos[sim.world.robot_body])
        assert gid == mj_ray_geom(sim)
        kinds.add(sim.world.geoms[gid].surface if gid >= 0 else "none")
    assert len(kinds) >= 3  # roads, sidewalks, ... and outside the city


def test_obstacle_distance_along_a_path_matches_brute_force() -> None:
    # small moves (the warm-started nearest pair stays nearest, then changes) and cells visited
    # twice (cached rings): still the brute-force minimum at every pose
    sim = Simulator(Scene("room", "indoor", "t", boxes=(FLOOR, WALL, TABLE, SHELF)), SPOT)
    poses = [(-1.0 + 0.05 * i, -1.5 + 0.04 * i, 0.1 * i) for i in range(60)]
    for x, z, yaw in poses + poses[::-1]:
        place(sim, x, z, yaw)
        assert sim.obstacle_distance() == brute_force(sim)
