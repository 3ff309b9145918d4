"""Paper-style result tables over per-episode rows (CondVLN Tables 2–3, NavVerse App. 9–10).

Every function takes ``rows_by_run`` = ``{run name: [row, ...]}`` where a row is the flat
metrics dict of :func:`navbench.metrics.compute_episode_metrics` merged with episode fields
(``task``, ``scene_kind``, ``source``, ``category``, ``depth``, ``chain_length``,
``geodesic_length``, stage fields ``reached_outdoor`` / ``ce_before_exit`` / ``ce_after_exit`` /
``post_exit_failure``). Means come from :mod:`navbench.metrics` (unreachable episodes and
undefined metrics excluded, counted in ``n``), their 95% intervals from
:mod:`navbench.metrics.stats` (Wilson score for binary rates and shares, percentile bootstrap
over episodes for other means); nothing is recomputed here.

A :class:`Table` holds the values and, for every cell, the number of episodes behind it and the
interval. When the fields a table needs are missing it is returned *skipped* (``values is
None``) with a note — never filled with zeros.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from navbench.jsontypes import JSONMapping
from navbench.metrics import branch_confusion_counts, difficulty_tertiles, label_counts
from navbench.metrics.aggregate import metric_values
from navbench.metrics.spec import BY_KEY, METRICS
from navbench.metrics.stats import WILSON, mean_interval, wilson_interval

Row = JSONMapping  # a metrics row: a JSON record
#: One cell: (value, n, lo, hi, method) — the interval [lo, hi] (NaN when none) and how it was
#: computed (a :mod:`navbench.metrics.stats` method or paired test; ``""`` for none).
Cell = tuple[float, int, float, float, str]
#: Table cells: row key → column key → cell.
Cells = dict[tuple[str, ...], dict[tuple[str, ...], Cell]]
RowsByRun = Mapping[str, Sequence[Row]]

#: Display name of each metric key (paper abbreviations), from the metric table.
METRIC_NAMES: dict[str, str] = {m.key: m.label for m in METRICS}
#: Metrics shown in percent (their raw values are fractions in [0, 1]).
RATES = frozenset(m.label for m in METRICS if m.is_rate)
_LABELS = frozenset(METRIC_NAMES.values())
OVERALL_METRICS = tuple(m.key for m in METRICS if m.group not in ("length", "stage"))
SAFETY_METRICS = (*(m.key for m in METRICS if m.group == "safety"), "soft_spl")
BRANCH_OUTCOMES = ("correct", "other_branch", "elsewhere")
ALL = "all"
#: Last header level of p-value columns and of seed-spread (mean ± sd) columns.
P_COL = "p"
SD_COL = "mean ± sd"


@dataclass(frozen=True, eq=False)
class Table:
    """One result table.

    Attributes:
        key: file stem (``tables/<key>.md`` / ``.csv``).
        title: caption.
        values: numbers (fractions for rates, metres for NE/ADO, cells per metre for CE), NaN
            where no episode defines the cell; ``None`` when the table was skipped.
        counts: episodes behind each cell (same shape as ``values``).
        note: how to read the table, or why it was skipped.
        share_cols: columns (last header level) whose values are shares of a count, shown
            as ``count (pct%)``; a column named ``episodes`` holds plain counts.
        lo, hi: the 95% interval of each cell (same shape as ``values``; NaN where none).
        methods: ``(method, column label)`` pairs: how the intervals and p-values of each
            column were computed (:func:`navbench.metrics.stats.method_text`).
    """

    key: str
    title: str
    values: pd.DataFrame | None
    counts: pd.DataFrame | None
    note: str = ""
    share_cols: frozenset[str] = frozenset()
    lo: pd.DataFrame | None = None
    hi: pd.DataFrame | None = None
    methods: tuple[tuple[str, str], ...] = ()

    @property
    def skipped(self) -> bool:
        """True when the data for this table was missing."""
        return self.values is None

    def select(self, cols: Sequence[object]) -> Table:
        """The same table with only (and in the order of) ``cols``."""
        def pick(f: pd.DataFrame | None) -> pd.DataFrame | None:
            return None if f is None else f[list(cols)]

        return dataclasses.replace(self, values=pick(self.values), counts=pick(self.counts),
                                   lo=pick(self.lo), hi=pick(self.hi))

    def insert_count(self, name: str, counts: Sequence[int]) -> Table:
        """A plain count column ``name`` (e.g. ``episodes``) inserted first (no interval)."""
        assert self.values is not None and self.counts is not None

        def put(f: pd.DataFrame | None, col: Sequence[float] | np.ndarray) -> pd.DataFrame | None:
            if f is None:
                return None
            out = f.copy()
            out.insert(0, name, col)
            return out

        nan = np.full(len(counts), np.nan)
        return dataclasses.replace(self, values=put(self.values, np.array(counts, float)),
                                   counts=put(self.counts, list(counts)), lo=put(self.lo, nan),
                                   hi=put(self.hi, nan))


def _skip(key: str, title: str, why: str) -> Table:
    return Table(key, title, None, None, f"skipped: {why}")


def _has(rows_by_run: RowsByRun, field: str) -> bool:
    return any(r.get(field) is not None for rows in rows_by_run.values() for r in rows)


def _label(v: object) -> str:
    """Group label of a field value (ints stay ints: ``2.0`` → ``"2"``)."""
    if v is None:
        return "n/a"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def _sort_key(s: str) -> tuple[int, float, str]:
    if s == ALL:
        return (2, 0.0, s)
    try:
        return (0, float(s), s)
    except ValueError:
        return (1, 0.0, s)


def _groups(rows: Sequence[Row], key: Callable[[Row], object]) -> dict[str, list[Row]]:
    out: dict[str, list[Row]] = {}
    for r in rows:
        out.setdefault(_label(key(r)), []).append(r)
    return out


EMPTY: Cell = (np.nan, 0, np.nan, np.nan, "")


def cell(value: float, n: int, interval: tuple[float, float] | None = None, method: str = "") -> Cell:
    """A cell of ``value`` over ``n`` episodes, with its interval when there is one."""
    lo, hi = interval if interval is not None else (np.nan, np.nan)
    return (value, n, lo, hi, method if interval is not None else "")


def values_cell(values: Sequence[float], binary: bool) -> Cell:
    """Mean of per-episode values with its 95% interval
    (:func:`navbench.metrics.stats.mean_interval`); NaN over no value."""
    if not values:
        return cell(np.nan, 0)
    iv = mean_interval(values, binary)
    return cell(float(np.mean(values)), len(values), None if iv is None else (iv.lo, iv.hi),
                "" if iv is None else iv.method)


def _mean(rows: Sequence[Row], metric: str) -> Cell:
    """Mean of ``metric`` over the reachable episodes that define it, with its interval."""
    spec = BY_KEY.get(metric)
    return values_cell(metric_values(rows, metric), spec is not None and spec.binary)


def share_cell(k: int, den: int) -> Cell:
    """``k`` of ``den`` episodes: the share k/den (NaN when den = 0), count k, Wilson interval."""
    if not den:
        return cell(np.nan, k)
    return cell(k / den, k, wilson_interval(k, den), WILSON)


@dataclass(frozen=True, eq=False)
class Frames:
    """The frames of a table built from cells (see :class:`Table`)."""

    values: pd.DataFrame
    counts: pd.DataFrame
    lo: pd.DataFrame
    hi: pd.DataFrame
    methods: tuple[tuple[str, str], ...]


def _frame(cells: Cells, index_names: Sequence[str], col_names: Sequence[str],
           col_order: Sequence[tuple[str, ...]]) -> Frames:
    """Frames from ``{row key: {column key: cell}}``; empty cells → NaN / 0."""
    idx = list(cells)
    index = (pd.MultiIndex.from_tuples(idx, names=list(index_names)) if len(index_names) > 1
             else pd.Index([i[0] for i in idx], name=index_names[0]))
    columns = (pd.MultiIndex.from_tuples(list(col_order), names=list(col_names))
               if len(col_names) > 1 else pd.Index([c[0] for c in col_order], name=col_names[0]))
    got = [[cells[i].get(c, EMPTY) for c in col_order] for i in idx]

    def part(k: int, dtype: type) -> pd.DataFrame:
        return pd.DataFrame([[x[k] for x in row] for row in got], index=index, columns=columns,
                            dtype=dtype)

    methods = sorted({(x[4], next((w for w in c if w in _LABELS), c[-1])) for row in got
                      for x, c in zip(row, col_order, strict=True) if x[4]})
    return Frames(part(0, float), part(1, int), part(2, float), part(3, float), tuple(methods))


def _table(key: str, title: str, f: Frames, note: str,
           share_cols: frozenset[str] = frozenset()) -> Table:
    return Table(key, title, f.values, f.counts, note, share_cols, f.lo, f.hi, f.methods)


def _metric_table(rows_by_run: RowsByRun, key: str, title: str, group: Callable[[Row], object] | None,
                  metrics: Sequence[str], group_name: str, with_all: bool, note: str) -> Table:
    """Rows = runs; columns = (group value, metric) or metric alone when ``group`` is None."""
    cells: Cells = {}
    seen: set[str] = set()
    for run, rows in rows_by_run.items():
        g = _groups(rows, group) if group is not None else {}
        if group is None or with_all:
            g[ALL] = list(rows)
        seen.update(g)
        cells[(run,)] = {(gv, METRIC_NAMES[m]) if group else (METRIC_NAMES[m],): _mean(grs, m)
                         for gv, grs in g.items() for m in metrics}
    # metrics that no episode of any run defines are left out (named in the note)
    empty = [m for m in metrics if not any(n for row in cells.values()
                                           for col, (_, n, *_) in row.items() if col[-1] == METRIC_NAMES[m])]
    kept = [m for m in metrics if m not in empty]
    if empty:
        note += f" Not recorded in any episode: {', '.join(METRIC_NAMES[m] for m in empty)}."
    cols: list[tuple[str, ...]]
    if group is None:
        cols = [(METRIC_NAMES[m],) for m in kept]
        f = _frame(cells, ["run"], ["metric"], cols)
    else:
        cols = [(gv, METRIC_NAMES[m]) for gv in sorted(seen, key=_sort_key) for m in kept]
        f = _frame(cells, ["run"], [group_name, "metric"], cols)
    return _table(key, title, f, note.strip())


def overall_table(rows_by_run: RowsByRun) -> Table:
    """All standard metrics per run."""
    return _metric_table(rows_by_run, "overall", "Overall results per run", None,
                         OVERALL_METRICS, "", False,
                         "Means over reachable episodes; n = episodes defining the metric.")


def condvln_sources_table(rows_by_run: RowsByRun) -> Table:
    """CondVLN Table 2: SR, SPL, BSA, CSR per scene source (dataset) and run."""
    key, title = "condvln_table2", "CondVLN Table 2: SR / SPL / BSA / CSR per scene source"
    if not _has(rows_by_run, "source"):
        return _skip(key, title, "no episode has a 'source' field")
    return _metric_table(rows_by_run, key, title, lambda r: r.get("source"),
                         ("success", "spl", "bsa", "csr"), "source", True,
                         "BSA/CSR exclude failed episodes without subgoals (CondVLN §3.2).")


def _config(r: Row) -> tuple[int, int] | None:
    d, c = r.get("depth"), r.get("chain_length")
    if d is None or c is None:
        return None
    return int(d), int(c)


def _config_order(cfg: tuple[int, int]) -> tuple[int, int, int]:
    d, c = cfg
    if (d, c) == (1, 1):
        return (0, 0, 0)
    if c == 1:
        return (1, d, c)  # logical-depth sweep
    if d == 1:
        return (2, c, d)  # chain-length sweep
    return (3, d, c)


def condvln_sweep_table(rows_by_run: RowsByRun) -> Table:
    """CondVLN Table 3: BSA and CSR per (depth d, chain length ℓ): base d=1,ℓ=1, the depth
    sweep (ℓ=1), the chain sweep (d=1), then any other combination."""
    key, title = "condvln_table3", "CondVLN Table 3: BSA / CSR per logical depth and chain length"
    if not any(_config(r) for rows in rows_by_run.values() for r in rows):
        return _skip(key, title, "no episode has both 'depth' and 'chain_length'")
    configs = sorted({c for rows in rows_by_run.values() for r in rows if (c := _config(r))},
                     key=_config_order)
    names = {c: f"d={c[0]},ℓ={c[1]}" for c in configs}
    cells: Cells = {}
    for run, rows in rows_by_run.items():
        by = {c: [r for r in rows if _config(r) == c] for c in configs}
        cells[(run,)] = {(names[c], METRIC_NAMES[m]): _mean(by[c], m)
                         for c in configs for m in ("bsa", "csr")}
    cols = [(names[c], METRIC_NAMES[m]) for c in configs for m in ("bsa", "csr")]
    return _table(key, title, _frame(cells, ["run"], ["config", "metric"], cols),
                  "Episodes without depth/chain_length are left out.")


def task_scene_table(rows_by_run: RowsByRun) -> Table:
    """NavVerse: SR and SPL per task × scene kind (plus all scene kinds)."""
    key, title = "navverse_task_scene", "NavVerse: SR / SPL per task × scene kind"
    if not (_has(rows_by_run, "task") or _has(rows_by_run, "scene_kind")):
        return _skip(key, title, "no episode has a 'task' or 'scene_kind' field")
    return _metric_table(
        rows_by_run, key, title,
        lambda r: f"{_label(r.get('task'))} · {_label(r.get('scene_kind'))}",
        ("success", "spl"), "task · scene kind", False, "")


def safety_table(rows_by_run: RowsByRun) -> Table:
    """NavVerse safety/efficiency: CE, CR, ADO, NSR, SoftSPL per scene kind."""
    key, title = "navverse_safety", "NavVerse: coverage efficiency and safety per scene kind"
    if not any(_has(rows_by_run, m) for m in ("ce", "cr", "ado", "nsr")):
        return _skip(key, title, "no episode has CE, CR, ADO or NSR")
    return _metric_table(rows_by_run, key, title, lambda r: r.get("scene_kind"), SAFETY_METRICS,
                         "scene kind", True,
                         "NSR, ADO and CR need simulator records.")


def _termination(r: Row) -> str:
    return str(r.get("termination") or r.get("label") or "n/a")


def termination_table(rows_by_run: RowsByRun) -> Table:
    """Termination-label breakdown per run × task × scene kind. ``success`` is a share of all
    episodes of the row; every other label is a share of the row's failed episodes."""
    key, title = "termination", "Termination labels"
    if not (_has(rows_by_run, "termination") or _has(rows_by_run, "label")):
        return _skip(key, title, "no episode has a termination label")
    labels = sorted({_termination(r) for rows in rows_by_run.values() for r in rows},
                    key=lambda s: (s != "success", s))
    cells: Cells = {}
    for run, rows in rows_by_run.items():
        groups = _groups(rows, lambda r: f"{_label(r.get('task'))} · {_label(r.get('scene_kind'))}")
        for g, grs in sorted(groups.items()):
            cnt = label_counts([{"termination": _termination(r)} for r in grs])
            fails = len(grs) - cnt.get("success", 0)
            row: dict[tuple[str, ...], Cell] = {("episodes",): cell(float(len(grs)), len(grs))}
            for lab in labels:
                k = cnt.get(lab, 0)
                row[(lab,)] = share_cell(k, len(grs) if lab == "success" else fails)
            cells[(run, g)] = row
    f = _frame(cells, ["run", "task · scene kind"], ["label"],
               [("episodes",), *[(lab,) for lab in labels]])
    return _table(key, title, f, "Cells: share [interval] (count); success over all episodes, "
                  "other labels over failed episodes (NavVerse App. 6.6).", frozenset(labels))


