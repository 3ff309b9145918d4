"""``navbench.report.tables.safety_table`` (NavVerse CE / CR / ADO / NSR / SoftSPL per scene
kind) against means and counts computed by hand from hand-written rows."""

from __future__ import annotations

import math

import pytest

from navbench.report.html import table_markdown
from navbench.report.tables import Table, safety_table


def cell(t: Table, index: object, col: object) -> tuple[float, int]:
    return float(t.values.loc[index, col]), int(t.counts.loc[index, col])


def _row(eid: str, kind: str, **kw: object) -> dict[str, object]:
    return {"episode_id": eid, "scene_kind": kind, **kw}


ROWS = {
    "a": [
        _row("1", "indoor", ce=1.0, cr=1.0, ado=0.2, nsr=1.0, soft_spl=0.6),
        _row("2", "indoor", ce=3.0, cr=0.0, ado=0.4, nsr=0.0, soft_spl=0.2),
        _row("3", "outdoor", ce=2.0, cr=0.0, ado=1.0, nsr=1.0, soft_spl=0.5),
        _row("4", "outdoor", ce=0.5, cr=None, ado=None, nsr=1.0, soft_spl=0.1),  # no sim records
        _row("5", "outdoor", ce=9.0, cr=1.0, ado=9.0, nsr=0.0, soft_spl=0.9, reachable=False),
    ],
    "b": [_row("1", "indoor", ce=2.0, cr=1.0, ado=0.1, nsr=0.0, soft_spl=0.0)],
}


def test_safety_values_and_counts_by_hand() -> None:
    t = safety_table(ROWS)
    assert not t.skipped
    assert list(t.values.index) == ["a", "b"]
    assert list(dict.fromkeys(t.values.columns.get_level_values(0))) == ["indoor", "outdoor", "all"]
    assert list(dict.fromkeys(t.values.columns.get_level_values(1))) == [
        "CE", "CR", "ADO", "NSR", "SoftSPL"]
    # run a, indoor: episodes 1 and 2
    assert cell(t, "a", ("indoor", "CE")) == (2.0, 2)  # (1 + 3) / 2
    assert cell(t, "a", ("indoor", "CR")) == (0.5, 2)  # (1 + 0) / 2 = 50 %
    assert cell(t, "a", ("indoor", "ADO")) == (pytest.approx(0.3), 2)  # (0.2 + 0.4) / 2
    assert cell(t, "a", ("indoor", "NSR")) == (0.5, 2)
    assert cell(t, "a", ("indoor", "SoftSPL")) == (pytest.approx(0.4), 2)
    # run a, outdoor: episodes 3 and 4 (5 is unreachable: excluded); 4 has no CR / ADO
    assert cell(t, "a", ("outdoor", "CE")) == (1.25, 2)
    assert cell(t, "a", ("outdoor", "CR")) == (0.0, 1)
    assert cell(t, "a", ("outdoor", "ADO")) == (1.0, 1)
    assert cell(t, "a", ("outdoor", "NSR")) == (1.0, 2)
    assert cell(t, "a", ("outdoor", "SoftSPL")) == (pytest.approx(0.3), 2)
    # run a, all: episodes 1-4
    assert cell(t, "a", ("all", "CE")) == (pytest.approx(6.5 / 4), 4)
    assert cell(t, "a", ("all", "CR")) == (pytest.approx(1 / 3), 3)
    assert cell(t, "a", ("all", "ADO")) == (pytest.approx(1.6 / 3), 3)
    assert cell(t, "a", ("all", "NSR")) == (0.75, 4)
    assert cell(t, "a", ("all", "SoftSPL")) == (pytest.approx(0.35), 4)
    # run b: one indoor episode; no outdoor one → NaN with count 0, never 0.0
    for m, v in (("CE", 2.0), ("CR", 1.0), ("ADO", 0.1), ("NSR", 0.0), ("SoftSPL", 0.0)):
        assert cell(t, "b", ("indoor", m)) == (pytest.approx(v), 1)
        assert cell(t, "b", ("all", m)) == (pytest.approx(v), 1)
        val, n = cell(t, "b", ("outdoor", m))
        assert math.isnan(val) and n == 0


def test_safety_markdown_cells() -> None:
    md = table_markdown(safety_table(ROWS))
    lines = {ln.split(" | ")[0].lstrip("| "): ln for ln in md.splitlines() if ln.startswith("| ")}
    a = [c.strip() for c in lines["a"].strip("| ").split(" | ")]
    # run, then indoor CE CR ADO NSR SoftSPL, outdoor ..., all ...; CR/NSR/SoftSPL in percent.
    # Two values x < y: the bootstrap means are x, (x+y)/2, y with chances 1/4, 1/2, 1/4, so the
    # 2.5% and 97.5% quantiles are x and y. CR (binary) has Wilson intervals: 1 of 2 →
    # 0.5 ± z/(1 + z²/2)·sqrt(1/8 + z²/16) = [9.5, 90.5]; 0 of 1 → [0, z²/(1 + z²)] = [0, 79.3].
    assert a[1:6] == ["2.00 [1.00, 3.00] (2)", "50.0 [9.5, 90.5] (2)", "0.30 [0.20, 0.40] (2)",
                      "50.0 [0.0, 100.0] (2)", "40.0 [20.0, 60.0] (2)"]
    # one value: no bootstrap interval (ADO); NSR 1, 1: a zero-width interval
    assert a[6:11] == ["1.25 [0.50, 2.00] (2)", "0.0 [0.0, 79.3] (1)", "1.00 (1)",
                       "100.0 [100.0, 100.0] (2)", "30.0 [10.0, 50.0] (2)"]
    assert a[12] == "33.3 [6.1, 79.2] (3)"  # Wilson 1 of 3, by hand: 0.427 ∓ 0.365
    b = [c.strip() for c in lines["b"].strip("| ").split(" | ")]
    assert b[6:11] == ["–"] * 5


def test_safety_without_safety_fields() -> None:
    # SoftSPL alone does not make a safety table
    t = safety_table({"a": [_row("1", "indoor", soft_spl=0.5, success=1.0)]})
    assert t.skipped and t.values is None and t.note.startswith("skipped:")
    # metrics no episode records are left out and named in the note
    t = safety_table({"a": [_row("1", "indoor", ce=1.5), _row("2", "hybrid", ce=0.5)]})
    assert list(dict.fromkeys(t.values.columns.get_level_values(1))) == ["CE"]
    assert "CR" in t.note and "ADO" in t.note and "NSR" in t.note and "SoftSPL" in t.note
    assert cell(t, "a", ("hybrid", "CE")) == (0.5, 1)
    assert cell(t, "a", ("all", "CE")) == (1.0, 2)
