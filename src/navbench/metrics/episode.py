"""All per-episode metrics of one trajectory in one record (SPEC §5).

The result is a flat dict (JSON-able): rate metrics are 0.0/1.0 floats, a metric that is not
defined for the episode (no reference path, unreachable goal, excluded from BSA/CSR, not
recorded) is ``None`` — never 0 and never NaN.
"""

from __future__ import annotations

import math
from collections.abc import Collection

import numpy as np

from navbench.jsontypes import JSONObject
from navbench.metrics import branch, distance, efficiency, fidelity, safety, stages
from navbench.metrics.spec import METRICS, EpisodeContext
from navbench.metrics.trajectory import EpisodeFacts, Trajectory

#: Metrics averaged over episodes, in table order (the keys of :data:`navbench.metrics.spec.METRICS`).
METRIC_KEYS: tuple[str, ...] = tuple(m.key for m in METRICS)


#: Labels the simulator decides by its own distance test at the end (its Euclidean NavVerse
#: DTG); the episode's metric decides them instead, so the label never contradicts S.
DISTANCE_LABELS = frozenset({"success", "perception_error"})


def termination_label(recorded: str | None, stopped: bool, succeeded: bool) -> str:
    """The episode's one termination label (NavVerse App. 6.6, SPEC §6), derived from the same
    success decision S as SR, so that ``label == "success"`` exactly when S = 1.

    S decides first: ``success`` if ``succeeded`` (whatever was recorded: the simulator's
    test uses the Euclidean DTG, a task may score the geodesic one). Otherwise a recorded
    label other than ``success`` / ``perception_error`` (``fall``, ``timeout``,
    ``agent_error``, ``agent_crash``, ...) stands, and a distance label becomes
    ``perception_error`` (stopped with d_T > τ) or ``timeout`` (never stopped).

    >>> termination_label("perception_error", True, True), termination_label("fall", False, False)
    ('success', 'fall')
    >>> termination_label("success", True, False), termination_label(None, False, False)
    ('perception_error', 'timeout')
    """
    if succeeded:
        return "success"
    if recorded and recorded not in DISTANCE_LABELS:
        return recorded
    return "perception_error" if stopped else "timeout"


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
    stage_labels: np.ndarray | None = None,
    actions: int | None = None,
) -> JSONObject:
    """Score one trajectory against its episode facts.

    Parameters
    ----------
    traj : Trajectory
        The recorded trajectory (row 0 = start; positions in m, world frame).
    facts : EpisodeFacts
        Goals, L, reference path, subgoals and branch goals of the episode.
    tau : float, optional
        Success distance τ (m); default ``facts.success_distance``.
    strict : bool, default False
        Compare with ``d < τ`` (VLN-CE) instead of ``d ≤ τ`` (SPEC default).
    require_stop : bool, default True
        Success needs a STOP call (SPEC default).
    goal_distances : numpy.ndarray, optional
        ``(T,)`` geodesic distance to the goal per step (m), computed by the caller on a
        navmesh; when ``None`` the NavVerse form (3D Euclidean minus goal radius) is used and
        ``dtg_kind`` is ``"euclidean"``.
    dtw_method : {"exact", "fastdtw"}, default "exact"
        nDTW/SDTW alignment (``fastdtw`` is VLN-CE's approximation); recorded in the result.
    ndtw_threshold : float, default 3.0
        ``d_th`` of nDTW (m).
    ce_cell, ce_eps : float, default 1.0
        CE grid cell size (m) and ε of ``max(P, ε)`` (m); ε defaults to one cell so that an
        agent that barely moves does not get an unbounded CE.
    valid_surfaces : collection of str
        Surface classes counted by NSR when the trajectory has no per-step ``preferred`` flags
        (the simulator records them; they win).
    stage_labels : numpy.ndarray, optional
        ``(T,)`` ``"indoor"``/``"outdoor"`` per step (stage metrics), or ``None``.
    actions : int, optional
        Actions the agent took, STOP included (``steps``); default ``T − 1``, the rows after
        the start: one per action in a VLN-CE prediction file (VLN-CE's ``steps_taken``).

    Returns
    -------
    dict
        Every key of :data:`~navbench.metrics.spec.METRICS` (rates as 0.0/1.0, ``None`` where a
        metric does not apply: no reference path, no collision record, ...), plus
        ``reachable``, ``subgoals_reached``/``subgoals_total``, ``branch_outcome``,
        ``termination``, ``steps`` (actions taken, VLN-CE's ``steps_taken``), ``tau``, ``strict``, ``dtg_kind``, ``dtw_method``,
        ``reference_kind`` (and ``post_exit_failure`` for a failed episode that left the
        building).

    Raises
    ------
    ValueError
        If ``goal_distances`` or ``stage_labels`` do not have one entry per step.

    Examples
    --------
    A detour through (1, 0, -1.5) to 0.5 m short of a point goal at L = 3.5 m: path length
    P = 2·√(1² + 1.5²) = 3.606 m, d_T = 0.5 m ≤ τ = 1.0 m, so SPL = L / max(P, L) = 0.971 and
    SoftSPL = (1 − d_T / d_0) · L / max(P, L) = 0.832 (Euclidean d: d_0 = d at the start = 3.5 m).

    >>> import numpy as np
    >>> from navbench.metrics import EpisodeFacts, Trajectory, compute_episode_metrics
    >>> traj = Trajectory("e0", np.array([[0.0, 0.0, 0.0], [1.0, 0.0, -1.5], [0.0, 0.0, -3.0]]))
    >>> facts = EpisodeFacts("e0", np.zeros(3), goal_positions=np.array([[0.0, 0.0, -3.5]]),
    ...                      goal_radii=np.zeros(1), success_distance=1.0, geodesic_distance=3.5)
    >>> m = compute_episode_metrics(traj, facts)
    >>> m["success"], m["ne"], round(m["path_length"], 3), round(m["spl"], 3), round(m["soft_spl"], 3)
    (1.0, 0.5, 3.606, 0.971, 0.832)
    >>> m["ndtw"] is None, m["termination"], m["dtg_kind"]  # no reference path: nDTW does not apply
    (True, 'success', 'euclidean')
    >>> m["steps"]  # two moves (rows after the start), as VLN-CE's steps_taken counts them
    2

    With VLN-CE's strict comparison and τ = 0.5 m the same stop is a failure:

    >>> compute_episode_metrics(traj, facts, tau=0.5, strict=True)["success"]
    0.0
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
    d_T = float(d[-1])
    ok = math.isfinite(d_T) and distance.success(d_T, traj.stopped, t, strict=strict, require_stop=require_stop)
    m = len(facts.subgoals)
    k = branch.subgoals_reached_in_order(pos, facts.subgoals, t, strict=strict) if m else 0
    outcome = branch.branch_confusion(d_T, pos[-1], facts.branch_goals, t, strict=strict)
    if stage_labels is not None and len(stage_labels) != len(pos):
        raise ValueError(f"episode {traj.episode_id}: {len(stage_labels)} stage labels for {len(pos)} steps")
    ctx = EpisodeContext(traj, facts, t, strict, d, ok, efficiency.path_length(pos), dtw_method,
                         ndtw_threshold, ce_cell, ce_eps, valid_surfaces, k, outcome,
                         None if stage_labels is None else np.asarray(stage_labels, dtype=str),
                         dtg_kind=kind)
    out: JSONObject = {"episode_id": traj.episode_id,
                           "reachable": facts.reachable and math.isfinite(float(d[0]))}
    out.update({spec.key: spec.fn(ctx) for spec in METRICS})
    if ctx.stage_labels is not None:
        pf = stages.stage_metrics(pos, ctx.stage_labels, succeeded=ok,
                                  termination=termination_label(traj.termination, traj.stopped, ok))
        if "post_exit_failure" in pf:
            out["post_exit_failure"] = pf["post_exit_failure"]
    out.update({
        "subgoals_reached": k,
        "subgoals_total": m,
        "branch_outcome": outcome,
        "termination": termination_label(traj.termination, traj.stopped, ok),
        "steps": len(pos) - 1 if actions is None else int(actions),
        "tau": t,
        "strict": strict,
        "dtg_kind": kind,
        "dtw_method": dtw_method,
        "reference_kind": facts.reference_kind if len(facts.reference_path) else "none",
    })
    return out


#: Metrics a failed episode (S = 0) defines whatever its trajectory: SR itself, the ones that are
#: S times a factor (SPL, route-SPL, SDTW), CSR = 1[BSA = 1 ∧ S] where BSA is defined without
#: S (subgoal episodes), and L, a fact of the episode. Every other metric (NE, OSR, SoftSPL,
#: nDTW, BSA, BCA, safety) needs the trajectory.
FAILURE_DEFINED: tuple[str, ...] = ("success", "spl", "route_spl", "sdtw", "csr", "geodesic_length")


def failure_metrics(facts: EpisodeFacts, *, tau: float | None = None,
                    termination: str = "agent_crash") -> JSONObject:
    """The metrics of a failed episode whose trajectory is lost (its agent's process died), as
    :func:`compute_episode_metrics` gives them for *every* failing trajectory of the episode.

    SR = 0; SPL = S·L/max(L, P) = 0 when L is known; route-SPL = 0 on subgoal episodes with a
    route length; SDTW = S·nDTW = 0 when there is a reference path; CSR = 0 on conditional
    episodes with subgoals (without subgoals a failure is excluded from BSA, so from CSR);
    ``geodesic_length`` = L. The other metrics of :data:`METRIC_KEYS` are ``None`` (not
    recorded; ``dtg_start`` too, whose distance, geodesic or Euclidean, is the caller's):
    a crash is counted as a failure, never as an unknown. ``termination`` is the
    episode's label (``agent_crash``, or ``agent_error`` for a fault outside the rollout).

    >>> import numpy as np
    >>> from navbench.metrics import EpisodeFacts
    >>> f = EpisodeFacts("e0", np.zeros(3), np.array([[0.0, 0.0, -3.5]]), np.zeros(1), 1.0,
    ...                  geodesic_distance=3.5)
    >>> m = failure_metrics(f)
    >>> m["success"], m["spl"], m["sdtw"], m["csr"], m["ne"], m["termination"]
    (0.0, 0.0, None, None, None, 'agent_crash')
    """
    L = facts.geodesic_distance
    known_L = math.isfinite(L) and L >= 0
    R = facts.route_length
    m = len(facts.subgoals)
    out: JSONObject = {k: None for k in METRIC_KEYS}
    out.update({
        "reachable": facts.reachable,
        "success": 0.0,
        "spl": 0.0 if known_L else None,
        "route_spl": 0.0 if m and math.isfinite(R) and R >= 0 else None,
        "sdtw": 0.0 if len(facts.reference_path) else None,
        "csr": 0.0 if facts.conditional and m else None,
        "geodesic_length": L if known_L else None,
        "subgoals_total": m,
        "termination": termination,
        "tau": facts.success_distance if tau is None else float(tau),
    })
    return out
