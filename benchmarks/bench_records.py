"""Per-step record cost: compiled obstacle distance and surface probe against the Python ones.

Runs the bench house's waypoint loop (``bench_sim.py``'s) for ``--seconds`` simulated and keeps
the robot's state after every agent step; then, at each kept state (kinematics restored, not
timed), times one ``Simulator.obstacle_distance()``, one surface probe and one whole record row
with the compiled path and with the Python path (``Simulator.compiled_records``), each in its own
pass, and checks that both give the same values. Prints µs per call (mean over the states, best
of 2 passes) and the ratio. ``--city-size 1000`` adds the same on a generated 1 km² city.

    .venv/bin/python benchmarks/bench_records.py [--seconds 20] [--city-size 1000]
"""

from __future__ import annotations

import argparse
import time

import mujoco
import numpy as np
from bench_sim import free_point, house, loop_path

from navbench.sim import SPOT, SimSettings, Simulator
from navbench.sim.actions import WaypointAction


def states(sim: Simulator, start: tuple[float, float, float], c: tuple[float, float],
           seconds: float) -> list[np.ndarray]:
    """``qpos`` after every agent step of the waypoint loop about ``c``."""
    path = loop_path(c)
    sim.reset_to(start, 0.0)
    out = [sim.data.qpos.copy()]
    sim.step(WaypointAction.of(path))
    while sim.time < seconds and sim.label is None:
        sim.step(WaypointAction.of(path) if sim.follower.reached else
                 WaypointAction((), append=True))
        out.append(sim.data.qpos.copy())
    return out


def measure(sim: Simulator, qs: list[np.ndarray], label: str, repeats: int = 2) -> None:
    """Print µs per obstacle distance, surface probe and record row, compiled vs Python: each
    in its own pass over the states (the best of ``repeats`` passes per path)."""
    m, d = sim.model, sim.data
    clock = time.perf_counter_ns
    calls = {"obstacle_distance": sim.obstacle_distance, "surface probe": sim.recorder.surface,
             "record row": lambda: sim._record(stop=False)}
    best = {(n, c): float("inf") for n in calls for c in (True, False)}
    vals: dict[bool, list[object]] = {True: [], False: []}
    for _ in range(repeats):
        for comp in (True, False):
            sim.compiled_records = comp
            for name, call in calls.items():
                tot = 0
                for q in qs:
                    d.qpos[:] = q
                    mujoco.mj_kinematics(m, d)
                    t0 = clock()
                    v = call()
                    tot += clock() - t0
                    vals[comp].append(v)
                best[name, comp] = min(best[name, comp], tot / len(qs) / 1e3)
    sim.compiled_records = True
    print(f"{label}: {len(qs)} agent-step states, same values both ways: "
          f"{vals[True] == vals[False]}")
    for name in calls:
        c, p = best[name, True], best[name, False]
        print(f"  {name:18s}: compiled {c:6.1f} us, Python {p:6.1f} us  = {c / p:.2f} of Python")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=20.0, help="simulated seconds of the loop")
    ap.add_argument("--city-size", type=float, default=0.0,
                    help="also measure a generated city of this size (m; 1000 = 1 km²)")
    a = ap.parse_args()
    scene = house()
    room = max(scene.rooms, key=lambda r: r.area)
    sim = Simulator(scene, SPOT, SimSettings(render=False))
    if not sim.compiled_records:
        print("compiled path unavailable (NAVBENCH_MJC=0 or a MuJoCo mismatch)")
        return
    c = free_point(sim, room)
    qs = states(sim, (c[0], room.floor_y, c[1]), c, a.seconds)
    measure(sim, qs[:5], "warm-up (compiles or loads the kernels)")
    measure(sim, qs, f"house {scene.id} ({sim.model.ngeom} geoms)")
    if a.city_size > 0:
        from navbench.scene.procgen.outdoor import OutdoorSettings, generate_city

        city = generate_city(0, OutdoorSettings(size=(a.city_size, a.city_size)))
        p = city.places[0].entrance
        sim = Simulator(city, SPOT, SimSettings(render=False))
        qs = states(sim, (float(p[0]), float(p[1]), float(p[2])), (float(p[0]), float(p[2])),
                    a.seconds)
        measure(sim, qs[:5], "warm-up (the city's first cells)")
        measure(sim, qs, f"city {city.id} ({sim.model.ngeom} geoms)")


if __name__ == "__main__":
    main()