def stage_table(rows_by_run: RowsByRun) -> Table:
    """Indoor-to-outdoor stages per run × task: reached-outdoor rate, CE before/after the exit,
    SR, and why outdoor-reached episodes failed (share of those failures)."""
    key, title = "stages", "Indoor-to-outdoor stages"
    if not _has(rows_by_run, "reached_outdoor"):
        return _skip(key, title, "no episode has 'reached_outdoor' (indoor-to-outdoor stage "
                     "fields; give scenes and trajectories to derive them)")
    staged = {run: [r for r in rows if r.get("reached_outdoor") is not None]
              for run, rows in rows_by_run.items()}

    def reason(r: Row) -> str:
        return str(r.get("post_exit_failure") or _termination(r))

    post = [r for rows in staged.values() for r in rows if r["reached_outdoor"] and not r.get("success")]
    reasons = sorted({reason(r) for r in post})
    cells: Cells = {}
    for run, rows in staged.items():
        for task, grs in sorted(_groups(rows, lambda r: r.get("task")).items()):
            row: dict[tuple[str, ...], Cell] = {
                (METRIC_NAMES[m],): _mean(grs, m) for m in ("reached_outdoor", "ce_before_exit", "ce_after_exit", "success")}
            fails = [r for r in grs if r["reached_outdoor"] and not r.get("success")]
            for rs in reasons:
                row[(f"post-exit {rs}",)] = share_cell(sum(reason(r) == rs for r in fails), len(fails))
            cells[(run, task)] = row
    cols = [(METRIC_NAMES[m],) for m in ("reached_outdoor", "ce_before_exit", "ce_after_exit", "success")]
    f = _frame(cells, ["run", "task"], ["metric"], cols + [(f"post-exit {rs}",) for rs in reasons])
    note = ("Episodes with stage fields only. post-exit columns: share [interval] (count) of "
            "the failures that happened after reaching outdoor." if reasons else
            "Episodes with stage fields only. No episode failed after reaching outdoor, so "
            "there is no post-exit column.")
    return _table(key, title, f, note, frozenset(f"post-exit {rs}" for rs in reasons))


