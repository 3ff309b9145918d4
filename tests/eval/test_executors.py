"""Local executor: real worker processes, crashes, retries, hard timeouts."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from navbench.errors import NavbenchError
from navbench.eval import AGENT_CRASH, EpisodeResult, LocalExecutor, ShardBook, ShardSpec

from .workers import expected

FN = "tests.eval.workers:run_shard"


def _shards(kw: dict, groups: dict[str, list[int]]) -> list[ShardSpec]:
    return [ShardSpec("r", sid, tuple(str(i) for i in ids), FN, kw) for sid, ids in groups.items()]


def _collect(
    ex: LocalExecutor, shards: list[ShardSpec], timeout: float | None = 10.0
) -> dict[str, EpisodeResult]:
    out: dict[str, EpisodeResult] = {}
    for r in ex.run(shards, timeout):
        assert r.episode_id not in out, f"duplicate result for {r.episode_id}"
        out[r.episode_id] = r
    return out


def test_two_workers_match_expected_and_run_outside_the_parent(tmp_path: Path) -> None:
    log = tmp_path / "builds.txt"
    shards = _shards(
        {"report_pid": True, "build_log": str(log)}, {"a": [1, 2, 4], "b": [5, 6], "c": [7]}
    )
    out = _collect(LocalExecutor(workers=2), shards)
    assert sorted(out, key=int) == ["1", "2", "4", "5", "6", "7"]
    for eid, r in out.items():
        e = expected(eid, r.scene_id)
        assert (r.label, r.metrics, r.sim_time_s) == (e.label, e.metrics, e.sim_time_s)
        assert r.trajectory["pos"].tolist() == e.trajectory["pos"].tolist()
    pids = {r.extra["pid"] for r in out.values()}
    assert os.getpid() not in pids and 1 <= len(pids) <= 2
    builds = sorted(line.split()[0] for line in log.read_text().splitlines())
    assert builds == ["a", "b", "c"]  # one world per shard


def test_one_worker_is_one_subprocess() -> None:
    out = _collect(LocalExecutor(workers=1), _shards({"report_pid": True}, {"a": [1, 2], "b": [4]}))
    pids = {r.extra["pid"] for r in out.values()}
    assert len(pids) == 1 and os.getpid() not in pids


def test_killed_worker_is_retried_once_and_then_recorded(tmp_path: Path) -> None:
    kw = {"kill_once_ids": ["2"], "kill_always_ids": ["5"], "marker_dir": str(tmp_path)}
    out = _collect(LocalExecutor(workers=2), _shards(kw, {"a": [1, 2, 4], "b": [5, 7, 9]}))
    assert sorted(out, key=int) == ["1", "2", "4", "5", "7", "9"]
    assert out["2"].label == "success"  # the retry succeeded
    assert out["5"].label == AGENT_CRASH
    assert out["5"].error == "worker died (crashed); 2 attempt(s)"
    assert out["7"].label == "success" and out["9"].label == "timeout"  # the shard went on


def test_hard_timeout_kills_a_worker_deaf_to_its_deadline() -> None:
    # 1.0 s + 0.5 s grace: wide enough that a healthy episode on a loaded machine is not killed
    ex = LocalExecutor(workers=1, grace_s=0.5, max_retries=0)
    out = _collect(ex, _shards({"deaf_hang_ids": ["2"]}, {"a": [1, 2, 4]}), timeout=1.0)
    assert [out[k].label for k in ("1", "2", "4")] == ["success", AGENT_CRASH, "success"]
    assert (
        out["2"].error == "worker died (unresponsive for 1.5 s, killed by the runner); 1 attempt(s)"
    )


def test_missing_worker_function_is_a_clear_error() -> None:
    shards = [ShardSpec("r", "a", ("1",), "tests.eval.workers:nope")]
    with pytest.raises(NavbenchError, match="has no function 'nope'"):
        _collect(LocalExecutor(workers=1), shards)


def test_shard_book_retry_policy() -> None:
    book = ShardBook(max_retries=1)
    k = book.start(ShardSpec("r", "a", ("1", "2", "3"), FN))
    assert book.record(k, EpisodeResult("1", "a", "success"))
    assert not book.record(k, EpisodeResult("1", "a", "success"))  # duplicate dropped
    assert not book.record(k, EpisodeResult("9", "a", "success"))  # unknown dropped
    results, retry = book.died(k, "x")
    assert results == [] and retry.episode_ids == ("2", "3")
    k2 = book.start(retry)
    results, retry = book.died(k2, "y")
    assert [(r.episode_id, r.label, r.error) for r in results] == [
        ("2", AGENT_CRASH, "worker died (y); 2 attempt(s)")]
    assert retry.episode_ids == ("3",)


def test_executor_choice_and_missing_ray(monkeypatch: pytest.MonkeyPatch) -> None:
    from navbench.errors import ConfigError, MissingDependencyError
    from navbench.eval import RayExecutor, make_executor

    assert (
        isinstance(make_executor("local", 3), LocalExecutor)
        and make_executor("local", 3).workers == 3
    )
    assert isinstance(make_executor("ray", 2), RayExecutor)
    with pytest.raises(ConfigError, match="--executor"):
        make_executor("slurm", 1)
    with pytest.raises(ConfigError, match="--workers"):
        LocalExecutor(0)
    monkeypatch.setitem(__import__("sys").modules, "ray", None)  # as if not installed
    with pytest.raises(MissingDependencyError, match=r"pip install 'navbench\[ray\]'"):
        list(RayExecutor().run([ShardSpec("r", "a", ("1",), FN)], 1.0))
