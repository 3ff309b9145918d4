"""``results repair`` on each kind of damage, made by hand on a 13-episode database: one row of
invalid metrics JSON, invalid extra JSON, an undecodable trajectory blob, unreadable run
settings, a zeroed 100-byte header, a deleted ``runs`` row; and a healthy database. Every case
ends with export (and, once, report) working and no readable row lost; a second repair and a
repair of a healthy database leave the file byte-identical."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from navbench.eval import EpisodeResult, ResultsDB
from navbench.eval.db_repair import REATTACHED_AGENT, repair
from navbench.eval.db_safety import CorruptDatabaseError
from tests.hardening.test_dataset_check import _cli

N = 13
IDS = {str(i) for i in range(N)}


def _db(run: Path) -> Path:
    """13 ObjectNav-like episodes of one run: success alternating, SPL i/20, a 5-step path each."""
    with ResultsDB(run) as db:
        rid = db.get_or_create_run("agent-a", "hash", {"task": "objectnav", "split": "val"}, 0, "v1")
        for i in range(N):
            pos = np.column_stack([np.linspace(0, i, 5), np.zeros(5), np.zeros(5)])
            db.add_episode(rid, EpisodeResult(
                str(i), "s", "success" if i % 2 else "timeout",
                {"success": float(i % 2), "spl": i / 20, "reachable": True}, None, 0.1, 2.0,
                {"positions": pos}, {"fields": {"task": "objectnav", "scene_kind": "indoor"}}))
    return run / "results.sqlite"


def _sql(statement: str) -> Callable[[Path], None]:
    def damage(db: Path) -> None:
        con = sqlite3.connect(db)
        with con:
            con.execute(statement)
        con.close()
    return damage


def _zero_header(db: Path) -> None:
    raw = bytearray(db.read_bytes())
    raw[:100] = bytes(100)
    db.write_bytes(bytes(raw))


def _sha(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


def _exported(run: Path, tmp: Path) -> dict[str, dict]:
    assert _cli(["results", "export", str(run), "-f", "json", "-o", str(tmp / "x.json")]) == 0
    doc = json.loads((tmp / "x.json").read_text())
    return {e["episode_id"]: e for e in doc["episodes"]}


CASES = {
    # damage -> (episode ids an export keeps, quarantined kinds, trajectories kept)
    "metrics": (_sql("UPDATE episodes SET metrics='{\"spl\": 0.5,' WHERE episode_id='3'"),
                IDS - {"3"}, {"episode": 1, "trajectory": 1}, N - 1),
    "extra": (_sql("UPDATE episodes SET extra='[[[' WHERE episode_id='4'"),
              IDS - {"4"}, {"episode": 1, "trajectory": 1}, N - 1),
    "text_not_utf8": (_sql("UPDATE episodes SET label=CAST(x'ff00fe' AS TEXT) WHERE episode_id='6'"),
                      IDS - {"6"}, {"episode": 1, "trajectory": 1}, N - 1),
    "blob": (_sql("UPDATE trajectories SET blob=x'deadbeef00' WHERE episode_id='5'"),
             IDS, {"trajectory": 1}, N - 1),
    "settings": (_sql("UPDATE runs SET settings='{\"task\": '"), IDS, {"run settings": 1}, N),
    "header": (_zero_header, IDS, {}, N),
    "runs_row": (_sql("DELETE FROM runs"), IDS, {}, N),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_repair_each_damage(tmp_path: Path, case: str, capsys: pytest.CaptureFixture[str]) -> None:
    damage, keep, quarantined, trajectories = CASES[case]
    run = tmp_path / "run"
    db = _db(run)
    want = _exported(run, tmp_path)
    damage(db)
    capsys.readouterr()
    # the damage stops export (the advice names repair), which then fixes it
    if case not in ("blob",):  # an undecodable blob only stops what reads trajectories
        assert _cli(["results", "export", str(run), "-o", str(tmp_path / "before.csv")]) == 2
        assert f"navbench results repair {run}" in capsys.readouterr().err
    else:
        with ResultsDB(run, create=False) as r, pytest.raises(CorruptDatabaseError, match="does not decode"):
            r.trajectory(r.resolve_run(None), "5")
    out = repair(run)
    assert out["healthy"] is False and Path(out["backup"]).is_file()
    assert out["quarantined"] == quarantined and out["episodes"] == len(keep)
    assert out["trajectories"] == trajectories and out["unreadable"] == 0 and out["complete"]
    assert out["header_rebuilt"] is (case == "header")
    got = _exported(run, tmp_path)
    assert set(got) == keep  # no readable row lost
    for eid in keep:  # and each kept row is the original, field for field
        assert got[eid]["metrics"] == want[eid]["metrics"] and got[eid]["label"] == want[eid]["label"]
    with ResultsDB(run, create=False) as r:
        rid = r.resolve_run(None)
        held = {(q["what"], q["episode_id"]) for q in r.quarantined(rid)}
        assert len(held) == sum(quarantined.values())
        for eid in keep - {"5"}:
            t = r.trajectory(rid, eid)
            assert t is not None and float(t["positions"][-1, 0]) == float(eid)
        run_row = r.runs()[0]
    if case == "runs_row":
        assert out["reattached"] == [rid] and run_row["agent"] == REATTACHED_AGENT
        assert run_row["settings"] == {"task": "objectnav"}  # read from the episodes' fields
    if case == "settings":
        assert run_row["settings"] == {}
    capsys.readouterr()
    assert _cli(["results", "show", str(run)]) == 0
    shown = capsys.readouterr().out
    assert all(f"quarantined {what} {eid or ''}" in shown for what, eid in held)
    digest = _sha(run / "results.sqlite")
    files = sorted(p.name for p in run.iterdir())
    again = repair(run)  # repaired: now healthy, left alone
    assert again["healthy"] is True and again["backup"] is None
    assert _sha(run / "results.sqlite") == digest and sorted(p.name for p in run.iterdir()) == files


def test_a_healthy_database_is_left_untouched(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = tmp_path / "run"
    db = _db(run)
    digest, files = _sha(db), sorted(p.name for p in run.iterdir())
    assert _cli(["results", "repair", str(run)]) == 0
    said = capsys.readouterr().out
    assert "healthy" in said and "unchanged" in said
    assert _sha(db) == digest and sorted(p.name for p in run.iterdir()) == files
    assert not any(p.name.startswith("results.sqlite.corrupt") for p in run.iterdir())


def test_report_after_repair_counts_the_quarantined_episode(tmp_path: Path) -> None:
    from navbench.report.build import build_report

    run = tmp_path / "run"
    _sql("UPDATE episodes SET metrics='not json' WHERE episode_id='3'")(_db(run))
    repair(run)
    build_report([run], tmp_path / "rep")
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "1 episode(s) with unreadable rows" in md and "/3" in md
    overall = (tmp_path / "rep" / "tables" / "objectnav" / "overall.md").read_text()
    row = next(line for line in overall.splitlines() if line.startswith("| agent-a"))
    assert row.split(" | ")[1] == "12"  # 13 episodes, the quarantined one left out


def test_the_next_evaluate_restores_a_rebuilt_run_row(tmp_path: Path) -> None:
    run = tmp_path / "run"
    _sql("DELETE FROM runs")(_db(run))
    repair(run)
    with ResultsDB(run) as db:  # what evaluate does when it resumes the same run
        rid = db.get_or_create_run("agent-a", "hash", {"task": "objectnav", "split": "val"}, 0, "v1")
        (r,) = db.runs()
    assert r["run_id"] == rid and r["agent"] == "agent-a" and r["code_version"] == "v1"
    assert r["settings"] == {"task": "objectnav", "split": "val"} and r["episodes"] == N


def test_a_rebuilt_header_over_damaged_pages_keeps_what_reads(tmp_path: Path) -> None:
    run = tmp_path / "run"
    db = _db(run)
    raw = bytearray(db.read_bytes())
    raw[:100] = bytes(100)
    raw[4096:] = b"\xa5" * (len(raw) - 4096)  # the schema page survives, every other page is gone
    db.write_bytes(bytes(raw))
    out = repair(run)
    assert out["header_rebuilt"] and out["episodes"] < N and not out["complete"]


def test_an_episode_evaluated_again_leaves_the_quarantine_list(tmp_path: Path) -> None:
    run = tmp_path / "run"
    _sql("UPDATE episodes SET metrics='not json' WHERE episode_id='3'")(_db(run))
    repair(run)
    with ResultsDB(run) as db:
        rid = db.resolve_run(None)
        assert {(q["what"], q["episode_id"]) for q in db.quarantined(rid)} == {("episode", "3"), ("trajectory", "3")}
        assert "3" not in db.finished_episode_ids(rid)  # so the next evaluate runs it again
        db.add_episode(rid, EpisodeResult("3", "s", "success", {"success": 1.0}, None, 0.1, 2.0,
                                          {"positions": np.zeros((2, 3))}, {}))
        assert db.quarantined(rid) == []
