"""The report in one section per task: which tables apply, how to read them, what was excluded.

Rows of every run are split by the dataset task the run evaluated (``run_task``, else the
episode's ``task``): a conditional run and its oracle-linear probe (``conditional_oracle``) are
never pooled, nor an agent's ObjectNav and route runs. Within a section a run is named by its
agent. Tables appear only where they apply: CondVLN Tables 2–3, branch confusion and the gaps
only in conditional sections (and only for runs that saw conditional episodes); NavVerse task ×
scene kind, stages and safety where the episodes are NavVerse tasks or have the fields. Every
table carries a one-line "how to read" and the count of episodes excluded as unreachable.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from navbench.episodes.task_spec import TASK_SPECS, tasks_of
from navbench.metrics.spec import METRICS
from navbench.report import tables as T
from navbench.report.tables import Row, RowsByRun, Table

CONDITIONAL_TASKS = tasks_of("condvln")
NAVVERSE_TASKS = tasks_of("navverse")
TASK_TITLES = {t.name: t.title for t in TASK_SPECS}
#: One line per table key: how to read it.
HOW_TO_READ = {
    "overall": "one row per run; each cell is the mean over the run's reachable episodes that "
               "define the metric, with that count in brackets; 'crashed' episodes (the agent's "
               "process died or hung) count as failures (SR 0, SPL 0).",
    "condvln_table2": "as CondVLN Table 2: columns are scene sources; BSA/CSR count only "
                      "episodes that define them.",
    "condvln_table3": "as CondVLN Table 3: BSA and CSR per logical depth d and chain length ℓ.",
    "navverse_task_scene": "as NavVerse's main table: SR and SPL per scene kind (hybrid = "
                           "indoor-to-outdoor).",
    "navverse_safety": "NavVerse safety: higher CE explores more per metre; CR = share of "
                       "episodes with any contact; ADO in m; NSR = share of steps on preferred surfaces.",
    "termination": "how episodes ended: success as a share of all episodes, every other label "
                   "as a share of the failed ones.",
    "stages": "indoor-to-outdoor episodes only: did the robot get out, how efficiently before "
              "and after the exit, and why it failed after getting out.",
    "difficulty": "SR/SPL per third of the episodes by shortest-path length L.",
    "branch_confusion": "where conditional episodes ended: at the correct branch's goal, at "
                        "another branch's goal (a logic error), or elsewhere (a navigation error).",
    "oracle_gap": "the privileged branch oracle against each agent on the same episodes; "
                  "gap = oracle − agent.",
    "condvln_oracle_gap": "CondVLN §4: the same agent on the conditional instructions and on "
                          "their oracle-linear copies (same episodes); gap = oracle-linear − "
                          "conditional is what branch reasoning costs.",
}
PRIVILEGED_NOTE = (
    "Privileged oracles (oracle-*) follow navmesh shortest paths, which hug the clearance "
    "limit: the robot body brushes facades and door frames at the indoor-to-outdoor exit, "
    "parked cars and street furniture (real contacts, obstacle distance 0, lasting a few "
    "seconds: see 'contact time'), so CR (any contact in an episode) is high while contact "
    "time is small; and the paths cross roads outside crosswalks and unpaved ground, which "
    "are not preferred surfaces, so NSR stays below 100%.")


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


def _with_note(t: Table, rows_by_run: RowsByRun, extra: str = "") -> Table:
    how = HOW_TO_READ.get(t.key)
    un = {run: sum(not r.get("reachable", True) for r in rows) for run, rows in rows_by_run.items()}
    total = sum(un.values())
    excl = ("n excluded (unreachable goal): " + ", ".join(f"{r} {n}" for r, n in un.items() if n)
            if total else "n excluded (unreachable goal): 0")
    parts = [f"How to read: {how}" if how else "", t.note, excl if not t.skipped else "", extra]
    return dataclasses.replace(t, note=" ".join(_sentence(p) for p in parts if p.strip()))


def _sentence(s: str) -> str:
    s = s.strip()
    return s if s.endswith((".", ":", "!", "?")) else s + "."


def _label(row: Row) -> str:
    return str(row.get("termination") or row.get("label") or "")


def overall_for_task(rows_by_run: RowsByRun, task: str) -> Table:
    """Overall table of one task: the metrics that apply to it, plus episodes, excluded
    (unreachable) and crashed (``agent_crash``: counted as failures in the means)."""
    keys = [s.key for s in METRICS if s.group not in ("length", "stage") and s.applies(task)]
    t = T._metric_table(rows_by_run, "overall", "Overall results per run", None, keys, "", False,
                        "Means over reachable episodes; n = episodes defining the metric.")
    assert t.values is not None and t.counts is not None
    v, c = t.values.copy(), t.counts.copy()
    n_ep = [len(rows_by_run[r]) for r in v.index]
    n_un = [sum(not x.get("reachable", True) for x in rows_by_run[r]) for r in v.index]
    # episodes whose agent process died: failures in every mean (SR 0, SPL 0), counted here
    n_cr = [sum(_label(x) == "agent_crash" for x in rows_by_run[r]) for r in v.index]
    v.insert(0, "crashed", np.array(n_cr, float))
    c.insert(0, "crashed", n_cr)
    v.insert(0, "excluded", np.array(n_un, float))
    c.insert(0, "excluded", n_un)
    v.insert(0, "episodes", np.array(n_ep, float))
    c.insert(0, "episodes", n_ep)
    return dataclasses.replace(t, values=v, counts=c)


def condvln_oracle_gap_table(cond: RowsByRun, linear: RowsByRun,
                             metrics: Sequence[str] = ("success", "spl", "bsa", "csr")) -> Table:
    """The same agent on conditional and oracle-linear episodes, paired by episode id."""
    key, title = "condvln_oracle_gap", "CondVLN oracle gap: conditional vs oracle-linear instructions"
    def base(r: Row) -> str:  # mixed-task reports prefix ids with the task (report.build)
        return str(r.get("episode_id")).removeprefix(f"{r.get('run_task')}-")

    agents = [a for a in cond if a in linear]
    if not agents:
        return T._skip(key, title, "no agent ran both the conditional and the oracle-linear "
                       "(conditional_oracle) episodes")
    cells: T.Cells = {}
    for a in agents:
        lin = {base(r): r for r in linear[a] if r.get("reachable", True)}
        row: dict[tuple[str, ...], tuple[float, int]] = {}
        for m in metrics:
            pairs = [(r, lin[base(r)]) for r in cond[a] if r.get("reachable", True)
                     and base(r) in lin and r.get(m) is not None and lin[base(r)].get(m) is not None]
            mc, n = T._mean([p for p, _ in pairs], m)
            ml, _ = T._mean([q for _, q in pairs], m)
            name = T.METRIC_NAMES[m]
            row.update({(name, "conditional"): (mc, n), (name, "oracle-linear"): (ml, n),
                        (name, "gap"): (ml - mc if n else np.nan, n)})
        cells[(a,)] = row
    cols = [(T.METRIC_NAMES[m], w) for m in metrics for w in ("conditional", "oracle-linear", "gap")]
    v, counts = T._frame(cells, ["run"], ["metric", ""], cols)
    return Table(key, title, v, counts, "Means over the episodes both runs ran and define.")


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
            gap = T.oracle_gap_table(cond, oracle)
            if not gap.skipped:  # only where the oracle run took part
                out.append(gap)
            if linear:
                out.append(condvln_oracle_gap_table(cond, _only_conditional(linear)))
    if task in NAVVERSE_TASKS or (task not in CONDITIONAL_TASKS and T._has(rows_by_run, "scene_kind")):
        out.append(T.task_scene_table(rows_by_run))
    priv = any("oracle" in r for r in rows_by_run)
    out.append(T.safety_table(rows_by_run))
    if T._has(rows_by_run, "reached_outdoor"):
        out.append(T.stage_table(rows_by_run))
    out += [T.termination_table(rows_by_run), T.difficulty_table(rows_by_run)]
    return [_with_note(t, rows_by_run, PRIVILEGED_NOTE if (priv and t.key == "navverse_safety") else "")
            for t in out if not (t.skipped and t.key in ("stages", "difficulty"))]


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
