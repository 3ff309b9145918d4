"""Scoring episodes whose worker could not score them: every attempted episode counts.

When an agent's worker process dies (segfault, ``os._exit``, SIGKILL, out-of-memory kill) or
stops answering and is killed, the runner gets an ``agent_crash`` result with no metrics; a
fault outside the rollout (an exception or deadline escaping the worker function) gives an
``agent_error`` one. Either carries the rows the worker streamed of that episode before it
ended (:mod:`navbench.eval.trace`). Left unscored, the episode would drop out of the means,
and scored with only the metrics a failure defines (SR 0, SPL 0) it would still drop out of
the trajectory metrics (NE, OSR, SoftSPL, nDTW, path length, CR, ...): an agent that crashes on
the episodes it would fail would score higher than the same policy without crashes.
:class:`FailureScorer` runs in the parent (the database writer) and scores such a result as
the episode that ended at its last recorded pose without STOP — a failure, whatever the
success rule — through the worker's own scoring path
(:func:`~navbench.eval.scoring.score_outcome`, hence
:func:`~navbench.metrics.compute_episode_metrics`) with the same τ, L, distance to goal and
reference path; an episode with no row recorded is scored as never having moved (the start
pose). Reachability is decided as the worker decides it (an unreachable goal is
``unreachable``, excluded, as in a run without the crash). The label and the error stay.
Nothing here depends on the executor or on timing, so local and Ray runs record the same rows.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from typing import TYPE_CHECKING

import numpy as np

from navbench.eval.reachability import start_geodesic, unreachable_result
from navbench.eval.records import AGENT_CRASH, AGENT_ERROR, EpisodeResult
from navbench.eval.scoring import score_outcome
from navbench.jsontypes import JSONMapping
from navbench.metrics.episode import FAILURE_DEFINED

if TYPE_CHECKING:
    from navbench.episodes.loader import Dataset
    from navbench.episodes.model import Episode
    from navbench.nav import NavMesh
    from navbench.scene.model import Scene

#: Labels of results that may arrive without metrics and are completed here.
UNSCORED_LABELS = frozenset({AGENT_CRASH, AGENT_ERROR})


class FailureScorer:
    """Completes unscored failure results of one evaluation run (see the module docs).

    Args:
        worker_kw: the run's worker arguments (:func:`~navbench.eval.planning.plan_evaluation`):
            ``dataset``, ``task``, ``split``, ``distance``.
        privileged: whether the agent received privileged facts (recorded in ``extra``).

    The dataset, its ``_gt`` records, navmeshes and hybrid scenes are loaded on the first
    unscored result only.
    """

    def __init__(self, worker_kw: JSONMapping, privileged: bool = False) -> None:
        self.kw = dict(worker_kw)
        self.privileged = bool(privileged)
        self._ds: Dataset | None = None
        self._eps: dict[str, Episode] = {}
        self._gt: JSONMapping = {}
        self._navmeshes: dict[str, NavMesh | None] = {}
        self._scenes: dict[str, Scene | None] = {}

    def _dataset(self) -> Dataset:
        if self._ds is None:
            from navbench.episodes.loader import load_dataset
            from navbench.errors import ConfigError

            ds = load_dataset(self.kw["dataset"])
            task, split = str(self.kw["task"]), str(self.kw["split"])
            self._eps = {str(e.episode_id): e for e in ds.episodes(task, split)}
            try:
                has_gt = ds.path(task, split, "gt").is_file()
            except ConfigError:
                has_gt = False
            self._gt = ds.gt(task, split) if has_gt else {}
            self._ds = ds
        return self._ds

    def _navmesh(self, scene_id: str) -> NavMesh | None:
        if scene_id not in self._navmeshes:
            ds = self._dataset()
            has = "navmesh" in ds.manifest.scenes.get(scene_id, {})
            self._navmeshes[scene_id] = ds.navmesh(scene_id) if has else None
        return self._navmeshes[scene_id]

    def _scene(self, scene_id: str) -> Scene | None:
        """The scene when it is hybrid (its stage labels are metrics), else ``None`` (not read)."""
        if scene_id not in self._scenes:
            ds = self._dataset()
            hybrid = ds.manifest.scenes.get(scene_id, {}).get("kind") == "hybrid"
            self._scenes[scene_id] = ds.scene(scene_id) if hybrid else None
        return self._scenes[scene_id]

    def __call__(self, result: EpisodeResult) -> EpisodeResult:
        """``result`` itself when it is scored (or not a failure), else its scored copy."""
        if result.label not in UNSCORED_LABELS or result.metrics:
            return result
        from navbench.agents.rollout import EpisodeOutcome

        self._dataset()
        ep = self._eps.get(result.episode_id)
        if ep is None:  # not an episode of this split: nothing to complete it from
            return result
        nm = self._navmesh(result.scene_id)
        L = start_geodesic(nm, ep)
        if math.isinf(L):  # decided from the dataset, as the worker decides it before the rollout
            return unreachable_result(ep, result.scene_id)
        records = partial_records(result.trajectory, ep, result.label)
        partial = result.extra.get("partial")
        steps = partial.get("agent_steps", 0) if isinstance(partial, Mapping) else 0
        outcome = EpisodeOutcome(str(ep.episode_id), result.label, records, result.error,
                                 self.privileged, int(steps) if isinstance(steps, int) else 0,
                                 result.wall_time_s, float(records["t"][-1]))
        gt = self._gt.get(str(ep.episode_id))
        distance = str(self.kw.get("distance", "auto"))
        use_nm = nm is not None and distance != "euclidean"  # as the worker (run_shard) does
        scored = score_outcome(outcome, ep, result.scene_id, navmesh=nm if use_nm else None,
                               distance=distance, gt=gt if isinstance(gt, Mapping) else None,
                               scene=self._scene(result.scene_id), geodesic_length=L)
        if scored.metrics.get("success"):  # a success rule without STOP: a crash still fails
            scored = _as_failure(scored, ep, gt if isinstance(gt, Mapping) else None, L)
        rows = len(records["t"])
        note = (f"scored at the last recorded pose ({rows} rows, {outcome.steps} agent steps) "
                "as an episode that ended without STOP" if result.trajectory is not None
                else "no row recorded: scored as never having moved (the start pose)")
        arrays = dict(scored.trajectory or {})
        if len(arrays.get("label", ())):
            arrays["label"] = np.array([*arrays["label"][:-1].tolist(), result.label])
        return dataclasses.replace(scored, label=result.label, error=result.error, trajectory=arrays,
                                   extra={**result.extra, **scored.extra, "unscored": note,
                                          "termination": result.label})


def partial_records(trajectory: Mapping[str, np.ndarray] | None, ep: Episode,
                    label: str) -> dict[str, np.ndarray]:
    """Simulator-style records (``sim.records()`` keys) of a crashed episode: its streamed rows
    (``positions`` → ``position``), or the start pose alone when there are none (t = 0 s, the
    start's yaw, no collision, obstacle distance and surface unknown); STOP never called, the
    last row labelled ``label``."""
    from navbench.geometry import quaternion_to_yaw

    rec = {("position" if k == "positions" else k): np.asarray(v)
           for k, v in (trajectory or {}).items() if k != "label"}
    if len(rec.get("t", ())) == 0 or len(rec.get("position", ())) == 0:
        rec = {"t": np.zeros(1), "position": np.asarray(ep.start_position, float).reshape(1, 3),
               "yaw": np.array([quaternion_to_yaw(ep.start_rotation)]), "tilt": np.zeros(1),
               "collision": np.zeros(1, bool), "obstacle_distance": np.full(1, np.nan),
               "surface": np.array([""]), "preferred": np.zeros(1, bool), "dtg": np.full(1, np.nan)}
    n = len(rec["t"])
    rec["stop"] = np.zeros(n, bool)
    rec["label"] = np.array([""] * (n - 1) + [label])
    return rec


def _as_failure(scored: EpisodeResult, ep: Episode, gt: JSONMapping | None,
                L: float) -> EpisodeResult:
    """``scored`` with the metrics S gates set to a failure's (:func:`failure_metrics`)."""
    from navbench.metrics import EpisodeFacts, failure_metrics

    facts = EpisodeFacts.from_episode(ep, gt=gt)
    if math.isnan(facts.geodesic_distance):
        facts = dataclasses.replace(facts, geodesic_distance=float(L))
    fail = failure_metrics(facts, tau=float(scored.metrics["tau"]))  # type: ignore[arg-type]
    metrics = {**scored.metrics, **{k: fail[k] for k in FAILURE_DEFINED}}
    return dataclasses.replace(scored, metrics=metrics)
