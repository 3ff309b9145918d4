"""Compiled obstacle distance and surface probe (navbench.sim.proximity_kernels) against the
Python methods, a brute-force ``mj_geomDistance`` scan and ``mj_ray``, along real episodes."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from collections.abc import Callable

import mujoco
import numpy as np
import pytest

from navbench.scene import Box, Scene
from navbench.sim import SPOT, TURTLEBOT, Embodiment, Simulator, mjc
from navbench.sim.actions import VelocityAction, WaypointAction
from navbench.sim.records import R_OD
from tests.sim.test_proximity import brute_force, mj_ray_geom

pytestmark = pytest.mark.skipif(not mjc.available(), reason=mjc.unavailable_reason())

FLOOR = Box("floor", "floor", (0.0, -0.05, 0.0), (20.0, 0.1, 20.0), label="floor")
WALL = Box("w", "wall", (0.0, 1.0, -3.0), (20.0, 2.0, 0.2), label="wall", ref="w")  # face z=-2.9


def both_ways(sim: Simulator) -> tuple[float, float, int, int]:
    """Obstacle distance and surface geom id at the current state, compiled then Python."""
    probe = sim.recorder.probe
    dist, gid = [], []
    for comp in (True, False):
        sim.compiled_records = comp
        dist.append(sim.obstacle_distance())
        gid.append(probe(sim.model, sim.data, sim.data.xpos[sim.world.robot_body]))
    sim.compiled_records = True
    return dist[0], dist[1], gid[0], gid[1]


def check(sim: Simulator) -> tuple[float, int]:
    """Compiled == Python == brute force, for the distance; the same geom as mj_ray, for the
    surface probe; returns both."""
    dc, dp, gc, gp = both_ways(sim)
    assert dc == dp == brute_force(sim)
    assert gc == gp == mj_ray_geom(sim)
    down = sim.recorder.down  # DownRay, whichever the probe uses in this world
    m, d, p = sim.model, sim.data, sim.data.xpos[sim.world.robot_body]
    for comp in (True, False):
        down.compiled = comp
        assert down(m, d, p) == gc
    return dc, gc


def tour(sim: Simulator, points: list[tuple[float, float]], steps: int) -> None:
    """Follow ``points`` (XZ) for ``steps`` agent steps, checking every state."""
    sim.step(WaypointAction.of([(x, z, math.nan) for x, z in points]))
    check(sim)
    for _ in range(steps):
        _, done, _ = sim.step(WaypointAction((), append=True))
        check(sim)
        if done or sim.follower.reached:
            break


def records(sim: Simulator, compiled: bool, run: Callable[[], None]) -> dict[str, np.ndarray]:
    """The records of the episode ``run`` plays, with the compiled or the Python path."""
    sim.compiled_records = compiled
    try:
        run()
        return sim.records()
    finally:
        sim.compiled_records = True


def assert_same_bytes(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> None:
    assert a.keys() == b.keys()
    for k in a:
        assert a[k].dtype == b[k].dtype and a[k].shape == b[k].shape, k
        assert a[k].tobytes() == b[k].tobytes(), k


def free_point(sim: Simulator) -> tuple[float, float]:
    """The 0.1 m grid point of the largest room farthest (XZ) from every obstacle's box."""
    room = max(sim.scene.rooms, key=lambda r: r.area)
    w = sim.world
    lo, hi = w.aabb_lo[w.obstacle_geoms][:, [0, 2]], w.aabb_hi[w.obstacle_geoms][:, [0, 2]]
    poly = np.asarray(room.floor_polygon)
    g = np.stack(np.meshgrid(np.arange(poly[:, 0].min(), poly[:, 0].max(), 0.1),
                             np.arange(poly[:, 1].min(), poly[:, 1].max(), 0.1)), -1).reshape(-1, 2)
    gap = np.maximum(np.maximum(lo[None] - g[:, None], g[:, None] - hi[None]), 0.0)
    x, z = g[np.argmax(np.sqrt((gap ** 2).sum(-1)).min(1))].tolist()
    return x, z


@pytest.mark.parametrize("emb", [SPOT, TURTLEBOT])
def test_house_tour_compiled_equals_python_and_brute_force(emb: Embodiment) -> None:
    from navbench.scene.procgen.indoor import generate_house

    sim = Simulator(generate_house(0, n_rooms=4), emb)
    cx, cz = free_point(sim)
    y = max(sim.scene.rooms, key=lambda r: r.area).floor_y

    def run() -> None:
        sim.reset_to((cx, y, cz), 0.3)
        check(sim)
        tour(sim, [(cx + 0.6 * math.cos(a), cz + 0.6 * math.sin(a))  # a loop in the room
                   for a in np.linspace(0.0, 2.0 * math.pi, 10)], 100)
        for _ in range(50):  # then straight ahead into whatever is there
            if sim.step(VelocityAction(0.8))[1]:
                break
            check(sim)

    comp, py = records(sim, True, run), records(sim, False, run)
    assert_same_bytes(comp, py)
    od = comp["obstacle_distance"]
    assert len(od) > 60 and od.min() == 0.0 and od.max() > 0.3  # free, then at an obstacle


