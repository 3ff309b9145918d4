"""Ray executor (``pip install navbench[ray]``): one Ray actor per shard, on a local or remote cluster.

Each shard attempt runs in its own one-CPU actor, which pushes every result into a small inbox
actor as the episode finishes and waits until it is delivered (an actor keeps its CPU while it
waits, where a task would lend it to other shards); the parent drains the inbox and stays the
only database writer. The inbox is pinned to the driver's node, so losing any other node never
loses it (losing the head node ends the cluster itself); should it die anyway, the run stops
with a one-line error and a re-run resumes. An attempt whose worker dies (``ActorDiedError``,
node death, out-of-memory kill, or killed by the parent after ``episode_timeout_s + grace_s``
without any message) is resubmitted for its unfinished episodes under the same policy as the
local executor (:class:`~navbench.eval.shards.ShardBook`), so both executors record identical
results. Ray's own restarts and retries are off (``max_restarts=0``, ``max_task_retries=0``)
because a blind re-run would repeat episodes that were already committed.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator, Sequence
from types import ModuleType
from typing import Any

from navbench.errors import ConfigError, MissingDependencyError, NavbenchError
from navbench.eval.records import EpisodeResult, ShardSpec
from navbench.eval.shards import Executor, ShardBook
from navbench.eval.worker import add_sys_path, execute_shard
from navbench.jsontypes import Kwargs

#: A Ray actor handle or ObjectRef.
RayHandle = Any  # ray ships no type annotations for its handles
#: What a shard runner sends to the inbox: (``start`` | ``result``, shard key, result or None).
Message = tuple[str, int, EpisodeResult | None]


def import_ray() -> ModuleType:
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


def connect(ray: ModuleType, address: str | None, num_cpus: int | None, init_kwargs: Kwargs,
            timeout_s: float = CONNECT_TIMEOUT_S) -> None:
    """``ray.init`` with a clear error instead of endless retries or a traceback.

    A ``host:port`` / ``ray://host:port`` address is probed with a TCP connection first (at most
    ``timeout_s``), so an unreachable cluster fails at once instead of retrying forever; a
    ``host:port`` head is then asked whether it accepts this process's auth token
    (:func:`~navbench.eval.ray_auth.check_auth`: the head's token found here is sent even with
    ``RAY_AUTH_MODE`` unset), so a token problem is named as such instead of Ray's "failed to
    connect".

    Raises:
        NavbenchError: the cluster cannot be reached, refused the connection or the token.
    """
    import socket

    from navbench.eval.ray_auth import check_auth

    kwargs: Kwargs = {"include_dashboard": False, "log_to_driver": True}
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
        hint = (f"something answers at {hp[0]}:{hp[1]}, but Ray could not join it: is it the "
                f"head's GCS port (ray start --head --port), running ray {ray.__version__} like "
                "this process? See README 'Ray clusters'")
        if not address.startswith("ray://"):  # type: ignore[union-attr]  # hp implies an address
            problem = check_auth(hp[0], hp[1], min(timeout_s, 5.0))
            if problem is not None:
                raise NavbenchError(f"--ray-address {address}: {problem}")
    try:
        ray.init(address=address, **kwargs)
    except Exception as e:  # ConnectionError, RuntimeError, auth errors: one line, not a traceback
        text = str(e).splitlines()[0] if str(e) else ""
        raise NavbenchError(f"--ray-address {address}: ray.init failed: {type(e).__name__}: "
                            f"{text}; {hint}") from None


class _Inbox:
    """Actor body: a list that workers append to and the parent drains."""

    def __init__(self) -> None:
        self.items: list[Message] = []

    def put(self, item: Message) -> None:
        self.items.append(item)

    def drain(self) -> list[Message]:
        out, self.items = self.items, []
        return out


class _ShardRunner:
    """Actor body that runs one shard attempt (one actor per attempt, one CPU).

    An actor, not a task: a task blocked in ``ray.get`` lends its CPU to other tasks (Ray then
    runs more shards than CPUs), an actor keeps its CPU while it waits for each result to reach
    the inbox, so no result is lost when the process dies right after emitting it.
    """

    def run(self, key: int, shard: ShardSpec, timeout_s: float | None, inbox: RayHandle,
            sys_path: list[str]) -> int:
        import ray

        add_sys_path(sys_path)
        ray.get(inbox.put.remote(("start", key, None)))

        def send(result: EpisodeResult) -> None:
            ray.get(inbox.put.remote(("result", key, result)))  # delivered before going on

        execute_shard(shard, send, timeout_s)
        return key


class RayExecutor(Executor):
    """Shards as Ray actors (one per attempt).

    Args:
        address: Ray cluster address (``"auto"``, ``"ray://host:10001"``); ``None`` starts a
            local instance unless Ray is already initialised in this process.
        num_cpus: CPUs of a local instance started here (``None``: all); each shard takes one CPU.
        max_retries: extra attempts for an episode whose worker died.
        grace_s: kill a shard actor silent for ``episode_timeout_s + grace_s``.
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
        init_kwargs: Kwargs | None = None,
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
        runner = ray.remote(num_cpus=1, max_restarts=0, max_task_retries=0)(_ShardRunner)
        book = ShardBook(self.max_retries)
        inflight: dict[RayHandle, int] = {}
        actors: dict[int, RayHandle] = {}
        started: dict[int, float] = {}
        cancelled: dict[int, str] = {}
        hard = None if episode_timeout_s is None else episode_timeout_s + self.grace_s
        sys_path = list(sys.path)

        def submit(shard: ShardSpec) -> None:
            key = book.start(shard)
            actors[key] = runner.remote()
            inflight[actors[key].run.remote(key, shard, episode_timeout_s, inbox, sys_path)] = key

        def release(key: int) -> None:
            actor = actors.pop(key, None)
            if actor is not None:
                ray.kill(actor)

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
                    except ray.exceptions.RayTaskError as e:  # the shard code raised: a bug, not a crash
                        raise NavbenchError(
                            f"evaluation worker failed on scene {book.shard(key).scene_id!r}: {e.cause!r}"
                        ) from e
                    except ray.exceptions.RayError as e:  # actor died, node lost, object lost
                        release(key)
                        why = cancelled.pop(key, "crashed")
                        detail = f"{type(e).__name__}: {str(e).splitlines()[0]}"
                        results, retry = book.died(key, why, detail)
                        yield from results
                        if retry is not None:
                            submit(retry)
                        continue
                    release(key)
                    yield from book.finish(key)
                if hard is not None:
                    now = time.monotonic()
                    for key in list(inflight.values()):
                        if key in started and now - started[key] > hard:
                            started.pop(key)
                            cancelled[key] = f"unresponsive for {hard:g} s, killed by the runner"
                            release(key)  # its call then fails with RayActorError
        finally:
            for key in list(actors):
                release(key)
            ray.kill(inbox)
            if started_here:
                ray.shutdown()
