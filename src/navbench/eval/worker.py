"""What runs inside a worker process (local or Ray): one shard, episode by episode.

:func:`execute_shard` calls the shard's worker function, which builds its world once and emits
one :class:`EpisodeResult` per episode, in the shard's order. The episode in flight is the first
one not yet emitted; everything that goes wrong while it runs is charged to it:

- the deadline passes (``episode_timeout_s`` since the shard started or since the previous
  result; a worker function that announces its world build with ``emit.building()`` and starts
  each episode with ``emit.begin(id)`` gets :data:`SETUP_ALLOWANCE_S` more for the build, and
  each episode exactly ``episode_timeout_s``) → ``agent_error`` "timeout ...";
- an exception escapes the worker function → ``agent_error`` with the exception text.

Either way the worker function is called again for the remaining episodes (a fresh world: the
old one may be in a broken state). ``emit.trace(chunk)`` forwards the rows of the episode in
flight to the parent (:mod:`navbench.eval.trace`), so that a process death can be scored on
them. If it returns without emitting some episodes, those are
recorded as ``agent_error`` too, so a shard always yields exactly one result per episode.
"""

from __future__ import annotations

import importlib
import logging
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from navbench.errors import ConfigError
from navbench.eval.records import EpisodeResult, ShardSpec, agent_error
from navbench.eval.timeouts import Deadline, EpisodeTimeout
from navbench.eval.trace import TraceChunk

log = logging.getLogger(__name__)

WorkerFn = Callable[[ShardSpec, Callable[[EpisodeResult], None]], None]

#: Extra wall-clock seconds (s) the deadline allows after ``emit.building()``, while a worker
#: function builds its world, until it starts the first episode with ``begin()``: a slow build on
#: a loaded machine must not be charged to an episode. It stays below the executors' default
#: ``grace_s`` (30 s), so a hung build ends as this deadline's ``agent_error``, not as a kill.
SETUP_ALLOWANCE_S = 20.0


def resolve_worker_fn(spec: str) -> WorkerFn:
    """Import ``"package.module:function"``; :class:`ConfigError` if it does not exist."""
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise ConfigError(f"worker function: expected 'module:function', got {spec!r}")
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise ConfigError(f"worker function {spec!r}: cannot import {module_name!r}: {e}") from e
    fn = getattr(module, attr, None)
    if not callable(fn):
        raise ConfigError(f"worker function {spec!r}: {module_name} has no function {attr!r}")
    return fn


def add_sys_path(paths: list[str] | tuple[str, ...]) -> None:
    """Append import paths of the parent process that this process lacks (keeps its own first)."""
    for p in paths:
        if p not in sys.path:
            sys.path.append(p)


def die_with_parent(parent_pid: int, poll_s: float = 1.0) -> None:
    """End this process when the process ``parent_pid`` ends (even by SIGKILL).

    Linux: ``prctl(PR_SET_PDEATHSIG, SIGKILL)``; everywhere: a daemon thread that exits the
    process once its parent id changes (the parent died and the process was re-parented).
    """
    import os
    import threading

    if sys.platform.startswith("linux"):
        try:
            import ctypes
            import signal

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG = 1
        except (OSError, AttributeError):  # pragma: no cover - no libc prctl
            pass
    if os.getppid() != parent_pid:  # the parent is already gone
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(poll_s)
            if os.getppid() != parent_pid:
                os._exit(1)

    threading.Thread(target=watch, daemon=True, name="navbench-parent-watch").start()


