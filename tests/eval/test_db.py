"""Results database and trajectory encoding, checked against hand-written expectations."""

from __future__ import annotations

import contextlib
import csv
import json
import multiprocessing
import os
import sqlite3
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from navbench.errors import ConfigError, FormatError
from navbench.eval import (
    DuplicateEpisodeError,
    EpisodeResult,
    ResultsDB,
    decode_trajectory,
    encode_trajectory,
)
from navbench.eval.records import natural_key


def _res(eid: str, label: str = "success", **metrics: object) -> EpisodeResult:
    return EpisodeResult(eid, "s0", label, metrics, None, 1.25, 2.5, None, {"k": eid})


def test_natural_key_orders_digit_runs_as_numbers() -> None:
    ids = ["10", "2", "ep_12", "ep_3", "1", "b"]
    assert sorted(ids, key=natural_key) == ["1", "2", "10", "b", "ep_3", "ep_12"]


def test_trajectory_round_trip_and_bytes_are_deterministic() -> None:
    arrays = {
        "pos": np.array([[0.0, 1.5, -2.0], [3.0, 4.0, 5.0]]),
        "act": np.array([1, 2, 0], dtype=np.int8),
    }
    blob = encode_trajectory(arrays)
    assert blob == encode_trajectory(dict(reversed(list(arrays.items()))))
    back = decode_trajectory(blob)
    assert back["pos"].tolist() == [[0.0, 1.5, -2.0], [3.0, 4.0, 5.0]]
    assert back["act"].dtype == np.int8 and back["act"].tolist() == [1, 2, 0]


def test_wal_mode_run_ids_and_duplicates(tmp_path: Path) -> None:
    with ResultsDB(tmp_path) as db:
        a = db.get_or_create_run("oracle", "h1", {"split": "eval", "tau": 1.0}, 0, "v1")
        assert a == db.get_or_create_run("oracle", "h1", {"tau": 1.0, "split": "eval"}, 0, "v2")
        assert a != db.get_or_create_run("oracle", "h1", {"split": "eval", "tau": 1.0}, 1, "v1")
        assert a != db.get_or_create_run("random", "h1", {"split": "eval", "tau": 1.0}, 0, "v1")
        assert len(db.runs()) == 3
        db.add_episode(a, _res("7", spl=0.5))
        with pytest.raises(DuplicateEpisodeError, match="already has episode 7"):
            db.add_episode(a, _res("7", spl=0.9))
        assert db.rows(a)[0]["metrics"] == {"spl": 0.5}  # the first result is kept
    con = sqlite3.connect(tmp_path / "results.sqlite")
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert con.execute("SELECT COUNT(*) FROM episodes").fetchone()[0] == 1


def test_rows_sorted_naturally_with_trajectory_and_null_metric(tmp_path: Path) -> None:
    with ResultsDB(tmp_path / "r.sqlite") as db:
        rid = db.get_or_create_run("a", "h", {}, 0, "v")
        for eid in ["10", "2", "1"]:
            db.add_episode(rid, _res(eid, spl=float(eid) / 10))
        db.add_episode(rid, EpisodeResult("3", "s1", "agent_error", {"spl": float("nan")}, "boom",
                                          0.1, 0.0, {"p": np.ones((2, 3))}, {}))  # fmt: skip
        rows = db.rows(rid)
        assert [r["episode_id"] for r in rows] == ["1", "2", "3", "10"]
        assert rows[2]["metrics"] == {"spl": None} and rows[2]["error"] == "boom"
        assert db.trajectory(rid, "3")["p"].tolist() == [[1.0] * 3] * 2
        assert db.trajectory(rid, "1") is None
        assert db.finished_episode_ids(rid) == {"1", "2", "3", "10"}


