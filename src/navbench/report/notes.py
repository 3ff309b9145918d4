""""How to read" notes computed from the table they stand under (and its rows).

A note says what the table's columns are — only those it has — and what its numbers show: which
oracle touched obstacles and how often, which columns exist because some episode needed them,
which comparisons have p < 0.05. It is built from the same values the table shows, so it cannot
contradict them; no sentence is fixed prose about results. The note ends with the interval
methods of the table's columns and the count of episodes excluded as unreachable.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence

import numpy as np

from navbench.metrics.stats import BOOTSTRAP, PAIRED_BOOTSTRAP, holm, method_text
from navbench.report.cells import column_kind, p_text
from navbench.report.tables import ALL, P_COL, RowsByRun, Table

#: Significance level the notes use to name comparisons (p < ALPHA).
ALPHA = 0.05
#: Logical depth d and chain length ℓ of CondVLN's Table 1 taxonomy.
TAXONOMY = ((1, 1), (2, 1), (3, 1), (1, 2), (1, 3), (2, 2))


def _pct(v: float) -> str:
    """A share in percent; a share above 0 that rounds to 0.0 reads ``<0.1%``, not ``0.0%``."""
    return "<0.1%" if 0 < v < 0.0005 else f"{100 * v:.1f}%"


def _cols(t: Table) -> list[tuple[str, ...]]:
    assert t.values is not None
    return [tuple(str(x) for x in c) if isinstance(c, tuple) else (str(c),) for c in t.values.columns]


def _value(t: Table, row: object, col: object) -> tuple[float, int] | None:
    """(value, n) of a cell, ``None`` when the cell is missing or undefined."""
    assert t.values is not None and t.counts is not None
    rows: list[object] = list(t.values.index)
    cols: list[object] = list(t.values.columns)
    if row not in rows or col not in cols:
        return None
    i, j = rows.index(row), cols.index(col)
    v, n = float(t.values.to_numpy(dtype=float)[i, j]), int(t.counts.to_numpy()[i, j])
    return None if math.isnan(v) else (v, n)


def _p(p: float) -> str:
    t = p_text(p)
    return f"p {t[0]} {t[1:]}" if t.startswith("<") else f"p = {t}"


def _join(items: Sequence[str]) -> str:
    return ", ".join(items[:-1]) + (" and " if len(items) > 1 else "") + items[-1] if items else ""


def _overall(t: Table, rows: RowsByRun) -> str:
    text = ("one row per run; each cell is the mean over the run's reachable episodes that "
            "define the metric, its 95% interval in brackets and that count in parentheses")
    sr = {str(r): v for r in t.values.index if (v := _value(t, r, "SR"))} if t.values is not None else {}
    if len(sr) > 1:
        best = max(sr, key=lambda r: sr[r][0])
        worst = min(sr, key=lambda r: sr[r][0])
        text += (f". Highest SR: {best} ({_pct(sr[best][0])} of {sr[best][1]}); lowest: {worst} "
                 f"({_pct(sr[worst][0])} of {sr[worst][1]}); the paired table says which "
                 "differences are more than chance")
    crashed = {str(r): int(n) for r in rows if (n := sum(
        str(x.get("termination") or x.get("label") or "") == "agent_crash" for x in rows[r]))}
    if crashed:
        text += ("; " + _join([f"{r} lost {n} episode{'s' if n > 1 else ''}" for r, n in crashed.items()])
                 + " to agent crashes (the process died or hung), counted as failures: SR 0, SPL 0")
    return text


def _groups_text(t: Table, what: str) -> str:
    groups = list(dict.fromkeys(c[0] for c in _cols(t) if c[0] != ALL))
    return f"one column group per {what} ({_join(groups)})" + (" and all" if any(
        c[0] == ALL for c in _cols(t)) else "")


def _table2(t: Table, rows: RowsByRun) -> str:
    return "as CondVLN Table 2: " + _groups_text(t, "scene source")


def _table3(t: Table, rows: RowsByRun) -> str:
    have = list(dict.fromkeys(c[0] for c in _cols(t)))
    missing = [f"d={d},ℓ={c}" for d, c in TAXONOMY if f"d={d},ℓ={c}" not in have]
    text = f"as CondVLN Table 3: BSA and CSR per logical depth d and chain length ℓ ({_join(have)})"
    return text + (f"; no episode of {_join(missing)}" if missing else "")


def _task_scene(t: Table, rows: RowsByRun) -> str:
    return "as NavVerse's main table: SR and SPL, " + _groups_text(t, "task · scene kind") + \
        " (hybrid = indoor-to-outdoor)"


def _safety(t: Table, rows: RowsByRun) -> str:
    metrics = list(dict.fromkeys(c[-1] for c in _cols(t)))
    words = {"CE": "CE = 1 m cells crossed per metre (higher explores more per metre)",
             "CR": "CR = share of episodes with any non-ground contact",
             "contact time": "contact time = share of steps in contact",
             "ADO": "ADO = mean obstacle distance (m)",
             "NSR": "NSR = share of steps on preferred surfaces"}
    text = "NavVerse safety per scene kind: " + "; ".join(words[m] for m in metrics if m in words)
    assert t.values is not None
    facts, touched, off = [], False, False
    for run in (str(r) for r in t.values.index if "oracle" in str(r).lower()):
        cr, ct, nsr = (_value(t, run, (ALL, m)) for m in ("CR", "contact time", "NSR"))
        parts = []
        if cr is not None:
            touched |= cr[0] > 0
            parts.append("never touched an obstacle (CR 0.0%)" if cr[0] == 0 else
                         f"touched an obstacle in {_pct(cr[0])} of episodes"
                         + (f" for {_pct(ct[0])} of their steps" if ct is not None else ""))
        if nsr is not None:
            off |= nsr[0] < 1
            kinds = [c[0] for c in _cols(t) if c[-1] == "NSR" and c[0] != ALL
                     and (v := _value(t, run, c)) is not None and v[0] < 1]
            parts.append("stayed on preferred surfaces (NSR 100.0%)" if nsr[0] >= 1 else
                         f"spent {_pct(1 - nsr[0])} of its steps off preferred surfaces"
                         + (f" (in {_join(kinds)} scenes)" if kinds else ""))
        if parts:
            facts.append(f"{run} {_join(parts)}")
    if facts:
        text += ". Privileged runs: " + "; ".join(facts)
        if touched:
            text += (". An oracle follows navmesh shortest paths, which run along the clearance "
                     "limit, so its body can brush walls, door frames and parked cars")
        if off:
            text += (". An oracle below 100% NSR follows a path (navmesh shortest path or "
                     "reference path) that itself crosses ground that is not preferred")
    return text


def _termination(t: Table, rows: RowsByRun) -> str:
    labels = [c[-1] for c in _cols(t) if c[-1] != "episodes"]
    return "how episodes ended (" + _join(labels) + ")"


def _stages(t: Table, rows: RowsByRun) -> str:
    cols = [c[-1] for c in _cols(t)]
    post = [c.removeprefix("post-exit ") for c in cols if c.startswith("post-exit ")]
    text = "indoor-to-outdoor episodes only: did the robot get out, how efficiently before"
    text += " and after the exit" if "CE after exit" in cols else " the exit"
    if post:
        text += f", and why it failed after getting out ({_join(post)})"
    assert t.values is not None
    out = [str(r[0]) for r in t.values.index if (v := _value(t, r, "Reached outdoor")) and v[0] > 0]
    runs = list(dict.fromkeys(str(r[0]) for r in t.values.index))
    text += (f". {len(set(out))} of {len(runs)} runs reached outdoors in some episode"
             + (f" ({_join(sorted(set(out), key=runs.index))})" if out else ""))
    return text


def _difficulty(t: Table, rows: RowsByRun) -> str:
    return "SR/SPL per third of the episodes by shortest-path length L"


def _branch(t: Table, rows: RowsByRun) -> str:
    text = ("where conditional episodes ended: at the correct branch's goal, at another "
            "branch's goal (a logic error), or elsewhere (a navigation error)")
    assert t.values is not None
    shares = {str(r[0]): v for r in t.values.index if r[1] == ALL
              and (v := _value(t, r, "other_branch")) is not None}
    if shares:
        run = max(shares, key=lambda r: shares[r][0])
        text += (". No run stopped at another branch's goal" if shares[run][0] == 0 else
                 f". Most logic errors: {run} (other_branch in {_pct(shares[run][0])} of its "
                 "episodes)")
    return text


def _significant(t: Table, label: str) -> tuple[list[str], list[str]]:
    """Rows whose p in ``(label, "p")`` is below / not below :data:`ALPHA`."""
    assert t.values is not None
    yes: list[str] = []
    no: list[str] = []
    for r in t.values.index:
        v = _value(t, r, (label, P_COL))
        name = " vs ".join(str(x) for x in r) if isinstance(r, tuple) else str(r)
        if v is not None:
            (yes if v[0] < ALPHA else no).append(f"{name} ({_p(v[0])})")
    return yes, no


def _gap_facts(t: Table) -> str:
    labels = list(dict.fromkeys(c[0] for c in _cols(t) if c[-1] == P_COL))
    out = []
    for lab in labels[:2]:  # SR and SPL: the headline metrics
        yes, no = _significant(t, lab)
        if yes or no:
            out.append(f"{lab} gap with p < {ALPHA}: " + (_join(yes) if yes else "none")
                       + ("; not: " + _join(no) if no else ""))
    return (". " + ". ".join(out)) if out else ""


def _oracle_gap(t: Table, rows: RowsByRun) -> str:
    return ("the privileged branch oracle against each agent on the episodes both ran and "
            "define; gap = oracle − agent (positive: the oracle does better) with its paired "
            "interval and the two-sided p of the paired test") + _gap_facts(t)


def _condvln_gap(t: Table, rows: RowsByRun) -> str:
    return ("CondVLN §4: the same agent on the conditional instructions and on their "
            "oracle-linear copies (the episodes both ran and define); gap = oracle-linear − "
            "conditional is what branch reasoning costs, with its paired interval and the "
            "two-sided p of the paired test") + _gap_facts(t)


def _paired(t: Table, rows: RowsByRun) -> str:
    assert t.values is not None
    k = len(t.values)
    text = (f"every pair of runs on the episodes both ran ({k} pair{'s' if k != 1 else ''}): "
            "the mean paired difference A − B with its interval and the two-sided p of the "
            "paired test, not adjusted for the number of pairs")
    labels = list(dict.fromkeys(c[0] for c in _cols(t) if c[-1] == P_COL))
    counts = [f"{lab} {len(_significant(t, lab)[0])} of {k}" for lab in labels]
    text += f". Pairs with p < {ALPHA}: " + ", ".join(counts)
    if k > 1:
        held = []
        for lab in labels:
            ps = [v[0] for r in t.values.index if (v := _value(t, r, (lab, P_COL))) is not None]
            held.append(f"{lab} {sum(p < ALPHA for p in holm(ps))}")
        text += "; with Holm's correction over the pairs: " + ", ".join(held)
    return text


def _seeds(t: Table, rows: RowsByRun) -> str:
    assert t.values is not None
    return (f"agents that ran with several seeds ({_join([str(r) for r in t.values.index])}): "
            "mean ± sd over the per-seed means, and the pooled mean over all their episodes")


NOTES: dict[str, Callable[[Table, RowsByRun], str]] = {
    "overall": _overall, "condvln_table2": _table2, "condvln_table3": _table3,
    "navverse_task_scene": _task_scene, "navverse_safety": _safety, "termination": _termination,
    "stages": _stages, "difficulty": _difficulty, "branch_confusion": _branch,
    "oracle_gap": _oracle_gap, "condvln_oracle_gap": _condvln_gap, "paired": _paired,
    "seeds": _seeds,
}


def methods_note(t: Table) -> str:
    """How the table's intervals and p-values were computed, per column (from ``t.methods``)."""
    by: dict[str, list[str]] = {}
    for method, label in t.methods:
        by.setdefault(method, [])
        if label not in by[method]:
            by[method].append(label)
    ivs = [f"{method_text(m)} for {'the differences of ' if m == PAIRED_BOOTSTRAP else ''}"
           f"{_join(by[m])}" for m in by if m not in ("mcnemar", "sign-flip")]
    tests = [f"{method_text(m)} for {_join(by[m])}" for m in by if m in ("mcnemar", "sign-flip")]
    out = ("95% intervals: " + "; ".join(ivs) + ".") if ivs else ""
    out += (" p: " + "; ".join(tests) + ".") if tests else ""
    if _zero_width_bootstrap(t):
        out += (" A bootstrap interval of zero width means every episode had the same value, "
                "not that the mean is certain.")
    if _single_episode_means(t):
        out += " A mean over one episode has no interval (one value says nothing about the spread)."
    return out.strip()


