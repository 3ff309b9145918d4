"""Safety metrics (NavVerse App. 6.5): collisions, clearance, navigable surface.

CR over a set of episodes is the mean of :func:`collided`; ADO and NSR are per-episode means
over the steps they are given, then averaged over episodes. The episode metrics
(:mod:`navbench.metrics.spec`) pass steps t = 1..T (row 0, the start pose, excluded) as in
NavVerse's formulas, and NSR uses the simulator's per-step ``preferred`` flags when recorded.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import numpy as np

#: Surface classes counted as valid / preferred for a walking robot (SPEC §1 classes).
PREFERRED_SURFACES: frozenset[str] = frozenset({"floor", "sidewalk", "crosswalk", "stairs"})


def collided(collisions: np.ndarray) -> bool:
    """Any non-ground collision during the episode (the per-episode CR indicator)."""
    return bool(np.asarray(collisions, dtype=bool).any())


def average_distance_to_obstacles(obstacle_distances: np.ndarray) -> float:
    """ADO = mean over steps of the base-to-nearest-obstacle distance (m)."""
    d = np.asarray(obstacle_distances, dtype=float)
    if len(d) == 0:
        raise ValueError("ADO needs at least one step")
    return float(d.mean())


def navigable_surface_ratio(
    surfaces: Sequence[str] | np.ndarray, valid: Collection[str] = PREFERRED_SURFACES
) -> float:
    """NSR = fraction of steps whose base is on a valid / preferred surface.

    ``surfaces`` holds one class string per step (``""`` = none), or per-step booleans.
    """
    if len(surfaces) == 0:
        raise ValueError("NSR needs at least one step")
    arr = np.asarray(surfaces)
    if arr.dtype == bool:
        return float(arr.mean())
    return float(np.mean([s in valid for s in surfaces]))
