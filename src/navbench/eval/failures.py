"""Scoring episodes whose worker could not score them: every attempted episode counts.

When an agent's worker process dies (segfault, ``os._exit``, SIGKILL, out-of-memory kill) or
stops answering and is killed, the runner gets an ``agent_crash`` result with no metrics; a
fault outside the rollout (an exception or deadline escaping the worker function) gives an
``agent_error`` one. Left that way the episode would drop out of SR and SPL, so an agent that
crashes on the episodes it would fail would score *higher* than the same policy without
crashes. :class:`FailureScorer` runs in the parent (the database writer) and completes such a
result from the dataset alone: the metrics a failure defines whatever the trajectory
(:func:`~navbench.metrics.episode.failure_metrics`: SR 0, SPL 0, ...), the episode fields the
report groups by, and reachability decided as the worker decides it (an unreachable goal is
``unreachable``, excluded, as in a run without the crash). Nothing here depends on the executor
or on timing, so local and Ray runs record the same rows.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from typing import TYPE_CHECKING

from navbench.eval.reachability import start_geodesic, unreachable_result
from navbench.eval.records import AGENT_CRASH, AGENT_ERROR, EpisodeResult
from navbench.eval.scoring import episode_tau, jsonable
from navbench.jsontypes import JSONMapping, JSONObject

if TYPE_CHECKING:
    from navbench.episodes.loader import Dataset
    from navbench.episodes.model import Episode
    from navbench.nav import NavMesh

#: Labels of results that may arrive without metrics and are completed here.
UNSCORED_LABELS = frozenset({AGENT_CRASH, AGENT_ERROR})


class FailureScorer:
    """Completes unscored failure results of one evaluation run (see the module docs).

    Args:
        worker_kw: the run's worker arguments (:func:`~navbench.eval.planning.plan_evaluation`):
            ``dataset``, ``task``, ``split``, ``embodiment`` / ``embodiments`` (τ = 1.0 m +
            r_robot for episodes without their own τ, as the simulator's default).
        privileged: whether the agent received privileged facts (recorded in ``extra``).

    The dataset, its ``_gt`` records and navmeshes are loaded on the first unscored result only.
    """

    def __init__(self, worker_kw: JSONMapping, privileged: bool = False) -> None:
        self.kw = dict(worker_kw)
        self.privileged = bool(privileged)
        self._ds: Dataset | None = None
        self._eps: dict[str, Episode] = {}
        self._gt: JSONMapping = {}
        self._navmeshes: dict[str, NavMesh | None] = {}

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

    def _default_tau(self, scene_id: str) -> float:
        from navbench.sim import get_embodiment

        name = self.kw.get("embodiment")
        if not name:
            by_scene = self.kw.get("embodiments") or {}
            name = by_scene.get(scene_id, "spot") if isinstance(by_scene, Mapping) else "spot"
        return 1.0 + float(get_embodiment(str(name)).radius)

    def __call__(self, result: EpisodeResult) -> EpisodeResult:
        """``result`` itself when it is scored (or not a failure), else its completed copy."""
        if result.label not in UNSCORED_LABELS or result.metrics:
            return result
        from navbench.metrics import EpisodeFacts, failure_metrics

        self._dataset()
        ep = self._eps.get(result.episode_id)
        if ep is None:  # not an episode of this split: nothing to complete it from
            return result
        L = start_geodesic(self._navmesh(result.scene_id), ep)
        if math.isinf(L):  # decided from the dataset, as the worker decides it before the rollout
            return unreachable_result(ep, result.scene_id)
        gt = self._gt.get(str(ep.episode_id))
        facts = EpisodeFacts.from_episode(ep, gt=gt if isinstance(gt, Mapping) else None)
        if math.isnan(facts.geodesic_distance):
            facts = dataclasses.replace(facts, geodesic_distance=float(L))
        tau = episode_tau(ep)
        m = failure_metrics(facts, tau=tau if tau is not None else self._default_tau(result.scene_id),
                            termination=result.label)
        extra: JSONObject = {k: v for k, v in m.items() if isinstance(v, str)}
        extra.update(fields=jsonable(facts.fields), privileged=self.privileged,
                     unscored="no trajectory: only the metrics a failure defines are recorded")
        metrics = {k: v for k, v in m.items() if not isinstance(v, str)}
        metrics["agent_steps"] = None
        return dataclasses.replace(result, metrics=metrics, extra={**result.extra, **extra})
