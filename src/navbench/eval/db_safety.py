"""Keeping a results database usable: one writer at a time, and corruption reported with the
recovery command (``navbench results repair RUN``).

- :func:`writer_lock`: an exclusive ``flock`` on ``results.sqlite.lock`` beside the database,
  held while a run writes; a second ``navbench evaluate`` on the same folder is refused at once
  with a message naming the holder's pid (instead of "database is locked" after 30 s).
- :class:`GuardedConnection`: the sqlite3 connection of :class:`~navbench.eval.db.ResultsDB`;
  a damaged file raises :class:`CorruptDatabaseError` (a ``FormatError``) whose message ends
  with the repair command; a lock held by another process raises a ``ConfigError``.
- :func:`navbench.eval.db_repair.repair` salvages what is readable.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from navbench.errors import ConfigError, FormatError

T = TypeVar("T")


class CorruptDatabaseError(FormatError):
    """The results database file is damaged; the message says how to recover: ``results
    repair`` when it can (damaged pages, rows or header), else to move the file away."""

    def __init__(self, path: str | Path, detail: str) -> None:
        from navbench.eval.db_header import salvageable_header

        super().__init__(path, "<file>", "an intact SQLite results database", detail)
        p = Path(path)
        target = p.parent if p.name == "results.sqlite" else p  # a run folder, else the file
        if p.is_file() and salvageable_header(p):
            advice = f"recover the readable episodes with: navbench results repair {target}"
        else:
            advice = ("no SQLite pages to salvage (results repair cannot help): move the file away "
                      "and re-run evaluate")
        self.args = (f"{self.args[0]}; {advice}",)


def _translate(path: Path, e: sqlite3.Error) -> Exception:
    text = str(e)
    if isinstance(e, sqlite3.OperationalError) and "locked" in text:
        return ConfigError(f"{path}: another process is writing this database ({text}); wait for "
                           "it to finish or use another --out folder")
    return CorruptDatabaseError(path, text)


SQLRow = tuple[Any, ...]  # a sqlite row: per column str, int, float, bytes or None


def _guard(path: Path, fn: Callable[..., T], *args: object) -> T:
    try:
        return fn(*args)
    except sqlite3.IntegrityError:
        raise
    except sqlite3.DatabaseError as e:
        raise _translate(path, e) from None
    except UnicodeDecodeError as e:  # a damaged TEXT value
        raise CorruptDatabaseError(path, f"undecodable text ({e.reason})") from None


class GuardedCursor:
    """A cursor whose fetches translate sqlite3 errors (see :class:`GuardedConnection`)."""

    def __init__(self, cur: sqlite3.Cursor, path: Path) -> None:
        self._cur, self._path = cur, path

    @property
    def description(self) -> tuple[tuple[str, None, None, None, None, None, None], ...]:
        return self._cur.description

    # Any: a SQLRow, or None past the last row (callers that know a row exists unpack it)
    def fetchone(self) -> Any:
        return _guard(self._path, self._cur.fetchone)

    def fetchall(self) -> list[SQLRow]:
        return _guard(self._path, self._cur.fetchall)

    def __iter__(self) -> Iterator[SQLRow]:
        return iter(self.fetchall())


class GuardedConnection:
    """Wraps a ``sqlite3.Connection``: ``execute`` / ``executescript`` / transactions raise
    :class:`CorruptDatabaseError` or ``ConfigError`` (locked) instead of sqlite3 errors;
    ``IntegrityError`` passes through."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self._conn, self._path = conn, path

    def execute(self, sql: str, params: Sequence[object] | Mapping[str, object] = ()) -> GuardedCursor:
        return GuardedCursor(_guard(self._path, self._conn.execute, sql, params), self._path)

    def executescript(self, sql: str) -> None:
        _guard(self._path, self._conn.executescript, sql)

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> GuardedConnection:
        self._conn.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        _guard(self._path, self._conn.__exit__, *exc)


@contextlib.contextmanager
def writer_lock(db_path: Path) -> Iterator[None]:
    """Hold the exclusive writer lock of ``db_path`` (``<db>.lock``, ``fcntl.flock``).

    Raises:
        ConfigError: another process holds it (the message names its pid).
    """
    import fcntl

    lock = db_path.with_name(db_path.name + ".lock")
    fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "?"
            raise ConfigError(f"{db_path.parent}: another navbench evaluate (pid {holder}) is "
                              "writing this run folder; wait for it to finish (then re-run to "
                              "add what is missing) or use another --out folder") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        os.close(fd)  # closing releases the flock
