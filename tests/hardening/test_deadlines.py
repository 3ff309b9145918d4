"""The per-episode wall-clock deadline measures the episode, not the world build before it."""

from __future__ import annotations

import time

import pytest

from navbench.eval import EpisodeResult, ShardSpec, execute_shard
from navbench.eval import worker as worker_mod

FN = "tests.hardening.deadline_workers:run_shard"


def _run(ids: list[str], timeout: float, **kw: object) -> tuple[list[EpisodeResult], float]:
    out: list[EpisodeResult] = []
    t = time.perf_counter()
    execute_shard(ShardSpec("r", "s0", tuple(ids), FN, kw), out.append, timeout)
    return out, time.perf_counter() - t


def test_a_build_longer_than_the_episode_limit_is_not_charged_to_an_episode() -> None:
    out, _ = _run(["1", "2"], 0.3, build_s=0.8, episode_s=0.05)
    assert [(r.episode_id, r.label, r.error) for r in out] == [("1", "success", None), ("2", "success", None)]


def test_each_episode_still_gets_exactly_its_limit_after_the_build() -> None:
    out, wall = _run(["1", "2"], 0.3, build_s=0.5, hang_ids=["1"])
    assert out[0].label == "agent_error"
    assert out[0].error == "timeout: episode 1 exceeded the 0.3 s wall-clock limit"  # no build allowance
    assert out[1].label == "success"
    assert wall < 0.5 + 0.3 + 0.5 + 5.0  # build, limit, rebuild for episode 2 (+ slack): no 3600 s hang


def test_a_hung_build_ends_at_the_limit_plus_the_allowance(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(worker_mod, "SETUP_ALLOWANCE_S", 0.4)
    out, wall = _run(["1"], 0.3, build_s=3600.0)
    assert [r.label for r in out] == ["agent_error"]
    assert out[0].error == ("timeout: episode 1 exceeded the 0.3 s wall-clock limit "
                            "(+0.4 s for the world build before it)")
    assert 0.7 <= wall < 10.0
