"""``navbench results repair RUN``: repair a damaged results database, or leave a healthy one.

What it repairs (each is what ``evaluate``, ``results export``, ``results show`` and ``report``
send a user here for):

- **page damage**: every readable run, episode and trajectory is copied into a fresh database,
  also the rows stored behind a damaged page (:func:`_copy_rows`); unreadable rows are counted;
- **row damage**: an episode whose metrics or extra are not valid JSON objects (or whose text is
  not UTF-8), and a trajectory blob that does not decode, are moved to the ``quarantine`` table
  (kept with the reason, listed by ``results show``, left out of export, report and scoring with
  a count); a run whose settings are unreadable keeps its row with empty settings, the original
  text quarantined;
- **a damaged header** (the first 100 bytes): rebuilt as a generic SQLite header when the pages
  behind it are intact (:mod:`navbench.eval.db_header`);
- **orphaned episodes** (their ``runs`` row is gone): reattached to a rebuilt run row (agent
  :data:`REATTACHED_AGENT`; the next ``evaluate`` of that run restores its real fields).

A healthy database (integrity check passes, every row readable, no orphans) is left untouched.
Otherwise the damaged file is kept as ``results.sqlite.corrupt[-N]``; a re-run of the same
``evaluate`` command then redoes the lost and quarantined episodes.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import json
import os
import sqlite3
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from navbench.errors import ConfigError, FormatError
from navbench.eval.db import REATTACHED_CODE_VERSION, ResultsDB, resolve_db_path
from navbench.eval.db_header import header_intact, rebuild_header, salvageable_header
from navbench.eval.db_safety import SQLRow, writer_lock
from navbench.eval.records import decode_trajectory
from navbench.io import loads_json
from navbench.jsontypes import JSONObject

#: Consecutive absent or unreadable rowids probed past a damaged page when the table's largest
#: rowid cannot be read either (rowids are dense: rows are only ever appended).
PROBE_LIMIT = 10_000
#: Agent name of a run row rebuilt for orphaned episodes.
REATTACHED_AGENT = "unknown (run row rebuilt by results repair)"

QUARANTINE_DDL = """
CREATE TABLE IF NOT EXISTS quarantine (
  run_id TEXT, episode_id TEXT, what TEXT NOT NULL, reason TEXT NOT NULL, row TEXT, blob BLOB,
  quarantined TEXT NOT NULL);
"""


def _max_rowid(src: sqlite3.Connection, table: str) -> int | None:
    """The table's largest rowid, or None when the pages on the way to it are unreadable."""
    try:
        row = src.execute(f"SELECT max(rowid) FROM {table}").fetchone()
    except sqlite3.DatabaseError:
        return None
    return int(row[0]) if row and row[0] is not None else 0


def _copy_rows(src: sqlite3.Connection, table: str, put: Callable[[SQLRow], None]) -> tuple[int, bool]:
    """Hand every readable row of ``table`` to ``put``: ``(rows known lost, whole table read)``.

    A rowid-ordered scan stops at the first damaged page; the rows behind it are still reachable
    through the b-tree, so the scan resumes after probing rowids one at a time (a lookup reads
    only the pages on the way to that row) until one is readable again. Rows "known lost" are
    unreadable rowids below a readable one or below the table's largest rowid; when that is
    unreadable too, the unreadable tail is not counted (``whole table read`` is False)."""
    lost = 0
    last, ok = 0, True
    hi = _max_rowid(src, table)
    while True:
        try:
            for row in src.execute(f"SELECT rowid, * FROM {table} WHERE rowid > ? ORDER BY rowid", (last,)):
                last = int(row[0])
                put(tuple(row[1:]))
            return lost, ok and hi is not None
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
            return lost + (failed if hi is not None else 0), False
        lost += failed
        put(tuple(row[1:]))
        last = r


def _text(v: object, column: str) -> str | None:
    """A TEXT value read as bytes, decoded; raises ValueError naming the column."""
    if v is None or isinstance(v, str):
        return v
    if isinstance(v, bytes):
        try:
            return v.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError(f"{column} is not UTF-8 text") from None
    return str(v)


def _json_object(text: str | None, column: str) -> None:
    try:
        doc = loads_json(text or "")
    except ValueError:
        raise ValueError(f"{column} is not valid JSON") from None
    if not isinstance(doc, dict):
        raise ValueError(f"{column} is not a JSON object")


def episode_row(row: SQLRow) -> SQLRow:
    """An ``episodes`` row with its text decoded, checked as the readers read it.

    Raises:
        ValueError: saying which column is unreadable (the row is then quarantined).
    """
    if len(row) != 9:
        raise ValueError(f"{len(row)} columns instead of 9")
    names = ("run_id", "episode_id", "scene_id", "label", "metrics", "error")
    out = [_text(v, n) for v, n in zip(row[:6], names, strict=True)]
    extra = _text(row[8], "extra")
    _json_object(out[4], "metrics")
    _json_object(extra, "extra")
    for v, n in ((row[6], "wall_time_s"), (row[7], "sim_time_s")):
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise ValueError(f"{n} is not a number")
    return (*out, row[6], row[7], extra)


