"""The trajectory of the episode in flight, kept outside the worker so a crash can be scored.

A worker process can die in the middle of an episode (segfault, ``os._exit``, SIGKILL, an
out-of-memory kill, a hang the runner kills): its result never comes. To score that episode on
what the agent did, the rollout calls a :class:`StepTracer` after the reset and after every
step; it hands the simulator rows added since (raw float64 rows of
:class:`~navbench.sim.records.StepRecords`, no ``records()`` call) as a :class:`TraceChunk` to
the executor's sink:

- local workers (:class:`SpillFile`): every chunk is appended at once to a per-episode file of
  the parent's temporary folder (one ``os.write``: a few µs, no message, and nothing lost when
  the process dies right after: the rows are in the kernel's page cache); the parent reads the
  file only when the worker died;
- Ray workers (:class:`BatchedSink`): chunks are merged and sent to the parent's inbox at every
  multiple of :data:`TRACE_EVERY_STEPS` agent steps and every :data:`TRACE_EVERY_S` seconds,
  so a crash there loses at most the rows of one batch (the episode is then scored as the
  policy that stopped moving at the last batch sent: still a failure).

The parent keeps a :class:`PartialTrace` per episode; the crash result carries its rows
(:meth:`PartialTrace.trajectory`) and :class:`~navbench.eval.failures.FailureScorer` scores them
as an episode that ended at its last recorded pose without STOP.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import struct
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import numpy as np

log = logging.getLogger(__name__)

#: Agent steps between two batches sent to a Ray parent (the start row is sent at once).
TRACE_EVERY_STEPS = 16
#: Wall-clock seconds (s) after which a batch is sent even with fewer steps.
TRACE_EVERY_S = 0.5


class TraceChunk(NamedTuple):
    """Rows ``start .. start + len(rows) - 1`` of an episode's simulator records (picklable; a
    named tuple: one is made per step, a frozen dataclass costs twice as much).

    Attributes:
        episode_id: the episode in flight.
        start: index of the first row in the episode (row 0 = the start pose).
        rows: ``(n, NCOL)`` float64 rows (:data:`navbench.sim.records.NCOL` columns ``R_*``).
        surfaces: the simulator's (surface class, preferred) table the rows' surface column
            indexes.
        steps: agent actions taken when the last of these rows was recorded.
    """

    episode_id: str
    start: int
    rows: np.ndarray
    surfaces: tuple[tuple[str, bool], ...]
    steps: int


class StepTracer:
    """The ``on_step(steps)`` hook of :func:`~navbench.agents.rollout.run_episode`: hands the rows
    added since its last call to ``send``. A simulator without a step recorder
    (``sim.recorder.rows``, :class:`~navbench.sim.records.StepRecords`) is not traced."""

    def __init__(self, sim: object, send: Callable[[TraceChunk], None], episode_id: str) -> None:
        self.sim, self.send, self.episode_id = sim, send, str(episode_id)
        self.sent = 0
        self._surfaces: Sequence[tuple[str, bool]] | None = None
        self._table: tuple[tuple[str, bool], ...] = ()

    def __call__(self, steps: int) -> None:
        rec = getattr(getattr(self.sim, "recorder", None), "rows", None)
        if rec is None:
            return
        n = len(rec)
        if n <= self.sent:
            return
        if rec.surfaces is not self._surfaces:  # the table grows rarely: convert it then only
            self._surfaces = rec.surfaces
            self._table = tuple((str(s), bool(p)) for s, p in rec.surfaces)
        self.send(TraceChunk(self.episode_id, self.sent, rec.buf[self.sent:n].copy(), self._table,
                             int(steps)))
        self.sent = n


@dataclass
class PartialTrace:
    """The rows of one episode received so far (parent side)."""

    chunks: list[TraceChunk] = field(default_factory=list)
    rows: int = 0
    steps: int = 0

    def add(self, chunk: TraceChunk) -> None:
        """Append ``chunk`` when it continues the rows held (a repeat or a gap is ignored; a
        chunk from row 0, a new attempt, replaces them)."""
        if chunk.start == 0:
            self.chunks, self.rows = [], 0
        if chunk.start != self.rows or not len(chunk.rows):
            return
        self.chunks.append(chunk)
        self.rows += len(chunk.rows)
        self.steps = chunk.steps

    def trajectory(self) -> dict[str, np.ndarray]:
        """The rows as the results store a trajectory (``sim.records()`` arrays, ``position``
        named ``positions``, no ``label``); empty when nothing was received."""
        if not self.chunks:
            return {}
        from navbench.sim.records import StepRecords

        rec = StepRecords(self.chunks[-1].surfaces)
        for row in np.concatenate([c.rows for c in self.chunks]):
            buf, i = rec.next_row()
            buf[i] = row
        out = rec.arrays(None)
        out.pop("label")
        out["positions"] = out.pop("position")
        return out


def merge(chunks: Sequence[TraceChunk]) -> TraceChunk:
    """Consecutive chunks of one episode as one."""
    last = chunks[-1]
    return TraceChunk(last.episode_id, chunks[0].start, np.concatenate([c.rows for c in chunks]),
                      last.surfaces, last.steps)


class BatchedSink:
    """Sends the chunks merged at every multiple of ``every_steps`` agent steps (the start row
    at step 0 included) and when ``every_s`` seconds passed since the last send: the Ray
    workers' trace sink."""

    def __init__(self, send: Callable[[TraceChunk], None], every_steps: int = TRACE_EVERY_STEPS,
                 every_s: float = TRACE_EVERY_S) -> None:
        self.send, self.every_steps, self.every_s = send, max(int(every_steps), 1), float(every_s)
        self.pending: list[TraceChunk] = []
        self.sent_at = time.monotonic()

    def __call__(self, chunk: TraceChunk) -> None:
        if self.pending and self.pending[0].episode_id != chunk.episode_id:
            self.pending = []  # the previous episode ended: its result came, its rows are moot
        self.pending.append(chunk)
        if chunk.steps % self.every_steps and time.monotonic() - self.sent_at < self.every_s:
            return
        self.send(merge(self.pending))
        self.pending, self.sent_at = [], time.monotonic()


