"""In-process shard execution: exceptions and timeouts become agent_error, the shard goes on."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from navbench.errors import ConfigError
from navbench.eval import AGENT_ERROR, EpisodeResult, ShardSpec, execute_shard, resolve_worker_fn

from .workers import expected

FN = "tests.eval.workers:run_shard"


def _run(ids: list[str], timeout: float | None = 5.0, **kw: object) -> list[EpisodeResult]:
    out: list[EpisodeResult] = []
    execute_shard(ShardSpec("r", "s0", tuple(ids), FN, kw), out.append, timeout)
    return out


def test_well_behaved_shard_emits_expected_results_in_order() -> None:
    out = _run(["1", "2", "3"])
    assert [r.episode_id for r in out] == ["1", "2", "3"]
    assert [r.label for r in out] == ["success", "success", "timeout"]
    assert out[1].metrics == {"spl": 2 / 3, "steps": 4, "success": True}
    assert out[2].trajectory["pos"].shape == (3, 3)
    assert out[0].metrics == expected("1", "s0").metrics


def test_exception_is_charged_to_its_episode_and_world_rebuilt(tmp_path: Path) -> None:
    log = tmp_path / "builds.txt"
    out = _run(["1", "2", "4", "5"], raise_ids=["2"], build_log=str(log))
    assert [(r.episode_id, r.label) for r in out] == [("1", "success"), ("2", AGENT_ERROR),
                                                      ("4", "success"), ("5", "success")]  # fmt: skip
    assert out[1].error.startswith("RuntimeError: agent exploded on 2 (at ")
    assert out[1].metrics == {} and out[1].trajectory is None
    builds = [line.split()[2] for line in log.read_text().splitlines()]
    assert builds == ["1,2,4,5", "4,5"]  # a fresh world for the rest


@pytest.mark.parametrize("kind", ["hang_ids", "spin_ids"])
def test_timeout_interrupts_sleeping_and_spinning_episodes(kind: str) -> None:
    t0 = time.perf_counter()
    out = _run(["1", "2", "4"], timeout=0.3, **{kind: ["2"]})
    elapsed = time.perf_counter() - t0
    assert [r.label for r in out] == ["success", AGENT_ERROR, "success"]
    assert out[1].error == "timeout: episode 2 exceeded the 0.3 s wall-clock limit"
    assert 0.3 <= out[1].wall_time_s < 1.5 and elapsed < 3.0


def test_timeout_outside_the_main_thread() -> None:
    box: list[list[EpisodeResult]] = []
    th = threading.Thread(
        target=lambda: box.append(_run(["1", "2", "4"], timeout=0.3, spin_ids=["2"]))
    )
    th.start()
    th.join(10)
    assert not th.is_alive()
    assert [r.label for r in box[0]] == ["success", AGENT_ERROR, "success"]
    assert "timeout" in box[0][1].error


def test_deadline_restarts_per_episode() -> None:
    # five episodes of 0.15 s each under a 0.3 s limit: the whole shard takes longer, none times out
    out = _run(["1", "2", "4", "5", "7"], timeout=0.3, sleep_s=0.15)
    assert all(r.label == "success" for r in out)


def test_early_return_records_the_missing_episodes() -> None:
    out = _run(["1", "2", "4"], return_at_ids=["2"])
    assert [r.label for r in out] == ["success", AGENT_ERROR, AGENT_ERROR]
    assert "returned without a result" in out[2].error


def test_resolve_worker_fn_errors() -> None:
    assert resolve_worker_fn(FN).__name__ == "run_shard"
    with pytest.raises(ConfigError, match="cannot import"):
        resolve_worker_fn("no_such_module_xyz:f")
    with pytest.raises(ConfigError, match="has no function"):
        resolve_worker_fn("tests.eval.workers:nope")
