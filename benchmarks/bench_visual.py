"""Visual layer speed: RGB + depth + semantic fps at 640x480 in a furnished 6-room house and on a
city street, against the flat-box renderer (``visuals=False``) measured in the same run; visual
asset build times (house cold / warm cache, 1 km² city); byte-identical outputs; peak memory.

Targets (issue 14, 2 idle cores): house >= 25 fps, street >= 15 fps; house assets cold <= 2 s,
warm <= 0.2 s; city <= 30 s; rendered 1 km² city <= 4 GB.

CPU ms per frame (process time of all GL threads) is printed too: on a shared machine it is
steadier than wall-clock fps; on 2 idle cores fps is at most ~2000 / CPU ms (llvmpipe shades
on both cores; the scene update and read-back are single-threaded).

Usage: python benchmarks/bench_visual.py [--frames 30] [--size 640x480] [--city-size 1000]
"""

from __future__ import annotations

import argparse
import hashlib
import math
import resource
import tempfile
import time

import numpy as np

from navbench.scene.procgen.indoor import IndoorSettings, generate_house
from navbench.scene.procgen.outdoor import OutdoorSettings, generate_city
from navbench.sim import SPOT
from navbench.sim.sensors import Camera
from navbench.sim.snapshot import Snapshotter
from navbench.sim.world import build_world
from navbench.visual.build import build_visuals


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


def fps(scene, poses, visuals, frames: int, w: int, h: int, samples: int = 0) -> tuple[float, float, float]:
    """(frames per second of RGB + depth + semantic, CPU ms per frame (all threads: steadier
    than wall time on a shared machine), world build seconds). ``visuals``: False, True or a
    prebuilt ``SceneVisuals`` (no cache involved). ``samples=4``: the camera as it
    was before the issue-14 speed work (4× MSAA), the reference of the flat-box renderer."""
    t0 = time.perf_counter()
    snap = Snapshotter(scene, SPOT, width=w, height=h, visuals=visuals)
    t_build = time.perf_counter() - t0
    if samples:
        snap.camera.close()
        snap.camera = Camera(snap.world, width=w, height=h, samples=samples)
    snap.view(poses[0][0], yaw=poses[0][1])  # warm up GL
    t0, c0 = time.perf_counter(), time.process_time()
    for i in range(frames):
        pos, yaw = poses[i % len(poses)]
        snap.view(pos, yaw=yaw)
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    snap.close()
    return frames / dt, 1000 * cpu / frames, t_build


def _digest(vis) -> str:
    h = hashlib.blake2b(digest_size=12)
    for k in sorted(vis.meshes):
        p = vis.meshes[k]
        h.update(k.encode() + p.vertices.tobytes() + p.faces.tobytes() + p.uv.tobytes() + p.material.encode())
    for k in sorted(vis.textures):
        h.update(k.encode() + vis.textures[k].tobytes())
    return h.hexdigest()


def _report(name: str, scene, vis, poses, frames: int, w: int, h: int, target: float) -> None:
    """fps of the visual layer, of flat boxes and of flat boxes as rendered before (4× MSAA);
    build_world with the prebuilt visual layer against the flat world."""
    f_ref, c_ref, _ = fps(scene, poses, False, frames, w, h, samples=4)
    f_flat, c_flat, _ = fps(scene, poses, False, frames, w, h)
    f_vis, c_vis, _ = fps(scene, poses, vis, frames, w, h)
    t0 = time.perf_counter()
    build_world(scene, SPOT)
    b_flat = time.perf_counter() - t0
    t0 = time.perf_counter()
    build_world(scene, SPOT, visuals=vis)
    b_vis = time.perf_counter() - t0
    print(f"{name} RGB-D-S {w}x{h}: visual {f_vis:.1f} fps (target >= {target:g}), flat boxes {f_flat:.1f} fps, "
          f"flat boxes as before (4x MSAA) {f_ref:.1f} fps; ratio visual/flat-before {f_vis / f_ref:.2f}, "
          f"visual/flat {f_vis / f_flat:.2f}; CPU ms/frame visual {c_vis:.0f}, flat {c_flat:.0f}, flat-before "
          f"{c_ref:.0f} (ratio {c_ref / c_vis:.2f}); build_world {b_vis:.2f} s visual vs {b_flat:.2f} s flat "
          f"(ratio {b_vis / b_flat:.1f})")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=30)
    ap.add_argument("--size", default="640x480")
    ap.add_argument("--city-size", type=float, default=1000.0)
    a = ap.parse_args()
    w, h = (int(v) for v in a.size.split("x"))
    house = generate_house(0, None, IndoorSettings(rooms=(6, 6)))
    with tempfile.TemporaryDirectory() as cache:
        t0 = time.perf_counter()
        v1 = build_visuals(house, seed=0, cache=cache)
        cold = time.perf_counter() - t0
        t0 = time.perf_counter()
        v2 = build_visuals(house, seed=0, cache=cache)
        warm = time.perf_counter() - t0
    same = _digest(v1) == _digest(v2)
    print(f"house: {len(house.rooms)} rooms, {len(house.objects)} objects; assets cold {cold:.2f} s "
          f"(target <= 2), warm {warm:.2f} s (target <= 0.2); same seed byte-identical: {same}")
    poses = _poses_house(house)
    _report("house", house, v1, poses, a.frames, w, h, 25)
    city = generate_city(0, OutdoorSettings(size=(a.city_size, a.city_size)))
    with tempfile.TemporaryDirectory() as cache:  # cold: nothing cached
        t0 = time.perf_counter()
        vc = build_visuals(city, seed=0, cache=cache)
        t_city = time.perf_counter() - t0
    print(f"city {a.city_size:.0f} m: {len(city.objects)} objects, {len(city.boxes)} boxes; visual assets "
          f"{t_city:.1f} s cold (target <= 30); {len(vc.geoms)} visual geoms, {len(vc.meshes)} meshes")
    poses = _poses_street(city)
    _report("street", city, vc, poses, a.frames, w, h, 15)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    print(f"peak memory (process, city rendered): {rss:.2f} GB (target <= 4)")


if __name__ == "__main__":
    main()
