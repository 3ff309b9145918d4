"""Report sections: tasks never pooled, tables only where they apply, the CondVLN oracle gap."""

from __future__ import annotations

import math

from navbench.report.html import table_csv
from navbench.report.paired import condvln_oracle_gap_table
from navbench.report.sections import report_sections, split_by_task


def _row(eid: str, task: str, s: float, **kw) -> dict:
    return {"episode_id": eid, "run_task": task, "task": "conditional" if task.startswith("cond") else task,
            "success": s, "spl": s, "reachable": True, "scene_kind": "indoor", **kw}


def test_tasks_are_never_pooled_and_names_lose_the_task_suffix() -> None:
    rows = {"oracle-path · conditional": [_row("1", "conditional", 1.0, depth=1, category="simple")],
            "oracle-path · objectnav": [_row("1", "objectnav", 0.0), _row("2", "objectnav", 1.0)],
            "sg · conditional": [_row("1", "conditional", 0.0, depth=1, category="simple")],
            "sg · conditional_oracle": [_row("1", "conditional_oracle", 1.0, depth=1, category="simple")]}
    by = split_by_task(rows)
    assert list(by) == ["conditional", "conditional_oracle", "objectnav"]
    assert set(by["conditional"]) == {"oracle-path", "sg"} and set(by["objectnav"]) == {"oracle-path"}
    assert len(by["objectnav"]["oracle-path"]) == 2
    secs = {s.task: s for s in report_sections(rows)}
    keys = {t: [x.key for x in s.tables] for t, s in secs.items()}
    # CondVLN tables only in the conditional sections; BSA is no ObjectNav column
    assert "condvln_table2" not in keys["objectnav"] and "branch_confusion" not in keys["objectnav"]
    assert "condvln_oracle_gap" in keys["conditional"] and "condvln_oracle_gap" not in keys["conditional_oracle"]
    overall = table_csv(secs["objectnav"].tables[0])
    assert overall.splitlines()[0].startswith("run,episodes,episodes n,excluded,excluded n,crashed,crashed n,SR,SR n")
    assert "BSA" not in overall and "oracle-path,2,2,0,0,0,0,0.5,2" in overall  # counts as integers
    assert all(t.note.startswith("How to read:") and "n excluded" in t.note
               for t in secs["objectnav"].tables if not t.skipped)


def test_condvln_oracle_gap_by_hand() -> None:
    # sg: conditional SR 1/3 over ids 1..3; oracle-linear SR 1 on 1, 2 and an unpaired id 9.
    cond = {"sg": [_row(str(i), "conditional", s) for i, s in ((1, 1.0), (2, 0.0), (3, 0.0))]}
    lin = {"sg": [_row("conditional_oracle-1", "conditional_oracle", 1.0),
                  _row("conditional_oracle-2", "conditional_oracle", 1.0),
                  _row("conditional_oracle-9", "conditional_oracle", 0.0)]}
    t = condvln_oracle_gap_table(cond, lin, metrics=("success",))
    assert t.values is not None and t.counts is not None
    # paired on ids 1, 2 (task prefixes dropped): conditional 0.5, oracle-linear 1.0, gap 0.5;
    # McNemar: one discordant pair (b = 0, c = 1) → p = min(1, 2 · 1/2) = 1
    assert list(t.values.iloc[0]) == [0.5, 1.0, 0.5, 1.0] and list(t.counts.iloc[0]) == [2, 2, 2, 2]
    assert condvln_oracle_gap_table(cond, {"other": lin["sg"]}).skipped


def test_unreachable_episodes_are_counted_in_every_table() -> None:
    rows = {"a": [_row("1", "objectnav", 1.0), {**_row("2", "objectnav", math.nan), "reachable": False,
                                                "success": None, "spl": None}]}
    sec = report_sections(rows)[0]
    overall = table_csv(sec.tables[0]).splitlines()
    assert overall[1].startswith("a,2,2,1,1,0,0,1.0,1")  # 2 episodes, 1 excluded, 0 crashed, SR 1.0 over 1
    assert all("n excluded (unreachable goal): a 1" in t.note for t in sec.tables if not t.skipped)


def test_task_table_gives_the_dataset_constants() -> None:
    """The dataset's task lists come from TASK_SPECS: the five built-in tasks, by hand."""
    from navbench.episodes import dataset

    assert dataset.TASKS == ("conditional", "objectnav", "placenav", "route")
    assert dataset.R2R_TASKS == ("conditional", "conditional_oracle", "route")
    assert dataset.VERIFY_TASKS == ("objectnav", "placenav", "route")
    assert set(dataset._BUILDERS) == set(dataset.TASKS)