class Emitter:
    """The ``emit`` callable handed to a worker function.

    Calling it with a result forwards the result to the parent and restarts the deadline for the
    next episode. ``trace(chunk)`` forwards the rows of the episode in flight (no-op when the
    executor takes none). ``begin(episode_id)`` may be called by the worker function right before an
    episode starts (after a slow world build) to restart the deadline there; ``building()``,
    called before the build, gives the build :data:`SETUP_ALLOWANCE_S` more.
    """

    def __init__(
        self,
        shard: ShardSpec,
        send: Callable[[EpisodeResult], None],
        deadline: Deadline,
        timeout_s: float | None,
        trace: Callable[[TraceChunk], None] | None = None,
    ) -> None:
        self.shard = shard
        self._send = send
        self._trace = trace
        self._deadline = deadline
        self._timeout_s = timeout_s
        self._pending = list(shard.episode_ids)
        self._pending_set = set(shard.episode_ids)
        self.started = time.perf_counter()

    @property
    def current(self) -> str | None:
        """The episode in flight (first one not emitted), or ``None`` when all are done."""
        return self._pending[0] if self._pending else None

    @property
    def remaining(self) -> list[str]:
        """Episodes not emitted yet, in shard order."""
        return list(self._pending)

    def _arm(self, setup: bool = False) -> None:
        cur = self.current
        if cur is None or self._timeout_s is None:  # done, or no per-episode limit
            self._deadline.disarm()
            return
        msg = f"timeout: episode {cur} exceeded the {self._timeout_s:g} s wall-clock limit"
        if setup:
            msg += f" (+{SETUP_ALLOWANCE_S:g} s for the world build before it)"
        self._deadline.arm(self._timeout_s + (SETUP_ALLOWANCE_S if setup else 0.0), msg)

    def building(self) -> None:
        """The worker function starts building its world: the deadline allows
        ``timeout + SETUP_ALLOWANCE_S`` until ``begin`` (or a result) restarts it."""
        self._deadline.disarm()
        self.started = time.perf_counter()
        self._arm(setup=True)

    def begin(self, episode_id: str) -> None:
        """Restart the deadline: episode ``episode_id`` starts now."""
        self._deadline.disarm()
        self.started = time.perf_counter()
        self._arm()

    def trace(self, chunk: TraceChunk) -> None:
        """Forward rows of the episode in flight. The sinks are whole-or-nothing under a
        deadline exception (one ``os.write`` to a file, one Ray call), so it is not held."""
        if self._trace is not None and chunk.episode_id == self.current:
            self._trace(chunk)

    def __call__(self, result: EpisodeResult) -> None:
        self._deadline.disarm()
        eid = result.episode_id
        if eid not in self._pending_set:
            raise ValueError(
                f"worker {self.shard.worker_fn} emitted episode {eid!r}, which is not pending in "
                f"shard {self.shard.scene_id!r} (unknown or emitted twice)"
            )
        self._pending.remove(eid)
        self._pending_set.discard(eid)
        self._send(result)
        self.started = time.perf_counter()
        self._arm()


def _describe(exc: BaseException) -> str:
    tb = traceback.extract_tb(exc.__traceback__)
    where = f" (at {Path(tb[-1].filename).name}:{tb[-1].lineno})" if tb else ""
    text = str(exc)
    return f"{type(exc).__name__}: {text}{where}" if text else f"{type(exc).__name__}{where}"


def execute_shard(
    shard: ShardSpec, send: Callable[[EpisodeResult], None], episode_timeout_s: float | None,
    trace: Callable[[TraceChunk], None] | None = None,
) -> None:
    """Run every episode of ``shard``; ``send`` receives exactly one result per episode,
    ``trace`` the rows of the episode in flight as the worker function streams them."""
    fn = resolve_worker_fn(shard.worker_fn)
    remaining = list(shard.episode_ids)
    with Deadline() as deadline:
        while remaining:
            sub = replace(shard, episode_ids=tuple(remaining))
            emitter = Emitter(sub, send, deadline, episode_timeout_s, trace)
            failure: str | None = None
            try:
                emitter.begin(remaining[0])
                fn(sub, emitter)
                deadline.disarm()
            except EpisodeTimeout:
                deadline.disarm()
                failure = deadline.message
            except (Exception, SystemExit) as e:
                deadline.disarm()
                failure = _describe(e)
                log.debug("episode %s failed", emitter.current, exc_info=True)
            remaining = emitter.remaining
            if not remaining:
                break
            elapsed = time.perf_counter() - emitter.started
            if failure is None:  # returned early: nothing more will come for these episodes
                for eid in remaining:
                    send(
                        agent_error(
                            eid,
                            shard.scene_id,
                            f"worker {shard.worker_fn} returned without a result",
                        )
                    )
                break
            send(agent_error(remaining[0], shard.scene_id, failure, elapsed))
            remaining = remaining[1:]
