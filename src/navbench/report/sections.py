"""The report in one section per task: which tables apply, how to read them, what was excluded.

Rows of every run are split by the dataset task the run evaluated (``run_task``, else the
episode's ``task``): a conditional run and its oracle-linear probe (``conditional_oracle``) are
never pooled, nor an agent's ObjectNav and route runs. Within a section a run is named by its
agent. Tables appear only where they apply: CondVLN Tables 2–3, branch confusion and the gaps
only in conditional sections (and only for runs that saw conditional episodes); NavVerse task ×
scene kind, stages and safety where the episodes are NavVerse tasks or have the fields; paired
comparisons between runs where a section has two runs; spread over seeds where an agent ran
with several. Every table carries a "how to read" computed from its values
(:mod:`navbench.report.notes`), its interval methods and the count of episodes excluded as
unreachable.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from navbench.episodes.task_spec import TASK_SPECS, tasks_of
from navbench.metrics.spec import BY_KEY, METRICS
from navbench.report import paired as P
from navbench.report import tables as T
from navbench.report.notes import with_note
from navbench.report.tables import Row, RowsByRun, Table

CONDITIONAL_TASKS = tasks_of("condvln")
NAVVERSE_TASKS = tasks_of("navverse")
TASK_TITLES = {t.name: t.title for t in TASK_SPECS}
@dataclass(frozen=True, eq=False)
class Section:
    """One task's part of the report: ``task``, ``title``, ``rows_by_run`` and its ``tables``."""

    task: str
    title: str
    rows_by_run: dict[str, list[Row]]
    tables: list[Table]


def task_of(row: Row) -> str:
    """The dataset task of a row: the run's task folder, else the episode's ``task``."""
    return str(row.get("run_task") or row.get("task") or "n/a")


def split_by_task(rows_by_run: RowsByRun) -> dict[str, dict[str, list[Row]]]:
    """``{task: {run: rows}}``, tasks in :data:`TASK_TITLES` order; a run name's trailing
    ``" · <task>"`` is dropped inside its task's section."""
    out: dict[str, dict[str, list[Row]]] = {}
    for run, rows in rows_by_run.items():
        for r in rows:
            t = task_of(r)
            name = re.sub(rf" · {re.escape(t)}$", "", run)
            out.setdefault(t, {}).setdefault(name, []).append({**r, "task": t})
    order = list(TASK_TITLES)
    return {t: out[t] for t in sorted(out, key=lambda t: (order.index(t) if t in order else 99, t))}


def overall_for_task(rows_by_run: RowsByRun, task: str) -> Table:
    """Overall table of one task: the metrics that apply to it, plus episodes, excluded
    (unreachable) and crashed (``agent_crash``: counted as failures in the means)."""
    keys = [s.key for s in METRICS if s.group not in ("length", "stage") and s.applies(task)]
    t = T._metric_table(rows_by_run, "overall", "Overall results per run", None, keys, "", False, "")
    assert t.values is not None
    runs = [str(r) for r in t.values.index]
    # episodes whose agent process died: failures in every mean (SR 0, SPL 0), counted here
    t = t.insert_count("crashed", [sum(str(x.get("termination") or x.get("label") or "") == "agent_crash"
                                       for x in rows_by_run[r]) for r in runs])
    t = t.insert_count("excluded", [sum(not x.get("reachable", True) for x in rows_by_run[r])
                                    for r in runs])
    return t.insert_count("episodes", [len(rows_by_run[r]) for r in runs])


def _only_conditional(rows_by_run: RowsByRun) -> dict[str, list[Row]]:
    """Runs that saw at least one conditional episode (a ``branch_outcome`` and BSA/CSR or
    a conditional field), with only those episodes."""
    out = {}
    for run, rows in rows_by_run.items():
        rs = [r for r in rows if r.get("depth") is not None or r.get("bsa") is not None
              or r.get("category") is not None]
        if rs:
            out[run] = rs
    return out


def task_tables(task: str, rows_by_run: RowsByRun, *, oracle: str | None = None,
                linear: RowsByRun | None = None) -> list[Table]:
    """The tables of one task section, in report order (see the module docstring)."""
    out = [overall_for_task(rows_by_run, task)]
    if task in CONDITIONAL_TASKS:
        cond = _only_conditional(rows_by_run)
        if cond:
            out += [T.condvln_sources_table(cond), T.condvln_sweep_table(cond),
                    T.branch_confusion_table(cond)]
            gap = P.oracle_gap_table(cond, oracle)
            if not gap.skipped:  # only where the oracle run took part
                out.append(gap)
            if linear:
                out.append(P.condvln_oracle_gap_table(cond, _only_conditional(linear)))
    if task in NAVVERSE_TASKS or (task not in CONDITIONAL_TASKS and T._has(rows_by_run, "scene_kind")):
        out.append(T.task_scene_table(rows_by_run))
    out.append(T.safety_table(rows_by_run))
    if T._has(rows_by_run, "reached_outdoor"):
        out.append(T.stage_table(rows_by_run))
    out += [T.termination_table(rows_by_run), T.difficulty_table(rows_by_run)]
    paired = [P.agent_pairs_table(rows_by_run, _paired_metrics(task)), P.seeds_table(rows_by_run)]
    out += [t for t in paired if not t.skipped]
    return [with_note(t, rows_by_run) for t in out
            if not (t.skipped and t.key in ("stages", "difficulty"))]


def _paired_metrics(task: str) -> list[str]:
    return [m for m in P.PAIRED_METRICS if BY_KEY[m].applies(task)]


def report_sections(rows_by_run: RowsByRun, oracle: str | None = None) -> list[Section]:
    """Every task section of the report; a task ``derived_from`` another (the oracle-linear
    probe) is compared with its base task in the base task's section."""
    by_task = split_by_task(rows_by_run)
    derived = {t.derived_from: t.name for t in TASK_SPECS if t.derived_from}
    return [Section(task, TASK_TITLES.get(task, task), runs,
                    task_tables(task, runs, oracle=oracle,
                                linear=by_task.get(derived[task]) if task in derived else None))
            for task, runs in by_task.items()]


def section_rows(sections: Sequence[Section]) -> Mapping[str, Mapping[str, list[Row]]]:
    """``{task: rows_by_run}`` of the sections (for the figures)."""
    return {s.task: s.rows_by_run for s in sections}
