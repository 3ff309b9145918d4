"""Executors: run shards in worker processes and stream their results back to the parent.

The parent (the caller of :meth:`Executor.run`) is the only writer of the results database; an
executor just yields :class:`EpisodeResult` objects as they arrive. Both executors share the
retry policy of :class:`ShardBook`: when a worker process dies (segfault, SIGKILL, out of
memory, or killed by the parent after ``episode_timeout_s + grace_s`` without any message), the
episode it was running gets ``max_retries`` more attempts in a fresh process, after which it is
recorded as ``agent_crash`` "worker died"; the rest of the shard always continues.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import multiprocessing as mp
import os
import signal
import sys
import time
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any

from navbench.errors import ConfigError, NavbenchError
from navbench.eval.records import EpisodeResult, ShardSpec
from navbench.eval.shards import Executor, ShardBook
from navbench.eval.worker import add_sys_path, die_with_parent, execute_shard

log = logging.getLogger(__name__)


def _local_worker_main(conn: Connection, sys_path: list[str], timeout_s: float | None,
                       parent_pid: int | None = None) -> None:
    """Entry point of a local worker process: run shards received on ``conn`` until ``None``.

    The worker ignores Ctrl-C (the parent stops it), dies with its parent (even after a
    ``kill -9`` of the parent) and exits quietly when the parent closes the pipe.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and stops us
    if parent_pid is not None:
        die_with_parent(parent_pid)
    try:
        _serve(conn, sys_path, timeout_s)
    except (BrokenPipeError, ConnectionError, EOFError):
        return  # the parent went away: nobody to report to


def _send_result(conn: Connection, key: int, result: EpisodeResult) -> None:
    conn.send(("result", key, result))


def _serve(conn: Connection, sys_path: list[str], timeout_s: float | None) -> None:
    add_sys_path(sys_path)
    conn.send(("ready", None, None))
    while True:
        try:
            msg = conn.recv()
        except EOFError:
            return
        if msg is None:
            return
        key, shard = msg
        try:
            execute_shard(shard, functools.partial(_send_result, conn, key), timeout_s)
        except (BrokenPipeError, ConnectionError, EOFError):
            raise
        except Exception as e:
            conn.send(("fail", key, f"{type(e).__name__}: {e}"))
            continue
        conn.send(("done", key, None))


@dataclass
class _Slot:
    # Any: a multiprocessing Process, None only while the slot is idle (busy slots use it unchecked)
    proc: Any = None
    conn: Connection | None = None
    key: int | None = None
    last_msg: float = 0.0
    ready: bool = False


