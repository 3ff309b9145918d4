"""Plain data passed between the evaluation runner, its executors and the results database.

Everything here is picklable (it crosses process and Ray boundaries) and independent of what an
episode does: the simulator and agents only appear behind a worker function named by a
``"module:function"`` string.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from navbench.jsontypes import JSONMapping

AGENT_ERROR = "agent_error"
"""Label of an episode whose agent raised or timed out (its partial trajectory is scored)."""

AGENT_CRASH = "agent_crash"
"""Label of an episode whose worker process died (segfault, ``os._exit``, SIGKILL, out-of-memory
kill) or stopped answering and was killed: a failed episode, scored with the metrics a failure
defines without a trajectory (:func:`navbench.metrics.episode.failure_metrics`)."""

UNREACHABLE = "unreachable"
"""Label of an episode whose goal the navmesh cannot reach (not run; excluded from means)."""

#: A metric: Python or numpy number (scored episodes keep numpy scalars; the database stores
#: them as float), or ``None`` when undefined for the episode.
#: (``Any`` in ``np.floating[Any]`` / ``np.integer[Any]``: a numpy scalar of any precision).
MetricValue = float | int | bool | np.floating[Any] | np.integer[Any] | None


@dataclass(frozen=True)
class ShardSpec:
    """A unit of work: episodes of one scene, run in order by one worker process.

    Attributes:
        run_id: the run (row of the ``runs`` table) the results belong to.
        scene_id: the scene all episodes share (the worker builds its world once).
        episode_ids: episode ids in the order the worker runs them.
        worker_fn: ``"package.module:function"`` with the signature
            ``fn(shard: ShardSpec, emit: Callable[[EpisodeResult], None]) -> None``.
        fn_kwargs: JSON-able settings for ``worker_fn`` (dataset path, agent name, ...).
    """

    run_id: str
    scene_id: str
    episode_ids: tuple[str, ...]
    worker_fn: str
    fn_kwargs: JSONMapping = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "episode_ids", tuple(str(e) for e in self.episode_ids))
        if ":" not in self.worker_fn:
            raise ValueError(f"worker_fn must be 'module:function', got {self.worker_fn!r}")
        if len(set(self.episode_ids)) != len(self.episode_ids):
            raise ValueError(f"shard of scene {self.scene_id!r} repeats an episode id")


@dataclass(frozen=True)
class EpisodeResult:
    """The outcome of one episode, as emitted by a worker function.

    Attributes:
        episode_id: id of the episode (string form).
        scene_id: its scene.
        label: termination label (``success``, ``timeout``, ..., ``agent_error`` or
            ``agent_crash``).
        metrics: metric name -> number (or ``None`` when undefined for this episode).
        error: message of the agent error, else ``None``.
        wall_time_s: wall-clock seconds the episode took in the worker.
        sim_time_s: simulated seconds.
        trajectory: named arrays (poses, actions, ...) stored compressed, or ``None``.
        extra: any other JSON-able data (``info`` of the episode, diagnostics).
    """

    episode_id: str
    scene_id: str
    label: str
    metrics: Mapping[str, MetricValue] = field(default_factory=dict)
    error: str | None = None
    wall_time_s: float = 0.0
    sim_time_s: float = 0.0
    trajectory: Mapping[str, np.ndarray] | None = None
    extra: JSONMapping = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "episode_id", str(self.episode_id))
        if not self.label:
            raise ValueError(f"episode {self.episode_id}: empty label")


def agent_error(
    episode_id: str, scene_id: str, message: str, wall_time_s: float = 0.0
) -> EpisodeResult:
    """An :data:`AGENT_ERROR` result carrying ``message`` (no metrics, no trajectory)."""
    return EpisodeResult(episode_id, scene_id, AGENT_ERROR, {}, message, float(wall_time_s), 0.0)


def agent_crash(episode_id: str, scene_id: str, message: str) -> EpisodeResult:
    """An :data:`AGENT_CRASH` result carrying ``message`` (no metrics yet, no trajectory)."""
    return EpisodeResult(episode_id, scene_id, AGENT_CRASH, {}, message, 0.0, 0.0)


@dataclass(frozen=True)
class RunSummary:
    """What :func:`navbench.eval.run_shards` did.

    Attributes:
        run_id: the run.
        total: episodes in the requested shards.
        skipped: episodes already finished before this call (resume).
        completed: episodes finished by this call.
        labels: label -> count over all finished episodes of the shards.
        wall_s: wall-clock seconds of this call.
        summary: the last output of the ``summary_fn`` (e.g. ``{"SR": 0.5, "SPL": 0.41}``).
    """

    run_id: str
    total: int
    skipped: int
    completed: int
    labels: Mapping[str, int]
    wall_s: float
    summary: Mapping[str, float] = field(default_factory=dict)


_CHUNK = re.compile(r"(\d+)")


def natural_key(text: str) -> tuple[tuple[int, int | str], ...]:
    """Sort key ordering ``"2" < "10" < "ep_3" < "ep_12"`` (digit runs compared as numbers)."""
    out: list[tuple[int, int | str]] = []
    for part in _CHUNK.split(str(text)):
        if not part:
            continue
        out.append((0, int(part)) if part.isdigit() else (1, part))
    return tuple(out)


def encode_trajectory(arrays: Mapping[str, np.ndarray]) -> bytes:
    """zlib-compressed ``.npz`` bytes; deterministic (fixed zip timestamps, sorted names)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_STORED) as zf:
        for name in sorted(arrays):
            if not isinstance(name, str) or not name or "/" in name:
                raise ValueError(f"trajectory array name must be a plain string, got {name!r}")
            item = io.BytesIO()
            np.save(item, np.asarray(arrays[name]), allow_pickle=False)
            zf.writestr(
                zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0)), item.getvalue()
            )
    return zlib.compress(buf.getvalue(), 6)


def decode_trajectory(blob: bytes) -> dict[str, np.ndarray]:
    """Inverse of :func:`encode_trajectory` (never unpickles)."""
    with np.load(io.BytesIO(zlib.decompress(blob)), allow_pickle=False) as npz:
        return {k: npz[k] for k in npz.files}


def check_json_able(obj: object, what: str) -> str:
    """Canonical JSON text of ``obj`` (sorted keys, no NaN); ``ValueError`` naming ``what``."""
    try:
        return json.dumps(
            obj, sort_keys=True, separators=(",", ":"), allow_nan=False, ensure_ascii=False
        )
    except (TypeError, ValueError) as e:
        raise ValueError(f"{what} is not JSON-able: {e}") from e
