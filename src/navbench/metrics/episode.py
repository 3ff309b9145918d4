"""All per-episode metrics of one trajectory in one record (SPEC §5).

The result is a flat dict (JSON-able): rate metrics are 0.0/1.0 floats, a metric that is not
defined for the episode (no reference path, unreachable goal, excluded from BSA/CSR, not
recorded) is ``None`` — never 0 and never NaN.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from typing import Any

import numpy as np

from navbench.metrics import branch, distance, efficiency, fidelity, safety
from navbench.metrics.trajectory import EpisodeFacts, Trajectory

#: Metrics averaged over episodes, in table order.
METRIC_KEYS: tuple[str, ...] = (
    "success", "oracle_success", "spl", "soft_success", "soft_spl", "ne", "dtg_start",
    "path_length", "geodesic_length", "ndtw", "sdtw", "bsa", "csr", "bca", "ce", "cr", "ado", "nsr",
)


def termination_label(recorded: str | None, stopped: bool, succeeded: bool) -> str:
    """The recorded label if any; else ``success``, ``perception_error`` (stopped with
    d > τ) or ``timeout`` (never stopped), as in NavVerse App. 6.6."""
    if recorded:
        return recorded
    if succeeded:
        return "success"
    return "perception_error" if stopped else "timeout"


def _finite(x: float) -> float | None:
    return float(x) if math.isfinite(x) else None


def compute_episode_metrics(
    traj: Trajectory,
    facts: EpisodeFacts,
    *,
    tau: float | None = None,
    strict: bool = False,
    require_stop: bool = True,
    goal_distances: np.ndarray | None = None,
    dtw_method: fidelity.DtwMethod = "exact",
    ndtw_threshold: float = 3.0,
    ce_cell: float = 1.0,
    ce_eps: float = 1.0,
    valid_surfaces: Collection[str] = safety.PREFERRED_SURFACES,
) -> dict[str, Any]:
    """Score one trajectory against its episode facts.

    Args:
        traj: the recorded trajectory (row 0 = start).
        facts: goals, L, reference path, subgoals and branch goals of the episode.
        tau: success distance τ (m); default ``facts.success_distance``.
        strict: compare with ``d < τ`` (VLN-CE) instead of ``d ≤ τ`` (SPEC default).
        require_stop: success needs a STOP call (SPEC default True).
        goal_distances: per-step geodesic distance to the goal (m), computed by the caller on a
            navmesh; when ``None`` the NavVerse form (3D Euclidean minus goal radius) is used.
        dtw_method: ``"exact"`` or ``"fastdtw"`` (VLN-CE's approximation); recorded.
        ndtw_threshold: ``d_th`` of nDTW (m).
        ce_cell, ce_eps: CE grid cell size (m) and ε of ``max(P, ε)`` (m); ε defaults to one
            cell so that an agent that barely moves does not get an unbounded CE.
        valid_surfaces: surface classes counted by NSR.
    """
    t = facts.success_distance if tau is None else float(tau)
    pos = traj.positions
    if goal_distances is not None:
        d = distance.dtg_geodesic(goal_distances)
        if len(d) != len(pos):
            raise ValueError(f"episode {traj.episode_id}: {len(d)} goal distances for {len(pos)} steps")
        kind = "geodesic"
    else:
        d = distance.dtg_navverse(pos, facts.goal_positions, facts.goal_radii)
        kind = "euclidean"
    d_T, d_0 = float(d[-1]), float(d[0])
    ok = math.isfinite(d_T) and distance.success(d_T, traj.stopped, t, strict=strict, require_stop=require_stop)
    P = efficiency.path_length(pos)
    L = facts.geodesic_distance
    L_ok = math.isfinite(L) and L >= 0
    reachable = facts.reachable and math.isfinite(d_0)
    ss = efficiency.soft_success(d_T, d_0) if math.isfinite(d_T) and math.isfinite(d_0) else None
    nd = None
    if len(facts.reference_path):
        nd = fidelity.ndtw(pos, facts.reference_path, ndtw_threshold, method=dtw_method)
    m = len(facts.subgoals)
    k = branch.subgoals_reached_in_order(pos, facts.subgoals, t, strict=strict) if m else 0
    bsa = branch.branch_selection_accuracy(k, m, ok) if facts.conditional else None
    outcome = branch.branch_confusion(d_T, pos[-1], facts.branch_goals, t, strict=strict)
    out: dict[str, Any] = {
        "episode_id": traj.episode_id,
        "reachable": reachable,
        "success": float(ok),
        "oracle_success": float(distance.oracle_success(d, t, strict=strict)),
        "spl": efficiency.spl(ok, L, P) if L_ok else None,
        "soft_success": ss,
        "soft_spl": efficiency.soft_spl(ss, L, P) if (L_ok and ss is not None) else None,
        "ne": _finite(d_T),
        "dtg_start": _finite(d_0),
        "path_length": P,
        "geodesic_length": L if L_ok else None,
        "ndtw": nd,
        "sdtw": None if nd is None else fidelity.sdtw(ok, nd),
        "bsa": bsa,
        "csr": branch.conditional_success(bsa, ok),
        "bca": branch.branch_commit_accuracy(outcome, facts.conditional),
        "ce": efficiency.coverage_efficiency(pos, ce_cell, ce_eps),
        "cr": None if traj.collisions is None else float(safety.collided(traj.collisions)),
        "ado": None if traj.obstacle_distances is None else safety.average_distance_to_obstacles(traj.obstacle_distances),
        "nsr": None if traj.surfaces is None else safety.navigable_surface_ratio(traj.surfaces, valid_surfaces),
        "subgoals_reached": k,
        "subgoals_total": m,
        "branch_outcome": outcome,
        "termination": termination_label(traj.termination, traj.stopped, ok),
        "steps": len(pos),
        "tau": t,
        "strict": strict,
        "dtg_kind": kind,
        "dtw_method": dtw_method,
    }
    return out
