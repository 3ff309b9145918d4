"""Street clutter per 100 m of road at several city sizes (and in hybrid neighbourhoods).

For each city size and seed: road centreline length (the city's measured road density × its
area), sidewalk objects and cars placed, both per 100 m of road, and the closest pair of fire
hydrants (m). ``--caps`` shows the previous behaviour (counts only capped at 1,000 / 200, not
scaled with the road: ``OutdoorSettings(objects_per_100m=None, cars_per_100m=None)``) beside
the default (2.75 objects and 0.55 cars per 100 m, NavVerse's 1,000 and 200 on 36.4 km of road).
Hybrid scenes count the road within their 50 m neighbourhood (``meta["clutter_per_100m"]``).

    .venv/bin/python benchmarks/bench_clutter.py [--sizes 200,500,1000] [--seeds 0,1] [--caps] \
        [--hybrids 3]
"""

from __future__ import annotations

import argparse
import dataclasses
import time

import numpy as np

from navbench.scene.procgen.hybrid import HybridSettings, generate_hybrid
from navbench.scene.procgen.outdoor import OutdoorSettings, generate_city


def hydrant_gap(scene) -> float:  # type: ignore[no-untyped-def]
    """Smallest distance (m) between two fire hydrants (``inf`` with fewer than two)."""
    p = np.array([[o.center[0], o.center[2]] for o in scene.objects if o.label == "fire hydrant"])
    if len(p) < 2:
        return float("inf")
    d = np.linalg.norm(p[:, None] - p[None], axis=2)
    np.fill_diagonal(d, np.inf)
    return float(d.min())


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="200,500,1000")
    ap.add_argument("--seeds", default="0,1")
    ap.add_argument("--caps", action="store_true", help="also the counts capped only (before)")
    ap.add_argument("--hybrids", type=int, default=3, help="hybrid scenes (seeds 0..n-1)")
    a = ap.parse_args()
    modes = [("per 100 m", OutdoorSettings())]
    if a.caps:
        modes.insert(0, ("caps only", OutdoorSettings(objects_per_100m=None, cars_per_100m=None)))
    print(f"{'mode':10s} {'size m':>6s} {'seed':>4s} {'road km':>7s} {'objects':>7s} {'cars':>5s} "
          f"{'obj/100m':>8s} {'cars/100m':>9s} {'hydrants':>8s} {'min gap m':>9s} {'gen s':>6s}")
    for name, base in modes:
        for size in (float(s) for s in a.sizes.split(",")):
            for seed in (int(s) for s in a.seeds.split(",")):
                t0 = time.perf_counter()
                s = generate_city(seed, dataclasses.replace(base, size=(size, size)))
                wall = time.perf_counter() - t0
                road = float(s.meta["road_density"]) * size * size / 1000.0
                cars = sum(o.id.startswith("car_") for o in s.objects)
                objs = len(s.objects) - cars
                hyd = sum(o.label == "fire hydrant" for o in s.objects)
                print(f"{name:10s} {size:6.0f} {seed:4d} {road / 1000:7.2f} {objs:7d} {cars:5d} "
                      f"{100 * objs / road:8.2f} {100 * cars / road:9.2f} {hyd:8d} "
                      f"{hydrant_gap(s):9.1f} {wall:6.1f}", flush=True)
        for seed in range(a.hybrids):
            cfg = HybridSettings()
            h = generate_hybrid(seed, dataclasses.replace(cfg, city=dataclasses.replace(
                cfg.city, objects_per_100m=base.objects_per_100m,
                cars_per_100m=base.cars_per_100m)))
            c = h.meta["clutter_per_100m"]
            print(f"{name:10s} hybrid {seed:4d} {'':7s} {'':7s} {'':5s} {c['objects']:8.2f} "
                  f"{c['cars']:9.2f}", flush=True)


if __name__ == "__main__":
    main()
