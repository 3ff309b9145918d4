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
from navbench.sim.snapshot import Snapshotter
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


def fps(scene, poses, visuals: bool, frames: int, w: int, h: int) -> tuple[float, float, float]:
    """(frames per second of RGB + depth + semantic, CPU ms per frame (all threads: steadier
    than wall time on a shared machine), world build seconds)."""
    t0 = time.perf_counter()
    snap = Snapshotter(scene, SPOT, width=w, height=h, visuals=visuals)
    t_build = time.perf_counter() - t0
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
    f_flat, c_flat, b_flat = fps(house, poses, False, a.frames, w, h)
    f_vis, c_vis, b_vis = fps(house, poses, True, a.frames, w, h)
    print(f"house RGB-D-S {w}x{h}: visual {f_vis:.1f} fps (target >= 25), flat boxes {f_flat:.1f} fps, "
          f"ratio {f_vis / f_flat:.2f}; CPU {c_vis:.0f} vs {c_flat:.0f} ms/frame (ratio {c_flat / c_vis:.2f}); "
          f"build_world {b_vis:.2f} s vs {b_flat:.2f} s flat")
    city = generate_city(0, OutdoorSettings(size=(a.city_size, a.city_size)))
    with tempfile.TemporaryDirectory() as cache:  # cold: nothing cached
        t0 = time.perf_counter()
        vc = build_visuals(city, seed=0, cache=cache)
        t_city = time.perf_counter() - t0
    print(f"city {a.city_size:.0f} m: {len(city.objects)} objects, {len(city.boxes)} boxes; visual assets "
          f"{t_city:.1f} s cold (target <= 30); {len(vc.geoms)} visual geoms, {len(vc.meshes)} meshes")
    poses = _poses_street(city)
    f_flat, c_flat, b_flat = fps(city, poses, False, a.frames, w, h)
    f_vis, c_vis, b_vis = fps(city, poses, True, a.frames, w, h)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    print(f"street RGB-D-S {w}x{h}: visual {f_vis:.1f} fps (target >= 15), flat boxes {f_flat:.1f} fps, "
          f"ratio {f_vis / f_flat:.2f}; CPU {c_vis:.0f} vs {c_flat:.0f} ms/frame (ratio {c_flat / c_vis:.2f}); "
          f"build_world {b_vis:.1f} s vs {b_flat:.1f} s flat")
    print(f"peak memory (process, city rendered): {rss:.2f} GB (target <= 4)")


if __name__ == "__main__":
    main()
