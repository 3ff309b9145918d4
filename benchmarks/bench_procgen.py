"""Speed of procedural indoor houses (generation only, and generation + canonical save).

Target (issue 2): 100 six-room houses in <= 10 s on one core. The reference measured in the
same run is the cost of serialising the same scenes with ``json.dumps`` of their dicts, so
the ratio is machine-independent-ish ("generating a house costs N JSON encodings of it").

    .venv/bin/python benchmarks/bench_procgen.py [--count 100] [--rooms 6]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from navbench.scene import save, scene_to_dict
from navbench.scene.procgen.indoor import generate_house


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--rooms", type=int, default=6)
    args = ap.parse_args()
    generate_house(0, args.rooms)  # warm imports

    t0 = time.perf_counter()
    scenes = [generate_house(s, args.rooms) for s in range(args.count)]
    t_gen = time.perf_counter() - t0

    with tempfile.TemporaryDirectory() as d:
        t0 = time.perf_counter()
        for s in range(args.count):
            save(generate_house(s, args.rooms), Path(d) / f"{s}.json")
        t_save = time.perf_counter() - t0

    t0 = time.perf_counter()
    for sc in scenes:
        json.dumps(scene_to_dict(sc))
    t_ref = time.perf_counter() - t0

    n_obj = sum(len(sc.objects) for sc in scenes) / len(scenes)
    n_box = sum(len(sc.boxes) for sc in scenes) / len(scenes)
    print(f"{args.count} houses x {args.rooms} rooms: {n_obj:.0f} objects, {n_box:.0f} boxes each")
    print(f"generation only    : {t_gen:6.2f} s  {args.count / t_gen:7.1f} houses/s")
    print(f"generation + save  : {t_save:6.2f} s  {args.count / t_save:7.1f} houses/s")
    print(f"reference json.dumps: {t_ref:6.2f} s  ({t_gen / t_ref:.1f}x generation / dumps)")
    verdict = "PASS" if t_gen <= 10.0 else "FAIL"
    print(f"target 100 six-room houses <= 10 s: {verdict} ({t_gen * 100 / args.count:.2f} s per 100)")


if __name__ == "__main__":
    main()