def _single_episode_means(t: Table) -> bool:
    """Some non-count cell holds a value over n = 1 episode without an interval."""
    if t.values is None or t.counts is None or t.lo is None:
        return False
    v, n, lo = (f.to_numpy(dtype=float) for f in (t.values, t.counts, t.lo))
    kinds = [column_kind(t, c) for c in t.values.columns]
    cols = np.array([k not in ("count", "p") for k in kinds])
    return bool(((n == 1) & ~np.isnan(v) & np.isnan(lo) & cols[None, :]).any())


def _zero_width_bootstrap(t: Table) -> bool:
    """Some bootstrap cell's interval is a single point (all its values were equal)."""
    if t.lo is None or t.hi is None or not any(m in (BOOTSTRAP, PAIRED_BOOTSTRAP) for m, _ in t.methods):
        return False
    boot = {lab for m, lab in t.methods if m in (BOOTSTRAP, PAIRED_BOOTSTRAP)}
    lo, hi = t.lo.to_numpy(dtype=float), t.hi.to_numpy(dtype=float)
    for j, c in enumerate(_cols(t)):
        if (any(x in boot for x in c) and c[-1] not in ("agent", "oracle")) or c[-1] in ("gap", "A − B"):
            col = (lo[:, j] == hi[:, j]) & ~np.isnan(lo[:, j])
            if col.any():
                return True
    return False


def excluded_note(rows_by_run: RowsByRun) -> str:
    """``n excluded (unreachable goal): run k, ...`` (0 when none)."""
    un = {run: sum(not r.get("reachable", True) for r in rows) for run, rows in rows_by_run.items()}
    if not sum(un.values()):
        return "n excluded (unreachable goal): 0."
    return "n excluded (unreachable goal): " + ", ".join(f"{r} {n}" for r, n in un.items() if n) + "."


def _sentence(s: str) -> str:
    s = s.strip()
    return s if s.endswith((".", ":", "!", "?")) else s + "."


def with_note(t: Table, rows_by_run: RowsByRun) -> Table:
    """``t`` with its note: "How to read: ..." (computed), the table's own note, the interval
    methods and the unreachable count."""
    if t.skipped:
        return t
    how = NOTES.get(t.key)
    parts = [f"How to read: {how(t, rows_by_run)}" if how else "", t.note, methods_note(t),
             excluded_note(rows_by_run)]
    return dataclasses.replace(t, note=" ".join(_sentence(p) for p in parts if p.strip()))

