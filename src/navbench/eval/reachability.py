"""Reachability of an episode's goal, decided once per episode before it is run (SPEC §5).

An unreachable goal (a hand-edited or broken episode file: no navmesh path from the start) is
never an agent's failure or error: the episode is not run, is labelled ``unreachable`` with
``reachable`` false and every metric undefined, so that every mean excludes it and every table
counts it.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from navbench.eval.records import UNREACHABLE, EpisodeResult


def start_geodesic(navmesh: Any, ep: Any) -> float:
    """L decided once per episode: the navmesh geodesic from the start to the nearest goal when a
    navmesh is given (``inf`` = unreachable), else the file's ``geodesic_distance``.

    Object goals whose centre lies inside furniture do not snap onto the navmesh; such a goal
    still counts as reachable when the end of the episode's reference path is reachable and
    within τ of the goal (NavVerse distance ``‖p − g‖ − r_goal``): then L is the file's L (or
    the geodesic to that end point)."""
    if navmesh is None or not ep.goals:
        return float(ep.geodesic_distance) if ep.goals else math.inf
    from navbench.geometry import goal_surface_distance

    start = np.asarray(ep.start_position, float)
    goals = np.array([g.position for g in ep.goals], float).reshape(-1, 3)
    L = float(navmesh.geodesic_distance(start, goals))
    tau = ep.navbench.get("success_distance")
    if math.isfinite(L) or not ep.reference_path or tau is None:
        return L
    end = np.asarray(ep.reference_path[-1], float)
    radii = np.array([g.extent_radius for g in ep.goals], float)
    if goal_surface_distance(end, goals, radii) > tau:
        return math.inf
    to_end = float(navmesh.geodesic_distance(start, end))
    if not math.isfinite(to_end):
        return math.inf
    return float(ep.geodesic_distance) if math.isfinite(ep.geodesic_distance) else to_end


def unreachable_result(ep: Any, scene_id: str) -> EpisodeResult:
    """The result of an episode whose goal cannot be reached: not run, ``reachable`` false,
    every metric undefined (excluded from means, counted), labelled :data:`UNREACHABLE`."""
    from navbench.metrics import METRIC_KEYS, EpisodeFacts

    facts = EpisodeFacts.from_episode(ep)
    metrics: dict[str, Any] = {k: None for k in METRIC_KEYS}
    metrics["reachable"] = False
    fields = {k: v for k, v in facts.fields.items() if v is None or isinstance(v, (str, bool, int))
              or (isinstance(v, float) and math.isfinite(v))}
    return EpisodeResult(ep.episode_id, scene_id, UNREACHABLE, metrics, None, 0.0, 0.0, None,
                         {"fields": fields, "termination": UNREACHABLE,
                          "unreachable": "no navmesh path from the start to any goal"})
