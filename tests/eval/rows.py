"""Counting committed episodes from outside the writer process (for kill-and-resume tests)."""

from __future__ import annotations

import sqlite3
from pathlib import Path


def committed_episodes(db: Path) -> int:
    """Rows in the ``episodes`` table, read-only; 0 while the database does not exist yet."""
    if not db.exists():
        return 0
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
        try:
            return con.execute("SELECT COUNT(*) FROM episodes").fetchone()[0]
        finally:
            con.close()
    except sqlite3.Error:
        return 0
