"""Simulator speed: physics real-time factor (no rendering) in a 6-room house, and RGB-D-S fps.

Prints: raw MuJoCo stepping (mj_step only, the reference: a constant command, and a replay of
the full loop's own controls and force caps), the full control loop (follower/servos + contact
scan + per-step records; the compiled agent step where available) as a ratio of both, the same
loop on the Python path (``Simulator(compiled=False)``), the time per agent step outside
physics of both, and frames per second of
RGB + depth + segmentation at 640×480 through Mesa (MUJOCO_GL, osmesa by default).
Targets: full loop ≥ 0.6 of raw mj_step (issue 18; ≥ 300× real time in a house, ≥ 100× on a
1 km² city with ``--city-size 1000``), ≥ 20 fps.

    .venv/bin/python benchmarks/bench_sim.py [--seconds 60] [--frames 30] [--city-size 1000]
                                             [--cpu N]
    (--frames 0: physics only; --cpu: run on that CPU only)

On a shared virtual machine the same run can differ by 1.6× from one process to the next
(the virtual CPUs are not equally fast, and a process mostly stays on one): compare the ratios
printed, which are measured in the same process, and pin the process (``--cpu``) to compare
absolute speeds between runs.
"""

from __future__ import annotations

import argparse
import math
import os
import time

import mujoco
import numpy as np

from navbench.scene import Box, Room, Scene
from navbench.sim import SPOT, SimSettings, Simulator
from navbench.sim.actions import WaypointAction


