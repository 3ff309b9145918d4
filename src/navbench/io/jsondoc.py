"""JSON documents within limits: the one JSON reading path of navbench (scenes, importers,
episodes, predictions, manifests, caches, wire messages) and its canonical writers.

Limits (README "Robustness / limits"): at most :data:`MAX_JSON_BYTES` of (decompressed) text,
:data:`MAX_JSON_DEPTH` levels of nesting, :data:`MAX_INT_DIGITS` digits per integer, strict JSON
(no NaN / Infinity unless a reader asks for them). A document past a limit raises
:class:`JSONLimitError` before it can cost a ``RecursionError``, a ``ValueError`` from ``int()``
(4,300-digit limit) or an ``OverflowError`` in a reader's ``float()``.
"""

from __future__ import annotations

import gzip
import json
import math
import zlib
from pathlib import Path
from typing import Any, NoReturn

from navbench.io.atomic import atomic_write_bytes, atomic_write_text
from navbench.io.jsontext import dumps_indented
from navbench.jsontypes import JSON


def dumps_json(obj: JSON, *, indent: int | None = 1) -> str:
    """Canonical JSON text: fixed separators, UTF-8, no NaN, trailing newline (indented text by
    :func:`~navbench.io.jsontext.dumps_indented`: the same bytes as ``json.dumps``, faster)."""
    if indent is None:
        return json.dumps(obj, ensure_ascii=False, allow_nan=False) + "\n"
    return dumps_indented(obj, indent) + "\n"


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


def check_json_depth(doc: JSON, *, ints: bool = False) -> None:
    """Raise :class:`JSONLimitError` when ``doc`` (parsed JSON, or a TOML / pickled document of
    dicts and lists) nests deeper than :data:`MAX_JSON_DEPTH` (iterative: never recursion);
    with ``ints``, also when an integer value or key has more than :data:`MAX_INT_DIGITS` digits
    (compared by size: ``str()`` of a 5,000-digit int raises)."""
    big = 10 ** MAX_INT_DIGITS
    stack = [(doc, 1)]
    while stack:
        v, d = stack.pop()
        if d > MAX_JSON_DEPTH:
            raise JSONLimitError(f"at most {MAX_JSON_DEPTH} levels of nesting")
        if not ints:  # the common case: no per-member tuples (a scene holds ~10^6 members)
            for x in v.values() if isinstance(v, dict) else v if isinstance(v, list) else ():
                if isinstance(x, (dict, list)):
                    stack.append((x, d + 1))
            continue
        items = list(v.items()) if isinstance(v, dict) else [(None, x) for x in v] if isinstance(v, list) else []
        for k, x in items:
            if any(isinstance(n, int) and not isinstance(n, bool) and abs(n) >= big for n in (k, x)):
                raise JSONLimitError(f"integers of at most {MAX_INT_DIGITS} digits")
            if isinstance(x, (dict, list)):
                stack.append((x, d + 1))


def is_plain_json(doc: object) -> bool:
    """Whether ``doc`` is exactly what :func:`loads_json` (with ``allow_nan``) returns for the
    text :func:`dumps_json` writes of it: dicts with string keys, lists, strings, booleans,
    ``None``, finite floats and integers of at most :data:`MAX_INT_DIGITS` digits, nested at
    most :data:`MAX_JSON_DEPTH` deep (the text's size is not checked). A writer that validates
    a document it is about to encode can then check the document instead of parsing its text."""
    big = 10 ** MAX_INT_DIGITS
    stack: list[tuple[Any, int]] = [([doc], 0)]
    while stack:
        v, d = stack.pop()
        if d > MAX_JSON_DEPTH:
            return False
        if type(v) is dict and not all(type(k) is str for k in v):
            return False
        for x in v.values() if type(v) is dict else v:
            t = type(x)
            if t is dict or t is list:
                stack.append((x, d + 1))
            elif t is float:
                if x - x != 0.0:  # NaN or infinite
                    return False
            elif t is int:
                if not -big < x < big:
                    return False
            elif not (t is str or t is bool or x is None):
                return False
    return True


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
    check_json_depth(doc)
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


def describe_read_error(e: BaseException) -> str:
    """What a failed JSON read found, in words (never an exception class name)."""
    if isinstance(e, json.JSONDecodeError):
        return f"invalid JSON at line {e.lineno}, column {e.colno} ({e.msg})"
    if isinstance(e, UnicodeDecodeError):
        return f"text that is not UTF-8 (byte {e.object[e.start:e.start + 1]!r} at offset {e.start})"
    if isinstance(e, RecursionError):
        return f"more than {MAX_JSON_DEPTH} levels of nesting"
    if isinstance(e, FileNotFoundError):
        return "no such file"
    if isinstance(e, OSError):
        return f"an unreadable file ({e.strerror or e})"
    return str(e) or "an unreadable document"
