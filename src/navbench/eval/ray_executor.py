"""Ray executor (``pip install navbench[ray]``): one Ray task per shard, on a local or remote cluster.

Workers push results into a small inbox actor as each episode finishes; the parent drains it and
stays the only database writer. A task whose worker dies (``WorkerCrashedError``, node death,
out-of-memory kill, or cancelled by the parent after ``episode_timeout_s + grace_s`` without any
message) is resubmitted for its unfinished episodes under the same policy as the local executor
(:class:`~navbench.eval.executors.ShardBook`), so both executors record identical results.
Ray's own task retry is off (``max_retries=0``) because a blind re-run would repeat episodes
that were already committed.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator, Sequence
from typing import Any

from navbench.errors import ConfigError, MissingDependencyError, NavbenchError
from navbench.eval.records import EpisodeResult, ShardSpec
from navbench.eval.shards import Executor, ShardBook
from navbench.eval.worker import add_sys_path, execute_shard


def import_ray() -> Any:
    """``import ray`` or a :class:`MissingDependencyError` saying how to install it."""
    try:
        import ray
    except ImportError as e:
        raise MissingDependencyError(
            "the Ray executor needs the 'ray' package: pip install 'navbench[ray]'"
        ) from e
    return ray


class _Inbox:
    """Actor body: a list that workers append to and the parent drains."""

    def __init__(self) -> None:
        self.items: list[Any] = []

    def put(self, item: Any) -> None:
        self.items.append(item)

    def drain(self) -> list[Any]:
        out, self.items = self.items, []
        return out


def _ray_shard_task(
    key: int, shard: ShardSpec, timeout_s: float | None, inbox: Any, sys_path: list[str]
) -> int:
    """Body of the Ray task of one shard attempt (runs in a Ray worker process)."""
    import ray

    add_sys_path(sys_path)
    ray.get(inbox.put.remote(("start", key, None)))

    def send(result: EpisodeResult) -> None:
        ray.get(inbox.put.remote(("result", key, result)))

    execute_shard(shard, send, timeout_s)
    return key


class RayExecutor(Executor):
    """Shards as Ray tasks.

    Args:
        address: Ray cluster address (``"auto"``, ``"ray://host:10001"``); ``None`` starts a
            local instance unless Ray is already initialised in this process.
        num_cpus: CPUs of a local instance started here (``None``: all); each task takes one CPU.
        max_retries: extra attempts for an episode whose worker died.
        grace_s: cancel a running task silent for ``episode_timeout_s + grace_s``.
        init_kwargs: extra keyword arguments for ``ray.init``.
    """

    def __init__(
        self,
        address: str | None = None,
        *,
        num_cpus: int | None = None,
        max_retries: int = 1,
        grace_s: float = 30.0,
        init_kwargs: dict[str, Any] | None = None,
    ) -> None:
        if num_cpus is not None and num_cpus < 1:
            raise ConfigError(f"--workers: expected an integer >= 1, got {num_cpus}")
        self.address = address
        self.num_cpus = num_cpus
        self.workers = num_cpus or 1
        self.max_retries = max_retries
        self.grace_s = grace_s
        self.init_kwargs = dict(init_kwargs or {})

    def run(
        self, shards: Sequence[ShardSpec], episode_timeout_s: float | None
    ) -> Iterator[EpisodeResult]:
        ray = import_ray()
        started_here = not ray.is_initialized()
        if started_here:
            kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": True}
            if self.address is None and self.num_cpus is not None:
                kwargs["num_cpus"] = self.num_cpus
            kwargs.update(self.init_kwargs)
            ray.init(address=self.address, **kwargs)
        self.workers = int(ray.cluster_resources().get("CPU", 1))
        inbox = ray.remote(num_cpus=0)(_Inbox).remote()
        task = ray.remote(_ray_shard_task).options(num_cpus=1, max_retries=0)
        book = ShardBook(self.max_retries)
        inflight: dict[Any, int] = {}
        started: dict[int, float] = {}
        cancelled: dict[int, str] = {}
        hard = None if episode_timeout_s is None else episode_timeout_s + self.grace_s
        sys_path = list(sys.path)

        def submit(shard: ShardSpec) -> None:
            key = book.start(shard)
            inflight[task.remote(key, shard, episode_timeout_s, inbox, sys_path)] = key

        def drain() -> Iterator[EpisodeResult]:
            for kind, key, payload in ray.get(inbox.drain.remote()):
                started[key] = time.monotonic()
                if kind == "result" and book.record(key, payload):
                    yield payload

        try:
            for s in shards:
                if s.episode_ids:
                    submit(s)
            while inflight:
                ready, _ = ray.wait(list(inflight), num_returns=len(inflight), timeout=0.2)
                yield from drain()  # after wait: every result of a finished task is in the inbox
                for ref in ready:
                    key = inflight.pop(ref)
                    started.pop(key, None)
                    try:
                        ray.get(ref)
                    except ray.exceptions.RayTaskError as e:
                        raise NavbenchError(
                            f"evaluation worker failed on scene {book.shard(key).scene_id!r}: {e.cause!r}"
                        ) from e
                    except ray.exceptions.RayError as e:
                        why = cancelled.pop(key, "crashed")
                        detail = f"{type(e).__name__}: {str(e).splitlines()[0]}"
                        results, retry = book.died(key, why, detail)
                        yield from results
                        if retry is not None:
                            submit(retry)
                        continue
                    yield from book.finish(key)
                if hard is not None:
                    now = time.monotonic()
                    for ref, key in list(inflight.items()):
                        if key in started and now - started[key] > hard:
                            started.pop(key)
                            cancelled[key] = f"unresponsive for {hard:g} s, killed by the runner"
                            ray.cancel(ref, force=True)
        finally:
            for ref in inflight:
                ray.cancel(ref, force=True)
            ray.kill(inbox)
            if started_here:
                ray.shutdown()