def run_row(row: SQLRow) -> tuple[SQLRow, str | None]:
    """A ``runs`` row decoded; unreadable settings are replaced by ``{}`` (second value: why)."""
    if len(row) != 7:
        raise ValueError(f"{len(row)} columns instead of 7")
    out = [_text(v, n) for v, n in zip(row[:5], ("run_id", "agent", "dataset_hash", "settings",
                                                  "code_version"), strict=True)]
    created = _text(row[6], "created")
    try:
        _json_object(out[3], "settings")
    except ValueError as e:
        out[3] = "{}"
        return (*out, row[5], created), str(e)
    return (*out, row[5], created), None


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


class _Salvage:
    """Copies rows from ``src`` to ``dst`` through the row checks, quarantining what fails."""

    def __init__(self, src: sqlite3.Connection, dst: sqlite3.Connection | None) -> None:
        self.src, self.dst = src, dst
        self.runs: set[str] = set()
        self.episodes: set[tuple[str, str]] = set()
        self.quarantined: Counter[str] = Counter()  # rows quarantined now, by kind
        self.kept_quarantine = 0  # rows an earlier repair quarantined
        self.trajectories = 0
        self.task: dict[str, Counter[str]] = {}  # run id → tasks named by its episodes

    def _insert(self, table: str, row: SQLRow) -> None:
        if self.dst is not None:
            with contextlib.suppress(sqlite3.IntegrityError):
                self.dst.execute(f"INSERT INTO {table} VALUES ({','.join('?' * len(row))})", row)

    def _quarantine(self, what: str, reason: str, run_id: object, episode_id: object,
                    row: SQLRow | None = None, blob: bytes | None = None) -> None:
        self.quarantined[what] += 1
        text = None if row is None else json.dumps(
            [v.decode("utf-8", "backslashreplace") if isinstance(v, bytes) else v for v in row])
        self._insert("quarantine", (None if run_id is None else str(run_id),
                                    None if episode_id is None else str(episode_id),
                                    what, reason, text, blob, _now()))

    def run(self, row: SQLRow) -> None:
        try:
            clean, why = run_row(row)
        except ValueError as e:
            self._quarantine("run", str(e), row[0] if row else None, None, row)
            return
        if why is not None:
            self._quarantine("run settings", why, clean[0], None, (row[3],))
        self.runs.add(str(clean[0]))
        self._insert("runs", clean)

    def episode(self, row: SQLRow) -> None:
        try:
            clean = episode_row(row)
        except ValueError as e:
            self._quarantine("episode", str(e), _safe(row, 0), _safe(row, 1), row)
            return
        self.episodes.add((str(clean[0]), str(clean[1])))
        extra = loads_json(str(clean[8]))
        fields = extra.get("fields") if isinstance(extra.get("fields"), dict) else {}
        if isinstance(fields.get("task"), str):
            self.task.setdefault(str(clean[0]), Counter())[fields["task"]] += 1
        self._insert("episodes", clean)

    def trajectory(self, row: SQLRow) -> None:
        run_id, episode_id = _safe(row, 0), _safe(row, 1)
        blob = row[2] if len(row) == 3 and isinstance(row[2], bytes) else None
        if (str(run_id), str(episode_id)) not in self.episodes:
            self._quarantine("trajectory", "its episode row is missing or quarantined", run_id, episode_id,
                             None, blob)
            return
        try:
            if blob is None:
                raise ValueError("not a blob")
            decode_trajectory(blob)
        except Exception as e:  # zlib, zip and npy errors of many kinds
            self._quarantine("trajectory", f"the trajectory blob does not decode ({str(e)[:80] or 'damaged'})",
                             run_id, episode_id, None, blob)
            return
        self.trajectories += 1
        self._insert("trajectories", (str(run_id), str(episode_id), blob))

    def old_quarantine(self, row: SQLRow) -> None:
        if len(row) == 7:
            self.kept_quarantine += 1
            self._insert("quarantine", tuple(_text(v, "q") if not isinstance(v, bytes) or i != 5 else v
                                             for i, v in enumerate(row)))

    def orphans(self) -> list[str]:
        """Run ids that episodes name but no run row holds."""
        return sorted({r for r, _ in self.episodes} - self.runs)

    def reattach(self, run_id: str) -> None:
        task = self.task.get(run_id, Counter()).most_common(1)
        settings = {"task": task[0][0]} if task else {}
        self._insert("runs", (run_id, REATTACHED_AGENT, "unknown", _json(settings),
                              REATTACHED_CODE_VERSION, 0, _now()))


def _safe(row: SQLRow, i: int) -> object:
    v = row[i] if len(row) > i else None
    return v.decode("utf-8", "replace") if isinstance(v, bytes) else v


