"""Embodiment × friction (NavVerse §4.4): oracle trajectories per robot and friction level.

Builds a small ObjectNav dataset (procedural houses plus indoor-to-outdoor scenes), replays every
reference path with the ``oracle-path`` agent at each friction scale (``SimSettings.
friction_scale``: every surface's μ times the scale) and prints per robot × μ: success rate
under NavVerse's rule (a fall is a tilt > 45°, nothing else) and, replayed once more with the
drop rule on (``SimSettings.drop_rule``: a step down of ``max_drop`` or more ends as ``drop``),
the success rate that rule would give; mean speed (executed length / simulated time),
collision rate (any non-ground contact), falls, drops (with the rule), the termination labels
and why the failed episodes failed (NavVerse's rule).

``--paths spot`` (default, NavVerse's controlled comparison): *the same* reference paths, planned
for Spot (the dataset's embodiment), run by every robot, each episode judged with its own τ
(the dataset's, as ``navbench evaluate --embodiment`` does). ``--paths own``: each robot runs a
dataset planned for itself (its clearance, its τ, navmesh steps ≤ its limit).

Failure causes (first that applies): ``fall`` / ``drop`` (``@curb``: the reference path steps
down by more than the robot's ``max_drop`` somewhere); ``step`` — the reference path rises
by more than the robot's ``max_step`` between two points (a curb or stair it cannot climb);
``skid`` — a non-holonomic base slid sideways faster than 0.1 m/s at some step
(:func:`navbench.sim.traction.lateral_slip`; column ``skid``: share of episodes that did, ``nan``
for holonomic Spot, which moves sideways on purpose); otherwise the label.

    .venv/bin/python benchmarks/bench_friction.py [--houses 3] [--hybrid 1] [--cities 0] \
        [--episodes 6] [--scales 1.0,0.3,0.1] [--paths spot|own] [--verify]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections import Counter
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
from navbench.sim.embodiments import Embodiment
from navbench.sim.traction import lateral_slip

SKID = 0.1  # m/s of sideways slip that counts as a skid


def cause(label: str, rec: dict[str, np.ndarray], reference: np.ndarray, emb: Embodiment) -> str:
    """Why an episode failed (module docs)."""
    rise = np.diff(reference[:, 1]) if len(reference) > 1 else np.zeros(1)
    if label in ("fall", "drop"):  # "@curb": the path steps down more than the drop rule allows
        return label + ("@curb" if -rise.min() > emb.max_drop - 1e-3 else "")
    if rise.max() > emb.max_step + 1e-3:
        return "step"
    if not emb.holonomic and len(rec["t"]) > 1 and \
            float(lateral_slip(rec["position"], rec["yaw"], rec["t"]).max()) > SKID:
        return "skid"
    return label


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--houses", type=int, default=3)
    ap.add_argument("--hybrid", type=int, default=1)
    ap.add_argument("--cities", type=int, default=0, help="outdoor cities of --city-size m")
    ap.add_argument("--city-size", type=float, default=120.0)
    ap.add_argument("--episodes", type=int, default=6, help="ObjectNav episodes per scene")
    ap.add_argument("--scales", default="1.0,0.3,0.1", help="friction scales (1.0 = the scene's μ)")
    ap.add_argument("--robots", default="spot,turtlebot")
    ap.add_argument("--paths", default="spot",
                    help="spot | turtlebot: one dataset planned for that robot, run by every robot "
                         "(NavVerse's controlled comparison); own: each robot its own dataset")
    ap.add_argument("--verify", action="store_true",
                    help="build with --verify (drops paths whose rollout falls, jams or touches)")
    a = ap.parse_args()
    scales = [float(s) for s in a.scales.split(",")]
    robots = a.robots.split(",")
    scenes = [generate_house(s, 4) for s in range(a.houses)]
    scenes += [generate_hybrid(100 + s) for s in range(a.hybrid)]
    size = (a.city_size, a.city_size)
    scenes += [generate_city(200 + s, OutdoorSettings(size=size)) for s in range(a.cities)]
    print(f"{len(scenes)} scenes ({a.houses} houses, {a.hybrid} hybrid, {a.cities} cities); "
          f"friction scales {scales}; reference paths: {a.paths}")
    print(f"{'robot':10s} {'paths':9s} {'mu x':>5s} {'n':>3s} {'SR':>5s} {'SR+drop':>7s} "
          f"{'speed m/s':>9s} {'CR':>5s} {'falls':>5s} {'drops':>5s} {'skid':>5s} {'wall s':>6s}  "
          f"labels | failure causes")
    with tempfile.TemporaryDirectory() as tmp:
        built: dict[str, Path] = {}

        def dataset(planner: str) -> Path:
            if planner not in built:
                out = Path(tmp) / planner
                build_dataset(scenes, out, tasks=("objectnav",), split="eval=1.0", seed=0,
                              settings=DatasetSettings(episodes_per_scene=a.episodes,
                                                       embodiment=planner, verify=a.verify))
                built[planner] = out
            return built[planner]

        for robot in robots:
            planner = robot if a.paths == "own" else get_embodiment(a.paths).name
            ds = load_dataset(dataset(planner))
            by_scene: dict[str, list] = {}
            for e in ds.episodes("objectnav", "eval"):
                by_scene.setdefault(e.navbench["scene"], []).append(e)
            emb = get_embodiment(robot)
            for scale in scales:
                t0 = time.perf_counter()
                ok, ok_drop, speed, hit, skid = [], [], [], [], []
                labels: Counter[str] = Counter()
                causes: Counter[str] = Counter()
                drops = 0
                for sid, group in sorted(by_scene.items()):
                    sim = Simulator(ds.scene(sid), emb, SimSettings(friction_scale=scale))
                    strict = Simulator(ds.scene(sid), emb, SimSettings(friction_scale=scale,
                                                                       drop_rule=True))
                    for ep in group:
                        o = run_episode(sim, load_agent("oracle-path"), ep,
                                        tau=ep.navbench.get("success_distance"))
                        rec = o.records
                        ok.append(o.label == "success")
                        speed.append(path_length(rec["position"]) / max(rec["t"][-1], 1e-9))
                        hit.append(bool(rec["collision"].any()))
                        if not emb.holonomic:  # a holonomic base moves sideways on purpose
                            slip = lateral_slip(rec["position"], rec["yaw"], rec["t"])
                            skid.append(bool(len(slip) and slip.max() > SKID))
                        labels[o.label] += 1
                        if o.label != "success":
                            ref = np.asarray(ep.reference_path, float).reshape(-1, 3)
                            causes[cause(o.label, rec, ref, emb)] += 1
                        d = run_episode(strict, load_agent("oracle-path"), ep,
                                        tau=ep.navbench.get("success_distance"))
                        ok_drop.append(d.label == "success")
                        drops += d.label == "drop"
                wall = time.perf_counter() - t0
                print(f"{robot:10s} {planner:9s} {scale:5.2f} {len(ok):3d} {np.mean(ok):5.2f} "
                      f"{np.mean(ok_drop):7.2f} {np.mean(speed):9.3f} {np.mean(hit):5.2f} "
                      f"{labels['fall']:5d} {drops:5d} "
                      f"{np.mean(skid) if skid else float('nan'):5.2f} {wall:6.1f}  "
                      f"{dict(sorted(labels.items()))} | {dict(sorted(causes.items()))}", flush=True)


if __name__ == "__main__":
    main()
