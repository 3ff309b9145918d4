"""Progress of long commands: a rich bar on a terminal, one plain line every few seconds elsewhere.

``dataset build``, ``evaluate`` and ``scenes generate`` report through :class:`ProgressReporter`.
When stderr is a terminal it draws a rich progress bar (done/total, elapsed, ETA, a summary).
When stderr is a file or a pipe (a batch job, ``cmd > log 2>&1``) it writes plain lines instead,
flushed at once::

    evaluating: 12/40 episodes (30%) · 0.85 episodes/s · eta 0:00:33 · SR 0.583  SPL 0.512

one when it starts, then one every ``interval_s`` seconds from a background thread (so a line
also comes while one long episode runs), and one with the elapsed time when it closes. The interval comes from the
environment variable ``NAVBENCH_PROGRESS_EVERY`` (seconds, default :data:`DEFAULT_INTERVAL_S`).

Rate and ETA count only the items done since this reporter started (a resumed run's earlier
items are not): rate = items / elapsed seconds, ETA = (total − done) / rate.
"""

from __future__ import annotations

import math
import os
import sys
import threading
import time
from types import TracebackType
from typing import TYPE_CHECKING, TextIO

from navbench.errors import ConfigError

if TYPE_CHECKING:  # rich is imported only on a terminal
    from rich.progress import Progress, TaskID

#: Seconds between two plain progress lines (``NAVBENCH_PROGRESS_EVERY`` overrides it).
DEFAULT_INTERVAL_S = 10.0
INTERVAL_ENV = "NAVBENCH_PROGRESS_EVERY"


def interval_from_env() -> float:
    """Seconds between plain lines: ``$NAVBENCH_PROGRESS_EVERY`` (a number > 0), else 10."""
    text = os.environ.get(INTERVAL_ENV, "").strip()
    if not text:
        return DEFAULT_INTERVAL_S
    try:
        v = float(text)
    except ValueError:
        v = math.nan
    if not (math.isfinite(v) and v > 0):
        raise ConfigError(f"{INTERVAL_ENV}: expected seconds > 0 between progress lines, got {text!r}")
    return v


def clock(seconds: float) -> str:
    """``h:mm:ss`` of a duration in seconds (rounded down).

    >>> clock(0.4), clock(75), clock(3725.9)
    ('0:00:00', '0:01:15', '1:02:05')
    """
    s = int(max(seconds, 0.0))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


def progress_line(what: str, done: int, total: int | None, unit: str, new: int, elapsed_s: float,
                  summary: str = "") -> str:
    """One plain progress line (see the module docstring): ``new`` items done in ``elapsed_s``
    seconds give the rate; the ETA needs a rate and a total.

    >>> progress_line("evaluating", 12, 40, "episodes", 10, 20.0, "SR 0.500")
    'evaluating: 12/40 episodes (30%) · 0.50 episodes/s · eta 0:00:56 · SR 0.500'
    >>> progress_line("building dataset", 1, 8, "scenes", 1, 30.0)
    'building dataset: 1/8 scenes (12%) · 30.0 s per scene · eta 0:03:30'
    >>> progress_line("evaluating", 0, 40, "episodes", 0, 3.0)
    'evaluating: 0/40 episodes (0%) · eta ?'
    """
    head = f"{what}: {done}/{total} {unit}" if total is not None else f"{what}: {done} {unit}"
    parts = [head + (f" ({100 * done // total}%)" if total else "")]
    rate = new / elapsed_s if elapsed_s > 0 else 0.0
    if rate > 0:
        one = unit[:-1] if unit.endswith("s") else unit
        parts.append(f"{rate:.2f} {unit}/s" if rate >= 0.1 else f"{1 / rate:.1f} s per {one}")
    if total is not None and done < total:
        parts.append(f"eta {clock((total - done) / rate)}" if rate > 0 else "eta ?")
    if summary:
        parts.append(summary)
    return " · ".join(parts)


