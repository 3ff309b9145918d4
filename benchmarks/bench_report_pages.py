"""Report time with episode pages: the demo report without pages (the reference, measured in
the same run), with pages but no frames, and with pages and first-person frames.

The demo folder is made by ``navbench demo`` (``--quick`` is enough); without one, a quick demo
is built first in a temporary folder (a few minutes). CPU time is the steadier figure on a
shared machine; wall time is printed too.

Usage: python benchmarks/bench_report_pages.py [--demo demo_out] [--repeat 2]
"""

from __future__ import annotations

import argparse
import functools
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--demo", type=Path, default=None, help="a navbench demo folder")
    ap.add_argument("--repeat", type=int, default=2)
    a = ap.parse_args()
    tmp = tempfile.TemporaryDirectory()
    demo = a.demo
    if demo is None or not (demo / "dataset" / "manifest.json").is_file():
        demo = Path(tmp.name) / "demo"
        print(f"building a quick demo in {demo} ...", flush=True)
        subprocess.run([sys.executable, "-m", "navbench", "demo", "--quick", "--out", str(demo)],
                       check=True, stdout=subprocess.DEVNULL)

    import navbench.report.build as build
    from navbench.cli.demo import DEMO_RUNS, write_demo_report
    from navbench.episodes.loader import load_dataset

    ds = load_dataset(demo / "dataset")
    runs = [(r, demo / "runs" / r.task / r.agent) for r in DEMO_RUNS
            if (demo / "runs" / r.task / r.agent / "results.sqlite").is_file()]
    plain = build.build_report_from_rows
    cases = (("no pages (reference)", {"episode_pages": 0}), ("pages, no frames", {"frames": False}),
             ("pages and frames", {}))
    cpu: dict[str, list[float]] = {name: [] for name, _ in cases}
    for k in range(a.repeat):
        for name, kw in cases:
            build.build_report_from_rows = functools.partial(plain, **kw)  # type: ignore[assignment]
            out = Path(tmp.name) / f"report-{k}-{len(cpu[name])}-{name.split()[0]}"
            t0, c0 = time.perf_counter(), time.process_time()
            write_demo_report(ds, runs, out)
            cpu[name].append(time.process_time() - c0)
            pages = len(list((out / "episodes").glob("*.html"))) if (out / "episodes").is_dir() else 0
            print(f"{name:22s} {pages:3d} pages  cpu {cpu[name][-1]:6.1f} s  "
                  f"wall {time.perf_counter() - t0:6.1f} s", flush=True)
    build.build_report_from_rows = plain
    ref = min(cpu[cases[0][0]])
    for name, _ in cases[1:]:
        print(f"{name}: {min(cpu[name]) / ref:.2f}x the reference's CPU time")
    tmp.cleanup()


if __name__ == "__main__":
    main()
