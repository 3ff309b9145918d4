"""The executor interface and :class:`ShardBook`, the retry bookkeeping every executor shares
(local processes in :mod:`.executors`, Ray in :mod:`.ray_executor`)."""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace

from navbench.errors import ConfigError
from navbench.eval.records import EpisodeResult, ShardSpec, agent_crash, agent_error

log = logging.getLogger("navbench.eval.executors")


class Executor(ABC):
    """Runs shards somewhere and yields one result per episode, in arrival order."""

    workers: int = 1

    @abstractmethod
    def run(
        self, shards: Sequence[ShardSpec], episode_timeout_s: float | None
    ) -> Iterator[EpisodeResult]:
        """Yield exactly one :class:`EpisodeResult` per episode of ``shards``.

        Raises :class:`NavbenchError` when a shard cannot start at all (worker function missing).
        Closing the iterator early stops the workers.
        """


@dataclass
class _Attempt:
    shard: ShardSpec
    done: set[str] = field(default_factory=set)


class ShardBook:
    """Bookkeeping shared by the executors: which results came back, what to retry.

    Args:
        max_retries: extra attempts given to an episode whose worker died while running it.
    """

    def __init__(self, max_retries: int = 1) -> None:
        if max_retries < 0:
            raise ConfigError(f"max_retries: expected an integer >= 0, got {max_retries}")
        self.max_retries = max_retries
        self._attempts: dict[int, _Attempt] = {}
        self._deaths: Counter[tuple[str, str]] = Counter()
        self._next = 0

    def start(self, shard: ShardSpec) -> int:
        """Register an attempt at ``shard``; returns its key."""
        key = self._next
        self._next += 1
        self._attempts[key] = _Attempt(shard)
        return key

    def shard(self, key: int) -> ShardSpec:
        """The shard of attempt ``key``."""
        return self._attempts[key].shard

    def record(self, key: int, result: EpisodeResult) -> bool:
        """Note a result; ``False`` if it is not an unfinished episode of that attempt (drop it)."""
        att = self._attempts.get(key)
        if (
            att is None
            or result.episode_id not in att.shard.episode_ids
            or result.episode_id in att.done
        ):
            return False
        att.done.add(result.episode_id)
        return True

    def finish(self, key: int) -> list[EpisodeResult]:
        """The attempt ended normally; results for any episode it failed to report."""
        att = self._attempts.pop(key)
        return [
            agent_error(e, att.shard.scene_id, "worker finished the shard without a result")
            for e in att.shard.episode_ids
            if e not in att.done
        ]

    def died(
        self, key: int, reason: str, detail: str = ""
    ) -> tuple[list[EpisodeResult], ShardSpec | None]:
        """The attempt's process died: results to record now and the shard to retry (or None).

        After ``max_retries`` deaths on the same episode it is recorded as ``agent_crash``.

        ``reason`` goes into the recorded error and must not depend on the executor or on
        timing (``"crashed"``, ``"unresponsive for 30 s"``), so that every executor records the
        same table; ``detail`` (exit signal, Ray's message) is only logged.
        """
        att = self._attempts.pop(key)
        remaining = [e for e in att.shard.episode_ids if e not in att.done]
        if not remaining:
            return [], None
        first = remaining[0]
        log.warning("worker died (%s) running episode %s of scene %s: %s",
                    reason, first, att.shard.scene_id, detail or "no detail")  # fmt: skip
        self._deaths[(att.shard.run_id, first)] += 1
        n = self._deaths[(att.shard.run_id, first)]
        out: list[EpisodeResult] = []
        if n > self.max_retries:
            out.append(
                agent_crash(first, att.shard.scene_id, f"worker died ({reason}); {n} attempt(s)")
            )
            remaining = remaining[1:]
        retry = replace(att.shard, episode_ids=tuple(remaining)) if remaining else None
        return out, retry
