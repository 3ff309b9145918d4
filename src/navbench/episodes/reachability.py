"""Whether an episode's goal can be reached from its start on a navmesh (SPEC §5).

Decided once per episode, by evaluation (:mod:`navbench.eval.reachability`) and by scoring
(:func:`navbench.metrics.scoring.navmesh_geodesic`) alike.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from navbench.episodes.model import Episode
    from navbench.nav.protocols import NavMeshLike


def start_geodesic(navmesh: NavMeshLike | None, ep: Episode) -> float:
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
