"""Dataset build speed: conditional episodes from generated houses (target 10,000 from 100
houses in <= 180 s on 2 cores). Reference measured in the same run: navmesh building alone.

Usage: python benchmarks/bench_dataset.py [--houses 100] [--per-scene 100] [--workers 2]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from navbench.episodes.dataset import DatasetSettings, build_dataset
from navbench.nav import NavMesh, NavSettings
from navbench.scene.procgen.indoor import generate_house


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--houses", type=int, default=100)
    ap.add_argument("--per-scene", type=int, default=100)
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args()
    t0 = time.perf_counter()
    scenes = [generate_house(s) for s in range(a.houses)]
    t_gen = time.perf_counter() - t0
    t0 = time.perf_counter()
    for sc in scenes[: max(1, a.houses // 10)]:
        NavMesh.build(sc, NavSettings.preset("indoor"))
    t_nav = (time.perf_counter() - t0) / max(1, a.houses // 10)
    with tempfile.TemporaryDirectory() as d:
        t0 = time.perf_counter()
        m = build_dataset(scenes, Path(d) / "ds", tasks=["conditional"], seed=0, workers=a.workers,
                          settings=DatasetSettings(episodes_per_scene=a.per_scene))
        t_build = time.perf_counter() - t0
    n = sum(c["total"] for c in m.counts["conditional"].values())
    print(f"houses: {a.houses} (generated in {t_gen:.1f} s), workers: {a.workers}")
    print(f"conditional episodes: {n} (+ oracle copy) in {t_build:.1f} s "
          f"= {n / t_build:.0f} episodes/s; target 10,000 in <= 180 s -> {'OK' if t_build <= 180 * n / 10000 else 'SLOW'}")
    print(f"reference: navmesh build {t_nav * 1000:.0f} ms/scene; build per scene "
          f"{t_build * a.workers / a.houses * 1000:.0f} ms CPU = {t_build * a.workers / a.houses / t_nav:.1f}x navmesh")


if __name__ == "__main__":
    main()
