"""Report tables against values computed by hand from small hand-made rows."""

from __future__ import annotations

import math

import numpy as np
import pytest

from navbench.report.build import stage_fields, with_episode_fields
from navbench.report.paired import oracle_gap_table
from navbench.report.tables import (
    Table,
    branch_confusion_table,
    condvln_sources_table,
    condvln_sweep_table,
    difficulty_table,
    overall_table,
    stage_table,
    task_scene_table,
    termination_table,
)
from tests.conftest import two_room_scene


def _row(eid: str, **kw: object) -> dict[str, object]:
    return {"episode_id": eid, **kw}


def cell(t: Table, index: object, col: object) -> tuple[float, int]:
    return float(t.values.loc[index, col]), int(t.counts.loc[index, col])


def test_condvln_table2_per_source_by_hand() -> None:
    rows = {
        "a": [_row("1", source="thor", success=1.0, spl=0.5, bsa=1.0, csr=1.0),
              _row("2", source="thor", success=0.0, spl=0.0, bsa=0.5, csr=0.0),
              _row("3", source="mp3d", success=0.0, spl=0.0, bsa=None, csr=None),
              _row("4", source="mp3d", success=1.0, spl=0.25, bsa=1.0, csr=1.0, reachable=False)],
    }
    t = condvln_sources_table(rows)
    assert list(t.values.columns.get_level_values(0).unique()) == ["mp3d", "thor", "all"]
    assert cell(t, "a", ("thor", "SR")) == (0.5, 2)
    assert cell(t, "a", ("thor", "SPL")) == (0.25, 2)
    assert cell(t, "a", ("thor", "BSA")) == (0.75, 2)
    assert cell(t, "a", ("thor", "CSR")) == (0.5, 2)
    # episode 3 failed without subgoals (excluded from BSA); episode 4 unreachable (excluded)
    assert cell(t, "a", ("mp3d", "SR")) == (0.0, 1)
    v, n = cell(t, "a", ("mp3d", "BSA"))
    assert math.isnan(v) and n == 0
    assert cell(t, "a", ("all", "SR")) == (pytest.approx(1 / 3), 3)


def test_missing_fields_skip_tables_never_zero() -> None:
    rows = {"a": [_row("1", success=1.0, spl=1.0)]}
    for fn in (condvln_sources_table, condvln_sweep_table, task_scene_table, stage_table,
               difficulty_table, branch_confusion_table):
        t = fn(rows)
        assert t.skipped and t.values is None and t.note.startswith("skipped:"), fn.__name__
    t = overall_table(rows)
    assert list(t.values.columns) == ["SR", "SPL"]  # unrecorded metrics left out, named in note
    assert "CE" in t.note and "BSA" in t.note


def test_condvln_table3_order_and_values() -> None:
    rows = {"a": [
        _row("1", depth=1, chain_length=2, bsa=0.5, csr=0.0),
        _row("2", depth=2.0, chain_length=2.0, bsa=1.0, csr=1.0),
        _row("3", depth=3, chain_length=1, bsa=1 / 3, csr=0.0),
        _row("4", depth=1, chain_length=1, bsa=1.0, csr=1.0),
        _row("5", depth=1, chain_length=1, bsa=0.0, csr=0.0),
        _row("6", depth=2, chain_length=1, bsa=0.5, csr=0.0),
        _row("7", bsa=1.0, csr=1.0),  # no depth: left out
    ]}
    t = condvln_sweep_table(rows)
    cfgs = list(dict.fromkeys(t.values.columns.get_level_values(0)))
    assert cfgs == ["d=1,ℓ=1", "d=2,ℓ=1", "d=3,ℓ=1", "d=1,ℓ=2", "d=2,ℓ=2"]
    assert cell(t, "a", ("d=1,ℓ=1", "BSA")) == (0.5, 2)
    assert cell(t, "a", ("d=1,ℓ=1", "CSR")) == (0.5, 2)
    assert cell(t, "a", ("d=3,ℓ=1", "BSA")) == (pytest.approx(1 / 3), 1)


