"""Ray executor (``pip install navbench[ray]``): one Ray task per shard, on a local or remote cluster.

Workers push results into a small inbox actor as each episode finishes (fire-and-forget calls,
so a shard task never blocks in ``ray.get`` and keeps its CPU while it runs; it waits for its
calls only once, at its end); the parent drains the inbox and stays the only database writer.
The inbox is pinned to the driver's node, so losing any other node never loses it (losing the
head node ends the cluster itself); should it die anyway, the run stops with a one-line error and
a re-run resumes. A task whose worker dies (``WorkerCrashedError``, node death,
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


#: Seconds to wait for a Ray cluster to answer before giving up.
CONNECT_TIMEOUT_S = 30.0


def _host_port(address: str) -> tuple[str, int] | None:
    """``(host, port)`` of ``"host:port"`` / ``"ray://host:port"``; None for ``"auto"``, ``"local"``."""
    a = address.split("://", 1)[-1].rstrip("/")
    host, sep, port = a.rpartition(":")
    if not sep or not port.isdigit() or not host:
        return None
    return host.strip("[]"), int(port)


def connect(ray: Any, address: str | None, num_cpus: int | None, init_kwargs: dict[str, Any],
            timeout_s: float = CONNECT_TIMEOUT_S) -> None:
    """``ray.init`` with a clear error instead of endless retries or a traceback.

    A ``host:port`` / ``ray://host:port`` address is probed with a TCP connection first (at most
    ``timeout_s``), so an unreachable cluster fails at once instead of retrying forever.

    Raises:
        NavbenchError: the cluster cannot be reached, or refused the connection.
    """
    import socket

    kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": True}
    if address is None and num_cpus is not None:
        kwargs["num_cpus"] = num_cpus
    kwargs.update(init_kwargs)
    hint = ("start one with 'ray start --head' and pass the address it prints; 'ray://' "
            "addresses need 'pip install \"ray[client]\"'; see README 'Ray clusters'")
    hp = None if address is None else _host_port(address)
    if hp is not None:
        try:
            socket.create_connection(hp, timeout=timeout_s).close()
        except OSError as e:
            raise NavbenchError(f"--ray-address {address}: cannot reach {hp[0]}:{hp[1]} within "
                                f"{timeout_s:g} s ({e}); {hint}") from None
    try:
        ray.init(address=address, **kwargs)
    except Exception as e:  # ConnectionError, RuntimeError, auth errors: one line, not a traceback
        text = str(e).splitlines()[0] if str(e) else ""
        raise NavbenchError(f"--ray-address {address}: ray.init failed: {type(e).__name__}: "
                            f"{text}; {hint}") from None


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
    pending = [inbox.put.remote(("start", key, None))]

    def send(result: EpisodeResult) -> None:
        pending.append(inbox.put.remote(("result", key, result)))  # no ray.get: keep the CPU

    execute_shard(shard, send, timeout_s)
    ray.get(pending)  # every result is in the inbox before the task reports completion
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
        connect_timeout_s: give up connecting to ``address`` after this many seconds.
    """

    def __init__(
        self,
        address: str | None = None,
        *,
        num_cpus: int | None = None,
        max_retries: int = 1,
        grace_s: float = 30.0,
        init_kwargs: dict[str, Any] | None = None,
        connect_timeout_s: float = CONNECT_TIMEOUT_S,
    ) -> None:
        if num_cpus is not None and num_cpus < 1:
            raise ConfigError(f"--workers: expected an integer >= 1, got {num_cpus}")
        self.address = address
        self.num_cpus = num_cpus
        self.workers = num_cpus or 1
        self.max_retries = max_retries
        self.grace_s = grace_s
        self.init_kwargs = dict(init_kwargs or {})
        self.connect_timeout_s = float(connect_timeout_s)

    def run(
        self, shards: Sequence[ShardSpec], episode_timeout_s: float | None
    ) -> Iterator[EpisodeResult]:
        ray = import_ray()
        started_here = not ray.is_initialized()
        if started_here:
            connect(ray, self.address, self.num_cpus, self.init_kwargs, self.connect_timeout_s)
        self.workers = int(ray.cluster_resources().get("CPU", 1))
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        here = NodeAffinitySchedulingStrategy(ray.get_runtime_context().get_node_id(), soft=False)
        inbox = ray.remote(num_cpus=0)(_Inbox).options(scheduling_strategy=here).remote()
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
            try:
                items = ray.get(inbox.drain.remote())
            except ray.exceptions.RayError as e:
                raise NavbenchError(
                    "the Ray result inbox (on the driver's node) died "
                    f"({type(e).__name__}); results so far are saved: re-run to resume") from None
            for kind, key, payload in items:
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
