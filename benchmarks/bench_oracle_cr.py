"""Oracle-path collision rate per robot × scene kind × task (and what the robots touched).

Builds one dataset per robot (reference paths planned for that robot, as ``navbench dataset
build --embodiment ROBOT``, whose contact check drops and refills the episodes the robot's
replay touches something on — ``--check off`` shows the paths without it; ``--verify``
optional) on procedural houses, indoor-to-outdoor
scenes and cities of fresh seeds (``--seed-base``: scene seeds the README's and the demo's
numbers never used), then runs the ``oracle-path`` agent on every episode of every task and
prints, per robot × kind × task: episodes, the draws the contact check dropped (``chk``:
manifest ``dropped`` reasons ``contact_*``, refilled by new draws), CR (share with any non-ground contact, with its 95 %
Wilson interval), SR, the mean share of steps in contact, and the obstacles touched (labels
of the robot's non-ground contacts at the end of a step in contact) with where along the path
(``start`` first 10 % of the reference length, ``end`` last 10 %, else ``mid``).
Target (NavVerse fidelity): CR ≤ 5 % in every row.

    .venv/bin/python benchmarks/bench_oracle_cr.py [--houses 3] [--hybrid 2] [--cities 2] \
        [--city-size 300] [--episodes 6] [--robots spot,turtlebot] \
        [--tasks objectnav,placenav,route,conditional] [--seed-base 700] [--verify] [--doors off] \
        [--check off]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from navbench.agents import load_agent
from navbench.agents.rollout import run_episode
from navbench.episodes.dataset import DatasetSettings, build_dataset
from navbench.episodes.loader import load_dataset
from navbench.metrics.stats import wilson_interval
from navbench.scene.procgen.hybrid import generate_hybrid
from navbench.scene.procgen.indoor import generate_house
from navbench.scene.procgen.outdoor import OutdoorSettings, generate_city
from navbench.sim import SimSettings, Simulator, get_embodiment


class Touches:
    """A simulator proxy that notes, after every step in contact, the labels of the non-ground
    geoms the robot touches and where along the reference path it is."""

    def __init__(self, sim: Simulator) -> None:
        self.sim, self.seen = sim, Counter[str]()
        self._ref = np.zeros((0, 3))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.sim, name)

    def reset(self, episode: Any, *, tau: float | None = None) -> Any:
        ref = np.asarray(episode.reference_path, float).reshape(-1, 3)
        self._ref = ref
        self._cum = np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(ref, axis=0), axis=1))])
        return self.sim.reset(episode, tau=tau)

    def step(self, action: Any) -> Any:
        out = self.sim.step(action)
        if out[2].get("collision"):
            w, d = self.sim.world, self.sim.data
            labels = {w.geoms[min(int(d.contact[k].geom[0]), int(d.contact[k].geom[1]))].label
                      for k in range(d.ncon)}
            labels = {lab for lab in labels if lab not in ("robot",)} - _ground(w)
            p = self.sim.pose()[:3]
            i = int(np.argmin(np.linalg.norm(self._ref - p, axis=1))) if len(self._ref) else 0
            f = self._cum[i] / max(self._cum[-1], 1e-9) if len(self._ref) else 0.0
            where = "start" if f < 0.1 else "end" if f > 0.9 else "mid"
            for lab in labels or {"(between steps)"}:
                self.seen[f"{lab}@{where}"] += 1
        return out


def _ground(world: Any) -> set[str]:
    return {g.label for g in world.geoms if g.ground}


def scenes(a: argparse.Namespace) -> dict[str, list]:  # type: ignore[type-arg]
    b = a.seed_base
    return {"house": [generate_house(b + s, 5) for s in range(a.houses)],
            "hybrid": [generate_hybrid(b + 100 + s) for s in range(a.hybrid)],
            "city": [generate_city(b + 200 + s, OutdoorSettings(size=(a.city_size,) * 2))
                     for s in range(a.cities)]}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--houses", type=int, default=3)
    ap.add_argument("--hybrid", type=int, default=2)
    ap.add_argument("--cities", type=int, default=2)
    ap.add_argument("--city-size", type=float, default=300.0)
    ap.add_argument("--episodes", type=int, default=6, help="episodes per scene and task")
    ap.add_argument("--robots", default="spot,turtlebot")
    ap.add_argument("--tasks", default="objectnav,placenav,route,conditional")
    ap.add_argument("--seed-base", type=int, default=700)
    ap.add_argument("--verify", action="store_true", help="build with --verify")
    ap.add_argument("--doors", default="on", help="door-aware execution: on | off")
    ap.add_argument("--check", default="on",
                    help="dataset build's contact check (DatasetSettings.check_contacts): on | off")
    a = ap.parse_args()
    groups = scenes(a)
    tasks = a.tasks.split(",")
    print(f"{'robot':10s} {'kind':7s} {'task':12s} {'n':>3s} {'chk':>3s} {'CR':>5s} {'95% CI':>13s} "
          f"{'SR':>5s} {'contact':>7s} {'wall s':>6s}  touched (label@where: steps)")
    total: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        for robot in a.robots.split(","):
            emb = get_embodiment(robot)
            for kind, group in groups.items():
                if not group:
                    continue
                out = Path(tmp) / f"{robot}_{kind}"
                ts = tuple(t for t in tasks if t != "conditional" or kind != "city")
                build_dataset(group, out, tasks=ts, split="eval=1.0", seed=a.seed_base,
                              settings=DatasetSettings(episodes_per_scene=a.episodes,
                                                       embodiment=robot, verify=a.verify,
                                                       check_contacts=a.check == "on"))
                ds = load_dataset(out)
                sims: dict[str, Touches] = {}
                for task in ts:
                    t0 = time.perf_counter()
                    eps = ds.episodes(task, "eval")
                    hit, ok, share = [], [], []
                    seen: Counter[str] = Counter()
                    for ep in eps:
                        sid = ep.navbench["scene"]
                        if sid not in sims:
                            sims[sid] = Touches(Simulator(ds.scene(sid), emb, SimSettings(
                                align_doors=a.doors == "on")))
                        sim = sims[sid]
                        sim.seen = Counter()
                        tau = float(ep.navbench.get("success_distance", 1.0 + emb.radius))
                        o = run_episode(sim, load_agent("oracle-path"), ep, tau=tau)  # type: ignore[arg-type]
                        col = o.records["collision"]
                        hit.append(bool(col.any()))
                        share.append(float(np.mean(col[1:])) if len(col) > 1 else 0.0)
                        ok.append(o.label == "success")
                        seen.update(sim.seen)
                    n = len(eps)
                    by_scene = ds.manifest.dropped.get(task, {})
                    checked = sum(int(c) for reasons in by_scene.values() if isinstance(reasons, dict)
                                  for r, c in reasons.items() if str(r).startswith("contact_"))
                    k = int(sum(hit))
                    lo, hi = wilson_interval(k, n) if n else (float("nan"), float("nan"))
                    total.update({f"{robot}:n": n, f"{robot}:hit": k})
                    print(f"{robot:10s} {kind:7s} {task:12s} {n:3d} {checked:3d} "
                          f"{k / max(n, 1):5.2f} [{lo:5.2f},{hi:5.2f}] "
                          f"{np.mean(ok) if n else float('nan'):5.2f} "
                          f"{np.mean(share) if n else float('nan'):7.3f} "
                          f"{time.perf_counter() - t0:6.1f}  {dict(seen.most_common(6))}", flush=True)
    for robot in a.robots.split(","):
        n, k = total[f"{robot}:n"], total[f"{robot}:hit"]
        print(f"{robot}: CR {k}/{n} = {k / max(n, 1):.3f} over every kind and task")


if __name__ == "__main__":
    main()
