"""Textured import and habitat export speed (issue 15).

1. A 200k-triangle textured GLB (a 20 x 20 m room: floor and walls as fine grids, two textured
   materials) built here: import + first 640x480 RGB-D-S render (target <= 10 s), then RGB-D-S
   fps on it (target >= 15), against the flat-box 6-room house measured in the same run; and the
   rendering variants, interleaved over ``--rounds`` rounds of 8 frames (ms/frame, median and best round, and
   triangles drawn per frame): the mesh whole / cut into tiles / tiles with coarse far versions,
   frustum culling off / on, MuJoCo's default 4x multisampled offscreen buffer / none
   (``model.vis.quality.offsamples = 0``).
2. Habitat export of a 6-room house (target <= 2 s; cold texture cache and warm) and of a city
   (``--city-size`` m square; target 1 km² <= 60 s); GLB sizes; our GLB writer against
   ``trimesh``'s GLB export of the same primitives (speed and size).

Usage: python benchmarks/bench_export.py [--frames 20] [--rounds 5] [--city-size 1000] [--no-city]
[--no-export]
"""

from __future__ import annotations

import argparse
import math
import os
import tempfile
import time
from pathlib import Path

import numpy as np

os.environ.setdefault("MUJOCO_GL", "egl")


def grid(nx: int, nz: int, size: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A size x size m floor grid at y = 0 with nx x nz quads (2 triangles each) and UVs per metre."""
    xs, zs = np.linspace(-size / 2, size / 2, nx + 1), np.linspace(-size / 2, size / 2, nz + 1)
    X, Z = np.meshgrid(xs, zs)
    v = np.column_stack([X.ravel(), np.zeros(X.size), Z.ravel()])
    i = np.arange((nx + 1) * (nz + 1)).reshape(nz + 1, nx + 1)
    a, b, c, d = i[:-1, :-1].ravel(), i[:-1, 1:].ravel(), i[1:, 1:].ravel(), i[1:, :-1].ravel()
    f = np.vstack([np.column_stack([a, c, b]), np.column_stack([a, d, c])])
    return v, f, v[:, [0, 2]] / 2.0


def textured_glb(path: Path, triangles: int = 200_000) -> int:
    import trimesh
    from PIL import Image

    rng = np.random.default_rng(0)
    tex = Image.fromarray((rng.random((512, 512, 3)) * 255).astype(np.uint8))
    wall_tex = Image.fromarray(np.tile(np.array([[[200, 180, 150]]], np.uint8), (256, 256, 1)))
    n = int(math.sqrt(triangles * 0.75 / 2))
    fv, ff, fuv = grid(n, n, 20.0)
    parts = {"floor": trimesh.Trimesh(fv, ff, visual=trimesh.visual.TextureVisuals(
        uv=fuv, material=trimesh.visual.material.PBRMaterial(baseColorTexture=tex)), process=False)}
    m = int(math.sqrt(triangles * 0.25 / 2 / 4 * 7))  # 4 walls 20 x ~3 m
    wv, wf, wuv = grid(m, max(2, m // 7), 20.0)
    for k in range(4):
        # lift the grid into a wall: x along, y = (z + 10) * 0.15, at z = -10, then rotate
        v = np.column_stack([wv[:, 0], (wv[:, 2] + 10.0) * 0.15, np.full(len(wv), -10.0)])
        c, s = math.cos(k * math.pi / 2), math.sin(k * math.pi / 2)
        v = v @ np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]]).T
        parts[f"wall{k}"] = trimesh.Trimesh(v, wf[:, ::-1], visual=trimesh.visual.TextureVisuals(
            uv=wuv, material=trimesh.visual.material.PBRMaterial(baseColorTexture=wall_tex)), process=False)
    trimesh.Scene(parts).export(path)
    return sum(len(p.faces) for p in parts.values())


def render_fps(scene, poses, frames: int, w: int, h: int, visuals: bool = True) -> tuple[float, float]:
    """(fps of RGB + depth + semantic, seconds to build the world and render the first view)."""
    from navbench.sim import SPOT
    from navbench.sim.snapshot import Snapshotter

    t0 = time.perf_counter()
    snap = Snapshotter(scene, SPOT, width=w, height=h, visuals=visuals)
    snap.view(poses[0][0], yaw=poses[0][1])
    first = time.perf_counter() - t0
    t0 = time.perf_counter()
    for i in range(frames):
        pos, yaw = poses[i % len(poses)]
        snap.view(pos, yaw=yaw)
    dt = time.perf_counter() - t0
    snap.close()
    return frames / dt, first


def variants(scene, poses, frames: int, rounds: int, w: int, h: int) -> None:
    """ms/frame (RGB-D-S) of the rendering variants of the big GLB, interleaved over rounds."""
    import mujoco

    import navbench.visual.imported as imported
    from navbench.sim import SPOT
    from navbench.sim.sensors import Camera
    from navbench.sim.world import build_world
    from navbench.visual.build import build_visuals

    saved = imported.TILE_MIN_TRIANGLES, imported.LOD_MAX_SHARE
    vis = {}
    imported.TILE_MIN_TRIANGLES = 10**12
    vis["whole"] = build_visuals(scene, use_cache=False)
    imported.TILE_MIN_TRIANGLES, imported.LOD_MAX_SHARE = saved[0], -1.0
    vis["tiles"] = build_visuals(scene, use_cache=False)
    imported.TILE_MIN_TRIANGLES, imported.LOD_MAX_SHARE = saved
    vis["tiles+lod"] = build_visuals(scene, use_cache=False)
    rigs = {}
    for name, v in vis.items():
        for samples in (4, 0):
            world = build_world(scene, SPOT, offscreen=(w, h), visuals=v)
            world.model.vis.quality.offsamples = samples
            for frustum in ((False, True) if name != "whole" else (False,)):
                cam = Camera(world, width=w, height=h)
                cam._frustum = cam._frustum and frustum
                rigs[(name, frustum, samples)] = (world, cam, mujoco.MjData(world.model))
    times: dict[tuple[str, bool, int], list[float]] = {k: [] for k in rigs}
    tris: dict[tuple[str, bool, int], float] = {}
    for _ in range(rounds):
        for key, (world, cam, data) in rigs.items():
            m, n = world.model, 0
            t0 = time.perf_counter()
            for i in range(frames):
                pos, yaw = poses[i % len(poses)]
                data.qpos[:4] = [*pos, yaw]
                mujoco.mj_forward(m, data)
                cam.render(data)
                n += sum(int(m.mesh_facenum[m.geom_dataid[cam._scn.geoms[j].objid]]) for j in range(cam._scn.ngeom)
                         if cam._scn.geoms[j].objtype == mujoco.mjtObj.mjOBJ_GEOM and m.geom_dataid[cam._scn.geoms[j].objid] >= 0)
            times[key].append((time.perf_counter() - t0) / frames * 1e3)
            tris[key] = n / frames
    base, base_min = float(np.median(times[("whole", False, 4)])), min(times[("whole", False, 4)])
    print(f"{'variant (median / best of rounds)':<38} {'ms/frame':>12} {'fps':>11} {'vs whole':>13} {'triangles':>9}")
    for (name, frustum, samples), ts in times.items():
        ms, best = float(np.median(ts)), min(ts)
        label = f"{name}, frustum {'on' if frustum else 'off'}, offsamples {samples}"
        print(f"{label:<38} {ms:6.0f} /{best:5.0f} {1e3 / ms:5.1f} /{1e3 / best:5.1f} {base / ms:5.2f}x /{base_min / best:5.2f}x "
              f"{tris[(name, frustum, samples)]:9.0f}")
    for _, cam, _ in rigs.values():
        cam.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--frames", type=int, default=20)
    ap.add_argument("--city-size", type=float, default=1000.0)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--no-city", action="store_true")
    ap.add_argument("--no-export", action="store_true", help="only the big-GLB rendering part")
    args = ap.parse_args()
    w, h = 640, 480
    from navbench.export.habitat import export_habitat, scene_primitives
    from navbench.scene.procgen.indoor import IndoorSettings, generate_house
    from navbench.scene.sources import import_scene
    from navbench.visual.build import build_visuals

    with tempfile.TemporaryDirectory() as td:
        tmp = Path(td)
        n_tri = textured_glb(tmp / "big.glb")
        print(f"textured GLB: {n_tri} triangles, {(tmp / 'big.glb').stat().st_size / 1e6:.1f} MB")
        poses = [((0.0, 0.0, 0.0), k * math.pi / 4) for k in range(8)]
        t0 = time.perf_counter()
        scene = import_scene(tmp / "big.glb")
        t_import = time.perf_counter() - t0
        f_big, first = render_fps(scene, poses, args.frames, w, h)
        print(f"import {t_import:.2f} s + world + first render {first:.2f} s = {t_import + first:.2f} s "
              f"(target <= 10 s); RGB-D-S {w}x{h}: {f_big:.1f} fps (target >= 15)")
        house = generate_house(0, None, IndoorSettings(rooms=(6, 6)))
        hposes = []
        for r in house.rooms:
            cx, cz = np.asarray(r.floor_polygon, float).mean(axis=0)
            hposes += [((float(cx), r.floor_y, float(cz)), k * math.pi / 2) for k in range(4)]
        f_flat, _ = render_fps(house, hposes, args.frames, w, h, visuals=False)
        print(f"reference: flat-box 6-room house {f_flat:.1f} fps -> big GLB / reference = {f_big / f_flat:.2f}")
        variants(scene, poses, 8, args.rounds, w, h)
        if args.no_export:
            return

        cache = tmp / "cache"
        t0 = time.perf_counter()
        idx = export_habitat([house], tmp / "house_cold", cache=cache)
        t_cold = time.perf_counter() - t0
        t0 = time.perf_counter()
        export_habitat([house], tmp / "house_warm", cache=cache)
        t_warm = time.perf_counter() - t0
        mb = idx["scenes"][house.id]["bytes"] / 1e6
        print(f"export 6-room house ({len(house.rooms)} rooms, {len(house.objects)} objects): cold {t_cold:.2f} s, "
              f"warm cache {t_warm:.2f} s (target <= 2 s); GLB {mb:.2f} MB")

        import trimesh

        from navbench.export.gltf import glb_bytes

        vis = build_visuals(house, seed=0, cache=cache)
        prims, mats = scene_primitives(house, vis)
        t0 = time.perf_counter()
        ours = glb_bytes(prims, mats, name=house.id)
        t_ours = time.perf_counter() - t0
        sc = trimesh.Scene()
        for k, p in enumerate(prims):
            sc.add_geometry(trimesh.Trimesh(p.positions, p.faces, process=False), geom_name=f"p{k}")
        t0 = time.perf_counter()
        theirs = sc.export(file_type="glb")
        t_tm = time.perf_counter() - t0
        print(f"GLB writer: ours {t_ours * 1e3:.0f} ms / {len(ours) / 1e6:.2f} MB (normals, UVs, PNGs) vs "
              f"trimesh {t_tm * 1e3:.0f} ms / {len(theirs) / 1e6:.2f} MB (positions only) -> ratio {t_ours / t_tm:.2f}")

        if not args.no_city:
            from navbench.scene.procgen.outdoor import OutdoorSettings, generate_city

            s = args.city_size
            city = generate_city(0, OutdoorSettings(size=(s, s)))
            t0 = time.perf_counter()
            idx = export_habitat([city], tmp / "city", cache=cache)
            t_city = time.perf_counter() - t0
            print(f"export city {s:.0f} x {s:.0f} m ({len(city.boxes)} boxes): {t_city:.1f} s "
                  f"(target 1 km² <= 60 s); GLB {idx['scenes'][city.id]['bytes'] / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
