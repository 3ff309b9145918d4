"""Atomic writes: a reader never sees a half-written file or folder.

Every output goes to a temporary name in the target's folder and is renamed into place
(``os.replace``), so an interrupted write leaves the old file (or nothing).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path


def _umask_mode() -> int:
    """Permissions a plain ``open(..., "w")`` would give (0o666 minus the umask)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def _into_place(path: Path, writer: Callable[[Path], object], prefix: str, suffix: str) -> Path:
    """Run ``writer`` on a temporary file ``<prefix>XXXX<suffix>`` beside ``path``, give it the
    permissions of a plain ``open`` and rename it to ``path``; on any failure remove it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=suffix, dir=path.parent)
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


def atomic_write_bytes(path: str | Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` via a temporary file in the same folder (flushed to disk) and
    ``os.replace``.

    A reader never sees a half-written file, and an interrupted write leaves the old file.
    """
    def write(tmp: Path) -> None:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())

    path = Path(path)
    return _into_place(path, write, f".{path.name}.", ".tmp")


def atomic_write_text(path: str | Path, text: str) -> Path:
    """UTF-8 text version of :func:`atomic_write_bytes`."""
    return atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_with(path: str | Path, writer: Callable[[Path], object]) -> Path:
    """Let ``writer`` write a temporary path (e.g. matplotlib ``savefig``), then rename it."""
    path = Path(path)
    return _into_place(path, writer, f".{path.stem}.", path.suffix)


def publish_dir(tmp: str | Path, out: str | Path) -> Path:
    """Move a fully written temporary folder ``tmp`` to ``out`` (replacing an old ``out``), mode
    0755. Callers write everything into ``tmp`` first and remove it on failure, so ``out`` is
    never half-written."""
    out = Path(out)
    if out.exists():
        shutil.rmtree(out)
    os.replace(tmp, out)
    os.chmod(out, 0o755)
    return out
