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
from typing import Any

from navbench.errors import ConfigError
from navbench.eval.db import ResultsDB, resolve_db_path
from navbench.eval.db_safety import writer_lock


def _copy_rows(src: sqlite3.Connection, dst: sqlite3.Connection, table: str,
               keep: Callable[[tuple[Any, ...]], bool] = lambda r: True) -> tuple[int, bool]:
    """Copy the readable rows of ``table``; ``(rows copied, whole table read)``."""
    n = 0
    try:
        cur = src.execute(f"SELECT * FROM {table}")
        while True:
            row = cur.fetchone()
            if row is None:
                return n, True
            if keep(row):
                marks = ",".join("?" * len(row))
                with contextlib.suppress(sqlite3.IntegrityError):
                    dst.execute(f"INSERT INTO {table} VALUES ({marks})", row)
                    n += 1
    except sqlite3.DatabaseError:
        return n, False


def repair(run: str | Path) -> dict[str, Any]:
    """Salvage a damaged results database (see the module docs).

    Returns ``{"path", "backup", "runs", "episodes", "trajectories", "complete"}``;
    ``complete`` is False when some rows could not be read (they are lost and will be re-run).

    Raises:
        ConfigError: no database there, or another process is writing it.
    """
    path = resolve_db_path(run)
    if not path.is_file():
        raise ConfigError(f"{path}: no results database here")
    with writer_lock(path):
        tmp = path.with_name(".repair-" + path.name)
        for p in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
            with contextlib.suppress(FileNotFoundError):
                p.unlink()
        ResultsDB(tmp).close()  # the schema
        src = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        dst = sqlite3.connect(tmp, isolation_level=None)
        try:
            dst.execute("BEGIN")
            runs, ok1 = _copy_rows(src, dst, "runs")
            known = {r[0] for r in dst.execute("SELECT run_id FROM runs")}
            eps, ok2 = _copy_rows(src, dst, "episodes", lambda r: r[0] in known)
            kept = {(r[0], r[1]) for r in dst.execute("SELECT run_id, episode_id FROM episodes")}
            trajs, ok3 = _copy_rows(src, dst, "trajectories", lambda r: (r[0], r[1]) in kept)
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
            "trajectories": trajs, "complete": ok1 and ok2 and ok3}
