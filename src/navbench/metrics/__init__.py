"""Metrics: pure functions over recorded trajectories (SPEC §5), and their aggregation.

A trajectory from navbench's simulator or from a habitat/VLN-CE run is scored alike::

    from navbench.metrics import Trajectory, EpisodeFacts, compute_episode_metrics
    row = compute_episode_metrics(traj, EpisodeFacts.from_episode(ep), strict=True)

The metric modules never import the simulator or the navmesh: geodesic per-step distances are
passed in as arrays by the caller.
"""

from navbench.metrics.aggregate import (
    aggregate,
    branch_confusion_counts,
    difficulty_tertiles,
    group_by,
    label_counts,
)
from navbench.metrics.episode import (
    METRIC_KEYS,
    compute_episode_metrics,
    failure_metrics,
    termination_label,
)
from navbench.metrics.trajectory import (
    TERMINATION_LABELS,
    EpisodeFacts,
    Trajectory,
    load_trajectories,
    save_trajectories,
)

__all__ = [
    "METRIC_KEYS",
    "TERMINATION_LABELS",
    "EpisodeFacts",
    "Trajectory",
    "aggregate",
    "branch_confusion_counts",
    "compute_episode_metrics",
    "difficulty_tertiles",
    "failure_metrics",
    "group_by",
    "label_counts",
    "load_trajectories",
    "save_trajectories",
    "termination_label",
]