def difficulty_table(rows_by_run: RowsByRun) -> Table:
    """SR and SPL per task and difficulty tertile (per-task 1/3, 2/3 quantiles of L over the
    distinct episodes of all runs)."""
    key, title = "difficulty", "Difficulty tertiles by path length"
    if not _has(rows_by_run, "geodesic_length"):
        return _skip(key, title, "no episode has a geodesic length")
    unique: dict[tuple[str, str], Row] = {}
    for rows in rows_by_run.values():
        for r in rows:
            if r.get("geodesic_length") is not None:
                unique.setdefault((str(r.get("task")), str(r.get("episode_id"))), r)
    keys = sorted(unique)
    tert = dict(zip(keys, difficulty_tertiles([unique[k] for k in keys]), strict=True))

    def label(r: Row) -> str | None:
        t = tert.get((str(r.get("task")), str(r.get("episode_id"))))
        return None if t is None else f"{_label(r.get('task'))} · {t}"

    cuts = []
    for task in sorted({k[0] for k in keys}):
        L = np.array([float(unique[k]["geodesic_length"]) for k in keys if k[0] == task])
        q1, q2 = np.quantile(L, [1 / 3, 2 / 3])
        cuts.append(f"{_label(unique[next(k for k in keys if k[0] == task)].get('task'))}: "
                    f"{q1:.2f} m / {q2:.2f} m")
    t = _metric_table({run: [r for r in rows if label(r)] for run, rows in rows_by_run.items()},
                      key, title, label, ("success", "spl"), "task · tertile", False, "")
    assert t.values is not None
    order = {"easy": 0, "medium": 1, "hard": 2}
    cols = sorted(t.values.columns, key=lambda c: (c[0].rsplit(" · ", 1)[0],
                                                   order[c[0].rsplit(" · ", 1)[1]]))
    return dataclasses.replace(t.select(cols),
                               note="Thresholds (1/3, 2/3 quantiles of L) — " + "; ".join(cuts))