def test_task_scene_table() -> None:
    rows = {"a": [_row("1", task="objectnav", scene_kind="indoor", success=1.0, spl=0.8),
                  _row("2", task="objectnav", scene_kind="hybrid", success=0.0, spl=0.0),
                  _row("3", task="objectnav", scene_kind="hybrid", success=1.0, spl=0.5)],
            "b": [_row("1", task="objectnav", scene_kind="indoor", success=0.0, spl=0.0)]}
    t = task_scene_table(rows)
    assert cell(t, "a", ("objectnav · hybrid", "SR")) == (0.5, 2)
    assert cell(t, "a", ("objectnav · hybrid", "SPL")) == (0.25, 2)
    v, n = cell(t, "b", ("objectnav · hybrid", "SR"))  # run b has no hybrid episode
    assert math.isnan(v) and n == 0


def test_termination_shares_by_hand() -> None:
    labels = ["success", "timeout", "timeout", "fall"]
    rows = {"a": [_row(str(i), termination=lab, task="vln", scene_kind="outdoor")
                  for i, lab in enumerate(labels)]}
    t = termination_table(rows)
    idx = ("a", "vln · outdoor")
    assert cell(t, idx, "episodes") == (4.0, 4)
    assert cell(t, idx, "success") == (0.25, 1)  # of all episodes
    assert cell(t, idx, "timeout") == (pytest.approx(2 / 3), 2)  # of the 3 failures
    assert cell(t, idx, "fall") == (pytest.approx(1 / 3), 1)


def test_difficulty_tertiles_shared_thresholds() -> None:
    # L = 1..6: numpy linear quantiles 1/3 → 2.667, 2/3 → 4.333 (by hand: 1 + 5/3, 1 + 10/3)
    base = [_row(str(k), task="objnav", geodesic_length=float(k), spl=0.0) for k in range(1, 7)]
    succ_a = [1, 1, 1, 0, 0, 0]
    succ_b = [0, 1, 1, 1, 1, 1]
    rows = {"a": [{**r, "success": float(s)} for r, s in zip(base, succ_a, strict=True)],
            "b": [{**r, "success": float(s)} for r, s in zip(base, succ_b, strict=True)]}
    t = difficulty_table(rows)
    assert list(dict.fromkeys(t.values.columns.get_level_values(0))) == [
        "objnav · easy", "objnav · medium", "objnav · hard"]
    assert cell(t, "a", ("objnav · easy", "SR")) == (1.0, 2)
    assert cell(t, "a", ("objnav · medium", "SR")) == (0.5, 2)
    assert cell(t, "a", ("objnav · hard", "SR")) == (0.0, 2)
    assert cell(t, "b", ("objnav · easy", "SR")) == (0.5, 2)
    assert "2.67 m / 4.33 m" in t.note


def test_branch_confusion_counts_by_hand() -> None:
    rows = {"a": [_row("1", category="chain", depth=1, branch_outcome="other_branch"),
                  _row("2", category="chain", depth=1, branch_outcome="correct"),
                  _row("3", category="simple", depth=1, branch_outcome="other_branch"),
                  _row("4", category="simple", depth=1, branch_outcome="elsewhere", reachable=False),
                  _row("5", branch_outcome="elsewhere")]}  # not conditional (no depth/category)
    t = branch_confusion_table(rows)
    assert cell(t, ("a", "all"), "other_branch") == (pytest.approx(2 / 3), 2)
    assert cell(t, ("a", "all"), "elsewhere") == (0.0, 0)
    assert cell(t, ("a", "chain"), "correct") == (0.5, 1)


