"""The Ray executor on a local Ray instance gives the same table as the local executor."""

from __future__ import annotations

from pathlib import Path

import pytest

from navbench.eval import LocalExecutor, ResultsDB, plan_shards, run_shards

FN = "tests.eval.workers:run_shard"
EPISODES = [(str(i), f"s{i % 3}") for i in range(1, 13)]


def _evaluate(db_path: Path, executor: object, kw: dict) -> bytes:
    with ResultsDB(db_path) as db:
        rid = db.get_or_create_run("agent", "h", {}, 0, "v")
        run_shards(
            db,
            plan_shards(rid, EPISODES, FN, kw, workers=2),
            executor,
            progress=False,
            episode_timeout_s=2.0,
        )
        db.export(rid, "csv", db_path.with_suffix(".csv"), timings=False)
    return db_path.with_suffix(".csv").read_bytes()


def test_ray_matches_local_including_errors_timeouts_and_a_crash(tmp_path: Path) -> None:
    ray = pytest.importorskip("ray")
    from navbench.eval import RayExecutor

    kw = {"raise_ids": ["4"], "hang_ids": ["7"], "kill_once_ids": ["5"], "kill_always_ids": ["11"]}
    local = _evaluate(
        tmp_path / "local.sqlite", LocalExecutor(2), {**kw, "marker_dir": str(tmp_path / "m1")}
    )
    (tmp_path / "m1").mkdir(exist_ok=True)
    (tmp_path / "m2").mkdir()
    local = _evaluate(
        tmp_path / "local2.sqlite", LocalExecutor(2), {**kw, "marker_dir": str(tmp_path / "m1")}
    )
    ray.init(num_cpus=2, include_dashboard=False)
    try:
        remote = _evaluate(
            tmp_path / "ray.sqlite", RayExecutor(), {**kw, "marker_dir": str(tmp_path / "m2")}
        )
    finally:
        ray.shutdown()
    assert remote == local
    text = local.decode()
    assert "agent exploded on 4" in text and "timeout: episode 7 exceeded" in text
    assert "worker died" in text and ",5,s2,success," in text