def _conditional(rows_by_run: RowsByRun) -> dict[str, list[Row]]:
    marked = _has(rows_by_run, "depth") or _has(rows_by_run, "category")
    return {run: [r for r in rows if r.get("branch_outcome") is not None and
                  (not marked or r.get("depth") is not None or r.get("category") is not None)]
            for run, rows in rows_by_run.items()}


def branch_confusion_table(rows_by_run: RowsByRun) -> Table:
    """Where conditional episodes ended: correct branch goal, another branch's goal, elsewhere;
    per run × instruction category (and all)."""
    key, title = "branch_confusion", "Branch confusion (where the episode ended)"
    cond = _conditional(rows_by_run)
    if not any(cond.values()):
        return _skip(key, title, "no conditional episode with a 'branch_outcome'")
    cells: Cells = {}
    for run, rows in cond.items():
        groups = _groups(rows, lambda r: r.get("category")) if _has(cond, "category") else {}
        groups[ALL] = rows
        for g in sorted(groups, key=_sort_key):
            c = branch_confusion_counts(groups[g])
            tot = sum(c.values())
            cells[(run, g)] = {(o,): share_cell(c[o], tot) for o in BRANCH_OUTCOMES}
    f = _frame(cells, ["run", "category"], ["ended at"], [(o,) for o in BRANCH_OUTCOMES])
    return _table(key, title, f, "Cells: share of the reachable conditional episodes "
                  "[interval] (count); other_branch = stopped within τ of a wrong branch's goal.",
                 frozenset(BRANCH_OUTCOMES))
