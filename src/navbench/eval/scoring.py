"""Scoring one finished rollout: metrics, per-step arrays and episode fields of an
:class:`~navbench.eval.records.EpisodeResult` (split out of :mod:`navbench.eval.pipeline`,
which re-exports these names).

Distance to goal for the metrics (``distance``): ``geodesic`` (per step on the dataset's
navmesh, VLN-CE style), ``euclidean`` (NavVerse: 3D distance minus the goal's half size, the
same quantity the simulator labels with) or ``auto`` = geodesic for point goals (no goal size)
when there is a navmesh, else euclidean. An episode whose geodesic distances are not all
finite (the robot left the navmesh) falls back to euclidean; ``extra["dtg_note"]`` says so.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from typing import TYPE_CHECKING

import numpy as np

from navbench.eval.records import EpisodeResult
from navbench.jsontypes import JSON, JSONMapping, JSONObject

if TYPE_CHECKING:
    from navbench.agents.rollout import EpisodeOutcome
    from navbench.episodes.model import Episode
    from navbench.nav.protocols import NavMeshLike
    from navbench.scene.model import Scene

#: Per-step arrays of the simulator's records stored as the episode trajectory.
TRAJECTORY_KEYS = ("t", "position", "yaw", "tilt", "collision", "obstacle_distance", "surface",
                   "preferred", "stop", "dtg", "label")


def jsonable(v: object) -> JSON:  # any value in, plain JSON out
    """Plain JSON types (numpy → Python, non-finite floats → None, unknown → str)."""
    if isinstance(v, Mapping):
        return {str(k): jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple, np.ndarray)):
        return [jsonable(x) for x in (v.tolist() if isinstance(v, np.ndarray) else v)]
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        return float(v) if math.isfinite(v) else None
    return v if v is None or isinstance(v, str) else str(v)


def episode_tau(ep: Episode) -> float | None:
    """τ of an episode (``info.navbench.success_distance``), or ``None``."""
    tau = ep.navbench.get("success_distance")
    return None if tau is None else float(tau)


def geodesic_distances(navmesh: NavMeshLike, ep: Episode, positions: np.ndarray) -> np.ndarray:
    """Geodesic distance (m) from every position to the nearest goal of ``ep`` (inf if none);
    one cached goal table serves all positions (:meth:`NavMesh.geodesic_distances`)."""
    goals = np.array([g.position for g in ep.goals], float).reshape(-1, 3)
    return np.asarray(navmesh.geodesic_distances(np.asarray(positions, float).reshape(-1, 3), goals), float)


def score_outcome(outcome: EpisodeOutcome, ep: Episode, scene_id: str, *,
                  navmesh: NavMeshLike | None = None, distance: str = "auto",
                  gt: JSONMapping | None = None,  # the episode's _gt JSON record
                  scene: Scene | None = None, geodesic_length: float | None = None) -> EpisodeResult:
    """The :class:`EpisodeResult` of a finished rollout: numeric metrics, string metrics and
    episode fields in ``extra``, the per-step arrays as the trajectory. Its label (and the last
    trajectory row's) is the metrics' ``termination``, decided by the same S as SR
    (:func:`~navbench.metrics.episode.termination_label`).

    ``gt``: the episode's ``_gt`` record (nDTW reference); ``scene``: a hybrid scene gives the
    per-step indoor/outdoor labels of the stage metrics; ``geodesic_length``: L from the navmesh,
    used when the file has none."""
    from navbench.agents.rollout import outcome_trajectory
    from navbench.metrics import EpisodeFacts, compute_episode_metrics

    traj = outcome_trajectory(outcome)
    facts = EpisodeFacts.from_episode(ep, gt=gt)
    if geodesic_length is not None and math.isnan(facts.geodesic_distance):
        facts = dataclasses.replace(facts, geodesic_distance=float(geodesic_length))
    point_goals = all(g.size is None for g in ep.goals)
    want_geo = navmesh is not None and (distance == "geodesic" or (distance == "auto" and point_goals))
    gd = geodesic_distances(navmesh, ep, traj.positions) \
        if want_geo and navmesh is not None and ep.goals else None
    fallback = gd is not None and not np.isfinite(gd).all()
    stage_labels = None
    if scene is not None and getattr(scene, "kind", None) == "hybrid" and scene.rooms:
        from navbench.scene.stages import classify_positions

        stage_labels = classify_positions(scene, traj.positions)
    m = compute_episode_metrics(traj, facts, goal_distances=None if fallback else gd,
                                stage_labels=stage_labels, actions=outcome.steps)
    metrics = {k: v for k, v in m.items() if k != "episode_id" and
               (v is None or isinstance(v, (bool, int, float, np.integer, np.floating)))}
    metrics["agent_steps"] = outcome.steps
    extra: JSONObject = {k: v for k, v in m.items() if isinstance(v, str) and k != "episode_id"}
    extra.update(fields=jsonable(facts.fields), privileged=outcome.privileged)
    if fallback:
        extra["dtg_note"] = "geodesic distance undefined on some steps (off the navmesh)"
    if outcome.extra:
        extra["agent"] = jsonable(outcome.extra)
    # the label is the metric's termination (same S as SR), not the simulator's Euclidean test
    label = str(m["termination"])
    rec = outcome.records
    arrays = {("positions" if k == "position" else k): np.asarray(rec[k]) for k in TRAJECTORY_KEYS
              if k in rec}
    if len(arrays.get("label", ())):
        arrays["label"] = np.array([*arrays["label"][:-1].tolist(), label], dtype=str)
    if gd is not None:
        arrays["geodesic_dtg"] = gd
    return EpisodeResult(ep.episode_id, scene_id, label, metrics, outcome.error,
                         float(outcome.wall_time_s), float(outcome.sim_time_s), arrays, extra)