@pytest.mark.parametrize("emb", [SPOT, TURTLEBOT])
def test_city_compiled_equals_python_and_brute_force(emb: Embodiment) -> None:
    from navbench.scene.procgen.outdoor import OutdoorSettings, generate_city

    # clutter by the caps alone (1,000 objects, 200 cars): a 200 m city of > 1,000 geoms
    dense = OutdoorSettings(size=(200.0, 200.0), objects_per_100m=None, cars_per_100m=None)
    sim = Simulator(generate_city(0, dense), emb)
    assert sim.model.ngeom > 1000 and sim.recorder.probe.uses_down_ray  # DownRay's kernel
    rng = np.random.default_rng(11)
    values, kinds = [], set()
    for _ in range(60):  # poses anywhere: in buildings and cars, on roads, outside the city
        x, z = rng.uniform(-105.0, 105.0, 2)
        d = sim.data
        d.qpos[:] = 0.0
        d.qpos[:4] = [x, rng.uniform(-0.1, 0.4), z, rng.uniform(-math.pi, math.pi)]
        mujoco.mj_forward(sim.model, d)
        od, gid = check(sim)
        values.append(od)
        kinds.add(sim.world.geoms[gid].surface if gid >= 0 else "none")
    assert min(values) == 0.0 and sum(0.0 < v < sim.settings.obstacle_cutoff for v in values) >= 5
    assert len(kinds) >= 3
    p = sim.scene.places[0].entrance

    def run() -> None:
        sim.reset_to((float(p[0]), float(p[1]), float(p[2])), 0.0)
        tour(sim, [(float(p[0]) + 4.0 * math.cos(a), float(p[2]) + 4.0 * math.sin(a))
                   for a in np.linspace(0.0, 2.0 * math.pi, 8)], 80)

    assert_same_bytes(records(sim, True, run), records(sim, False, run))


@pytest.mark.parametrize("emb", [SPOT, TURTLEBOT])
def test_pressed_against_a_wall_and_far_from_everything(emb: Embodiment) -> None:
    sim = Simulator(Scene("wall", "indoor", "t", boxes=(FLOOR, WALL)), emb)

    def run() -> None:
        sim.reset_to((0.0, 0.0, 0.0), 0.0)
        for _ in range(60):  # 6 s at up to 1 m/s towards the wall 2.9 m ahead: pressed on it
            sim.step(VelocityAction(1.0))
            check(sim)

    comp = records(sim, True, run)
    assert_same_bytes(comp, records(sim, False, run))
    od = comp["obstacle_distance"]
    assert comp["collision"][-1] and od[-1] == 0.0  # pressing: overlap clipped to 0, exactly
    assert od[0] == pytest.approx(2.9 - (0.55 if emb is SPOT else 0.18), abs=0.01)
    # far from the wall: every pair is beyond the cutoff (and, off the floor, no surface)
    for z, floor in ((9.0, True), (30.0, False)):
        d = sim.data
        d.qpos[:] = 0.0
        d.qpos[:4] = [0.0, 0.0, z, 0.0]
        mujoco.mj_forward(sim.model, d)
        od0, gid = check(sim)
        assert od0 == sim.settings.obstacle_cutoff
        assert (sim.world.geoms[gid].surface if gid >= 0 else None) == ("floor" if floor else None)


def test_nearest_pair_changes_between_calls() -> None:
    # two tables on either side: the warm-started nearest pair of the last call stops being
    # the nearest, and the cell's candidates are reused from the cache on the way back
    left = Box("l", "furniture", (-1.2, 0.4, 0.0), (0.4, 0.8, 0.4), label="table", ref="l")
    right = Box("r", "furniture", (1.2, 0.4, 0.0), (0.4, 0.8, 0.4), label="table", ref="r")
    sim = Simulator(Scene("two", "indoor", "t", boxes=(FLOOR, left, right)), SPOT)
    for x in [*np.linspace(-0.3, 0.3, 13), *np.linspace(0.3, -0.3, 13)]:
        d = sim.data
        d.qpos[:] = 0.0
        d.qpos[:4] = [x, 0.0, 0.0, math.pi / 2]  # facing -X: the hull's length along X
        mujoco.mj_forward(sim.model, d)
        od, _ = check(sim)
        # the hull's ends are 0.55 m from its centre; the table faces at x = ±1.0
        assert od == pytest.approx(1.0 - 0.55 - abs(x), abs=1e-4)


