"""Distance to goal, success, oracle success and navigation error (SPEC §5, NavVerse App. 6.5).

Every comparison against the success distance τ is explicit: ``strict=False`` means ``d ≤ τ``
(SPEC/NavVerse default), ``strict=True`` means ``d < τ`` (VLN-CE / habitat-lab).
"""

from __future__ import annotations

import numpy as np

from navbench.geometry import goal_surface_distance


def within(d: float, tau: float, *, strict: bool = False) -> bool:
    """``d < τ`` when ``strict`` else ``d ≤ τ``."""
    return bool(d < tau) if strict else bool(d <= tau)


def dtg_navverse(
    positions: np.ndarray, goal_positions: np.ndarray, goal_radii: np.ndarray | None = None
) -> np.ndarray:
    """NavVerse distance to goal per step: ``d_t = min_i max(0, ‖p_t − g_i‖ − r_i)`` (m, 3D).

    ``positions`` is ``(T, 3)``; ``goal_radii`` are ``½ max(sx, sz)`` per goal (0 if unknown).
    Returns ``(T,)``; ``inf`` everywhere when there is no goal.
    """
    p = np.asarray(positions, dtype=float).reshape(-1, 3)
    return np.array([goal_surface_distance(q, goal_positions, goal_radii) for q in p])


def dtg_geodesic(per_step_geodesic: np.ndarray) -> np.ndarray:
    """Geodesic distance to goal per step (VLN-CE form), as computed by the caller on a navmesh.

    Validates the array (``(T,)``, non-negative; ``inf`` marks an unreachable step).
    """
    d = np.asarray(per_step_geodesic, dtype=float).reshape(-1)
    if np.isnan(d).any() or (d < 0).any():
        raise ValueError("geodesic distances must be non-negative numbers (inf = unreachable)")
    return d


def success(
    final_distance: float, stopped: bool, tau: float, *, strict: bool = False,
    require_stop: bool = True,
) -> bool:
    """Success: STOP called (unless ``require_stop`` is False) and ``d_T`` within τ."""
    if require_stop and not stopped:
        return False
    return within(final_distance, tau, strict=strict)


def oracle_success(distances: np.ndarray, tau: float, *, strict: bool = False) -> bool:
    """OS: ``min_t d_t`` within τ (no STOP needed)."""
    d = np.asarray(distances, dtype=float)
    return len(d) > 0 and within(float(d.min()), tau, strict=strict)


def navigation_error(distances: np.ndarray) -> float:
    """NE = ``d_T``, the distance to goal at the last step (m)."""
    return float(np.asarray(distances, dtype=float)[-1])
