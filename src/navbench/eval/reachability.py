"""Reachability of an episode's goal, decided once per episode before it is run (SPEC §5).

An unreachable goal (a hand-edited or broken episode file: no navmesh path from the start) is
never an agent's failure or error: the episode is not run, is labelled ``unreachable`` with
``reachable`` false and every metric undefined, so that every mean excludes it and every table
counts it.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from navbench.episodes.reachability import start_geodesic
from navbench.eval.records import UNREACHABLE, EpisodeResult, MetricValue

if TYPE_CHECKING:
    from navbench.episodes.model import Episode

__all__ = ["start_geodesic", "unreachable_result"]


def unreachable_result(ep: Episode, scene_id: str) -> EpisodeResult:
    """The result of an episode whose goal cannot be reached: not run, ``reachable`` false,
    every metric undefined (excluded from means, counted), labelled :data:`UNREACHABLE`."""
    from navbench.metrics import METRIC_KEYS, EpisodeFacts

    facts = EpisodeFacts.from_episode(ep)
    metrics: dict[str, MetricValue] = {k: None for k in METRIC_KEYS}
    metrics["reachable"] = False
    fields = {k: v for k, v in facts.fields.items() if v is None or isinstance(v, (str, bool, int))
              or (isinstance(v, float) and math.isfinite(v))}
    return EpisodeResult(ep.episode_id, scene_id, UNREACHABLE, metrics, None, 0.0, 0.0, None,
                         {"fields": fields, "termination": UNREACHABLE,
                          "unreachable": "no navmesh path from the start to any goal"})