def test_navbench_mjc_0_selects_the_python_path() -> None:
    code = ("from navbench.scene import Box, Scene; from navbench.sim import Simulator;"
            "f = Box('f', 'floor', (0, -0.05, 0), (4, 0.1, 4), label='floor');"
            "s = Simulator(Scene('s', 'indoor', 't', boxes=(f,)));"
            "print(s.compiled_records, s.recorder.proximity.compiled, s.recorder.probe.compiled)")
    env = dict(os.environ, NAVBENCH_MJC="0")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout
    assert out.split() == ["False", "False", "False"]


def test_record_rows_after_cells_built_by_direct_calls() -> None:
    # direct calls build (and grow the arrays of) many cells; a record row in one of them
    # must read the grown arrays: the same row as the Python path
    from navbench.scene.procgen.outdoor import OutdoorSettings, generate_city

    sim = Simulator(generate_city(0, OutdoorSettings(size=(200.0, 200.0))), SPOT)
    sim.recorder.probe.uses_down_ray = True
    p = sim.scene.places[0].entrance
    sim.reset_to((float(p[0]), float(p[1]), float(p[2])), 0.0)
    d, pose = sim.data, sim.data.qpos.copy()
    for x in np.linspace(-100.0, 100.0, 40):
        for z in (-60.0, 0.0, 60.0):
            d.qpos[:3] = [x, 0.0, z]
            mujoco.mj_forward(sim.model, d)
            check(sim)
    d.qpos[:] = pose
    mujoco.mj_forward(sim.model, d)
    rows = []
    for comp in (True, False):
        sim.compiled_records = comp
        sim._record(stop=False)
        rows.append({k: v[-1:] for k, v in sim.records().items()})
    sim.compiled_records = True
    assert_same_bytes(rows[0], rows[1])
    assert rows[0]["obstacle_distance"][0] == brute_force(sim)


def test_candidate_cache_cleared_and_rebuilt(monkeypatch: pytest.MonkeyPatch) -> None:
    # more cells than the cache keeps: the flat arrays restart, cells are rebuilt on a revisit
    from navbench.sim import proximity

    monkeypatch.setattr(proximity, "_MAX_CACHED_CELLS", 2)
    tables = tuple(Box(f"t{i}", "furniture", (-4.0 + 2.0 * i, 0.4, -1.2), (0.6, 0.8, 0.6),
                       label="table", ref=f"t{i}") for i in range(5))
    sim = Simulator(Scene("row", "indoor", "t", boxes=(FLOOR, WALL, *tables)), SPOT)
    sim.reset_to((0.0, 0.0, 0.0), 0.0)
    d = sim.data
    for x in [*np.linspace(-5.0, 5.0, 21), *np.linspace(5.0, -5.0, 21)]:
        d.qpos[:] = 0.0
        d.qpos[:4] = [x, 0.0, 0.2, 0.4]
        mujoco.mj_forward(sim.model, d)
        od, _ = check(sim)
        assert 0.0 < od < sim.settings.obstacle_cutoff
        sim._record(stop=False)
        assert sim.recorder.rows.buf[len(sim.recorder.rows) - 1, R_OD] == od  # the compiled row
    assert len(sim.recorder.proximity._slots) <= 3


def test_obstacle_distance_fn_replaces_the_mujoco_distance() -> None:
    # a user distance function bypasses the compiled row: its value (here 10 - z of the base
    # ground point) is recorded, the rest of the row as the compiled path records it
    from navbench.sim import SimSettings

    scene = Scene("wall", "indoor", "t", boxes=(FLOOR, WALL))
    runs = []
    for fn in (None, lambda p: 10.0 - float(p[2])):
        sim = Simulator(scene, SPOT, SimSettings(obstacle_distance_fn=fn))
        sim.reset_to((0.0, 0.0, 0.0), 0.0)
        for _ in range(10):
            sim.step(VelocityAction(0.5))
        runs.append(sim.records())
    plain, user = runs
    assert user["obstacle_distance"].tolist() == (10.0 - user["position"][:, 2]).tolist()
    assert plain["obstacle_distance"][0] == pytest.approx(2.9 - 0.55, abs=0.01)
    for k in plain:
        if k != "obstacle_distance":
            assert plain[k].tobytes() == user[k].tobytes(), k
