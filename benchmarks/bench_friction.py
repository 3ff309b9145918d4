"""Embodiment × friction (NavVerse §4.4): oracle trajectories per robot and friction level.

Builds a small ObjectNav dataset per robot (procedural houses plus indoor-to-outdoor scenes,
reference paths planned for that robot), replays every reference path with the ``oracle-path``
agent at each friction scale (``SimSettings.friction_scale``: every surface's μ times the
scale), and prints per robot × μ: success rate, mean speed (executed length / simulated time),
collision rate (any non-ground contact) and falls. The reference column is scale 1.0 of the
same run; NavVerse reports that the legged robot completes the oracle trajectories under both
friction settings while the wheeled one has a lower SR and speed.

    .venv/bin/python benchmarks/bench_friction.py [--houses 2] [--hybrid 1] [--cities 0] \
        [--episodes 4] \
        [--scales 1.0,0.1] [--verify]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np

from navbench.agents import load_agent
from navbench.agents.rollout import run_episode
from navbench.episodes.dataset import DatasetSettings, build_dataset
from navbench.episodes.loader import load_dataset
from navbench.geometry import path_length
from navbench.scene.procgen.hybrid import generate_hybrid
from navbench.scene.procgen.indoor import generate_house
from navbench.scene.procgen.outdoor import OutdoorSettings, generate_city
from navbench.sim import SimSettings, Simulator, get_embodiment


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--houses", type=int, default=2)
    ap.add_argument("--hybrid", type=int, default=1)
    ap.add_argument("--cities", type=int, default=0, help="outdoor cities of --city-size m")
    ap.add_argument("--city-size", type=float, default=120.0)
    ap.add_argument("--episodes", type=int, default=4, help="ObjectNav episodes per scene")
    ap.add_argument("--scales", default="1.0,0.1", help="friction scales (1.0 = the scene's μ)")
    ap.add_argument("--robots", default="spot,turtlebot")
    ap.add_argument("--verify", action="store_true",
                    help="build with --verify (drops paths whose rollout falls, jams or touches)")
    a = ap.parse_args()
    scales = [float(s) for s in a.scales.split(",")]
    scenes = [generate_house(s, 4) for s in range(a.houses)]
    scenes += [generate_hybrid(100 + s) for s in range(a.hybrid)]
    size = (a.city_size, a.city_size)
    scenes += [generate_city(200 + s, OutdoorSettings(size=size)) for s in range(a.cities)]
    print(f"{len(scenes)} scenes ({a.houses} houses, {a.hybrid} hybrid, {a.cities} cities); "
          f"friction scales {scales}")
    print(f"{'robot':10s} {'mu x':>5s} {'n':>3s} {'SR':>5s} {'speed m/s':>9s} {'CR':>5s} "
          f"{'falls':>5s} {'wall s':>6s}")
    with tempfile.TemporaryDirectory() as tmp:
        for robot in a.robots.split(","):
            out = Path(tmp) / robot
            build_dataset(scenes, out, tasks=("objectnav",), split="eval=1.0", seed=0,
                          settings=DatasetSettings(episodes_per_scene=a.episodes, embodiment=robot,
                                                   verify=a.verify))
            ds = load_dataset(out)
            eps = ds.episodes("objectnav", "eval")
            by_scene: dict[str, list] = {}
            for e in eps:
                by_scene.setdefault(e.navbench["scene"], []).append(e)
            emb = get_embodiment(robot)
            for scale in scales:
                t0 = time.perf_counter()
                ok, speed, hit, falls = [], [], [], 0
                for sid, group in sorted(by_scene.items()):
                    sim = Simulator(ds.scene(sid), emb, SimSettings(friction_scale=scale))
                    for ep in group:
                        o = run_episode(sim, load_agent("oracle-path"), ep,
                                        tau=ep.navbench.get("success_distance"))
                        rec = o.records
                        ok.append(o.label == "success")
                        speed.append(path_length(rec["position"]) / max(rec["t"][-1], 1e-9))
                        hit.append(bool(rec["collision"].any()))
                        falls += o.label == "fall"
                wall = time.perf_counter() - t0
                print(f"{robot:10s} {scale:5.2f} {len(ok):3d} {np.mean(ok):5.2f} "
                      f"{np.mean(speed):9.3f} {np.mean(hit):5.2f} {falls:5d} {wall:6.1f}", flush=True)


if __name__ == "__main__":
    main()
