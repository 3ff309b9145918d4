"""One declaration per metric: the :data:`METRICS` table (issue 21 item 3).

Every per-episode metric navbench reports is one :class:`MetricSpec` row: its key in result
rows, its display label and unit, whether it is a rate (shown in %), the pure function that
computes it from an :class:`EpisodeContext` (the quantities every metric shares, computed once
per episode by :func:`navbench.metrics.compute_episode_metrics`) and the tasks it applies to.
Episode metrics, aggregation, report tables and figures all read this table; adding a metric is
one entry here, its function and its tests (see README "Extending navbench → a new metric").

A function returns ``None`` when the metric does not apply to (or was not recorded for) the
episode — never 0, never NaN.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from navbench.metrics import branch, distance, efficiency, fidelity, safety, stages
from navbench.metrics.trajectory import EpisodeFacts, Trajectory


@dataclass(frozen=True, eq=False)
class EpisodeContext:
    """What the metric functions of one episode share (m, world frame).

    Attributes:
        traj: the trajectory; ``facts``: what it is scored against; ``tau``: τ (m);
        strict: ``d < τ`` instead of ``d ≤ τ``.
        d: ``(T,)`` distance to goal per step (geodesic or NavVerse Euclidean).
        succeeded: success (STOP rule and τ applied); ``P``: executed length.
        dtw_method, ndtw_threshold: nDTW settings; ``ce_cell``, ``ce_eps``: CE settings.
        valid_surfaces: surface classes NSR counts when no per-step ``preferred`` flag exists.
        subgoals_reached: ``k`` of BSA; ``branch_outcome``: where the episode ended.
        stage_labels: ``(T,)`` ``"indoor"`` / ``"outdoor"`` per step, or ``None``.
        dtg_kind: ``"geodesic"`` (``d`` from a navmesh, VLN-CE) or ``"euclidean"`` (NavVerse).
    """

    traj: Trajectory
    facts: EpisodeFacts
    tau: float
    strict: bool
    d: np.ndarray
    succeeded: bool
    P: float
    dtw_method: fidelity.DtwMethod
    ndtw_threshold: float
    ce_cell: float
    ce_eps: float
    valid_surfaces: Collection[str]
    subgoals_reached: int
    branch_outcome: branch.BranchOutcome
    stage_labels: np.ndarray | None = None
    dtg_kind: str = "euclidean"

    @property
    def L(self) -> float | None:  # noqa: N802 - the papers name it L
        """Start-to-goal geodesic length (habitat's d_0 at reset), ``None`` when unknown."""
        L = self.facts.geodesic_distance
        return L if math.isfinite(L) and L >= 0 else None

    @property
    def d_0(self) -> float:
        """The start distance of SS (m), in the measure of ``d_T``.

        Geodesic ``d`` (VLN-CE / habitat-lab): L, the start-to-goal geodesic SPL uses —
        habitat-lab's ``SoftSPL`` takes one start distance (``_start_end_episode_distance``,
        the distance to goal at reset) for both its soft success and its path ratio. NavVerse's
        Euclidean ``d`` (App. 6.5, ``S_p``): ``d[0]``, the Euclidean distance at the start, so
        that standing still scores SS = 0 (L would credit the detour the geodesic makes). L
        unknown: ``d[0]``.
        """
        L = self.L
        return L if (self.dtg_kind == "geodesic" and L is not None) else float(self.d[0])

    @property
    def soft_success(self) -> float | None:
        """SS = ``max(0, 1 − d_T/d_0)`` (:attr:`d_0`), ``None`` when a distance is undefined."""
        d_T, d_0 = float(self.d[-1]), self.d_0
        return efficiency.soft_success(d_T, d_0) if math.isfinite(d_T) and math.isfinite(d_0) else None

    @cached_property
    def ndtw(self) -> float | None:
        """nDTW against the facts' reference (VLN-CE semantics), ``None`` without a reference."""
        if not len(self.facts.reference_path):
            return None
        return fidelity.ndtw(fidelity.drop_repeats(self.traj.positions), self.facts.reference_path,
                             self.ndtw_threshold, method=self.dtw_method)


@dataclass(frozen=True)
class MetricSpec:
    """One metric.

    Attributes:
        key: key in result rows and aggregates.
        label: display name (paper abbreviation).
        unit: ``"%"`` for rates, ``"m"``, ``"cells/m"`` or ``""``.
        is_rate: values are fractions in [0, 1] shown in percent.
        fn: ``fn(ctx) -> float | None``.
        applies_to: task names the metric applies to (``None``: every task); tables show it
            only in the sections of those tasks.
        group: ``success`` | ``efficiency`` | ``fidelity`` | ``branch`` | ``safety`` |
            ``stage`` | ``length`` (which report table shows it).
        bar: drawn in the per-run bar charts.
        doc: one line: the formula.
        binary: every defined value is 0 or 1 (an indicator per episode), so its mean is a
            proportion with a Wilson interval (:mod:`navbench.metrics.stats`); other means
            get a bootstrap interval.
    """

    key: str
    label: str
    unit: str
    is_rate: bool
    fn: Callable[[EpisodeContext], float | None]
    applies_to: frozenset[str] | None = None
    group: str = "success"
    bar: bool = True
    doc: str = ""
    binary: bool = False

    def applies(self, task: str | None) -> bool:
        """Whether the metric applies to episodes of ``task`` (``None``: unknown task → yes)."""
        return self.applies_to is None or task is None or task in self.applies_to


def _spl(c: EpisodeContext) -> float | None:
    return None if c.L is None else efficiency.spl(c.succeeded, c.L, c.P)


def _soft_spl(c: EpisodeContext) -> float | None:
    # geodesic d: SS·L/max(L, P) with SS = max(0, 1 − d_T/L) is habitat-lab's SoftSPL exactly
    ss = c.soft_success
    return None if (c.L is None or ss is None) else efficiency.soft_spl(ss, c.L, c.P)


def _route_spl(c: EpisodeContext) -> float | None:
    R = c.facts.route_length
    if not len(c.facts.subgoals) or not (math.isfinite(R) and R >= 0):
        return None
    return efficiency.spl(c.succeeded, R, c.P)


def _finite(x: float) -> float | None:
    return float(x) if math.isfinite(x) else None


def _bsa(c: EpisodeContext) -> float | None:
    if not c.facts.conditional:
        return None
    return branch.branch_selection_accuracy(c.subgoals_reached, len(c.facts.subgoals), c.succeeded)


def _contact_share(c: EpisodeContext) -> float | None:
    col = c.traj.collisions
    return None if col is None or len(col) < 2 else float(np.mean(col[1:]))


def _ado(c: EpisodeContext) -> float | None:
    od = c.traj.obstacle_distances
    # NavVerse App. 6.5: ADO = (1/T) Σ_{t=1..T} d_obs(t); row 0 is the start pose (t = 0)
    return None if od is None or len(od) < 2 else safety.average_distance_to_obstacles(od[1:])


def _nsr(c: EpisodeContext) -> float | None:
    t = c.traj
    if len(t.positions) < 2:
        return None
    # NavVerse App. 6.5: NSR = (1/T) Σ_{t=1..T} 1[surface(t) is preferred]; t = 0 is the start
    if t.preferred is not None:
        return safety.navigable_surface_ratio(t.preferred[1:])
    if t.surfaces is not None:
        return safety.navigable_surface_ratio(t.surfaces[1:], c.valid_surfaces)
    return None


def _stage(key: str) -> Callable[[EpisodeContext], float | None]:
    def fn(c: EpisodeContext) -> float | None:
        if c.stage_labels is None:
            return None
        v = stages.stage_metrics(c.traj.positions, c.stage_labels).get(key)
        return None if v is None else float(v)

    return fn


_COND = frozenset({"conditional", "conditional_oracle"})
#: Every per-episode metric, in table order.
METRICS: tuple[MetricSpec, ...] = (
    MetricSpec("success", "SR", "%", True, lambda c: float(c.succeeded),
               doc="STOP called and d_T within τ", binary=True),
    MetricSpec("oracle_success", "OSR", "%", True,
               lambda c: float(distance.oracle_success(c.d, c.tau, strict=c.strict)),
               doc="min_t d_t within τ", binary=True),
    MetricSpec("spl", "SPL", "%", True, _spl, group="efficiency",
               doc="S·L/max(L, P), L = start-to-goal geodesic (habitat)"),
    MetricSpec("route_spl", "route-SPL", "%", True, _route_spl, _COND, "efficiency",
               doc="S·L_route/max(L_route, P), L_route through the subgoals (subgoal episodes)"),
    MetricSpec("soft_success", "SS", "%", True, lambda c: c.soft_success, group="efficiency",
               bar=False, doc="max(0, 1 − d_T/d_0), d_0 = L (geodesic d) or d at the start (Euclidean d)"),
    MetricSpec("soft_spl", "SoftSPL", "%", True, _soft_spl, group="efficiency",
               doc="SS·L/max(L, P) (habitat-lab's SoftSPL with geodesic d: one start distance L)"),
    MetricSpec("ne", "NE", "m", False, lambda c: _finite(float(c.d[-1])), bar=False,
               doc="d_T"),
    MetricSpec("dtg_start", "d_0", "m", False, lambda c: _finite(float(c.d[0])), group="length",
               bar=False, doc="d at the start"),
    MetricSpec("path_length", "P", "m", False, lambda c: c.P, group="length", bar=False,
               doc="Σ‖p_t − p_{t−1}‖"),
    MetricSpec("geodesic_length", "L", "m", False, lambda c: c.L, group="length", bar=False,
               doc="start-to-goal geodesic"),
    MetricSpec("ndtw", "nDTW", "%", True, lambda c: c.ndtw, group="fidelity",
               doc="exp(−DTW(Q, R)/(|R|·3 m)), Q without repeats, R = _gt locations"),
    MetricSpec("sdtw", "SDTW", "%", True,
               lambda c: None if (n := c.ndtw) is None else fidelity.sdtw(c.succeeded, n),
               group="fidelity", bar=False, doc="S·nDTW"),
    MetricSpec("bsa", "BSA", "%", True, _bsa, _COND, "branch", doc="k/m (CondVLN §3.2)"),
    MetricSpec("csr", "CSR", "%", True,
               lambda c: branch.conditional_success(_bsa(c), c.succeeded), _COND, "branch",
               doc="1[BSA = 1 ∧ S]", binary=True),
    MetricSpec("bca", "BCA", "%", True,
               lambda c: branch.branch_commit_accuracy(c.branch_outcome, c.facts.conditional),
               _COND, "branch", doc="ended at the correct branch's goal, not another's", binary=True),
    MetricSpec("ce", "CE", "cells/m", False,
               lambda c: efficiency.coverage_efficiency(c.traj.positions, c.ce_cell, c.ce_eps),
               group="safety", doc="|cells visited|/max(P, ε)"),
    MetricSpec("cr", "CR", "%", True,
               lambda c: None if c.traj.collisions is None else float(safety.collided(c.traj.collisions)),
               group="safety", doc="any non-ground contact", binary=True),
    MetricSpec("contact_share", "contact time", "%", True, _contact_share, group="safety", bar=False,
               doc="share of steps t = 1..T in non-ground contact (how long CR's contacts last)"),
    MetricSpec("ado", "ADO", "m", False, _ado, group="safety",
               doc="mean over t = 1..T of the obstacle distance"),
    MetricSpec("nsr", "NSR", "%", True, _nsr, group="safety",
               doc="mean over t = 1..T of the preferred-surface flag"),
    MetricSpec("reached_outdoor", "Reached outdoor", "%", True, _stage("reached_outdoor"),
               group="stage", bar=False, doc="went from a room to outside", binary=True),
    MetricSpec("ce_before_exit", "CE before exit", "cells/m", False, _stage("ce_before_exit"),
               group="stage", bar=False, doc="CE up to the exit step"),
    MetricSpec("ce_after_exit", "CE after exit", "cells/m", False, _stage("ce_after_exit"),
               group="stage", bar=False, doc="CE from the exit step"),
)
BY_KEY: dict[str, MetricSpec] = {s.key: s for s in METRICS}
assert len(BY_KEY) == len(METRICS), "duplicate metric key"
assert all(s.is_rate == (s.unit == "%") for s in METRICS), "rates and only rates are in %"


def label(key: str) -> str:
    """Display label of a metric key (the key itself when it is not a metric)."""
    s = BY_KEY.get(key)
    return key if s is None else s.label


def keys(group: str | None = None) -> tuple[str, ...]:
    """Metric keys of one ``group`` (all when ``None``), in table order."""
    return tuple(s.key for s in METRICS if group is None or s.group == group)
