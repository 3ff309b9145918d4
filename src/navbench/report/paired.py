"""Tables that compare runs episode by episode, and runs of one agent over several seeds.

Two runs are compared only on the episodes both ran, both reached and both define the metric
(pairs by episode id). Every comparison gives the two means with their intervals, the mean
paired difference with a percentile-bootstrap interval over the pairs, and a two-sided p-value
(McNemar's test for binary metrics — SR, CSR —, the sign-flip permutation test for the others
— SPL, BSA): :func:`navbench.metrics.stats.paired_difference`. p-values are not adjusted for the
number of comparisons in a table.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

import numpy as np

from navbench.metrics.spec import BY_KEY
from navbench.metrics.stats import PAIRED_BOOTSTRAP, SEED_SD, paired_difference, seed_spread
from navbench.report.tables import (
    METRIC_NAMES,
    P_COL,
    SD_COL,
    Cell,
    Cells,
    Row,
    RowsByRun,
    Table,
    _frame,
    _skip,
    _table,
    cell,
    values_cell,
)

#: Metrics of the paired tables (those a section's episodes define).
PAIRED_METRICS = ("success", "spl", "bsa", "csr")
Key = Callable[[Row], str]


def _eid(r: Row) -> str:
    return str(r.get("episode_id"))


def paired_values(xs: Sequence[Row], ys: Sequence[Row], metric: str,
                  key: Key = _eid) -> tuple[list[float], list[float]]:
    """``metric`` of the episodes both runs ran (matched by ``key``), reached and define, in the
    order of ``xs``."""
    by = {key(r): r for r in ys if r.get("reachable", True) and r.get(metric) is not None}
    pairs = [(float(r[metric]), float(by[key(r)][metric])) for r in xs
             if r.get("reachable", True) and r.get(metric) is not None and key(r) in by]
    return [a for a, _ in pairs], [b for _, b in pairs]


def comparison_cells(x: Sequence[float], y: Sequence[float], metric: str,
                     names: tuple[str, str, str]) -> dict[tuple[str, ...], Cell]:
    """Cells ``(label, names[0])`` = mean(x), ``(label, names[1])`` = mean(y) (each with its
    interval over the pairs), ``(label, names[2])`` = mean(y − x) with its paired-bootstrap
    interval, and ``(label, "p")``."""
    spec = BY_KEY.get(metric)
    binary = spec is not None and spec.binary
    label = METRIC_NAMES.get(metric, metric)
    out: dict[tuple[str, ...], Cell] = {(label, names[0]): values_cell(x, binary),
                                        (label, names[1]): values_cell(y, binary)}
    r = paired_difference(y, x, binary)
    if r is None:
        out[(label, names[2])] = cell(np.nan, 0)
        out[(label, P_COL)] = cell(np.nan, 0)
        return out
    out[(label, names[2])] = cell(r.diff, r.n, None if r.lo is None or r.hi is None
                                  else (r.lo, r.hi), PAIRED_BOOTSTRAP)
    out[(label, P_COL)] = (r.p, r.n, np.nan, np.nan, r.test)
    return out


def _defined(rows_by_run: RowsByRun, metrics: Sequence[str]) -> list[str]:
    return [m for m in metrics if any(r.get(m) is not None for rs in rows_by_run.values() for r in rs)]


def find_oracle(rows_by_run: RowsByRun, oracle: str | None = None) -> str | None:
    """The oracle run: ``oracle`` if given, else the only run whose name contains 'oracle'."""
    if oracle is not None:
        return oracle if oracle in rows_by_run else None
    hits = [r for r in rows_by_run if "oracle" in r.lower()]
    return hits[0] if len(hits) == 1 else None


def oracle_gap_table(rows_by_run: RowsByRun, oracle: str | None = None,
                     metrics: Sequence[str] = PAIRED_METRICS) -> Table:
    """Oracle-vs-agent gap on the episodes both ran: agent mean, oracle mean,
    gap = oracle − agent and its p, per metric, over episodes where both define the metric."""
    key, title = "oracle_gap", "Privileged branch oracle vs agent gap (paired episodes)"
    o = find_oracle(rows_by_run, oracle)
    if o is None:
        why = (f"oracle run {oracle!r} not among the runs" if oracle is not None
               else "no single run named '*oracle*' (choose one with --oracle)")
        return _skip(key, title, why)
    if len(rows_by_run) < 2:
        return _skip(key, title, "needs the oracle run and at least one other run")
    metrics = _defined(rows_by_run, metrics) or list(metrics)
    cells: Cells = {}
    for run, rows in rows_by_run.items():
        if run != o:
            cells[(run,)] = {c: v for m in metrics for c, v in comparison_cells(
                *paired_values(rows, rows_by_run[o], m), m, ("agent", "oracle", "gap")).items()}
    cols = [(METRIC_NAMES[m], w) for m in metrics for w in ("agent", "oracle", "gap", P_COL)]
    return _table(key, title, _frame(cells, ["run"], ["metric", ""], cols),
                  f"Oracle run: {o}.")


def condvln_oracle_gap_table(cond: RowsByRun, linear: RowsByRun,
                             metrics: Sequence[str] = PAIRED_METRICS) -> Table:
    """The same agent on conditional and oracle-linear episodes, paired by episode id
    (CondVLN §4): gap = oracle-linear − conditional and its p."""
    key, title = "condvln_oracle_gap", "CondVLN oracle gap: conditional vs oracle-linear instructions"

    def base(r: Row) -> str:  # mixed-task reports prefix ids with the task (report.build)
        return str(r.get("episode_id")).removeprefix(f"{r.get('run_task')}-")

    agents = [a for a in cond if a in linear]
    if not agents:
        return _skip(key, title, "no agent ran both the conditional and the oracle-linear "
                     "(conditional_oracle) episodes")
    cells: Cells = {}
    for a in agents:
        cells[(a,)] = {c: v for m in metrics for c, v in comparison_cells(
            *paired_values(cond[a], linear[a], m, base), m,
            ("conditional", "oracle-linear", "gap")).items()}
    cols = [(METRIC_NAMES[m], w) for m in metrics
            for w in ("conditional", "oracle-linear", "gap", P_COL)]
    return _table(key, title, _frame(cells, ["run"], ["metric", ""], cols), "")


def agent_pairs_table(rows_by_run: RowsByRun, metrics: Sequence[str] = PAIRED_METRICS) -> Table:
    """Every pair of runs (A, B), in run order, on the episodes both ran: per metric the mean
    paired difference A − B with its interval and p."""
    key, title = "paired", "Paired comparisons between runs (same episodes)"
    runs = list(rows_by_run)
    metrics = _defined(rows_by_run, metrics)
    if len(runs) < 2 or not metrics:
        return _skip(key, title, "needs two runs and a paired metric (SR, SPL, BSA, CSR)")
    cells: Cells = {}
    for a, b in itertools.combinations(runs, 2):
        row: dict[tuple[str, ...], Cell] = {}
        for m in metrics:
            got = comparison_cells(*paired_values(rows_by_run[b], rows_by_run[a], m), m,
                                   ("B", "A", "A − B"))
            row.update({c: v for c, v in got.items() if c[1] in ("A − B", P_COL)})
        if any(v[1] for v in row.values()):
            cells[(a, b)] = row
    if not cells:
        return _skip(key, title, "no two runs share an episode")
    cols = [(METRIC_NAMES[m], w) for m in metrics for w in ("A − B", P_COL)]
    return _table(key, title, _frame(cells, ["run A", "run B"], ["metric", ""], cols), "")


def _agent(run: str, rows: Sequence[Row]) -> str:
    return str(next((r["run_agent"] for r in rows if r.get("run_agent")), run))


def seeds_table(rows_by_run: RowsByRun, metrics: Sequence[str] = PAIRED_METRICS) -> Table:
    """Agents that ran with several seeds (runs with one ``run_agent`` and different
    ``run_seed``): per metric the mean ± sd of the per-seed means, and the pooled mean over
    every episode of every seed with its interval."""
    key, title = "seeds", "Agents over several seeds"
    by_agent: dict[str, dict[object, list[Row]]] = {}
    for run, rows in rows_by_run.items():
        seed = next((r.get("run_seed") for r in rows if r.get("run_seed") is not None), None)
        if seed is not None:
            by_agent.setdefault(_agent(run, rows), {}).setdefault(seed, []).extend(rows)
    multi = {a: s for a, s in by_agent.items() if len(s) > 1}
    metrics = _defined(rows_by_run, metrics)
    if not multi or not metrics:
        return _skip(key, title, "no agent ran with more than one seed")
    cells: Cells = {}
    for agent, seeds in multi.items():
        row: dict[tuple[str, ...], Cell] = {("seeds", ""): cell(float(len(seeds)), len(seeds))}
        for m in metrics:
            spec = BY_KEY.get(m)
            per = [values_cell([float(r[m]) for r in rs if r.get("reachable", True)
                                and r.get(m) is not None], spec is not None and spec.binary)
                   for rs in seeds.values()]
            means = [c[0] for c in per if c[1]]
            label = METRIC_NAMES[m]
            if means:
                mean, sd = seed_spread(means)
                row[(label, SD_COL)] = cell(mean, len(means), None if sd is None
                                            else (mean - sd, mean + sd), SEED_SD)
            pooled = [float(r[m]) for rs in seeds.values() for r in rs
                      if r.get("reachable", True) and r.get(m) is not None]
            row[(label, "pooled")] = values_cell(pooled, spec is not None and spec.binary)
        cells[(agent,)] = row
    cols = [("seeds", ""), *[(METRIC_NAMES[m], w) for m in metrics for w in (SD_COL, "pooled")]]
    return _table(key, title, _frame(cells, ["agent"], ["metric", ""], cols),
                  "mean ± sd: over the per-seed means (n = seeds); pooled: every episode of "
                  "every seed as one sample (n = episodes), which treats repeated episodes as "
                  "independent.")
