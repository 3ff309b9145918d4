"""The 100-byte header of an SQLite database file: recognised, and rebuilt when it is damaged
but the pages behind it are intact (SQLite file format, https://sqlite.org/fileformat.html §1.3).

A navbench results database is written with default settings (UTF-8, no reserved bytes, no
auto-vacuum), so a *generic* header — the magic, the page size, format numbers, the page count
from the file size and UTF-8 — opens it again: page 1 still holds the schema b-tree right after
the header, every other page is untouched. The page size is the one candidate (512 … 65,536
bytes) that divides the file and whose rebuilt file shows the navbench tables.
"""

from __future__ import annotations

import contextlib
import sqlite3
import struct
from pathlib import Path

#: The first 16 bytes of every SQLite 3 database file.
SQLITE_MAGIC = b"SQLite format 3\x00"
HEADER_SIZE = 100
#: Page sizes tried, the default (4096) first.
PAGE_SIZES = (4096, 1024, 2048, 8192, 16384, 32768, 65536, 512)
#: b-tree page types page 1 may start with (after the header): interior or leaf table page.
_TABLE_PAGES = (0x05, 0x0D)


def header_intact(path: Path) -> bool:
    """Whether the file starts with the SQLite magic string."""
    with open(path, "rb") as f:
        return f.read(16) == SQLITE_MAGIC


def generic_header(page_size: int, n_pages: int, wal: bool) -> bytes:
    """A 100-byte header for a UTF-8 database of ``n_pages`` pages of ``page_size`` bytes
    (``wal``: file format versions 2, so that an existing ``-wal`` file is read)."""
    version = 2 if wal else 1
    major, minor, patch = sqlite3.sqlite_version_info
    h = SQLITE_MAGIC
    h += struct.pack(">HBBBBBB", 1 if page_size == 65536 else page_size, version, version, 0, 64, 32, 32)
    h += struct.pack(">IIIIIIIIIIII", 1, n_pages, 0, 0, 1, 4, 0, 0, 1, 0, 0, 0)
    h += bytes(20)
    h += struct.pack(">II", 1, major * 1_000_000 + minor * 1000 + patch)
    assert len(h) == HEADER_SIZE
    return h


def _shows_results_tables(path: Path) -> bool:
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error:
        return False
    try:
        names = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        return {"navbench_meta", "runs", "episodes"} <= names
    except sqlite3.Error:
        return False
    finally:
        con.close()


def candidate_page_sizes(path: Path) -> list[int]:
    """Page sizes that divide the file and leave a table b-tree page right after the header."""
    size = path.stat().st_size
    with open(path, "rb") as f:
        f.seek(HEADER_SIZE)
        first = f.read(1)
    if not first or first[0] not in _TABLE_PAGES:
        return []
    return [p for p in PAGE_SIZES if size >= 2 * p and size % p == 0]


def rebuild_header(path: Path, out: Path) -> bool:
    """Write ``path`` with a generic header to ``out`` when that opens as a results database;
    returns whether it did (``out`` is removed otherwise)."""
    wal = Path(f"{path}-wal").is_file()
    raw = path.read_bytes()
    for page_size in candidate_page_sizes(path):
        out.write_bytes(generic_header(page_size, len(raw) // page_size, wal) + raw[HEADER_SIZE:])
        if wal:
            with contextlib.suppress(OSError):
                Path(f"{out}-wal").write_bytes(Path(f"{path}-wal").read_bytes())
        if _shows_results_tables(out):
            return True
    for p in (out, Path(f"{out}-wal"), Path(f"{out}-shm")):
        p.unlink(missing_ok=True)
    return False


def salvageable_header(path: Path) -> bool:
    """Whether ``navbench results repair`` can open the file: an intact header, or a damaged one
    in front of a page structure a generic header opens (see :func:`rebuild_header`)."""
    try:
        return header_intact(path) or bool(candidate_page_sizes(path))
    except OSError:
        return False
