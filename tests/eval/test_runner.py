"""The runner: sharding, resume, no-op re-runs, and a SIGKILL in the middle of a run."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from navbench.errors import ConfigError
from navbench.eval import (
    EpisodeResult,
    Executor,
    LocalExecutor,
    ResultsDB,
    ShardSpec,
    plan_shards,
    run_shards,
)
from tests.eval.rows import committed_episodes

from .driver import EPISODES

FN = "tests.eval.workers:run_shard"
ROOT = Path(__file__).resolve().parents[2]


class _MustNotRun(Executor):
    def run(
        self, shards: Sequence[ShardSpec], episode_timeout_s: float | None
    ) -> Iterator[EpisodeResult]:
        raise AssertionError(f"executor called with {shards}")


def test_plan_shards_groups_by_scene_and_splits_for_idle_workers() -> None:
    eps = [("3", "B"), ("1", "A"), ("10", "A"), ("2", "A"), ("4", "B"), ("5", "C")]
    got = [(s.scene_id, s.episode_ids) for s in plan_shards("r", eps, FN)]
    assert got == [("A", ("1", "2", "10")), ("B", ("3", "4")), ("C", ("5",))]
    got = [(s.scene_id, s.episode_ids) for s in plan_shards("r", eps[:4], FN, workers=4)]
    # A (3 episodes) splits into 2 + 1, then a shard of 2 splits again; B has 1 and cannot
    assert sorted(got) == [("A", ("1",)), ("A", ("10",)), ("A", ("2",)), ("B", ("3",))]


def test_resume_skips_finished_and_a_finished_run_is_a_no_op(tmp_path: Path) -> None:
    eps = [(str(i), f"s{i % 2}") for i in range(1, 9)]
    with ResultsDB(tmp_path) as db:
        rid = db.get_or_create_run("agent", "h", {}, 0, "v")
        first = run_shards(db, plan_shards(rid, eps[:3], FN), LocalExecutor(1), progress=False)
        assert (first.total, first.skipped, first.completed) == (3, 0, 3)

        def sr(results: Sequence[EpisodeResult]) -> dict[str, float]:
            return {"SR": sum(r.label == "success" for r in results) / len(results)}

        second = run_shards(
            db, plan_shards(rid, eps, FN), LocalExecutor(2), progress=False, summary_fn=sr
        )
        assert (second.total, second.skipped, second.completed) == (8, 3, 5)
        # ids 1..8: n % 3 == 0 for 3 and 6 -> 6 successes out of 8
        assert second.labels == {"success": 6, "timeout": 2} and second.summary == {"SR": 0.75}
        third = run_shards(db, plan_shards(rid, eps, FN), _MustNotRun(), progress=False)
        assert (third.skipped, third.completed) == (8, 0)
        assert len(db.rows(rid)) == 8
        with pytest.raises(ConfigError, match="one run"):
            run_shards(
                db,
                [ShardSpec("x", "a", ("1",), FN), ShardSpec("y", "a", ("2",), FN)],
                _MustNotRun(),
            )
        with pytest.raises(ConfigError, match="--run-id"):
            run_shards(db, [ShardSpec("x", "a", ("1",), FN)], _MustNotRun())




def _driver(db: Path, sleep_s: float) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "tests.eval.driver", str(db), "2", str(sleep_s)]
    return subprocess.Popen(cmd, cwd=ROOT, start_new_session=True, stdout=subprocess.PIPE)


def test_sigkill_mid_run_then_resume_equals_an_uninterrupted_run(tmp_path: Path) -> None:
    killed, clean = tmp_path / "killed.sqlite", tmp_path / "clean.sqlite"
    proc = _driver(killed, 0.1)
    deadline = time.monotonic() + 60
    while committed_episodes(killed) < 6 and time.monotonic() < deadline:
        time.sleep(0.05)
    seen = committed_episodes(killed)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(10)
    after_kill = committed_episodes(killed)
    assert 6 <= seen <= after_kill < len(EPISODES)  # committed rows survive, the run was cut short

    out = subprocess.run([sys.executable, "-m", "tests.eval.driver", str(killed), "2", "0.0"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120, check=True)  # fmt: skip
    assert out.stdout.strip() == f"completed={30 - after_kill} skipped={after_kill} total=30"
    subprocess.run([sys.executable, "-m", "tests.eval.driver", str(clean), "2", "0.0"],
                   cwd=ROOT, capture_output=True, timeout=120, check=True)  # fmt: skip

    con = sqlite3.connect(killed)
    n, distinct = con.execute(
        "SELECT COUNT(*), COUNT(DISTINCT episode_id) FROM episodes"
    ).fetchone()
    assert (n, distinct) == (30, 30)
    con.execute("ATTACH DATABASE ? AS clean", (str(clean),))
    q = "SELECT episode_id, blob FROM {}trajectories ORDER BY episode_id"
    blobs = con.execute(q.format("")).fetchall()
    assert len(blobs) == 30 and blobs == con.execute(q.format("clean.")).fetchall()
    con.close()
    for fmt in ("csv", "json"):
        with ResultsDB(killed) as a, ResultsDB(clean) as b:
            a.export(a.resolve_run(None), fmt, tmp_path / f"killed.{fmt}", timings=False)
            b.export(b.resolve_run(None), fmt, tmp_path / f"clean.{fmt}", timings=False)
        assert (tmp_path / f"killed.{fmt}").read_bytes() == (tmp_path / f"clean.{fmt}").read_bytes()
