"""``navbench results repair RUN``: salvage a damaged results database.

:func:`repair` copies every readable run, episode and trajectory into a fresh database, keeps the
damaged file as ``results.sqlite.corrupt[-N]`` and reports what was lost; a re-run of the same
``evaluate`` command then redoes only the lost episodes (finished ones are skipped).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

from navbench.errors import ConfigError, FormatError
from navbench.eval.db import ResultsDB, resolve_db_path
from navbench.eval.db_safety import SQLRow, writer_lock
from navbench.jsontypes import JSONObject

#: Consecutive absent or unreadable rowids probed past a damaged page when the table's largest
#: rowid cannot be read either (rowids are dense: rows are only ever appended).
PROBE_LIMIT = 10_000


def _max_rowid(src: sqlite3.Connection, table: str) -> int | None:
    """The table's largest rowid, or None when the pages on the way to it are unreadable."""
    try:
        row = src.execute(f"SELECT max(rowid) FROM {table}").fetchone()
    except sqlite3.DatabaseError:
        return None
    return int(row[0]) if row and row[0] is not None else 0


def _copy_rows(src: sqlite3.Connection, dst: sqlite3.Connection, table: str,
               keep: Callable[[SQLRow], bool] = lambda r: True) -> tuple[int, int, bool]:
    """Copy every readable row of ``table``: ``(rows copied, rows known lost, whole table read)``.

    A rowid-ordered scan stops at the first damaged page; the rows behind it are still reachable
    through the b-tree, so the scan resumes after probing rowids one at a time (a lookup reads
    only the pages on the way to that row) until one is readable again. Rows "known lost" are
    unreadable rowids below a readable one or below the table's largest rowid; when that is
    unreadable too, the unreadable tail is not counted (``whole table read`` is False)."""
    copied = lost = 0
    last, ok = 0, True
    hi = _max_rowid(src, table)

    def put(row: SQLRow) -> None:
        nonlocal copied
        if keep(row):
            marks = ",".join("?" * len(row))
            with contextlib.suppress(sqlite3.IntegrityError):
                dst.execute(f"INSERT INTO {table} VALUES ({marks})", row)
                copied += 1

    while True:
        try:
            for row in src.execute(f"SELECT rowid, * FROM {table} WHERE rowid > ? ORDER BY rowid", (last,)):
                last = int(row[0])
                put(tuple(row[1:]))
            return copied, lost, ok and hi is not None
        except sqlite3.DatabaseError:
            ok = False
        misses = failed = 0
        r = last + 1
        while (r <= hi) if hi is not None else (misses < PROBE_LIMIT):
            try:
                row = src.execute(f"SELECT rowid, * FROM {table} WHERE rowid = ?", (r,)).fetchone()
            except sqlite3.DatabaseError:
                row, failed = None, failed + 1
            if row is not None:
                break
            misses, r = misses + 1, r + 1
        else:  # nothing readable behind the damage
            return copied, lost + (failed if hi is not None else 0), False
        lost += failed
        put(tuple(row[1:]))
        last = r


#: The first 16 bytes of every SQLite 3 database file.
SQLITE_MAGIC = b"SQLite format 3\x00"


def repair(run: str | Path) -> JSONObject:
    """Salvage a damaged results database (see the module docs).

    Returns ``{"path", "backup", "runs", "episodes", "trajectories", "unreadable", "complete"}``:
    rows kept per table, the number of rows known to be unreadable, and ``complete``, False when
    some rows could not be read (they are lost; a re-run of ``evaluate`` redoes those episodes).
    Every readable row is kept, also those behind a damaged page.

    Raises:
        ConfigError: no database there, or another process is writing it.
        FormatError: the file is not an SQLite database at all (nothing is written).
    """
    path = resolve_db_path(run)
    if not path.is_file():
        raise ConfigError(f"{path}: no results database here")
    with open(path, "rb") as f:
        head = f.read(16)
    if head != SQLITE_MAGIC:  # nothing to salvage, and nothing may be written beside it
        what = "an empty file" if not head else "a file that is not SQLite at all"
        raise FormatError(path, "<file>", "an SQLite results database (a run folder's "
                          "results.sqlite)", what)
    with writer_lock(path):
        tmp = path.with_name(f".repair-{path.stem}.sqlite")
        for p in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
            with contextlib.suppress(FileNotFoundError):
                p.unlink()
        ResultsDB(tmp).close()  # the schema
        src = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        dst = sqlite3.connect(tmp, isolation_level=None)
        try:
            dst.execute("BEGIN")
            runs, bad1, ok1 = _copy_rows(src, dst, "runs")
            known = {r[0] for r in dst.execute("SELECT run_id FROM runs")}
            eps, bad2, ok2 = _copy_rows(src, dst, "episodes", lambda r: r[0] in known)
            kept = {(r[0], r[1]) for r in dst.execute("SELECT run_id, episode_id FROM episodes")}
            trajs, bad3, ok3 = _copy_rows(src, dst, "trajectories", lambda r: (r[0], r[1]) in kept)
            dst.execute("COMMIT")
        finally:
            src.close()
            dst.close()
        backup = path.with_name(path.name + ".corrupt")
        k = 1
        while backup.exists():
            k += 1
            backup = path.with_name(f"{path.name}.corrupt-{k}")
        os.replace(path, backup)
        for suffix in ("-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                os.replace(f"{path}{suffix}", f"{backup}{suffix}")
        os.replace(tmp, path)
    return {"path": str(path), "backup": str(backup), "runs": runs, "episodes": eps,
            "trajectories": trajs, "unreadable": bad1 + bad2 + bad3, "complete": ok1 and ok2 and ok3}
