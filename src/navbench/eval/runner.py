"""The evaluation runner: plan scene shards, skip finished episodes, run, commit, show progress.

Nothing here knows what an episode does: the per-shard work is the worker function named in
each :class:`ShardSpec`. The runner is the only writer of the :class:`ResultsDB`; each result is
committed as it arrives, so an interrupted run resumes where it stopped and a finished run
re-run does nothing.
"""

from __future__ import annotations

import functools
import hashlib
import subprocess
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from navbench import __version__
from navbench.errors import ConfigError, InterruptedRunError
from navbench.eval.db import ResultsDB
from navbench.eval.executors import Executor
from navbench.eval.records import EpisodeResult, RunSummary, ShardSpec, natural_key
from navbench.jsontypes import JSONMapping

SummaryFn = Callable[[Sequence[EpisodeResult]], Mapping[str, float]]
#: Completes a result before it is committed (e.g. scores a crashed episode as a failure).
CompleteFn = Callable[[EpisodeResult], EpisodeResult]


def code_version() -> str:
    """``navbench <version>`` plus ``+g<commit>`` (and ``.dirty``) when run from a git checkout."""
    here = Path(__file__).resolve().parent
    try:
        out = subprocess.run(
            ["git", "-C", str(here), "describe", "--always", "--dirty", "--abbrev=12"],
            capture_output=True,
            text=True,
            timeout=5,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return __version__
    desc = out.stdout.strip()
    return f"{__version__}+g{desc.replace('-dirty', '.dirty')}" if desc else __version__


def dataset_hash(paths: Iterable[str | Path]) -> str:
    """BLAKE2 digest of the files' names (relative order given) and bytes: identifies a dataset."""
    h = hashlib.blake2b(digest_size=16)
    for p in paths:
        p = Path(p)
        h.update(p.name.encode() + b"\0")
        with open(p, "rb") as f:
            for chunk in iter(functools.partial(f.read, 1 << 20), b""):
                h.update(chunk)
    return h.hexdigest()


def plan_shards(
    run_id: str,
    episodes: Iterable[tuple[str, str]],
    worker_fn: str,
    fn_kwargs: JSONMapping | None = None,
    *,
    workers: int = 1,
) -> list[ShardSpec]:
    """Group ``(episode_id, scene_id)`` pairs into one shard per scene, largest first.

    When there are fewer scenes than ``workers``, the largest shards are split in halves until
    every worker has one (each half builds its own world). Episodes keep natural id order.
    """
    by_scene: dict[str, list[str]] = defaultdict(list)
    for eid, sid in episodes:
        by_scene[str(sid)].append(str(eid))
    groups = [(sid, sorted(set(ids), key=natural_key)) for sid, ids in by_scene.items()]
    while 0 < len(groups) < workers:
        groups.sort(key=lambda g: (-len(g[1]), natural_key(g[0])))
        sid, ids = groups[0]
        if len(ids) < 2:
            break
        half = (len(ids) + 1) // 2
        groups[0:1] = [(sid, ids[:half]), (sid, ids[half:])]
    groups.sort(key=lambda g: (-len(g[1]), natural_key(g[0]), natural_key(g[1][0])))
    kwargs = dict(fn_kwargs or {})
    return [ShardSpec(run_id, sid, tuple(ids), worker_fn, kwargs) for sid, ids in groups]


class _Progress:
    """Progress of a run (:class:`navbench.progress.ProgressReporter`: a bar on a terminal,
    plain lines in a log) that first says how many episodes a resumed run already has."""

    def __init__(self, enabled: bool, total: int, done: int) -> None:
        from navbench.progress import ProgressReporter, resuming_line

        self.rep = ProgressReporter("evaluating", total, done=done, enabled=enabled and total > 0)
        if done:
            self.rep.note(resuming_line(done, total))
        self.rep.start()

    def advance(self, summary: str | None, steps: int = 1) -> None:
        self.rep.update(advance=steps, summary=summary)

    def close(self) -> None:
        self.rep.close()


def _format_summary(values: Mapping[str, float]) -> str:
    return "  ".join(
        f"{k} {v:.3f}" if isinstance(v, float) else f"{k} {v}" for k, v in values.items()
    )


def _drain(db: ResultsDB, run_id: str, executor: Executor, todo: Sequence[ShardSpec],
           episode_timeout_s: float | None, bar: _Progress, labels: Counter[str],
           history: list[EpisodeResult], summary_fn: SummaryFn | None, summary_every_s: float,
           skipped: int, total: int, complete_fn: CompleteFn | None = None) -> int:
    """Commit the executor's results as they arrive; returns how many were committed.

    Ctrl-C stops the workers (closing the executor's iterator) and raises
    :class:`InterruptedRunError` saying how many episodes are saved and how to resume.
    """
    completed = 0
    last_summary = time.perf_counter()
    results = executor.run(todo, episode_timeout_s)
    try:
        for result in results:
            if complete_fn is not None:
                result = complete_fn(result)
            db.add_episode(run_id, result)
            completed += 1
            labels[result.label] += 1
            history.append(result)
            text = None
            if summary_fn is not None and time.perf_counter() - last_summary >= summary_every_s:
                last_summary = time.perf_counter()
                text = _format_summary(summary_fn(history))
            bar.advance(text)
    except KeyboardInterrupt:
        close = getattr(results, "close", None)
        if callable(close):
            close()
        raise InterruptedRunError(
            f"interrupted: saved {skipped + completed} of {total} episodes in {db.path} "
            f"({completed} in this session); re-run the same command to resume") from None
    return completed


def run_shards(
    db: ResultsDB,
    shards: Sequence[ShardSpec],
    executor: Executor,
    *,
    progress: bool = True,
    episode_timeout_s: float | None = 600.0,
    summary_fn: SummaryFn | None = None,
    summary_every_s: float = 0.5,
    complete_fn: CompleteFn | None = None,
) -> RunSummary:
    """Run the unfinished episodes of ``shards`` on ``executor`` and commit each result to ``db``.

    Args:
        db: the results database (the run must already exist, see ``get_or_create_run``).
        shards: the work of one run, usually from :func:`plan_shards`; finished episodes
            are skipped.
        executor: :class:`~navbench.eval.LocalExecutor` or :class:`~navbench.eval.RayExecutor`.
        progress: show a progress bar with ETA (only when stdout is a terminal).
        episode_timeout_s: wall-clock limit per episode (``None``: none); past it the episode
            is recorded as ``agent_error`` (``agent_crash`` when the worker has to be killed).
        summary_fn: running summary over all recorded results of the runs (e.g. SR and SPL),
            shown next to the bar and returned in :attr:`RunSummary.summary`.
        summary_every_s: minimum seconds between two ``summary_fn`` calls while running.
        complete_fn: applied to every result before it is committed (the evaluation pipeline
            scores ``agent_crash`` results, which arrive without metrics, as failures:
            :class:`~navbench.eval.failures.FailureScorer`).
    """
    if episode_timeout_s is not None and episode_timeout_s <= 0:
        raise ConfigError(f"episode timeout: expected seconds > 0, got {episode_timeout_s}")
    t0 = time.perf_counter()
    run_ids = sorted({s.run_id for s in shards})
    if len(run_ids) > 1:
        raise ConfigError(f"run_shards: all shards must belong to one run, got {run_ids}")
    if not run_ids:
        return RunSummary("", 0, 0, 0, {}, 0.0, {})
    run_id = run_ids[0]
    db.resolve_run(run_id)
    finished = db.finished_episode_ids(run_id)
    wanted = {e for s in shards for e in s.episode_ids}
    if len(wanted) != sum(len(s.episode_ids) for s in shards):
        raise ConfigError("run_shards: an episode id appears in more than one shard")
    todo = [
        replace(s, episode_ids=left)
        for s in shards
        if (left := tuple(e for e in s.episode_ids if e not in finished))
    ]
    skipped = len(wanted & finished)
    history = [r for r in db.results(run_id) if r.episode_id in wanted]
    labels: Counter[str] = Counter(r.label for r in history)
    summary: Mapping[str, float] = summary_fn(history) if summary_fn and history else {}
    bar = _Progress(progress, len(wanted), skipped)
    completed = 0
    try:
        if todo:
            with db.writer_lock():
                completed = _drain(db, run_id, executor, todo, episode_timeout_s, bar, labels,
                                   history, summary_fn, summary_every_s, skipped, len(wanted),
                                   complete_fn)
        if summary_fn is not None and history:
            summary = summary_fn(history)
            bar.advance(_format_summary(summary), steps=0)
    finally:
        bar.close()
    return RunSummary(
        run_id,
        len(wanted),
        skipped,
        completed,
        dict(sorted(labels.items())),
        time.perf_counter() - t0,
        dict(summary),
    )
