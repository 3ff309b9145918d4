"""Per-episode wall-clock deadlines inside a worker process.

A :class:`Deadline` raises :class:`EpisodeTimeout` in the thread that armed it once the deadline
passes. In the main thread it uses ``SIGALRM`` (``setitimer``), which also interrupts blocking
calls such as ``time.sleep``; in any other thread (some Ray set-ups) it injects the exception
asynchronously from a watchdog thread, which takes effect at the next Python bytecode. Code
stuck inside a C call that never returns is not interruptible this way: the executors add a
hard limit in the parent that kills the worker process.
"""

from __future__ import annotations

import ctypes
import signal
import threading
from types import FrameType


class EpisodeTimeout(Exception):  # noqa: N818  (reads as the event, like TimeoutError)
    """The episode ran past its wall-clock limit."""


class Deadline:
    """A re-armable wall-clock deadline for the calling thread.

    ``arm(seconds)`` starts (or restarts) the countdown, ``disarm()`` stops it. Use
    ``close()`` (or the context manager) to restore the previous signal handler.
    """

    def __init__(self, message: str = "episode exceeded its wall-clock limit") -> None:
        self.message = message
        self._thread = threading.current_thread()
        self._use_signal = self._thread is threading.main_thread() and hasattr(signal, "setitimer")
        self._armed = False
        self._old_handler: object = None
        self._timer: threading.Timer | None = None
        self._generation = 0
        self._lock = threading.Lock()
        if self._use_signal:
            self._old_handler = signal.signal(signal.SIGALRM, self._on_alarm)

    # -- signal path -------------------------------------------------------------------------
    def _on_alarm(self, signum: int, frame: FrameType | None) -> None:
        if self._armed:
            self._armed = False
            raise EpisodeTimeout(self.message)

    # -- thread path -------------------------------------------------------------------------
    def _inject(self, generation: int) -> None:
        with self._lock:
            if not self._armed or generation != self._generation:
                return
            self._armed = False
            self._set_async_exc(EpisodeTimeout)

    def _set_async_exc(self, exc: type[BaseException] | None) -> None:
        tid = self._thread.ident
        if tid is not None:
            obj = ctypes.py_object(exc) if exc is not None else None
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(tid), obj)

    def arm(self, seconds: float | None, message: str | None = None) -> None:
        """Raise :class:`EpisodeTimeout` in this thread after ``seconds`` (``None``: never)."""
        self.disarm()
        if message is not None:
            self.message = message
        if seconds is None:
            return
        seconds = max(float(seconds), 1e-3)
        self._armed = True
        if self._use_signal:
            signal.setitimer(signal.ITIMER_REAL, seconds)
        else:
            self._generation += 1
            self._timer = threading.Timer(seconds, self._inject, args=(self._generation,))
            self._timer.daemon = True
            self._timer.start()

    def disarm(self) -> None:
        """Stop the countdown (no exception will be raised)."""
        self._armed = False
        if self._use_signal:
            signal.setitimer(signal.ITIMER_REAL, 0.0)
        elif self._timer is not None:
            with self._lock:
                self._generation += 1
                self._timer.cancel()
                self._timer = None
                self._set_async_exc(None)  # drop an injection that has not been raised yet

    def close(self) -> None:
        """Disarm and restore the previous ``SIGALRM`` handler."""
        self.disarm()
        if self._use_signal:
            signal.signal(signal.SIGALRM, self._old_handler)  # type: ignore[arg-type]
            self._use_signal = False

    def __enter__(self) -> Deadline:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