def test_export_csv_json_parquet(tmp_path: Path) -> None:
    with ResultsDB(tmp_path) as db:
        rid = db.get_or_create_run("a", "h", {"split": "eval"}, 3, "v")
        db.add_episode(rid, _res("2", "success", spl=0.25, success=True))
        db.add_episode(rid, EpisodeResult("1", "s0", "agent_error", {"label": 4}, "oops", 0.5, 0.0))
        db.export(rid, "csv", tmp_path / "a.csv", timings=False)
        fr = db.get_or_create_run("b", "h", {"split": "eval", "task": "conditional_oracle"}, 3, "v")
        db.add_episode(fr, EpisodeResult("1", "s0", "success", {"success": 1.0}, None, 0.1, 1.0, None, {
            "fields": {"task": "conditional", "scene_kind": "indoor", "category": "chain", "depth": 1,
                       "chain_length": 2}}))
        db.export(fr, "csv", tmp_path / "f.csv", timings=False)
        db.export(rid, "csv", tmp_path / "b.csv")
        db.export(rid, "json", tmp_path / "a.json", timings=False)
        db.export(rid, "parquet", tmp_path / "a.parquet")
        with pytest.raises(ConfigError, match="--format"):
            db.export(rid, "xml", tmp_path / "a.xml")
    assert (tmp_path / "a.csv").read_text() == (
        "run_id,episode_id,scene_id,label,error,task,scene_kind,category,depth,chain_length,"
        "metric_label,spl,success,sim_time_s,extra\n"
        f"{rid},1,s0,agent_error,oops,,,,,,4,,,0.0,{{}}\n"
        f'{rid},2,s0,success,,,,,,,,0.25,True,2.5,"{{""k"": ""2""}}"\n'
    )
    with open(tmp_path / "f.csv") as f:  # the run's task (the oracle-linear copy) wins
        row = next(csv.DictReader(f))
    assert [row[k] for k in ("task", "scene_kind", "category", "depth", "chain_length")] == [
        "conditional_oracle", "indoor", "chain", "1", "2"]
    with open(tmp_path / "b.csv") as f:
        rows = list(csv.DictReader(f))
    assert [r["wall_time_s"] for r in rows] == ["0.5", "1.25"]
    doc = json.loads((tmp_path / "a.json").read_text())
    assert doc["run"] == {"run_id": rid, "agent": "a", "dataset_hash": "h", "settings": {"split": "eval"},
                          "code_version": "v", "seed": 3}  # fmt: skip
    assert [e["episode_id"] for e in doc["episodes"]] == ["1", "2"]
    assert doc["episodes"][1]["metrics"] == {"spl": 0.25, "success": True}
    assert "wall_time_s" not in doc["episodes"][0]
    pq = pytest.importorskip("pyarrow.parquet")
    t = pq.read_table(tmp_path / "a.parquet").to_pydict()
    assert (
        t["episode_id"] == ["1", "2"] and t["spl"] == [None, 0.25] and t["success"] == [None, True]
    )
    assert t["metric_label"] == [4, None] and t["wall_time_s"] == [0.5, 1.25]


def test_bad_files_are_reported(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no results database"):
        ResultsDB(tmp_path / "missing", create=False)
    (tmp_path / "junk.sqlite").write_text("not a database at all" * 10)
    with pytest.raises(FormatError, match=r"junk\.sqlite"):
        ResultsDB(tmp_path / "junk.sqlite")
    con = sqlite3.connect(tmp_path / "other.sqlite")
    con.execute("CREATE TABLE t (x)")
    con.commit()
    con.close()
    with pytest.raises(FormatError, match="navbench_meta"):
        ResultsDB(tmp_path / "other.sqlite")
    with ResultsDB(tmp_path) as db:
        rid = db.get_or_create_run("a", "h", {}, 0, "v")
        with pytest.raises(ValueError, match="extra is not JSON-able"):
            db.add_episode(
                rid, EpisodeResult("1", "s", "success", {}, None, 0, 0, None, {"x": object()})
            )
        assert db.finished_episode_ids(rid) == set()  # nothing half-written
        with pytest.raises(ConfigError, match="--run-id"):
            db.resolve_run("nope")


def test_a_reader_needs_no_lock_while_a_writer_holds_the_database(tmp_path: Path) -> None:
    """`navbench results` beside a running evaluate: opening to read takes no write lock, so
    it returns at once while another connection holds the write lock (a reader that wrote
    its schema row waited out the 30 s busy timeout, then failed)."""
    with ResultsDB(tmp_path) as db:
        db.get_or_create_run("a", "h", {}, 0, "v")
    hold = sqlite3.connect(tmp_path / "results.sqlite", isolation_level=None)
    hold.execute("BEGIN IMMEDIATE")  # the write lock, as a runner committing an episode
    try:
        t0 = time.monotonic()
        with ResultsDB(tmp_path, create=False) as r:
            assert [run["agent"] for run in r.runs()] == ["a"]
        assert time.monotonic() - t0 < 5.0
    finally:
        hold.execute("ROLLBACK")
        hold.close()


def _poll_open(db: str, ready: Any, stop: Any) -> None:
    ready.set()
    while not stop.is_set():
        if os.path.isfile(db):
            with contextlib.suppress(ConfigError, FormatError):
                ResultsDB(db, create=False).close()


def test_a_new_database_is_created_whole_under_a_polling_reader(tmp_path: Path) -> None:
    """A reader polling for the file (as `results show` or a test harness does) while the
    run creates it: before creation was atomic, ~1 creation in 10 failed with "database is
    locked" (19 of 200 measured); the reader also never sees a file without the schema."""
    ctx = multiprocessing.get_context("spawn")
    for i in range(30):
        path = tmp_path / f"r{i}" / "results.sqlite"
        ready, stop = ctx.Event(), ctx.Event()
        reader = ctx.Process(target=_poll_open, args=(str(path), ready, stop))
        reader.start()
        try:
            assert ready.wait(60)
            with ResultsDB(path) as db:
                db.get_or_create_run("a", "h", {}, 0, "v")
            with sqlite3.connect(path) as con:  # the schema went in with the file
                assert con.execute("SELECT value FROM navbench_meta").fetchall() == [
                    ("navbench.results/1",)
                ]
        finally:
            stop.set()
            reader.join(10)
        assert reader.exitcode == 0  # the reader met no error it did not expect
        assert sorted(p.name for p in path.parent.iterdir() if p.name.endswith(".tmp")) == []
