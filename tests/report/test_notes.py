"""How-to-read notes follow the data: flip a value, the note changes with it."""

from __future__ import annotations

from navbench.report.sections import report_sections


def _row(eid: str, kind: str, **kw: object) -> dict:
    return {"episode_id": eid, "run_task": "objectnav", "scene_kind": kind, "success": 1.0,
            "spl": 0.9, **kw}


def _notes(rows: dict) -> dict[str, str]:
    return {t.key: t.note for t in report_sections(rows)[0].tables if not t.skipped}


def test_safety_note_reads_the_oracles_cr_and_nsr() -> None:
    def rows(cr: float, nsr: float) -> dict:
        oracle = [_row(str(i), k, cr=cr, contact_share=0.02 * cr, nsr=nsr)
                  for i, k in enumerate(("indoor", "outdoor"))]
        return {"oracle-path": oracle, "random": [_row("0", "indoor", cr=1.0, nsr=1.0)]}

    calm = _notes(rows(0.0, 1.0))["navverse_safety"]
    assert "oracle-path never touched an obstacle (CR 0.0%)" in calm
    assert "stayed on preferred surfaces (NSR 100.0%)" in calm
    assert "clearance limit" not in calm and "not preferred" not in calm
    assert "random" not in calm.split("Privileged runs:")[1]  # only privileged runs are named
    rough = _notes(rows(1.0, 0.25))["navverse_safety"]
    assert "oracle-path touched an obstacle in 100.0% of episodes for 2.0% of their steps" in rough
    assert "spent 75.0% of its steps off preferred surfaces (in indoor and outdoor scenes)" in rough
    assert "clearance limit" in rough and "not preferred" in rough
    brief = {"oracle-path": [_row("0", "indoor", cr=1.0, contact_share=0.0002, nsr=1.0)]}
    assert "in 100.0% of episodes for <0.1% of their steps" in _notes(brief)["navverse_safety"]


def test_stage_note_names_only_the_columns_the_table_has() -> None:
    def rows(post_exit_failure: bool) -> dict:
        r = [_row("0", "hybrid", reached_outdoor=True, ce_before_exit=1.0, ce_after_exit=0.5,
                  success=0.0 if post_exit_failure else 1.0, termination="timeout"
                  if post_exit_failure else "success"),
             _row("1", "hybrid", reached_outdoor=False, ce_before_exit=1.2, success=0.0,
                  termination="timeout")]
        return {"agent": r}

    none = _notes(rows(False))["stages"]
    assert "why it failed after getting out" not in none and "no post-exit column" in none
    assert "1 of 1 runs reached outdoors in some episode (agent)" in none
    some = _notes(rows(True))["stages"]
    assert "why it failed after getting out (timeout)" in some and "post-exit columns" in some


def test_overall_and_gap_notes_follow_the_values() -> None:
    def rows(agent_succ: list[int]) -> dict:
        def run(succ: list[int]) -> list[dict]:
            return [{"episode_id": str(i), "run_task": "conditional", "task": "conditional",
                     "success": float(s), "spl": 0.9 * s, "depth": 1, "category": "simple",
                     "branch_outcome": "correct" if s else "other_branch"} for i, s in enumerate(succ)]
        return {"oracle-branch": run([1] * 8), "agent": run(agent_succ)}

    weak = {t.key: t.note for t in report_sections(rows([0] * 8), "oracle-branch")[0].tables}
    strong = {t.key: t.note for t in report_sections(rows([1] * 7 + [0]), "oracle-branch")[0].tables}
    assert "Highest SR: oracle-branch (100.0% of 8); lowest: agent (0.0% of 8)" in weak["overall"]
    assert "lowest: agent (87.5% of 8)" in strong["overall"]
    # 8 discordant pairs all one way: exact McNemar p = 2/2⁸; one pair: p = 1
    assert "SR gap with p < 0.05: agent (p = 0.008)" in weak["oracle_gap"]
    assert "SR gap with p < 0.05: none; not: agent (p = 1.000)" in strong["oracle_gap"]
    assert "Most logic errors: agent (other_branch in 100.0% of its episodes)" in weak["branch_confusion"]
    assert "Most logic errors: agent (other_branch in 12.5% of its episodes)" in strong["branch_confusion"]
    assert "Pairs with p < 0.05: SR 1 of 1" in weak["paired"] and "Holm" not in weak["paired"]
    assert "Pairs with p < 0.05: SR 0 of 1" in strong["paired"]


def test_notes_state_the_interval_methods_present() -> None:
    rows = {"a": [_row("0", "indoor", success=1.0, spl=0.5), _row("1", "indoor", success=0.0, spl=0.0)]}
    overall = _notes(rows)["overall"]
    assert "Wilson score interval for SR" in overall
    assert "percentile bootstrap over episodes (B = 2000, seed 0) for SPL" in overall
    assert "zero width" not in overall
    flat = {"a": [_row("0", "indoor", spl=0.5), _row("1", "indoor", spl=0.5)]}
    assert "zero width" in _notes(flat)["overall"]  # SPL 0.5, 0.5: a one-point bootstrap interval
    assert "over one episode has no interval" not in overall
    one = {"a": [_row("0", "indoor", spl=0.5)]}
    assert "over one episode has no interval" in _notes(one)["overall"]


def test_paired_note_counts_pairs_after_holm() -> None:
    def run(succ: list[int]) -> list[dict]:
        return [{"episode_id": str(i), "run_task": "objectnav", "success": float(s)}
                for i, s in enumerate(succ)]

    # (o, a) and (a, b): 6 discordant pairs all one way, exact McNemar p = 2/2⁶ = 0.031;
    # (o, b): p = 1. Holm: 3 · 0.031 = 0.094 > 0.05, so none holds
    rows = {"o": run([1] * 8), "a": run([1, 1, 0, 0, 0, 0, 0, 0]), "b": run([1] * 8)}
    note = _notes(rows)["paired"]
    assert "(3 pairs)" in note and "Pairs with p < 0.05: SR 2 of 3" in note
    assert "with Holm's correction over the pairs: SR 0" in note
