"""Small I/O helpers shared by every module: atomic writes and canonical JSON."""

from __future__ import annotations

import contextlib
import gzip
import json
import math
import os
import shutil
import tempfile
import tokenize
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

from navbench.jsontypes import JSON

#: Everything numpy may raise while reading a damaged ``.npy``/``.npz`` (truncated or altered
#: bytes, a corrupt zip member, a header that is not a Python literal, a shape too big to
#: allocate; zipfile's NotImplementedError for an altered version or compression method and
#: RuntimeError for a member flagged as encrypted). Readers catch this tuple and raise a
#: :class:`~navbench.errors.FormatError`.
ARRAY_READ_ERRORS: tuple[type[BaseException], ...] = (
    OSError, EOFError, ValueError, SyntaxError, tokenize.TokenError, zipfile.BadZipFile,
    zlib.error, MemoryError, OverflowError, NotImplementedError, RuntimeError)


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


def atomic_write_with(path: str | Path, writer: Callable[[Path], object]) -> Path:
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


def dumps_json(obj: JSON, *, indent: int | None = 1) -> str:
    """Canonical JSON text: fixed separators, UTF-8, no NaN, trailing newline."""
    return json.dumps(obj, indent=indent, ensure_ascii=False, allow_nan=False) + "\n"


def write_json(path: str | Path, obj: JSON, *, indent: int | None = 1) -> Path:
    """Atomically write canonical JSON."""
    return atomic_write_text(path, dumps_json(obj, indent=indent))


def write_json_gz(path: str | Path, obj: JSON) -> Path:
    """Atomically write gzip-compressed compact JSON with a zero mtime (byte-reproducible)."""
    raw = json.dumps(obj, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()
    return atomic_write_bytes(path, gzip.compress(raw, compresslevel=6, mtime=0))


#: Limits of every JSON reader (documented in README "Robustness / limits").
MAX_JSON_BYTES = 1 << 30  # 1 GiB of (decompressed) text
MAX_JSON_DEPTH = 64  # nesting levels of arrays / objects
MAX_INT_DIGITS = 30  # digits of one integer literal


class JSONLimitError(ValueError):
    """A JSON document breaks a limit (depth, size, integer length), is not strict JSON, or its
    (gzip) file is damaged."""


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise JSONLimitError(f"an integer of at most {MAX_INT_DIGITS} digits, got {len(text)}")
    return int(text)


def _parse_float(text: str) -> float:
    v = float(text)
    if not math.isfinite(v):
        raise JSONLimitError(f"a finite number, got {text[:20]}")
    return v


def _parse_constant(text: str) -> NoReturn:
    raise JSONLimitError(f"strict JSON (no {text})")


def _check_depth(doc: JSON) -> None:
    stack = [(doc, 1)]
    while stack:
        v, d = stack.pop()
        if d > MAX_JSON_DEPTH:
            raise JSONLimitError(f"at most {MAX_JSON_DEPTH} levels of nesting")
        if isinstance(v, dict):
            stack.extend((x, d + 1) for x in v.values() if isinstance(x, (dict, list)))
        elif isinstance(v, list):
            stack.extend((x, d + 1) for x in v if isinstance(x, (dict, list)))


def loads_json(text: str | bytes, *, allow_nan: bool = False) -> JSON:
    """Parse strict JSON within the limits above (``allow_nan``: accept ``NaN``, ``Infinity``
    and overflowing floats, for readers that report them at the field that holds them).

    Raises:
        json.JSONDecodeError: a syntax error (has ``lineno`` / ``colno``).
        JSONLimitError: too deep, too large, an over-long integer, NaN / Infinity.
        UnicodeDecodeError: ``bytes`` that are not UTF-8.
    """
    if len(text) > MAX_JSON_BYTES:
        raise JSONLimitError(f"at most {MAX_JSON_BYTES} bytes of JSON, got {len(text)}")
    try:
        if allow_nan:
            doc = json.loads(text, parse_int=_parse_int)
        else:
            doc = json.loads(text, parse_int=_parse_int, parse_float=_parse_float,
                             parse_constant=_parse_constant)
    except RecursionError:
        raise JSONLimitError(f"at most {MAX_JSON_DEPTH} levels of nesting") from None
    _check_depth(doc)
    return doc


def read_json(path: str | Path) -> JSON:
    """Read JSON or gzip JSON (by the ``.gz`` suffix) with :func:`loads_json`'s limits.

    Every malformed content raises a ``ValueError`` (``JSONDecodeError``, ``JSONLimitError``,
    ``UnicodeDecodeError``, a truncated gzip stream); a missing or unreadable file an ``OSError``.
    """
    path = Path(path)
    if path.suffix == ".gz":
        try:
            with gzip.open(path, "rb") as f:
                raw = f.read(MAX_JSON_BYTES + 1)
        except (EOFError, zlib.error) as e:
            raise JSONLimitError(f"a complete, undamaged gzip stream ({e or 'truncated'})") from None
    else:
        with open(path, "rb") as f:
            raw = f.read(MAX_JSON_BYTES + 1)
    return loads_json(raw.decode("utf-8"))
