"""Outdoor scenes: generation and navmesh build time for a 1 km² city; physics real-time factor.

Targets (issue 8): generation <= 30 s, navmesh build (``outdoor`` preset) <= 30 s on one core,
physics RTF >= 50x with the ~3,000-geom city. References measured in the same run: a
0.25 km² city (scaling), and MuJoCo stepping the same free body with only a ground plane.
Run: ``.venv/bin/python benchmarks/bench_outdoor.py``.
"""

from __future__ import annotations

import os
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")


def _timed(fn, *a, **k):  # type: ignore[no-untyped-def]
    t = time.perf_counter()
    out = fn(*a, **k)
    return out, time.perf_counter() - t


def _rtf(boxes: list, seconds: float = 2.0, sleep: bool = False) -> float:  # type: ignore[type-arg]
    """Real-time factor of a 200 Hz MuJoCo world: the static boxes plus one free box robot
    (``sleep``: MuJoCo sleeping on, as in the Simulator: kinematics skips the static geoms)."""
    import mujoco

    spec = mujoco.MjSpec()
    spec.option.timestep = 0.005
    if sleep:
        spec.option.enableflags |= mujoco.mjtEnableBit.mjENBL_SLEEP
    wb = spec.worldbody
    wb.add_geom(type=mujoco.mjtGeom.mjGEOM_PLANE, size=[600, 600, 0.1], pos=[0, 0, -0.8])
    for b in boxes:  # Habitat (x, y, z) -> MuJoCo (x, -z, y), yaw about +Z
        wb.add_geom(type=mujoco.mjtGeom.mjGEOM_BOX, size=[b.size[0] / 2, b.size[2] / 2, b.size[1] / 2],
                    pos=[b.center[0], -b.center[2], b.center[1]], euler=[0, 0, b.yaw])
    body = wb.add_body(pos=[0.0, 0.0, 0.6])
    body.sleep = mujoco.mjtSleepPolicy.mjSLEEP_NEVER
    body.add_freejoint()
    body.add_geom(type=mujoco.mjtGeom.mjGEOM_BOX, size=[0.5, 0.25, 0.3], mass=30.0)
    m = spec.compile()
    d = mujoco.MjData(m)
    n = int(seconds / m.opt.timestep)
    t = time.perf_counter()
    for _ in range(n):
        d.qvel[0] = 1.0
        mujoco.mj_step(m, d)
    return seconds / (time.perf_counter() - t)


def main() -> None:
    from navbench.scene.procgen.outdoor import OutdoorSettings, generate_city

    generate_city(0, OutdoorSettings(size=(100.0, 100.0)))  # warm imports
    ref, t_ref = _timed(generate_city, 0, OutdoorSettings(size=(500.0, 500.0), cars=50, sidewalk_objects=250))
    city, t_gen = _timed(generate_city, 0)
    print(f"generate 1 km² city: {t_gen:.2f} s ({len(city.boxes)} boxes, {len(city.objects)} objects, "
          f"{len(city.places)} places); 0.25 km² reference {t_ref:.2f} s; ratio {t_gen / t_ref:.1f}x; "
          f"target <= 30 s: {'OK' if t_gen <= 30 else 'MISSED'}")
    try:
        from navbench.nav import NavMesh, NavSettings

        NavMesh.build(ref, NavSettings.preset("outdoor"))  # JIT warm-up
        _, t_nr = _timed(NavMesh.build, ref, NavSettings.preset("outdoor"))
        nm, t_nav = _timed(NavMesh.build, city, NavSettings.preset("outdoor"))
        print(f"navmesh build (outdoor preset, 0.25 m cells): {t_nav:.2f} s; 0.25 km² reference {t_nr:.2f} s; "
              f"target <= 30 s: {'OK' if t_nav <= 30 else 'MISSED'}; islands {len(nm.islands)}")
    except ImportError as e:
        print(f"navmesh build: skipped ({e})")
    r_empty = _rtf([])
    r_city = _rtf(list(city.boxes))
    print(f"physics RTF (raw MuJoCo, 200 Hz, {len(city.boxes)} static boxes + 1 free body): {r_city:.0f}x; "
          f"ground-plane-only reference {r_empty:.0f}x; ratio {r_city / r_empty:.2f}; "
          f"target >= 50x: {'OK' if r_city >= 50 else 'MISSED'}")
    r_sleep = _rtf(list(city.boxes), sleep=True)
    print(f"physics RTF (raw MuJoCo with sleeping, as the Simulator runs it): {r_sleep:.0f}x = "
          f"{r_sleep / r_city:.1f}x the one without (static geoms skipped by kinematics)")
    r_sim, n_geom = _sim_rtf(city)
    print(f"physics RTF (navbench Simulator, Spot, no rendering, {n_geom} geoms incl. surfaces): "
          f"{r_sim:.0f}x; raw-MuJoCo reference {r_city:.0f}x; ratio {r_sim / r_city:.2f}; "
          f"target >= 50x: {'OK' if r_sim >= 50 else 'MISSED'}")


def _sim_rtf(scene: object, seconds: float = 10.0) -> tuple[float, int]:
    """Real-time factor of the full navbench episode loop (controller, contacts, records)."""
    from navbench.sim import SPOT, Simulator
    from navbench.sim.actions import VelocityAction

    sim = Simulator(scene, SPOT)  # type: ignore[arg-type]
    x, z = scene.places[0].entrance[0], scene.places[0].entrance[2]  # type: ignore[attr-defined]
    sim.reset_to((x, 0.0, z), 0.0)
    t0 = time.perf_counter()
    for _ in range(round(seconds / 0.1)):
        sim.step(VelocityAction(0.5, 0.0, 0.3))
    return seconds / (time.perf_counter() - t0), int(sim.model.ngeom)


if __name__ == "__main__":
    main()
