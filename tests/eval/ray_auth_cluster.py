"""Run by tests/eval/test_ray_cluster.py in a fresh process whose environment turns Ray's token
authentication on (``RAY_AUTH_MODE=token``, ``RAY_AUTH_TOKEN``, an empty ``HOME``): start a
head and a worker node on this machine, evaluate ``argv[2]`` with ``argv[3]`` on Ray into
``argv[1]``, then try three drivers without the right token setting; print one JSON line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

DRIVER = """
import sys
from navbench.errors import NavbenchError
from navbench.eval.ray_executor import connect, import_ray
ray = import_ray()
try:
    connect(ray, sys.argv[1], None, {}, timeout_s=10)
    print("connected", int(ray.cluster_resources().get("CPU", 0)))
except NavbenchError as e:
    print("error", e)
"""


def _driver(address: str, **env: str) -> str:
    base = {k: v for k, v in os.environ.items() if k not in ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN")}
    out = subprocess.run([sys.executable, "-c", DRIVER, address], env={**base, **env},
                         capture_output=True, text=True, timeout=120)
    return (out.stdout.strip().splitlines() or [out.stderr.strip()[-500:]])[-1]


def main(out: Path, dataset: str, agent: str) -> None:
    from ray.cluster_utils import Cluster

    from navbench.eval import ResultsDB
    from navbench.eval.pipeline import EvalSettings, evaluate

    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    try:
        cluster.add_node(num_cpus=1)
        cluster.wait_for_nodes()
        s = evaluate(dataset, agent, out, EvalSettings(), workers=2, executor="ray",
                     ray_address=cluster.address, progress=False)
        with ResultsDB(out) as db:
            db.export(db.resolve_run(None), "csv", out / "results.csv", timings=False)
        token = os.environ["RAY_AUTH_TOKEN"]
        drivers = {
            "disabled": _driver(cluster.address, RAY_AUTH_MODE="disabled", RAY_AUTH_TOKEN=token),
            "wrong": _driver(cluster.address, RAY_AUTH_MODE="token", RAY_AUTH_TOKEN="0" * 32),
            "none": _driver(cluster.address),
            "unset_mode": _driver(cluster.address, RAY_AUTH_TOKEN=token),  # navbench forwards it
        }
    finally:
        cluster.shutdown()
    print(json.dumps({"completed": s.completed, "drivers": drivers}))


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2], sys.argv[3])
