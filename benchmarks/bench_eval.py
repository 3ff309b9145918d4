"""Evaluation throughput: episodes per minute of ``navbench evaluate`` with the oracle-path agent
(no rendering, Spot), on 1 worker (the reference) and on 2 workers, end to end (worker start-up,
one world build per scene per worker, rollouts, metrics with per-step geodesic distances, and
database commits).

Targets (issue 10): ≥ 300 episodes/min on 2 workers, speed-up 1 → 2 workers ≥ 1.7×.

    .venv/bin/python benchmarks/bench_eval.py [--houses 4] [--episodes-per-scene 30]
"""

from __future__ import annotations

import argparse
import resource
import tempfile
import time
from collections import Counter
from pathlib import Path

from navbench.episodes.dataset import DatasetSettings, build_dataset
from navbench.eval import ResultsDB
from navbench.eval.pipeline import EvalSettings, evaluate
from navbench.scene.procgen.indoor import IndoorSettings, generate_house


def _cpu(who: int) -> float:
    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime


def run(dataset: Path, out: Path, workers: int) -> tuple[float, int, Counter[str], float]:
    """(wall seconds, episodes, labels, summed in-worker episode seconds) of one evaluation;
    prints the CPU seconds of the runner process and of its worker processes."""
    c0, k0 = _cpu(resource.RUSAGE_SELF), _cpu(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    s = evaluate(dataset, "oracle-path", out, EvalSettings(), workers=workers, progress=False)
    wall = time.perf_counter() - t
    print(f"  {workers} worker(s): runner CPU {_cpu(resource.RUSAGE_SELF) - c0:.1f} s, workers CPU "
          f"{_cpu(resource.RUSAGE_CHILDREN) - k0:.1f} s, wall {wall:.1f} s")
    with ResultsDB(out) as db:
        busy = sum(r["wall_time_s"] for r in db.rows(s.run_id))
    return wall, s.completed, Counter(s.labels), busy


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # ~450 episodes: with fewer, the ~1.2 s start-up of each worker process (imports, numba
    # cache, MuJoCo) hides the speed-up (measured: 77 episodes 1.32x, 215 1.52x, 465 1.70x)
    ap.add_argument("--houses", type=int, default=16)
    ap.add_argument("--episodes-per-scene", type=int, default=40)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        scenes = [generate_house(s, None, IndoorSettings(rooms=(3, 5))) for s in range(a.houses)]
        t = time.perf_counter()
        build_dataset(scenes, root / "ds", tasks=("conditional",), split="eval=1.0", seed=0,
                      workers=2, settings=DatasetSettings(episodes_per_scene=a.episodes_per_scene))
        print(f"dataset: {a.houses} houses in {time.perf_counter() - t:.1f} s")
        # warm-up (numba caches, imports) on a separate run folder, not measured
        evaluate(root / "ds", "oracle-path", root / "warm", EvalSettings(episodes="0"),
                 workers=1, progress=False)
        w1, n1, labels, busy1 = run(root / "ds", root / "r1", 1)
        w2, n2, _, _ = run(root / "ds", root / "r2", 2)
    print(f"episodes: {n1}  labels (1 worker): {dict(sorted(labels.items()))}")
    print(f"mean in-worker time per episode: {busy1 / max(n1, 1) * 1000:.0f} ms")
    e1, e2 = 60 * n1 / w1, 60 * n2 / w2
    print(f"1 worker  (reference): {w1:6.1f} s  {e1:7.0f} episodes/min")
    print(f"2 workers            : {w2:6.1f} s  {e2:7.0f} episodes/min  (target >= 300)")
    print(f"speed-up 1 -> 2 workers: {w1 / w2:.2f}x  (target >= 1.7x)")


if __name__ == "__main__":
    main()
