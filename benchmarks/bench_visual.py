"""Visual layer speed and light, against a reference source tree measured in the same run.

Measures, for this tree and (``--reference DIR``: a ``src`` folder of another checkout, e.g.
``git worktree add --detach /tmp/nb_base main`` then ``--reference /tmp/nb_base/src``) for the
reference, each in its own process, alternating ``--rounds`` times so that both see the same
machine load:

- RGB + depth + semantic fps at ``--size`` in a furnished 6-room house (4 headings from every
  room centre) and on a street of a ``--city-size`` m city (3 m out from 12 shop entrances,
  looking along the street both ways and at the shop), Spot's camera; CPU ms per frame
  (process time of all GL threads: steadier than wall time on a shared machine; on 2 idle
  cores fps is at most ~2000 / CPU ms);
- daylight against room light: from 1.5, 2.5 and 4 m inside a hybrid house's exit looking
  out, the mean linear luminance (sRGB decoded, Rec. 709 weights) of pixels that see outside
  (depth back-projected to the world: outside every room, or nothing/sky) over that of pixels
  inside, classified by geometry alone (the same rule for both trees);
- visual asset build times (house cold / warm cache, city cold) and peak memory;
- byte-identical RGB for the same seed (this tree, two processes).

Targets (2 cores): house >= 25 fps, street >= 15 fps RGB-D-S at 640x480; daylight several
times brighter than the room. The machine may be shared: compare the ratios, and read the load
average printed with them.

``--camera RIG`` (e.g. ``habitat-vlnce,size=640x480``) also measures this tree's house and street
frames through that sensor rig (``navbench.sim.camera_rig``), beside the robot's own camera.

Usage: python benchmarks/bench_visual.py [--reference DIR] [--frames 30] [--rounds 2]
       [--size 640x480] [--city-size 1000] [--camera RIG]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np


# --------------------------------------------------------------------------- worker side
def _poses_house(scene) -> list[tuple[tuple[float, float, float], float]]:
    out = []
    for r in scene.rooms:
        cx, cz = np.asarray(r.floor_polygon, float).mean(axis=0)
        for k in range(4):
            out.append(((float(cx), r.floor_y, float(cz)), k * math.pi / 2))
    return out


def _poses_street(scene) -> list[tuple[tuple[float, float, float], float]]:
    out = []
    for p in scene.places[:12]:
        e = np.asarray(p.entrance, float)
        f = np.array([-math.sin(p.yaw), 0.0, -math.cos(p.yaw)])
        pos = e + 3.0 * f  # on the sidewalk, 3 m out from the entrance
        for turn in (-math.pi / 2, math.pi / 2, math.pi):  # along the street both ways, at the shop
            out.append(((float(pos[0]), 0.0, float(pos[2])), p.yaw + turn))
    return out


def _fps(scene, poses, vis, frames: int, w: int, h: int, camera: str = "") -> dict[str, float]:
    from navbench.sim import SPOT
    from navbench.sim.snapshot import Snapshotter

    rig = {"camera": camera} if camera else {}  # a reference tree may predate sensor rigs
    snap = Snapshotter(scene, SPOT, width=w, height=h, visuals=vis, **rig)
    snap.view(poses[0][0], yaw=poses[0][1])  # warm up GL
    t0, c0 = time.perf_counter(), time.process_time()
    for i in range(frames):
        pos, yaw = poses[i % len(poses)]
        snap.view(pos, yaw=yaw)
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    snap.close()
    return {"fps": frames / dt, "cpu_ms": 1000 * cpu / frames}


def _linear_luminance(rgb: np.ndarray) -> np.ndarray:
    v = rgb.astype(float) / 255.0
    lin = np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)
    return lin @ np.array([0.2126, 0.7152, 0.0722])


def _daylight_ratio(w: int, h: int) -> dict[str, float]:
    """Outside / inside mean linear luminance seen from inside hybrid houses' exits."""
    import mujoco
    import shapely

    from navbench.scene.procgen.hybrid import generate_hybrid
    from navbench.sim import SPOT
    from navbench.sim.snapshot import Snapshotter

    ratios = []
    for seed in (0, 1, 2):
        scene = generate_hybrid(seed)
        ex = next(p for p in scene.portals if p.kind == "exit")
        rooms = [(shapely.Polygon(r.floor_polygon), r.floor_y, r.floor_y + r.height) for r in scene.rooms]
        snap = Snapshotter(scene, SPOT, width=w, height=h, seed=seed)
        cam = snap.camera
        k = cam.intrinsics()
        c = np.asarray(ex.center, float)
        fwd = np.array([-math.sin(ex.yaw), 0.0, -math.cos(ex.yaw)])
        for dist in (1.5, 2.5, 4.0):
            p = c - dist * fwd
            view = snap.view((p[0], c[1], p[2]), yaw=ex.yaw)
            d = snap.data
            mujoco.mj_forward(snap.world.model, d)
            rot = d.cam_xmat[cam.cam_id].reshape(3, 3)
            pos = d.cam_xpos[cam.cam_id]
            vv, uu = np.mgrid[0:h, 0:w]
            z = view.depth.astype(float)
            pc = np.stack([(uu - k[0, 2]) / k[0, 0] * z, -(vv - k[1, 2]) / k[1, 1] * z, -z], axis=-1)
            world = pc @ rot.T + pos
            inside = np.zeros((h, w), bool)
            for poly, y0, y1 in rooms:
                hit = shapely.contains_xy(poly, world[..., 0], world[..., 2]) & (world[..., 1] > y0 - 0.05) & \
                    (world[..., 1] < y1 + 0.05)
                inside |= hit
            inside &= z > 0
            lum = _linear_luminance(view.rgb)
            if inside.sum() > 0.05 * inside.size and (~inside).sum() > 0.02 * inside.size:
                ratios.append(float(lum[~inside].mean() / max(lum[inside].mean(), 1e-6)))
        snap.close()
    return {"daylight_ratio": float(np.median(ratios)) if ratios else float("nan"), "n_views": len(ratios)}


