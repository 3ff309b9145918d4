"""Aggregation of per-episode metric rows: means with counts, group-by, tertiles, breakdowns.

Rows are the dicts of :func:`navbench.metrics.compute_episode_metrics`, optionally merged with
episode fields (``task``, ``source``, ``scene_kind``, ``depth``, ``chain_length``, ``stage``...).
Episodes with an unreachable goal (``reachable`` false) are excluded from every mean and
counted; a metric that is ``None`` for an episode is excluded from that metric's mean and
counted in its ``excluded``. A mean over no episode is ``None``, never 0 or NaN.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

import numpy as np

from navbench.jsontypes import JSONMapping, JSONObject
from navbench.metrics.episode import METRIC_KEYS

Row = JSONMapping  # a metrics row: a JSON record


def aggregate(rows: Sequence[Row], metrics: Sequence[str] = METRIC_KEYS) -> JSONObject:
    """Plain means over included episodes, with counts.

    Unreachable episodes (``reachable`` false) are left out of every metric; a ``None`` value
    (the metric does not apply to that episode) is counted as ``excluded``, never as 0.

    Parameters
    ----------
    rows : sequence of dict
        Per-episode rows of :func:`~navbench.metrics.compute_episode_metrics`.
    metrics : sequence of str
        Keys to average; default every key of :data:`~navbench.metrics.spec.METRICS`.

    Returns
    -------
    dict
        ``{"episodes": N, "unreachable": U, "metrics": {name: {"mean", "n", "excluded"}}}``
        where ``n + excluded = N − U`` for every metric; ``mean`` is ``None`` when ``n = 0``.

    Examples
    --------
    >>> from navbench.metrics import aggregate
    >>> rows = [{"success": 1.0, "ndtw": 0.8}, {"success": 0.0, "ndtw": None},
    ...         {"success": 0.0, "ndtw": 0.1, "reachable": False}]
    >>> agg = aggregate(rows, ["success", "ndtw"])
    >>> agg["episodes"], agg["unreachable"]
    (3, 1)
    >>> agg["metrics"]["success"], agg["metrics"]["ndtw"]
    ({'mean': 0.5, 'n': 2, 'excluded': 0}, {'mean': 0.8, 'n': 1, 'excluded': 1})
    """
    included = _included(rows)
    out: JSONObject = {
        "episodes": len(rows),
        "unreachable": len(rows) - len(included),
        "metrics": {},
    }
    for name in metrics:
        vals = metric_values(included, name)
        out["metrics"][name] = {
            "mean": float(np.mean(vals)) if vals else None,
            "n": len(vals),
            "excluded": len(included) - len(vals),
        }
    return out


def _included(rows: Sequence[Row]) -> list[Row]:
    return [r for r in rows if r.get("reachable", True)]


def metric_values(rows: Sequence[Row], metric: str) -> list[float]:
    """The values behind :func:`aggregate`'s mean of ``metric``: one per reachable episode that
    defines it, in row order (what intervals and paired tests in
    :mod:`navbench.metrics.stats` resample).

    >>> metric_values([{"spl": 0.5}, {"spl": None}, {"spl": 1.0, "reachable": False}], "spl")
    [0.5]
    """
    return [float(r[metric]) for r in _included(rows) if r.get(metric) is not None]


def group_by(
    rows: Sequence[Row],
    key: str | Callable[[Row], object],
    metrics: Sequence[str] = METRIC_KEYS,
) -> dict[str, JSONObject]:
    """:func:`aggregate` per value of an episode field (or of ``key(row)``), sorted by value.

    Rows without the field form the group ``"n/a"``.
    """
    groups: dict[str, list[Row]] = {}
    for r in rows:
        v = key(r) if callable(key) else r.get(key)
        groups.setdefault("n/a" if v is None else str(v), []).append(r)
    return {g: aggregate(groups[g], metrics) for g in sorted(groups, key=_natural)}


def _natural(s: str) -> tuple[int, float, str]:
    try:
        return (0, float(s), s)
    except ValueError:
        return (1, 0.0, s)


def difficulty_tertiles(
    rows: Sequence[Row], *, length_key: str = "geodesic_length", task_key: str = "task"
) -> list[str | None]:
    """Difficulty label per row from per-task 1/3 and 2/3 quantiles of the path length L.

    ``L ≤ q1/3`` → ``"easy"``, ``L ≤ q2/3`` → ``"medium"``, else ``"hard"`` (numpy's linear
    quantiles over the task's rows with a known L); rows without L get ``None``.
    """
    by_task: dict[object, list[float]] = {}
    for r in rows:
        if r.get(length_key) is not None:
            by_task.setdefault(r.get(task_key), []).append(float(r[length_key]))
    cuts = {t: np.quantile(np.array(v), [1 / 3, 2 / 3]) for t, v in by_task.items()}
    out: list[str | None] = []
    for r in rows:
        L = r.get(length_key)
        if L is None:
            out.append(None)
            continue
        q1, q2 = cuts[r.get(task_key)]
        out.append("easy" if q1 >= L else "medium" if q2 >= L else "hard")
    return out


def label_counts(rows: Sequence[Row], key: str = "termination") -> dict[str, int]:
    """Counts of a categorical per-episode field (e.g. the termination-label breakdown)."""
    return dict(sorted(Counter(str(r.get(key)) for r in rows).items()))


def branch_confusion_counts(rows: Sequence[Row]) -> dict[str, int]:
    """How reachable episodes ended: at the correct branch's goal, at another branch's goal,
    or elsewhere (``branch_outcome`` of each row)."""
    c = Counter(r.get("branch_outcome") for r in rows if r.get("reachable", True))
    return {k: c.get(k, 0) for k in ("correct", "other_branch", "elsewhere")}