def _json(doc: JSONObject) -> str:
    return json.dumps(doc, sort_keys=True, separators=(",", ":"))


def _salvage(src: sqlite3.Connection, dst: sqlite3.Connection | None) -> tuple[_Salvage, int, bool]:
    """Pass every table of ``src`` through the row checks (into ``dst`` when given)."""
    src.text_factory = bytes
    s = _Salvage(src, dst)
    bad1, ok1 = _copy_rows(src, "runs", s.run)
    bad2, ok2 = _copy_rows(src, "episodes", s.episode)
    bad3, ok3 = _copy_rows(src, "trajectories", s.trajectory)
    tables = {r[0] for r in src.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if b"quarantine" in tables or "quarantine" in tables:
        _copy_rows(src, "quarantine", s.old_quarantine)
    return s, bad1 + bad2 + bad3, ok1 and ok2 and ok3


def _healthy(path: Path) -> JSONObject | None:
    """The counts of a database that needs no repair, else None."""
    if not header_intact(path):
        return None
    try:  # read-write but only read: a read-only connection would leave -wal / -shm files behind
        src = sqlite3.connect(path)
    except sqlite3.Error:
        return None
    try:
        if [r[0] for r in src.execute("PRAGMA integrity_check")] != ["ok"]:
            return None
        s, bad, whole = _salvage(src, None)
    except sqlite3.DatabaseError:
        return None
    finally:
        src.close()
    if bad or not whole or s.orphans() or s.quarantined:
        return None
    return {"runs": len(s.runs), "episodes": len(s.episodes), "trajectories": s.trajectories}


def repair(run: str | Path) -> JSONObject:
    """Repair a damaged results database, or leave a healthy one untouched (see the module docs).

    Returns ``{"path", "healthy", "backup", "runs", "episodes", "trajectories", "quarantined",
    "reattached", "header_rebuilt", "unreadable", "complete"}``: rows kept per table, rows
    quarantined by kind, run ids reattached, the number of rows known to be unreadable (lost),
    and ``complete``, False when some rows could not be read. ``healthy``: nothing was written
    (``backup`` is None).

    Raises:
        ConfigError: no database there, or another process is writing it.
        FormatError: the file is not an SQLite database and no generic header opens it (nothing
            is written).
    """
    path = resolve_db_path(run)
    if not path.is_file():
        raise ConfigError(f"{path}: no results database here")
    if not salvageable_header(path):  # nothing to salvage, and nothing may be written beside it
        what = "an empty file" if path.stat().st_size == 0 else "a file that is not SQLite at all"
        raise FormatError(path, "<file>", "an SQLite results database (a run folder's results.sqlite) "
                          "or one whose pages a rebuilt header opens; nothing can be salvaged: move it away "
                          "and re-run evaluate", what)
    ok = _healthy(path)  # reading only, without the writer lock: a healthy folder gains no file
    if ok is not None:
        return {"path": str(path), "healthy": True, "backup": None, **ok, "quarantined": {},
                "reattached": [], "header_rebuilt": False, "unreadable": 0, "complete": True}
    with writer_lock(path):
        tmp = path.with_name(f".repair-{path.stem}.sqlite")
        fixed = path.with_name(f".repair-{path.stem}-header.sqlite")
        for p in (tmp, fixed):
            for q in (p, Path(f"{p}-wal"), Path(f"{p}-shm")):
                q.unlink(missing_ok=True)
        source, rebuilt = path, False
        if not header_intact(path):
            if not rebuild_header(path, fixed):
                raise FormatError(path, "<header>", "a damaged header in front of intact pages (no generic "
                                  "header opens them; nothing can be salvaged: move the file away and re-run "
                                  "evaluate)", "pages that do not open")
            source, rebuilt = fixed, True
        ResultsDB(tmp).close()  # the schema
        side = [Path(f"{source}{s}") for s in ("-wal", "-shm")]
        made = [p for p in side if not p.exists()]  # what the read-only connection leaves behind
        src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
        dst = sqlite3.connect(tmp, isolation_level=None)
        try:
            dst.executescript(QUARANTINE_DDL)
            dst.execute("BEGIN")
            s, lost, whole = _salvage(src, dst)
            orphans = s.orphans()
            for rid in orphans:
                s.reattach(rid)
            dst.execute("COMMIT")
        finally:
            src.close()
            dst.close()
            for q in made:
                q.unlink(missing_ok=True)
        for q in (fixed, Path(f"{fixed}-wal"), Path(f"{fixed}-shm")):
            q.unlink(missing_ok=True)
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
    return {"path": str(path), "healthy": False, "backup": str(backup), "runs": len(s.runs) + len(orphans),
            "episodes": len(s.episodes), "trajectories": s.trajectories, "quarantined": dict(s.quarantined),
            "reattached": orphans, "header_rebuilt": rebuilt, "unreadable": lost, "complete": whole}