def _digest_views(w: int, h: int) -> str:
    from navbench.scene.procgen.hybrid import generate_hybrid
    from navbench.sim import SPOT
    from navbench.sim.snapshot import Snapshotter

    scene = generate_hybrid(0)
    ex = next(p for p in scene.portals if p.kind == "exit")
    c = np.asarray(ex.center, float)
    fwd = np.array([-math.sin(ex.yaw), 0.0, -math.cos(ex.yaw)])
    snap = Snapshotter(scene, SPOT, width=w, height=h, seed=3)
    digest = hashlib.blake2b(digest_size=12)
    for dist in (-6.0, -2.0, 3.0, 8.0):
        p = c + dist * fwd
        v = snap.view((p[0], c[1] if dist < 0 else 0.0, p[2]), yaw=ex.yaw + (0.0 if dist < 0 else math.pi))
        digest.update(v.rgb.tobytes() + v.depth.tobytes() + v.semantic.tobytes())
    snap.close()
    return digest.hexdigest()


def worker(task: str, frames: int, w: int, h: int, city_size: float, cache: str,
           camera: str = "") -> dict[str, object]:
    """One measurement in this process (whatever ``navbench`` is first on ``sys.path``)."""
    from navbench.scene.procgen.indoor import IndoorSettings, generate_house
    from navbench.scene.procgen.outdoor import OutdoorSettings, generate_city
    from navbench.visual.build import build_visuals

    out: dict[str, object] = {}
    if task == "house":
        house = generate_house(0, None, IndoorSettings(rooms=(6, 6)))
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.perf_counter()
            vis = build_visuals(house, seed=0, cache=tmp)
            out["assets_cold_s"] = time.perf_counter() - t0
            t0 = time.perf_counter()
            build_visuals(house, seed=0, cache=tmp)
            out["assets_warm_s"] = time.perf_counter() - t0
        out.update(_fps(house, _poses_house(house), vis, frames, w, h, camera))
        out["geoms"] = len(vis.geoms)
    elif task == "street":
        city = generate_city(0, OutdoorSettings(size=(city_size, city_size)))
        t0 = time.perf_counter()
        vis = build_visuals(city, seed=0, cache=cache)
        out["assets_s"] = time.perf_counter() - t0
        out.update(_fps(city, _poses_street(city), vis, frames, w, h, camera))
        out["geoms"] = len(vis.geoms)
        out["peak_gb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    elif task == "daylight":
        out.update(_daylight_ratio(w, h))
    elif task == "digest":
        out["digest"] = _digest_views(w, h)
    return out


# --------------------------------------------------------------------------- driver side
def _run(tree: str | None, task: str, a: argparse.Namespace, cache: str, camera: str = "") -> dict[str, object]:
    env = dict(os.environ, MUJOCO_GL=os.environ.get("MUJOCO_GL", "osmesa"))
    if tree is not None:
        env["PYTHONPATH"] = tree + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    cmd = [sys.executable, __file__, "--worker", task, "--frames", str(a.frames), "--size", a.size,
           "--city-size", str(a.city_size), "--cache", cache, "--camera", camera]
    res = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if res.returncode != 0:
        raise SystemExit(f"{task} worker failed ({tree or 'this tree'}):\n{res.stderr[-2000:]}")
    return json.loads(res.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reference", help="src folder of the reference checkout (e.g. /tmp/nb_base/src)")
    ap.add_argument("--frames", type=int, default=30)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--size", default="640x480")
    ap.add_argument("--city-size", type=float, default=1000.0)
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--cache", help=argparse.SUPPRESS, default="")
    ap.add_argument("--camera", default="", help="also measure this tree through this sensor rig")
    a = ap.parse_args()
    w, h = (int(v) for v in a.size.split("x"))
    if a.worker:
        print(json.dumps(worker(a.worker, a.frames, w, h, a.city_size, a.cache, a.camera)))
        return
    here = str(Path(__file__).resolve().parents[1] / "src")
    trees = {"this": here} | ({"reference": a.reference} if a.reference else {})
    caches = {k: tempfile.mkdtemp(prefix=f"navbench-bench-{k}-") for k in trees}
    print(f"load average at start: {os.getloadavg()[0]:.1f} ({os.cpu_count()} CPUs)")
    results: dict[str, dict[str, list[dict[str, object]]]] = {k: {} for k in trees}
    rig = {"rig": a.camera} if a.camera else {}
    for name in rig:
        results[name] = {}
    for task in ("house", "street"):
        for _ in range(a.rounds):
            for name, tree in trees.items():
                results[name].setdefault(task, []).append(_run(tree, task, a, caches[name]))
            for name, camera in rig.items():
                results[name].setdefault(task, []).append(_run(here, task, a, caches["this"], camera))
    for name, tree in trees.items():
        results[name]["daylight"] = [_run(tree, "daylight", a, caches[name])]
    digests = [_run(here, "digest", a, caches["this"])["digest"] for _ in range(2)]

    def best(name: str, task: str, key: str, fn=max) -> float:
        return float(fn(float(r[key]) for r in results[name][task]))  # type: ignore[arg-type]

    for task, target in (("house", 25.0), ("street", 15.0)):
        line = (f"{task} RGB-D-S {w}x{h}: this tree {best('this', task, 'fps'):.1f} fps "
                f"({best('this', task, 'cpu_ms', min):.0f} CPU ms/frame; target >= {target:g} fps on 2 idle cores)")
        if a.reference:
            fr, cr = best("reference", task, "fps"), best("reference", task, "cpu_ms", min)
            line += (f"; reference {fr:.1f} fps ({cr:.0f} CPU ms); this/reference fps "
                     f"{best('this', task, 'fps') / fr:.2f}, CPU ms {best('this', task, 'cpu_ms', min) / cr:.2f}")
        print(line)
        if a.camera:
            print(f"  this tree through the {a.camera} rig: {best('rig', task, 'fps'):.1f} fps "
                  f"({best('rig', task, 'cpu_ms', min):.0f} CPU ms/frame)")
    for name in trees:
        hs, st = results[name]["house"][0], results[name]["street"][0]
        print(f"{name}: house assets cold {float(hs['assets_cold_s']):.2f} s, warm {float(hs['assets_warm_s']):.2f} s, "
              f"{hs['geoms']} visual geoms; city {a.city_size:.0f} m assets {float(st['assets_s']):.1f} s cold, "
              f"{st['geoms']} visual geoms; peak memory {float(st['peak_gb']):.2f} GB")
    line = f"daylight / room light from inside an exit: this tree {float(results['this']['daylight'][0]['daylight_ratio']):.1f}x"
    if a.reference:
        line += f", reference {float(results['reference']['daylight'][0]['daylight_ratio']):.1f}x"
    print(line)
    print(f"same seed, two processes, byte-identical RGB-D-S: {digests[0] == digests[1]}")
    print(f"load average at end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
