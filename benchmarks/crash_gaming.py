"""Can an agent raise its score by crashing? The same policy honestly and killing its process.

Builds a conditional dataset (``--houses`` procedural 3-room houses × 12 episodes), evaluates
the privileged ``first-branch`` policy as itself (``how=none``) and killing its own process
(SIGKILL, ``how=kill``; ``--how exit`` for ``os._exit``) where its STOP would fail
(``tests.eval.pipeline_agents:FirstBranchCrasher``), and prints, per run, the labels and the
means over the episodes that define each metric (as the report averages them): SR, SPL,
SoftSPL, NE, OSR, path length and nDTW (rates in %). With crashes scored on their recorded
trajectory the crashing run never scores above the honest one; the last line says so.

    PYTHONPATH=. .venv/bin/python benchmarks/crash_gaming.py [--houses 2] [--out DIR]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

AGENT = "tests.eval.pipeline_agents:FirstBranchCrasher"
#: (key, name, scale, higher is better)
METRICS = (("success", "SR", 100, True), ("spl", "SPL", 100, True), ("soft_spl", "SoftSPL", 100, True),
           ("ne", "NE", 1, False), ("oracle_success", "OSR", 100, True),
           ("path_length", "PL", 1, None), ("ndtw", "nDTW", 100, True))


def run(ds: Path, out: Path, how: str) -> tuple[Counter[str], dict[str, tuple[float, int]]]:
    """Labels and ``metric -> (mean, episodes that define it)`` of one evaluation."""
    from navbench.eval import ResultsDB
    from navbench.eval.pipeline import EvalSettings, evaluate

    evaluate(ds, AGENT, out, EvalSettings(agent_kwargs={"how": how}), workers=2, progress=False)
    with ResultsDB(out) as db:
        rows = db.rows(db.resolve_run(None))
    means = {}
    for key, _, scale, _ in METRICS:
        vals = [float(r["metrics"][key]) for r in rows if r["metrics"].get(key) is not None]
        means[key] = (scale * sum(vals) / len(vals) if vals else float("nan"), len(vals))
    return Counter(r["label"] for r in rows), means


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--houses", type=int, default=2)
    ap.add_argument("--how", default="kill", choices=("kill", "exit", "segv"))
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    from navbench.episodes.dataset import DatasetSettings, build_dataset
    from navbench.scene.procgen.indoor import IndoorSettings, generate_house

    out = args.out or Path(tempfile.mkdtemp(prefix="crash-gaming-"))
    ds = out / "ds"
    if not (ds / "manifest.json").is_file():
        scenes = [generate_house(s, None, IndoorSettings(rooms=(3, 3))) for s in range(1, args.houses + 1)]
        build_dataset(scenes, ds, tasks=("conditional",), split="eval=1.0", seed=0,
                      settings=DatasetSettings(episodes_per_scene=12))
    got = {how: run(ds, out / how, how) for how in ("none", args.how)}
    print(f"{'run':8s} {'labels':48s} " + " ".join(f"{n:>12s}" for _, n, _, _ in METRICS))
    for how, (labels, means) in got.items():
        text = ", ".join(f"{k} {v}" for k, v in sorted(labels.items()))
        print(f"{how:8s} {text:48s} " + " ".join(f"{m:7.2f} (n{c:2d})" for m, c in means.values()))
    honest, crashing = got["none"][1], got[args.how][1]
    above = [n for k, n, _, hi in METRICS if hi is not None and
             (crashing[k][0] > honest[k][0] + 1e-9 if hi else crashing[k][0] < honest[k][0] - 1e-9)]
    print("crashing run above the honest one in: " + (", ".join(above) if above else "no metric"))


if __name__ == "__main__":
    main()
