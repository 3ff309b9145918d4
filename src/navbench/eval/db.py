"""The results database of an evaluation run: one SQLite file (WAL mode) in the run folder.

Tables: ``runs`` (one row per agent + dataset + settings + seed), ``episodes`` (one row per
finished episode, primary key ``(run_id, episode_id)``), ``trajectories`` (zlib-compressed
``.npz`` blobs). Every episode is committed in its own transaction together with its
trajectory, so killing the writer loses only episodes that were still running, and a re-run
skips what is already there. Only one process (the runner) writes, holding the folder's writer
lock; any number may read. A damaged file is reported with the repair command
(:mod:`navbench.eval.db_safety`).
"""

from __future__ import annotations

import contextlib
import csv
import datetime as _dt
import hashlib
import io
import json
import logging
import math
import os
import sqlite3
from collections.abc import Mapping
from pathlib import Path

from navbench.errors import ConfigError, FormatError, NavbenchError
from navbench.eval.db_safety import CorruptDatabaseError, GuardedConnection, writer_lock
from navbench.eval.records import (
    EpisodeResult,
    MetricValue,
    check_json_able,
    decode_trajectory,
    encode_trajectory,
    natural_key,
)
from navbench.io import (
    atomic_write_bytes,
    atomic_write_text,
    atomic_write_with,
    dumps_json,
    loads_json,
)
from navbench.jsontypes import JSON, JSONMapping, JSONObject

log = logging.getLogger(__name__)

DB_NAME = "results.sqlite"
SCHEMA = "navbench.results/1"
EXPORT_FORMATS = ("csv", "parquet", "json")
BASE_COLUMNS = ("run_id", "episode_id", "scene_id", "label", "error")
#: Episode fields exported as their own columns (from ``extra["fields"]``; ``task`` is the
#: dataset task the run evaluated, e.g. ``conditional_oracle``, else the episode's own).
FIELD_COLUMNS = ("task", "scene_kind", "category", "depth", "chain_length")

_DDL = """
CREATE TABLE IF NOT EXISTS navbench_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
  run_id TEXT PRIMARY KEY, agent TEXT NOT NULL, dataset_hash TEXT NOT NULL,
  settings TEXT NOT NULL, code_version TEXT NOT NULL, seed INTEGER NOT NULL, created TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS episodes (
  run_id TEXT NOT NULL REFERENCES runs(run_id), episode_id TEXT NOT NULL, scene_id TEXT NOT NULL,
  label TEXT NOT NULL, metrics TEXT NOT NULL, error TEXT, wall_time_s REAL NOT NULL,
  sim_time_s REAL NOT NULL, extra TEXT NOT NULL, PRIMARY KEY (run_id, episode_id));
CREATE TABLE IF NOT EXISTS trajectories (
  run_id TEXT NOT NULL, episode_id TEXT NOT NULL, blob BLOB NOT NULL,
  PRIMARY KEY (run_id, episode_id), FOREIGN KEY (run_id, episode_id) REFERENCES episodes);
"""
_TABLES = ("navbench_meta", "runs", "episodes", "trajectories")
#: ``code_version`` of a run row that ``results repair`` rebuilt for orphaned episodes; the next
#: ``evaluate`` of that run writes its real agent, dataset, settings and version.
REATTACHED_CODE_VERSION = "unknown (rebuilt by results repair)"