class LocalExecutor(Executor):
    """Worker processes on this machine (``multiprocessing``, spawn start method by default).

    Args:
        workers: number of worker processes; with 1, shards run one after another in a single
            subprocess (a crash never takes the parent down).
        max_retries: extra attempts for an episode whose worker process died.
        grace_s: the parent kills a worker that sent nothing for ``episode_timeout_s + grace_s``
            (a hang inside C code that the in-worker deadline cannot interrupt).
        start_method: ``"spawn"`` or ``"forkserver"`` (``"fork"`` is unsafe with threads).
    """

    def __init__(
        self,
        workers: int = 1,
        *,
        max_retries: int = 1,
        grace_s: float = 30.0,
        start_method: str = "spawn",
    ) -> None:
        if workers < 1:
            raise ConfigError(f"--workers: expected an integer >= 1, got {workers}")
        if start_method not in ("spawn", "forkserver"):
            raise ConfigError(
                f"start_method: expected 'spawn' or 'forkserver', got {start_method!r}"
            )
        self.workers = workers
        self.max_retries = max_retries
        self.grace_s = grace_s
        self.start_method = start_method

    # Any: a multiprocessing context; typeshed's BaseContext (get_context(str)) has no .Process
    def _spawn(self, ctx: Any, slot: _Slot, timeout_s: float | None) -> None:
        parent, child = ctx.Pipe(duplex=True)
        proc = ctx.Process(
            target=_local_worker_main, args=(child, list(sys.path), timeout_s, os.getpid()),
            name="navbench-eval",
        )
        proc.start()
        child.close()  # only the child holds its end: its death gives EOF here
        slot.proc, slot.conn = proc, parent

    @staticmethod
    def _stop(slot: _Slot, kill: bool) -> None:
        if slot.proc is None:
            return
        if not kill and slot.conn is not None:
            with contextlib.suppress(OSError):
                slot.conn.send(None)
            slot.proc.join(2.0)
        if slot.proc.is_alive():
            slot.proc.kill()
            slot.proc.join(5.0)
        if slot.conn is not None:
            slot.conn.close()
        slot.proc, slot.conn, slot.key, slot.ready = None, None, None, False

    def run(
        self, shards: Sequence[ShardSpec], episode_timeout_s: float | None
    ) -> Iterator[EpisodeResult]:
        ctx = mp.get_context(self.start_method)
        book = ShardBook(self.max_retries)
        queue: deque[ShardSpec] = deque(s for s in shards if s.episode_ids)
        slots = [_Slot() for _ in range(min(self.workers, max(len(queue), 1)))]
        hard = None if episode_timeout_s is None else episode_timeout_s + self.grace_s
        try:
            while queue or any(s.key is not None for s in slots):
                for slot in slots:
                    if slot.key is None and queue:
                        if slot.proc is None or not slot.proc.is_alive():
                            self._stop(slot, kill=True)
                            self._spawn(ctx, slot, episode_timeout_s)
                        shard = queue.popleft()
                        slot.key = book.start(shard)
                        slot.last_msg = time.monotonic()
                        assert slot.conn is not None
                        slot.conn.send((slot.key, shard))
                busy = [s for s in slots if s.key is not None]
                wait([s.conn for s in busy] + [s.proc.sentinel for s in busy], timeout=0.5)
                for slot in busy:
                    yield from self._service(slot, book, queue, hard)
        finally:
            for slot in slots:
                self._stop(slot, kill=slot.key is not None)

    def _service(
        self, slot: _Slot, book: ShardBook, queue: deque[ShardSpec], hard: float | None
    ) -> Iterator[EpisodeResult]:
        assert slot.conn is not None and slot.key is not None
        reason: str | None = None
        try:
            while slot.key is not None and slot.conn.poll():
                kind, key, payload = slot.conn.recv()
                slot.last_msg = time.monotonic()
                if kind == "ready":
                    slot.ready = True
                elif kind == "result":
                    if book.record(key, payload):
                        yield payload
                elif kind == "done":
                    yield from book.finish(key)
                    slot.key = None
                else:
                    raise NavbenchError(
                        f"evaluation worker failed on scene {book.shard(key).scene_id!r}: {payload}"
                    )
        except (EOFError, OSError):
            reason = "crashed"
        if slot.key is None:
            return
        if reason is None and not slot.proc.is_alive():
            reason = "crashed"
        if reason is None and hard is not None and time.monotonic() - slot.last_msg > hard:
            reason = f"unresponsive for {hard:g} s, killed by the runner"
        if reason is None:
            return
        slot.proc.kill()
        slot.proc.join(5.0)
        code = slot.proc.exitcode
        detail = f"exit code {code}"
        if code is not None and code < 0:
            detail = f"signal {signal.Signals(-code).name}"
        key, ready = slot.key, slot.ready
        self._stop(slot, kill=True)
        if not ready and reason == "crashed":
            raise NavbenchError(
                f"an evaluation worker process failed to start ({detail}); see its output above"
            )
        results, retry = book.died(key, reason, detail)
        yield from results
        if retry is not None:
            queue.appendleft(retry)


def make_executor(
    kind: str, workers: int, ray_address: str | None = None,
    **kwargs: Any,  # LocalExecutor's or RayExecutor's keyword options, checked by the class
) -> Executor:
    """``"local"`` → :class:`LocalExecutor`, ``"ray"`` → :class:`~navbench.eval.ray_executor.RayExecutor`."""
    if kind == "local":
        return LocalExecutor(workers, **kwargs)
    if kind == "ray":
        from navbench.eval.ray_executor import RayExecutor

        return RayExecutor(ray_address, num_cpus=workers if ray_address is None else None, **kwargs)
    raise ConfigError(f"--executor: expected 'local' or 'ray', got {kind!r}")
