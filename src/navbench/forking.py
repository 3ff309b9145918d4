"""One stage of work in a forked child while this process goes on.

The large importers (a city district is ~2 GB of Python objects) have stages that do not depend
on each other, such as checking a scene while encoding it. A worker pool would have to pickle
those objects to each worker; a forked child inherits them. :class:`Forked` runs one function
in a child and hands back its (pickled) result.

A process forks only while it runs no thread beyond those it had at import (:func:`may_fork`):
a fork while another thread holds a lock (pyosmium's reader, a progress bar's refresher) can
deadlock the child. Where it may not fork, where ``fork`` does not exist, or where the child
fails in any way (an exception, a signal, an unpicklable result), the function runs in this
process when its result is asked for, so the result and any exception are those of a plain
call: forking changes only the wall time.
"""

from __future__ import annotations

import contextlib
import gc
import os
import pickle
import signal
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

import numpy  # noqa: F401  # loaded before the thread count below: the BLAS pools of numpy
import scipy.linalg  # noqa: F401  # and scipy (OpenBLAS) are fork-safe: they have fork handlers

T = TypeVar("T")


def _os_threads() -> int:
    """Threads of this process as the OS counts them (native ones included)."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return 1


#: Threads of this process once numpy and scipy are loaded (their BLAS pools' threads).
_BASE_THREADS = _os_threads()


def may_fork() -> bool:
    """Whether this process may fork a child: ``os.fork`` exists and the process runs no
    thread beyond those at import (Python threads and native ones, counted by the OS)."""
    return hasattr(os, "fork") and threading.active_count() == 1 and _os_threads() <= _BASE_THREADS


class Forked(Generic[T]):
    """``fn()`` computed in a forked child from construction on; :meth:`result` returns it.

    Args:
        fn: the work; it must not change state this process reads afterwards (the child's
            changes are lost, only the returned value comes back).
        fork: ``False`` runs ``fn`` in this process at :meth:`result` (also the case where
            :func:`may_fork` is false).
    """

    def __init__(self, fn: Callable[[], T], *, fork: bool = True) -> None:
        self._fn = fn
        self._pid = 0
        self._read = -1
        if not (fork and may_fork()):
            return
        r, w = os.pipe()
        gc.freeze()  # the child's collections then leave the inherited objects (and their pages) alone
        try:
            pid = os.fork()
        except OSError:
            os.close(r)
            os.close(w)
            return
        finally:
            gc.unfreeze()
        if pid == 0:  # the child: the pickled result on the pipe, nothing on failure
            os.close(r)
            code = 1
            try:
                data = pickle.dumps(fn(), protocol=pickle.HIGHEST_PROTOCOL)
                with os.fdopen(w, "wb") as out:
                    out.write(data)
                code = 0
            finally:
                os._exit(code)
        os.close(w)
        self._pid, self._read = pid, r

    @property
    def forked(self) -> bool:
        """Whether a child computes the result."""
        return self._pid != 0

    def result(self) -> T:
        """The value of ``fn()``: the child's, else computed here (exceptions are raised here)."""
        if not self._pid:
            return self._fn()
        pid, self._pid = self._pid, 0
        try:
            with os.fdopen(self._read, "rb") as f:
                data = f.read()
        except BaseException:  # interrupted while waiting: leave no child behind
            _reap(pid, kill=True)
            raise
        if _reap(pid) == 0 and data:
            with contextlib.suppress(Exception):
                out: T = pickle.loads(data)
                return out
        return self._fn()

    def __del__(self) -> None:
        if self._pid:
            os.close(self._read)
            _reap(self._pid, kill=True)


def _reap(pid: int, kill: bool = False) -> int:
    """Wait for child ``pid`` (killed first with ``kill``); its exit code (negative: the signal
    that ended it; -1 also when it was already reaped)."""
    if kill:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    try:
        _, status = os.waitpid(pid, 0)
    except ChildProcessError:
        return -1
    return os.waitstatus_to_exitcode(status)


__all__ = ["Forked", "may_fork"]
