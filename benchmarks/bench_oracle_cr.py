"""Oracle-path collision rate and the share of episodes ``--verify`` keeps, per robot and scene kind.

Builds a small ObjectNav dataset per robot (reference paths planned for that robot, no
``--verify``) on procedural houses, indoor-to-outdoor scenes and (optionally) small cities, then
replays every reference path twice per setting — with the ``oracle-path`` agent (CR = share of
episodes with any non-ground contact, SR) and with the ``--verify`` rollout (kept = share
accepted, contact-free) — once with door-aware execution off (the reference, the previous
behaviour) and once on (``SimSettings.align_doors``). Target (issue 18): oracle CR ≤ 5 % for both
robots indoors and outdoors without discarding most episodes.

    .venv/bin/python benchmarks/bench_oracle_cr.py [--houses 6] [--hybrid 2] [--cities 0] \
        [--episodes 6] [--robots spot,turtlebot]
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
from navbench.scene.procgen.hybrid import generate_hybrid
from navbench.scene.procgen.indoor import generate_house
from navbench.scene.procgen.outdoor import OutdoorSettings, generate_city
from navbench.sim import SimSettings, Simulator, get_embodiment
from navbench.sim.verify import verify_episode


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--houses", type=int, default=6)
    ap.add_argument("--hybrid", type=int, default=2)
    ap.add_argument("--cities", type=int, default=0, help="outdoor cities of --city-size m")
    ap.add_argument("--city-size", type=float, default=120.0)
    ap.add_argument("--episodes", type=int, default=6, help="ObjectNav episodes per scene")
    ap.add_argument("--robots", default="spot,turtlebot")
    a = ap.parse_args()
    groups = {"indoor": [generate_house(s, 4) for s in range(a.houses)],
              "hybrid": [generate_hybrid(100 + s) for s in range(a.hybrid)],
              "outdoor": [generate_city(200 + s, OutdoorSettings(size=(a.city_size,) * 2))
                          for s in range(a.cities)]}
    print(f"{'robot':10s} {'kind':7s} {'doors':5s} {'n':>3s} {'CR':>5s} {'SR':>5s} {'kept':>5s} "
          f"{'wall s':>6s}  verify rejections")
    with tempfile.TemporaryDirectory() as tmp:
        for robot in a.robots.split(","):
            emb = get_embodiment(robot)
            for kind, scenes in groups.items():
                if not scenes:
                    continue
                out = Path(tmp) / f"{robot}_{kind}"
                build_dataset(scenes, out, tasks=("objectnav",), split="eval=1.0", seed=0,
                              settings=DatasetSettings(episodes_per_scene=a.episodes,
                                                       embodiment=robot))
                ds = load_dataset(out)
                eps = ds.episodes("objectnav", "eval")
                for align in (False, True):
                    t0 = time.perf_counter()
                    hit, ok, kept, why = [], [], [], Counter[str]()
                    sims: dict[str, Simulator] = {}
                    for ep in eps:
                        sid = ep.navbench["scene"]
                        if sid not in sims:
                            sims[sid] = Simulator(ds.scene(sid), emb,
                                                  SimSettings(align_doors=align))
                        sim = sims[sid]
                        tau = float(ep.navbench.get("success_distance", 1.0 + emb.radius))
                        o = run_episode(sim, load_agent("oracle-path"), ep, tau=tau)
                        hit.append(bool(o.records["collision"].any()))
                        ok.append(o.label == "success")
                        r = verify_episode(ds.scene(sid), ep, emb, simulator=sim, tau=tau)
                        kept.append(r.accepted)
                        if not r.accepted:
                            why[r.reason] += 1
                    wall = time.perf_counter() - t0
                    print(f"{robot:10s} {kind:7s} {'on' if align else 'off':5s} {len(eps):3d} "
                          f"{np.mean(hit):5.2f} {np.mean(ok):5.2f} {np.mean(kept):5.2f} "
                          f"{wall:6.1f}  {dict(sorted(why.items()))}", flush=True)


if __name__ == "__main__":
    main()