def test_oracle_gap_paired_by_hand() -> None:
    rows = {
        "agent": [_row("1", success=0.0, spl=0.0), _row("2", success=1.0, spl=0.5),
                  _row("3", success=1.0, spl=1.0)],  # 3 is not in the oracle run
        "Oracle-linear": [_row("1", success=1.0, spl=0.9), _row("2", success=1.0, spl=0.7)],
    }
    t = oracle_gap_table(rows, metrics=("success", "spl"))
    assert cell(t, "agent", ("SR", "agent")) == (0.5, 2)
    assert cell(t, "agent", ("SR", "oracle")) == (1.0, 2)
    assert cell(t, "agent", ("SR", "gap")) == (0.5, 2)
    assert cell(t, "agent", ("SPL", "gap")) == (pytest.approx(0.55), 2)
    assert oracle_gap_table({"a": rows["agent"], "b": rows["agent"]}).skipped
    assert oracle_gap_table(rows, oracle="nope").skipped


def test_stage_table_by_hand() -> None:
    rows = {"a": [
        _row("1", task="objnav", reached_outdoor=True, ce_before_exit=1.0, ce_after_exit=0.5,
             success=1.0, termination="success"),
        _row("2", task="objnav", reached_outdoor=True, ce_before_exit=0.8, ce_after_exit=0.3,
             success=0.0, termination="timeout"),
        _row("3", task="objnav", reached_outdoor=True, ce_before_exit=0.6, ce_after_exit=0.1,
             success=0.0, termination="perception_error", post_exit_failure="wrong_goal"),
        _row("4", task="objnav", reached_outdoor=False, ce_before_exit=0.2, success=0.0,
             termination="timeout"),
        _row("5", task="objnav", success=1.0),  # no stage fields: not counted
    ]}
    t = stage_table(rows)
    idx = ("a", "objnav")
    assert cell(t, idx, "Reached outdoor") == (0.75, 4)
    assert cell(t, idx, "CE before exit") == (pytest.approx(0.65), 4)
    assert cell(t, idx, "CE after exit") == (pytest.approx(0.3), 3)
    assert cell(t, idx, "SR") == (0.25, 4)
    assert cell(t, idx, "post-exit timeout") == (0.5, 1)
    assert cell(t, idx, "post-exit wrong_goal") == (0.5, 1)


def test_stage_fields_from_scene_and_trajectory() -> None:
    scene = two_room_scene()  # rooms cover x in [0, 8], z in [-4, 0]
    pos = np.array([[1.5, 0, -1.8], [1.5, 0, -0.5], [1.5, 0, 0.4], [1.5, 0, 1.4]])
    f = stage_fields(scene, pos, {"success": 0.0, "termination": "timeout"})
    assert f["reached_outdoor"] is True
    # before: z from -1.8 to 0.4 (2.2 m) crosses cells z=-2,-1,0 in column x=1 → 3 / 2.2
    assert f["ce_before_exit"] == pytest.approx(3 / 2.2)
    # after: z from 0.4 to 1.4 (1 m) crosses cells z=0,1 → 2 / max(1.0, ε=1.0)
    assert f["ce_after_exit"] == pytest.approx(2.0)
    assert f["post_exit_failure"] == "timeout"
    stay = stage_fields(scene, pos[:2], {"success": 0.0})
    assert stay["reached_outdoor"] is False and "ce_after_exit" not in stay
    assert stage_fields(scene, pos[2:], {}) == {}  # started outside


def test_with_episode_fields_fills_only_missing() -> None:
    from navbench.episodes import Episode, Goal

    ep = Episode("7", "s", (0, 0, 0), (0, 0, 0, 1), (Goal((1, 0, 0)),),
                 info={"navbench": {"task": "vln", "source": "procgen", "depth": 2}})
    out = with_episode_fields([_row("7", source="mine", success=1.0), _row("8")], {"7": ep})
    assert out[0]["source"] == "mine" and out[0]["task"] == "vln" and out[0]["depth"] == 2
    assert out[1] == {"episode_id": "8"}