def _create_database(path: Path) -> None:
    """Create an empty results database at ``path`` atomically: the schema is written to a
    private file that is then linked into place, so a reader polling for the file never opens
    a half-made one (and an existing file, made by a concurrent writer, is never replaced)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)
    try:
        conn = sqlite3.connect(tmp, isolation_level=None)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.executescript(_DDL)
            conn.execute("INSERT INTO navbench_meta VALUES ('schema', ?)", (SCHEMA,))
        finally:
            conn.close()  # the last connection of a WAL database folds its -wal file back in
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass  # another writer created it first: use theirs
        except OSError:  # a file system without hard links
            if not path.exists():
                os.replace(tmp, path)
    except sqlite3.Error as e:
        raise FormatError(path, "<file>", "a new SQLite results database", str(e)) from None
    finally:
        tmp.unlink(missing_ok=True)


class DuplicateEpisodeError(NavbenchError):
    """An episode is already in the database for this run (results are never overwritten)."""


def resolve_db_path(run: str | Path) -> Path:
    """``RUN/results.sqlite`` for a run folder, or the path itself for a file."""
    p = Path(run)
    return p if p.suffix in (".sqlite", ".db") or p.is_file() else p / DB_NAME


def make_run_id(agent: str, dataset_hash: str, settings: JSONMapping, seed: int) -> str:
    """Deterministic run id: the same agent, dataset, settings and seed give the same id."""
    text = check_json_able(
        {"agent": agent, "dataset": dataset_hash, "settings": settings, "seed": seed}, "settings"
    )
    return "run-" + hashlib.blake2b(text.encode(), digest_size=6).hexdigest()


def _clean_metrics(episode_id: str, metrics: Mapping[str, MetricValue]) -> dict[str, MetricValue]:
    out: dict[str, MetricValue] = {}
    for k, v in metrics.items():
        if v is not None and not isinstance(v, (bool, int, float)):
            v = float(v)  # numpy scalars
        if isinstance(v, float) and not math.isfinite(v):
            log.warning("episode %s: metric %s is %r, stored as null", episode_id, k, v)
            v = None
        out[str(k)] = v
    return out


class ResultsDB:
    """A results database (see the module docstring).

    Args:
        path: the ``.sqlite`` file or a run folder (``RUN/results.sqlite``).
        create: create the file when missing; with ``False`` a missing file is a
            :class:`ConfigError`.
    """

    def __init__(self, path: str | Path, *, create: bool = True) -> None:
        self.path = resolve_db_path(path)
        if not self.path.exists():
            if not create:
                raise ConfigError(
                    f"{self.path}: no results database here (run 'navbench evaluate' first)"
                )
            self.path.parent.mkdir(parents=True, exist_ok=True)
            _create_database(self.path)
        try:
            raw = sqlite3.connect(self.path, timeout=30.0, isolation_level=None)
        except sqlite3.Error as e:
            raise FormatError(self.path, "<file>", "an SQLite results database", str(e)) from None
        self._conn = GuardedConnection(raw, self.path)
        try:
            self._open(create)
        except sqlite3.DatabaseError as e:
            self._conn.close()
            raise FormatError(self.path, "<file>", "an SQLite results database", str(e)) from e
        except NavbenchError:
            self._conn.close()
            raise

    def _open(self, create: bool) -> None:
        """Check the schema; a writer (``create``) also completes a database that lacks it.

        A reader writes nothing: opening ``navbench results`` beside a starting run must not
        take a lock the run needs (a reader's ``journal_mode`` switch or schema insert made the
        run fail with "database is locked", ~1 start in 10 under a polling reader).
        """
        self._conn.execute("PRAGMA synchronous=NORMAL")  # durable against process kills
        rows = self._conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
        tables = {r[0] for r in rows}
        if tables and "navbench_meta" not in tables:
            raise FormatError(
                self.path, "navbench_meta", "a navbench results database", sorted(tables)
            )
        missing = sorted(set(_TABLES) - tables)
        if missing and not create:
            expected = "a navbench results database with tables " + ", ".join(_TABLES)
            raise FormatError(self.path, "<tables>", expected, f"missing {', '.join(missing)}")
        if create:
            (mode,) = self._conn.execute("PRAGMA journal_mode").fetchone()
            if str(mode).lower() != "wal":
                self._conn.execute("PRAGMA journal_mode=WAL")
            if missing:
                self._conn.executescript(_DDL)
                self._conn.execute(
                    "INSERT OR IGNORE INTO navbench_meta VALUES ('schema', ?)", (SCHEMA,)
                )
        row = self._conn.execute("SELECT value FROM navbench_meta WHERE key='schema'").fetchone()
        if row is None or row[0] != SCHEMA:
            found = None if row is None else row[0]
            raise FormatError(self.path, "navbench_meta.schema", repr(SCHEMA), found)

    # -- lifecycle ---------------------------------------------------------------------------
    def writer_lock(self) -> contextlib.AbstractContextManager[None]:
        """The run folder's exclusive writer lock (see :func:`~navbench.eval.db_safety.writer_lock`)."""
        return writer_lock(self.path)

    def close(self) -> None:
        """Close the connection."""
        self._conn.close()

    def __enter__(self) -> ResultsDB:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- runs --------------------------------------------------------------------------------
    def get_or_create_run(
        self,
        agent: str,
        dataset_hash: str,
        settings: JSONMapping,
        seed: int,
        code_version: str,
    ) -> str:
        """The run id for these inputs, inserting the run row the first time.

        ``settings`` should hold everything that changes results (split, episode filter,
        timeouts, simulator settings), not how they are computed (workers, executor).
        """
        run_id = make_run_id(agent, dataset_hash, settings, seed)
        old = self._conn.execute(
            "SELECT code_version FROM runs WHERE run_id=?", (run_id,)
        ).fetchone()
        if old is None:
            created = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
            self._conn.execute(
                "INSERT INTO runs VALUES (?,?,?,?,?,?,?)",
                (
                    run_id,
                    agent,
                    dataset_hash,
                    check_json_able(settings, "settings"),
                    code_version,
                    int(seed),
                    created,
                ),
            )
        elif old[0] == REATTACHED_CODE_VERSION:  # a row results repair rebuilt: restore it
            self._conn.execute(
                "UPDATE runs SET agent=?, dataset_hash=?, settings=?, code_version=?, seed=? WHERE run_id=?",
                (agent, dataset_hash, check_json_able(settings, "settings"), code_version, int(seed), run_id),
            )
        elif old[0] != code_version:
            log.warning("resuming run %s made by %s with %s", run_id, old[0], code_version)
        return run_id

    def runs(self) -> list[JSONObject]:
        """All runs, oldest first, with ``settings`` decoded and an ``episodes`` count.

        Raises :class:`CorruptDatabaseError` when episodes belong to a run that has no row
        (a deleted ``runs`` row: ``results repair`` reattaches them)."""
        (orphans,) = self._conn.execute(
            "SELECT COUNT(*) FROM episodes WHERE run_id NOT IN (SELECT run_id FROM runs)").fetchone()
        if orphans:
            raise CorruptDatabaseError(self.path, f"{orphans} episode(s) belong to a run whose row in "
                                       "'runs' is missing")
        cur = self._conn.execute(
            "SELECT r.*, (SELECT COUNT(*) FROM episodes e WHERE e.run_id=r.run_id) AS episodes "
            "FROM runs r ORDER BY created, run_id"
        )
        names = [d[0] for d in cur.description]
        out = [dict(zip(names, row, strict=True)) for row in cur.fetchall()]
        for r in out:
            r["settings"] = self._json(r["settings"], f"runs[{r['run_id']}].settings")
        return out

    def resolve_run(self, run_id: str | None) -> str:
        """``run_id`` if it exists; with ``None``, the only run (else a :class:`ConfigError`)."""
        ids = [r["run_id"] for r in self.runs()]
        if run_id is None:
            if len(ids) != 1:
                raise ConfigError(
                    f"{self.path}: holds {len(ids)} runs {ids}; choose one with --run-id"
                )
            return ids[0]
        if run_id not in ids:
            raise ConfigError(f"{self.path}: --run-id: expected one of {ids}, got {run_id!r}")
        return run_id

    # -- episodes ----------------------------------------------------------------------------
    def finished_episode_ids(self, run_id: str) -> set[str]:
        """Ids of the episodes already recorded for ``run_id``."""
        return {
            r[0]
            for r in self._conn.execute("SELECT episode_id FROM episodes WHERE run_id=?", (run_id,))
        }

    def add_episode(self, run_id: str, result: EpisodeResult) -> None:
        """Insert one episode (and its trajectory) in one transaction.

        Raises :class:`DuplicateEpisodeError` if the episode is already recorded.
        """
        what = f"episode {result.episode_id}"
        metrics = check_json_able(
            _clean_metrics(result.episode_id, result.metrics), f"{what} metrics"
        )
        extra = check_json_able(dict(result.extra), f"{what} extra")
        blob = None if result.trajectory is None else encode_trajectory(result.trajectory)
        row = (
            run_id,
            result.episode_id,
            result.scene_id,
            result.label,
            metrics,
            result.error,
            float(result.wall_time_s),
            float(result.sim_time_s),
            extra,
        )
        try:
            with self._conn:  # BEGIN ... COMMIT (ROLLBACK on error)
                self._conn.execute("BEGIN IMMEDIATE")
                self._conn.execute("INSERT INTO episodes VALUES (?,?,?,?,?,?,?,?,?)", row)
                if blob is not None:
                    self._conn.execute(
                        "INSERT INTO trajectories VALUES (?,?,?)", (run_id, result.episode_id, blob)
                    )
        except sqlite3.IntegrityError as e:
            raise DuplicateEpisodeError(
                f"{self.path}: run {run_id} already has episode {result.episode_id}"
            ) from e

    def rows(self, run_id: str) -> list[JSONObject]:
        """Episode rows of ``run_id`` sorted by episode id (natural order), JSON fields decoded."""
        cur = self._conn.execute(
            "SELECT run_id, episode_id, scene_id, label, error, metrics, wall_time_s, sim_time_s, extra "
            "FROM episodes WHERE run_id=?",
            (run_id,),
        )
        names = [d[0] for d in cur.description]
        out = []
        for row in cur.fetchall():
            d = dict(zip(names, row, strict=True))
            d["metrics"] = self._json(d["metrics"], f"episodes[{d['episode_id']}].metrics")
            d["extra"] = self._json(d["extra"], f"episodes[{d['episode_id']}].extra")
            out.append(d)
        out.sort(key=lambda d: natural_key(d["episode_id"]))
        return out

    def results(self, run_id: str) -> list[EpisodeResult]:
        """The recorded episodes as :class:`EpisodeResult` (without trajectories)."""
        return [
            EpisodeResult(
                r["episode_id"],
                r["scene_id"],
                r["label"],
                r["metrics"],
                r["error"],
                r["wall_time_s"],
                r["sim_time_s"],
                None,
                r["extra"],
            )
            for r in self.rows(run_id)
        ]

    def trajectory(self, run_id: str, episode_id: str) -> JSONObject | None:
        """The stored arrays of one episode, or ``None`` when it has none."""
        row = self._conn.execute(
            "SELECT blob FROM trajectories WHERE run_id=? AND episode_id=?",
            (run_id, str(episode_id)),
        ).fetchone()
        if row is None:
            return None
        try:
            return decode_trajectory(row[0])
        except Exception:  # a damaged blob: zlib, zip or npy errors of many kinds
            raise CorruptDatabaseError(self.path, f"the trajectory of episode {episode_id} does not "
                                       "decode") from None

    def quarantined(self, run_id: str | None = None) -> list[JSONObject]:
        """Rows ``results repair`` moved to the ``quarantine`` table (unreadable metrics, extra
        or trajectories), oldest first: ``run_id``, ``episode_id``, ``what``, ``reason``,
        ``quarantined`` (UTC time); only those of ``run_id`` when given, and only episodes and
        trajectories that a later ``evaluate`` has not recorded again. Empty for a database never
        repaired."""
        tables = {r[0] for r in self._conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "quarantine" not in tables:
            return []
        cur = self._conn.execute(
            "SELECT q.run_id, q.episode_id, q.what, q.reason, q.quarantined FROM quarantine q "
            "WHERE (? IS NULL OR q.run_id = ?) AND NOT EXISTS (SELECT 1 FROM episodes e WHERE "
            "e.run_id = q.run_id AND e.episode_id = q.episode_id AND q.what = 'episode') "
            "AND NOT EXISTS (SELECT 1 FROM trajectories t WHERE t.run_id = q.run_id AND "
            "t.episode_id = q.episode_id AND q.what = 'trajectory') ORDER BY q.rowid", (run_id, run_id))
        keys = ("run_id", "episode_id", "what", "reason", "quarantined")
        return [dict(zip(keys, r, strict=True)) for r in cur.fetchall()]

    def _json(self, text: str | bytes, what: str) -> JSON:
        try:
            return loads_json(text)
        except (TypeError, ValueError):
            raise CorruptDatabaseError(self.path, f"{what} is not valid JSON") from None

    # -- export ------------------------------------------------------------------------------
    def table(self, run_id: str, *, timings: bool = True) -> tuple[list[str], list[list[JSON]]]:
        """Flat table: base columns, the episode fields of :data:`FIELD_COLUMNS` (task, scene
        kind, category, depth, chain length; empty when unknown), one column per metric
        (sorted), times, ``extra`` as JSON.

        A metric named like a base or field column gets a ``metric_`` prefix. Rows sorted by
        episode id.
        """
        rows = self.rows(run_id)
        run_task = next((r["settings"].get("task") for r in self.runs() if r["run_id"] == run_id), None)
        metric_names = sorted({k for r in rows for k in r["metrics"]})
        reserved = {*BASE_COLUMNS, *FIELD_COLUMNS, "wall_time_s", "sim_time_s", "extra"}
        metric_cols = [f"metric_{m}" if m in reserved else m for m in metric_names]
        times = ["sim_time_s", *(["wall_time_s"] if timings else [])]
        columns = [*BASE_COLUMNS, *FIELD_COLUMNS, *metric_cols, *times, "extra"]

        def field(r: JSONObject, name: str) -> JSON:
            f = r["extra"].get("fields") if isinstance(r["extra"].get("fields"), dict) else {}
            if name == "task" and run_task:
                return run_task
            return f.get(name)

        data = [
            [
                *(r[c] for c in BASE_COLUMNS),
                *(field(r, c) for c in FIELD_COLUMNS),
                *(r["metrics"].get(m) for m in metric_names),
                *(r[t] for t in times),
                json.dumps(r["extra"], sort_keys=True, ensure_ascii=False),
            ]
            for r in rows
        ]
        return columns, data

    def export(self, run_id: str, fmt: str, path: str | Path, *, timings: bool = True) -> Path:
        """Write the episodes of ``run_id`` as ``csv``, ``parquet`` or ``json`` (atomically).

        With ``timings=False`` the wall-clock columns (and the run's creation time) are left
        out, so exports of a resumed and an uninterrupted run are byte-identical.
        """
        if fmt not in EXPORT_FORMATS:
            raise ConfigError(f"--format: expected one of {', '.join(EXPORT_FORMATS)}, got {fmt!r}")
        path = Path(path)
        if fmt == "json":
            run = next(r for r in self.runs() if r["run_id"] == run_id)
            run.pop("episodes")
            rows = self.rows(run_id)
            if not timings:
                run.pop("created")
                for r in rows:
                    r.pop("wall_time_s")
            return atomic_write_text(
                path, dumps_json({"schema": SCHEMA, "run": run, "episodes": rows})
            )
        columns, data = self.table(run_id, timings=timings)
        if fmt == "csv":
            buf = io.StringIO()
            w = csv.writer(buf, lineterminator="\n")
            w.writerow(columns)
            w.writerows(
                [
                    ["" if v is None else repr(v) if isinstance(v, float) else v for v in row]
                    for row in data
                ]
            )
            return atomic_write_bytes(path, buf.getvalue().encode("utf-8"))
        return _write_parquet(path, columns, data)


def _write_parquet(path: Path, columns: list[str], data: list[list[JSON]]) -> Path:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError as e:
        from navbench.errors import MissingDependencyError

        raise MissingDependencyError(
            "parquet export needs pyarrow: pip install 'navbench[parquet]'"
        ) from e
    arrays = []
    for j, _name in enumerate(columns):
        values = [row[j] for row in data]
        present = [v for v in values if v is not None]
        if present and all(isinstance(v, bool) for v in present):
            typ = pa.bool_()
        elif present and all(isinstance(v, int) and not isinstance(v, bool) for v in present):
            typ = pa.int64()
        elif present and all(isinstance(v, (int, float)) for v in present):
            typ = pa.float64()
            values = [None if v is None else float(v) for v in values]
        else:
            typ = pa.string()
            values = [None if v is None else str(v) for v in values]
        arrays.append(pa.array(values, type=typ))
    table = pa.Table.from_arrays(arrays, names=columns)
    return atomic_write_with(path, lambda p: pq.write_table(table, p))
