"""Measured embodiment limits (step up, step down, slope, gap) at several speeds: the README table.

Runs :func:`navbench.sim.limits.measure_limits` for each robot (hand-built scenes, a constant
commanded speed, NavVerse's tilt-only fall rule; step downs once more with the drop rule on)
and prints one line per robot × feature × speed, then the Markdown table the README's
"Simulator" section shows (generated from these measurements, not written by hand).

    .venv/bin/python benchmarks/bench_limits.py [--robots spot,turtlebot] [--speeds 0.1,0.5,1.0,1.5]
"""

from __future__ import annotations

import argparse
import time

from navbench.sim import get_embodiment
from navbench.sim.embodiments import Embodiment
from navbench.sim.limits import FEATURES, SPEEDS, Limit, measure_limits

UNIT = {"step_up": "m", "step_down": "m", "slope": "°", "gap": "m"}
VERB = {"step_up": "climbs", "step_down": "steps down", "slope": "drives up", "gap": "crosses"}


def _v(x: float | None, feature: str) -> str:
    if x is None:
        return "–"
    return f"{x:.0f}°" if feature == "slope" else f"{x:.3g} m"


def cell(rows: list[Limit], feature: str) -> str:
    """One table cell: the limit per speed, merged where speeds agree, and what fails next."""
    groups: dict[tuple[float | None, str | None, float | None], list[float]] = {}
    for r in rows:
        groups.setdefault((r.value, r.failure, r.next_value), []).append(r.speed)
    parts = []
    for (value, failure, nxt), speeds in groups.items():
        sp = f"{speeds[0]:g}" if len(speeds) == 1 else f"{min(speeds):g}–{max(speeds):g}"
        text = f"{VERB[feature]} {_v(value, feature)} at {sp} m/s"
        if failure is not None:
            text += f" ({_v(nxt, feature)}: {failure})"
        else:
            text += " (every value scanned)"
        parts.append(text)
    return "; ".join(parts)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--robots", default="spot,turtlebot")
    ap.add_argument("--speeds", default=",".join(f"{s:g}" for s in SPEEDS))
    ap.add_argument("--features", default=",".join(FEATURES))
    a = ap.parse_args()
    speeds = [float(s) for s in a.speeds.split(",")]
    features = a.features.split(",")
    robots: list[Embodiment] = [get_embodiment(r) for r in a.robots.split(",")]
    table: dict[str, dict[str, str]] = {}
    print(f"{'robot':10s} {'feature':16s} {'m/s':>5s} {'limit':>8s}  next value: outcome "
          f"(largest tilt)")
    for emb in robots:
        for rule in (False, True):
            feats = [f for f in features if f == "step_down"] if rule else features
            if not feats:
                continue
            t0 = time.perf_counter()
            rows = measure_limits(emb, speeds, feats, drop_rule=rule)
            for r in rows:
                name = r.feature + (" (drop rule)" if rule else "")
                nxt = "–" if r.failure is None else \
                    f"{_v(r.next_value, r.feature)}: {r.failure} ({r.failure_tilt:.1f}°)"
                print(f"{emb.name:10s} {name:16s} {r.speed:5.2f} {_v(r.value, r.feature):>8s}  "
                      f"{nxt}", flush=True)
            print(f"{emb.name:10s} ({time.perf_counter() - t0:.1f} s wall)")
            for f in feats:
                key = f + (" with the drop rule" if rule else "")
                table.setdefault(key, {})[emb.name] = cell([r for r in rows if r.feature == f], f)
    names = [e.name for e in robots]
    print()
    print("| | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for key, by in table.items():
        print(f"| {key.replace('_', ' ')} | " + " | ".join(by.get(n, "") for n in names) + " |")


if __name__ == "__main__":
    main()
