"""A two-node Ray cluster on loopback (``ray.cluster_utils.Cluster``, one CPU per node): killing
the worker node mid-run loses no episode, and the results equal the local executor's."""

from __future__ import annotations

import sqlite3
import subprocess
import threading
import time
from pathlib import Path

import pytest

from navbench.eval import LocalExecutor, ResultsDB, plan_shards, run_shards
from navbench.eval.worker import add_sys_path

FN = "tests.eval.workers:run_shard"
EPISODES = [(str(i), f"s{i % 4}") for i in range(1, 13)]
KW = {"sleep_s": 0.4}


def _export(db_path: Path, executor: object, on_start: object = None) -> bytes:
    with ResultsDB(db_path) as db:
        rid = db.get_or_create_run("agent", "h", {}, 0, "v")
        run_shards(db, plan_shards(rid, EPISODES, FN, KW, workers=2), executor,
                   progress=False, episode_timeout_s=30.0)
        db.export(rid, "csv", db_path.with_suffix(".csv"), timings=False)
    return db_path.with_suffix(".csv").read_bytes()


def _committed(db_path: Path) -> int:
    try:
        con = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=1.0)
        try:
            return int(con.execute("SELECT COUNT(*) FROM episodes").fetchone()[0])
        finally:
            con.close()
    except sqlite3.Error:
        return 0


def _ray_processes() -> int:
    out = subprocess.run(["pgrep", "-f", "ray/core/src/ray/(raylet|gcs)"], capture_output=True,
                         text=True, check=False).stdout
    return len(out.split())


@pytest.mark.slow
def test_killing_a_worker_node_mid_run_loses_nothing(tmp_path: Path) -> None:
    ray = pytest.importorskip("ray")
    from ray.cluster_utils import Cluster

    from navbench.eval import RayExecutor

    add_sys_path([str(Path(__file__).resolve().parents[2])])
    local = _export(tmp_path / "local.sqlite", LocalExecutor(2))
    before = _ray_processes()
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    killed: list[float] = []
    try:
        worker = cluster.add_node(num_cpus=1)
        cluster.wait_for_nodes()
        ray.init(address=cluster.address)
        db_path = tmp_path / "ray.sqlite"

        def kill_when_busy() -> None:
            deadline = time.monotonic() + 120
            while _committed(db_path) < 3 and time.monotonic() < deadline:
                time.sleep(0.1)
            cluster.remove_node(worker, allow_graceful=False)
            killed.append(time.monotonic())

        t = threading.Thread(target=kill_when_busy, daemon=True)
        t.start()
        remote = _export(db_path, RayExecutor(cluster.address))
        t.join(10)
    finally:
        ray.shutdown()
        cluster.shutdown()
    assert killed, "the worker node was never killed"
    assert remote == local  # every episode once, as the local executor records it
    assert local.count(b"\n") == 1 + len(EPISODES)
    deadline = time.monotonic() + 20
    while _ray_processes() > before and time.monotonic() < deadline:
        time.sleep(0.5)
    assert _ray_processes() <= before, "Ray processes were left behind"


@pytest.mark.slow
def test_shards_hold_their_cpu_so_no_more_run_than_cpus(tmp_path: Path) -> None:
    """2 CPUs, 6 shards that wait on every result delivery: at most 2 shards run at once."""
    ray = pytest.importorskip("ray")
    from navbench.eval import RayExecutor

    add_sys_path([str(Path(__file__).resolve().parents[2])])
    log = tmp_path / "log.txt"
    eps = [(str(i), f"s{i % 6}") for i in range(18)]
    ray.init(num_cpus=2, include_dashboard=False)
    try:
        with ResultsDB(tmp_path / "r.sqlite") as db:
            rid = db.get_or_create_run("agent", "h", {}, 0, "v")
            s = run_shards(db, plan_shards(rid, eps, "tests.eval.overlap_workers:timed_shard",
                                           {"sleep_s": 0.3, "log": str(log)}, workers=2),
                           RayExecutor(), progress=False, episode_timeout_s=30.0)
    finally:
        ray.shutdown()
    assert s.completed == 18
    events = sorted((float(t), +1 if k == "start" else -1)
                    for k, t in (line.split() for line in log.read_text().splitlines()))
    running = peak = 0
    for _, d in events:
        running += d
        peak = max(peak, running)
    assert peak <= 2, f"{peak} shards ran at once on 2 CPUs"


@pytest.mark.slow
def test_two_node_cluster_with_token_auth_matches_local_workers(cond_dataset: Path,
                                                                 tmp_path: Path) -> None:
    """A head and a worker node with token authentication on (Ray ≥ 2.52's default), in a
    process of its own: the evaluation equals the local workers' rows, and drivers without the
    head's token are told so (not "start a head") within seconds."""
    import json
    import os
    import secrets
    import sys

    from navbench.eval.pipeline import EvalSettings, evaluate

    pytest.importorskip("ray")
    agent = "tests.eval.pipeline_agents:StepCounter"
    evaluate(cond_dataset, agent, tmp_path / "local", EvalSettings(), workers=2, progress=False)
    with ResultsDB(tmp_path / "local") as db:
        db.export(db.resolve_run(None), "csv", tmp_path / "local.csv", timings=False)
    root = Path(__file__).resolve().parents[2]
    (tmp_path / "home").mkdir()  # no ~/.ray/auth_token: the token comes from the environment only
    env = {**os.environ, "HOME": str(tmp_path / "home"), "RAY_AUTH_MODE": "token",
           "RAY_AUTH_TOKEN": secrets.token_hex(32),
           "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])}
    env.pop("RAY_AUTH_TOKEN_PATH", None)
    out = subprocess.run([sys.executable, str(root / "tests" / "eval" / "ray_auth_cluster.py"),
                          str(tmp_path / "ray"), str(cond_dataset), agent],
                         env=env, cwd=root, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    res = json.loads(out.stdout.strip().splitlines()[-1])
    assert res["completed"] == 12
    assert (tmp_path / "ray" / "results.csv").read_bytes() == (tmp_path / "local.csv").read_bytes()
    d = res["drivers"]
    assert d["disabled"].startswith("error") and "RAY_AUTH_MODE=disabled here" in d["disabled"]
    assert "refused this process's token (from RAY_AUTH_TOKEN)" in d["wrong"]
    assert "uses token authentication and this process has no token" in d["none"]
    assert "ray get-auth-token" in d["none"] and "start one with" not in d["none"]
    assert d["unset_mode"] == "connected 2"
