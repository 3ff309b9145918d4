"""Small I/O helpers shared by every module: atomic writes and canonical JSON."""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any


def _umask_mode() -> int:
    """Permissions a plain ``open(..., "w")`` would give (0o666 minus the umask)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def atomic_write_bytes(path: str | Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` via a temporary file in the same folder and ``os.replace``.

    A reader never sees a half-written file, and an interrupted write leaves the old file.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, _umask_mode())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    return path


def atomic_write_text(path: str | Path, text: str) -> Path:
    """UTF-8 text version of :func:`atomic_write_bytes`."""
    return atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_with(path: str | Path, writer: Callable[[Path], None]) -> Path:
    """Let ``writer`` write a temporary path (e.g. matplotlib ``savefig``), then rename it."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=path.suffix, dir=path.parent)
    os.close(fd)
    try:
        writer(Path(tmp))
        os.chmod(tmp, _umask_mode())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    return path


def dumps_json(obj: Any, *, indent: int | None = 1) -> str:
    """Canonical JSON text: fixed separators, UTF-8, no NaN, trailing newline."""
    return json.dumps(obj, indent=indent, ensure_ascii=False, allow_nan=False) + "\n"


def write_json(path: str | Path, obj: Any, *, indent: int | None = 1) -> Path:
    """Atomically write canonical JSON."""
    return atomic_write_text(path, dumps_json(obj, indent=indent))


def write_json_gz(path: str | Path, obj: Any) -> Path:
    """Atomically write gzip-compressed compact JSON with a zero mtime (byte-reproducible)."""
    raw = json.dumps(obj, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()
    return atomic_write_bytes(path, gzip.compress(raw, compresslevel=6, mtime=0))


def read_json(path: str | Path) -> Any:
    """Read JSON or gzip JSON (by the ``.gz`` suffix)."""
    path = Path(path)
    if path.suffix == ".gz":
        with gzip.open(path, "rt", encoding="utf-8") as f:
            return json.load(f)
    with open(path, encoding="utf-8") as f:
        return json.load(f)