_HEAD = 5  # float64 header of a spill record: kind, n, start, steps, width
_HEAD_FMT = struct.Struct(f"={_HEAD}d")  # native float64, as numpy reads it back


class SpillFile:
    """Appends every chunk at once to ``folder/<key>-<index>.trace`` (``index``: the episode's
    place in the shard): the local workers' trace sink. Records: a float64 header
    ``(kind, n, start, steps, width)`` then ``n × width`` float64 row values (kind 0) or ``n``
    bytes of the surface table as JSON, padded to 8 bytes (kind 1)."""

    def __init__(self, folder: str | Path, key: int, episode_ids: Sequence[str]) -> None:
        self.folder, self.key = Path(folder), int(key)
        self.index = {str(e): i for i, e in enumerate(episode_ids)}
        self._fd: int | None = None
        self._episode: str | None = None
        self._table: tuple[tuple[str, bool], ...] | None = None

    def __call__(self, chunk: TraceChunk) -> None:
        """Append ``chunk``; a file error (disk full, folder gone) stops the spilling of this
        episode with a warning, never the episode (a crash is then scored on fewer rows)."""
        try:
            self._write(chunk)
        except OSError as e:
            log.warning("crash trace of episode %s not spilled: %s", chunk.episode_id, e)
            self.close()
            self._episode = chunk.episode_id  # nothing more for this episode

    def _write(self, chunk: TraceChunk) -> None:
        if chunk.episode_id != self._episode:
            self.close()
            i = self.index.get(chunk.episode_id)
            if i is None:
                return
            path = spill_path(self.folder, self.key, i)
            self._fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o600)
            self._episode, self._table = chunk.episode_id, None
        if self._fd is None:
            return
        out = b""
        if chunk.surfaces is not self._table:
            text = json.dumps(chunk.surfaces).encode()
            text += b" " * (-len(text) % 8)
            out = _HEAD_FMT.pack(1.0, len(text), 0.0, 0.0, 0.0) + text
            self._table = chunk.surfaces
        n, width = chunk.rows.shape
        head = _HEAD_FMT.pack(0.0, n, chunk.start, chunk.steps, width)
        os.write(self._fd, out + head + chunk.rows.tobytes())  # one write: whole or nothing

    def close(self) -> None:
        """Close the current episode's file (it stays for the parent to read or delete)."""
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
        self._fd, self._episode = None, None


def spill_path(folder: str | Path, key: int, index: int) -> Path:
    """The spill file of episode ``index`` of shard attempt ``key``."""
    return Path(folder) / f"{int(key)}-{int(index)}.trace"


def read_spill(path: str | Path, episode_id: str) -> list[TraceChunk]:
    """The chunks of a spill file (:class:`SpillFile`); a cut last record is left out."""
    try:
        data = Path(path).read_bytes()
    except OSError:
        return []
    out: list[TraceChunk] = []
    table: tuple[tuple[str, bool], ...] = ()
    pos, head = 0, 8 * _HEAD
    while pos + head <= len(data):
        kind, n, start, steps, width = np.frombuffer(data, float, _HEAD, pos).tolist()
        pos += head
        size = int(n) if kind == 1 else 8 * int(n) * int(width)
        if pos + size > len(data):
            break
        if kind == 1:
            table = tuple((str(s), bool(p)) for s, p in json.loads(data[pos:pos + size]))
        else:
            rows = np.frombuffer(data, float, int(n) * int(width), pos).reshape(int(n), int(width))
            out.append(TraceChunk(episode_id, int(start), rows.copy(), table, int(steps)))
        pos += size
    return out