def house() -> Scene:
    """The procedural 6-room house, or a synthetic box house if procgen is unavailable."""
    try:
        from navbench.scene.procgen.indoor import generate_house

        return generate_house(0, n_rooms=6)
    except ImportError:
        boxes = [Box("floor", "floor", (6.0, -0.05, -4.0), (12.0, 0.1, 8.0), label="floor")]
        rooms = []
        for i in range(6):
            x0, z0 = 4.0 * (i % 3), -4.0 * (i // 3)
            rooms.append(Room(f"r{i}", "room", ((x0, z0), (x0 + 4, z0), (x0 + 4, z0 - 4),
                                                (x0, z0 - 4))))
            boxes.append(Box(f"t{i}", "furniture", (x0 + 1, 0.4, z0 - 1), (1, 0.8, 0.6),
                             label="table", ref=f"o{i}"))
        return Scene("box_house", "indoor", "bench", rooms=tuple(rooms), boxes=tuple(boxes))


def free_point(sim: Simulator, room: Room) -> tuple[float, float]:
    """The grid point of the room farthest (in XZ) from any obstacle geom's bounding box."""
    from navbench.geometry import point_in_polygon

    w = sim.world
    lo, hi = w.aabb_lo[w.obstacle_geoms][:, [0, 2]], w.aabb_hi[w.obstacle_geoms][:, [0, 2]]
    poly = np.asarray(room.floor_polygon)
    best, best_d = room.centroid, -1.0
    for x in np.arange(poly[:, 0].min(), poly[:, 0].max(), 0.1):
        for z in np.arange(poly[:, 1].min(), poly[:, 1].max(), 0.1):
            if not point_in_polygon((x, z), room.floor_polygon):
                continue
            gap = np.maximum(np.maximum(lo - (x, z), (x, z) - hi), 0.0)
            dmin = float(np.sqrt((gap**2).sum(axis=1)).min())
            if dmin > best_d:
                best, best_d = (float(x), float(z)), dmin
    return best


def loop_path(c: tuple[float, float], r: float = 0.5) -> list[tuple[float, float, float]]:
    cx, cz = c
    return [(cx + r * math.cos(a), cz + r * math.sin(a), math.nan)
            for a in np.linspace(0, 2 * math.pi, 12, endpoint=False)]


def _full_loop(sim: Simulator, start: tuple[float, float, float], path: list[tuple[float, float,
               float]], seconds: float, *, reset: bool = True) -> float:
    """Run the waypoint loop for ``seconds`` simulated; its process CPU time (s)."""
    if reset:
        sim.reset_to(start, 0.0)
    t0 = time.process_time()
    sim.step(WaypointAction.of(path))
    while sim.time < seconds:
        if sim.follower.reached:
            sim.step(WaypointAction.of(path))
        else:
            sim.step(WaypointAction((), append=True))
    return time.process_time() - t0


def loop_ratio(sim: Simulator, start: tuple[float, float, float], c: tuple[float, float],
               seconds: float, repeats: int = 3) -> float:
    """Print raw mj_step speed (the reference) and the full loop's speed as a ratio of it.

    ``sim`` runs the loop as configured (the compiled agent step where available); a second
    simulator of the same scene with ``compiled=False`` runs the Python loop (one
    ``mujoco.mj_step`` call per control tick), whose calls are timed and recorded for the
    replay (both loops make the same C calls: their records are compared). Raw, full and
    Python-loop runs alternate ``repeats`` times (``seconds`` simulated each) and are timed in
    process CPU time; the best speed of each is kept, so load from other processes on a shared
    machine skews the ratios less. The raw run holds a constant command (the robot ends up
    pressing on an obstacle), so it can cost more or less physics per step than the loop's own
    motion; the replay runs exactly the loop's physics."""
    m, d = sim.model, sim.data
    py = sim if not sim.compiled else Simulator(sim.scene, sim.embodiment, sim.settings,
                                                compiled=False)
    path = loop_path(c)
    raw = full = pyfull = 0.0
    for _ in range(repeats):
        sim.reset_to(start, 0.0)
        d.ctrl[:] = [0.3, 0.2, 0.4]
        n = round(seconds / m.opt.timestep)
        t0 = time.process_time()
        mujoco.mj_step(m, d, nstep=n)
        raw = max(raw, seconds / (time.process_time() - t0))
        full = max(full, seconds / _full_loop(sim, start, path, seconds))
        pyfull = max(pyfull, seconds / _full_loop(py, start, path, seconds))
    rec = sim.records()
    _full_loop(py, start, path, seconds)
    same_rec = all(np.array_equal(v, py.records()[k]) for k, v in rec.items())
    inside = [0]
    step = mujoco.mj_step

    def timed_step(model: mujoco.MjModel, data: mujoco.MjData, nstep: int = 1) -> None:
        t = time.process_time_ns()
        step(model, data, nstep)
        inside[0] += time.process_time_ns() - t

    mujoco.mj_step = timed_step  # the Python loop looks it up once per agent step
    try:
        cpu = _full_loop(py, start, path, seconds)
        share = inside[0] * 1e-9 / cpu
    finally:
        mujoco.mj_step = step
    replay, same = replay_speed(py, start, path, seconds, repeats)
    steps = seconds / sim.settings.agent_dt
    print(f"raw mj_step           : {raw:8.0f}x real time (reference; CPU time, best of {repeats})")
    print(f"raw replay of the loop: {replay:8.0f}x real time (the loop's own controls and force "
          f"caps, mj_step only; same final state: {same})")
    print(f"full loop (no render) : {full:8.0f}x real time  = {full / raw:.2f} of raw, "
          f"{full / replay:.2f} of the replay "
          f"(targets: >= 0.6 of raw; >= 300x in a house, >= 100x on a 1 km2 city)"
          f"{'' if sim.compiled else ' [Python loop: sim.mjc unavailable]'}")
    print(f"Python loop           : {pyfull:8.0f}x real time  = {pyfull / raw:.2f} of raw "
          f"(compiled=False: mj_step per tick through the bindings; same records: {same_rec})")
    print(f"mj_step in the Py loop: {share:8.2f} of its CPU time")
    for name, v in (("full loop", full), ("Python loop", pyfull)):
        us = (seconds / v - seconds / replay) / steps * 1e6
        print(f"outside physics       : {us:8.0f} us per 0.1 s agent step, {name} "
              f"(its time minus the replay's)")
    return full / raw


def replay_speed(sim: Simulator, start: tuple[float, float, float],
                 path: list[tuple[float, float, float]], seconds: float,
                 repeats: int) -> tuple[float, bool]:
    """Raw ``mj_step`` speed on the full loop's *own* motion: one full loop records the
    controls and actuator force ranges before every ``mj_step`` call; the replay writes them
    back and steps, nothing else (the same contacts and solver work as the loop, unlike the
    constant-command raw run). Returns the best speed (× real time, CPU time) and whether the
    replay ended in the loop's final state (MuJoCo is deterministic, so it must)."""
    m, d = sim.model, sim.data
    calls: list[tuple[np.ndarray, np.ndarray, int]] = []
    step = mujoco.mj_step

    def recording_step(model: mujoco.MjModel, data: mujoco.MjData, nstep: int = 1) -> None:
        calls.append((data.ctrl.copy(), model.actuator_forcerange.copy(), nstep))
        step(model, data, nstep)

    sim.reset_to(start, 0.0)  # its settle steps are not part of the loop
    mujoco.mj_step = recording_step
    try:
        _full_loop(sim, start, path, seconds, reset=False)
    finally:
        mujoco.mj_step = step
    final = d.qpos.copy()
    best, same = 0.0, True
    fr = m.actuator_forcerange
    for _ in range(repeats):
        sim.reset_to(start, 0.0)
        ctrl = d.ctrl
        t0 = time.process_time()
        for c, f, n in calls:
            ctrl[:] = c
            fr[:] = f
            step(m, d, n)
        best = max(best, seconds / (time.process_time() - t0))
        same = same and bool(np.array_equal(d.qpos, final))
    return best, same


def city_loop(size: float, seconds: float) -> None:
    """The same measurement on a generated city of ``size`` × ``size`` m (start: the sidewalk
    point in front of the first place's entrance)."""
    from navbench.scene.procgen.outdoor import OutdoorSettings, generate_city

    scene = generate_city(0, OutdoorSettings(size=(size, size)))
    p = scene.places[0].entrance
    sim = Simulator(scene, SPOT, SimSettings(render=False))
    print(f"scene {scene.id}: {len(scene.boxes)} boxes, {sim.model.ngeom} geoms")
    loop_ratio(sim, (float(p[0]), float(p[1]), float(p[2])), (float(p[0]), float(p[2])), seconds)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=60.0, help="simulated seconds")
    ap.add_argument("--frames", type=int, default=30, help="rendered frames (0: no rendering)")
    ap.add_argument("--city-size", type=float, default=0.0,
                    help="also measure a generated city of this size (m; 1000 = 1 km²)")
    ap.add_argument("--cpu", type=int, default=None,
                    help="run on this CPU only (os.sched_setaffinity; Linux)")
    a = ap.parse_args()
    if a.cpu is not None:
        os.sched_setaffinity(0, {a.cpu})
    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    print(f"CPUs this process may run on: {cpus}")
    scene = house()
    room = max(scene.rooms, key=lambda r: r.area)
    sim = Simulator(scene, SPOT, SimSettings(render=False))
    c = free_point(sim, room)
    start = (c[0], room.floor_y, c[1])
    print(f"scene {scene.id}: {len(scene.boxes)} boxes, {sim.model.ngeom} geoms")

    loop_ratio(sim, start, c, a.seconds)
    if a.city_size > 0:
        city_loop(a.city_size, a.seconds)
    if a.frames <= 0:  # --frames 0: physics only
        return

    rsim = Simulator(scene, SPOT, SimSettings(render=True, width=640, height=480))
    rsim.reset_to(start, 0.0)
    cam = rsim._camera
    assert cam is not None  # render=True
    cam.render(rsim.data)  # warm up
    t0 = time.perf_counter()
    for i in range(a.frames):
        d = rsim.data
        d.qpos[3] = 2 * math.pi * i / a.frames
        mujoco.mj_forward(rsim.model, d)
        cam.render(d)
    fps = a.frames / (time.perf_counter() - t0)
    t0 = time.perf_counter()
    for _ in range(a.frames):
        mujoco.mjv_updateScene(rsim.model, rsim.data, cam._opt, None, cam._cam,
                               mujoco.mjtCatBit.mjCAT_ALL, cam._scn)
        mujoco.mjr_render(cam._rect, cam._scn, cam._mjr)
        mujoco.mjr_readPixels(cam._rgb, None, cam._rect, cam._mjr)
    rgb_only = a.frames / (time.perf_counter() - t0)
    print(f"RGB-only pass         : {rgb_only:8.1f} fps at 640x480 (reference)")
    print(f"RGB + depth + semantic: {fps:8.1f} fps at 640x480 = {fps / rgb_only:.2f} of RGB-only "
          f"(target >= 20 fps)")
    rsim.close()


if __name__ == "__main__":
    main()