def resuming_line(done: int, total: int, unit: str = "episodes") -> str:
    """What a re-run says first: ``resuming: k of n episodes already done``."""
    return f"resuming: {done} of {total} {unit} already done"


class ProgressReporter:
    """Progress of ``total`` items (``None``: unknown yet) of which ``done`` are finished.

    Use as a context manager (or :meth:`start` / :meth:`close`); call :meth:`update` as items
    finish. ``terminal`` (default: ``stream.isatty()``) picks the rich bar over plain lines;
    ``enabled=False`` prints nothing. ``stream`` defaults to ``sys.stderr``.
    """

    def __init__(self, what: str, total: int | None = None, *, done: int = 0, unit: str = "episodes",
                 stream: TextIO | None = None, interval_s: float | None = None,
                 terminal: bool | None = None, enabled: bool = True) -> None:
        self.what, self.total, self.done, self.unit = what, total, done, unit
        self.stream = stream if stream is not None else sys.stderr
        self.interval_s = interval_from_env() if interval_s is None else float(interval_s)
        if not self.interval_s > 0:
            raise ConfigError(f"progress interval: expected seconds > 0, got {interval_s}")
        self.enabled = enabled
        self.terminal = (bool(getattr(self.stream, "isatty", lambda: False)())
                         if terminal is None else terminal)
        self.summary = ""
        self._first = done
        self._t0 = time.monotonic()
        self._lock = threading.Lock()
        self._out = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._bar: Progress | None = None
        self._task: TaskID | None = None

    # ------------------------------------------------------------------ life cycle
    def start(self) -> ProgressReporter:
        """Show the bar, or write the first line and start the timer thread."""
        if not self.enabled:
            return self
        self._t0 = time.monotonic()
        if self.terminal:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self._bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                 TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn(),
                                 TextColumn("{task.fields[summary]}"),
                                 console=Console(file=self.stream), transient=False)
            self._bar.start()
            self._task = self._bar.add_task(self.what, total=self.total, completed=self.done,
                                            summary="")
            return self
        self._write(self.line())
        self._thread = threading.Thread(target=self._tick, name="navbench-progress", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop the bar or the timer thread and write the last line."""
        if not self.enabled:
            return
        if self._bar is not None:
            self._bar.stop()
            self._bar = None
            return
        if self._thread is not None:
            self._stop.set()
            self._thread.join()
            self._thread = None
            self._write(self.line() + f" · elapsed {clock(time.monotonic() - self._t0)}")

    def __enter__(self) -> ProgressReporter:
        return self.start()

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    # ------------------------------------------------------------------ updates
    def update(self, done: int | None = None, *, advance: int = 0, total: int | None = None,
               summary: str | None = None) -> None:
        """Set ``done`` (or add ``advance``), the ``total`` and the summary text."""
        with self._lock:
            if total is not None:
                self.total = total
            self.done = (self.done if done is None else done) + advance
            if summary is not None:
                self.summary = summary
        if self._bar is not None and self._task is not None:
            self._bar.update(self._task, completed=self.done, total=self.total, summary=self.summary)

    def note(self, text: str) -> None:
        """Write one line of text (above the bar on a terminal)."""
        if not self.enabled:
            return
        if self._bar is not None:
            self._bar.console.print(text, markup=False, highlight=False)
        else:
            self._write(text)

    def line(self) -> str:
        """The plain progress line now."""
        with self._lock:
            return progress_line(self.what, self.done, self.total, self.unit, self.done - self._first,
                                 time.monotonic() - self._t0, self.summary)

    # ------------------------------------------------------------------ plain mode
    def _tick(self) -> None:
        k = 1
        while not self._stop.wait(max(self._t0 + k * self.interval_s - time.monotonic(), 0.0)):
            self._write(self.line())
            k = max(k + 1, int((time.monotonic() - self._t0) / self.interval_s) + 1)

    def _write(self, text: str) -> None:
        with self._out:
            try:
                self.stream.write(text + "\n")
                self.stream.flush()
            except (OSError, ValueError):  # a closed pipe or file: progress is not worth a crash
                pass
