"""Ids that become file names, and output paths proven to stay inside their folder.

Scene ids name folders (``scenes/<id>/scene.json``) and files (``navmeshes/<id>.npz``), episode
ids name figures; a hostile id such as ``../../x`` or ``/etc/x`` must never write outside the
output folder. Two defences, used together:

- :func:`check_id`: scene ids must match :data:`SAFE_ID` (letters, digits, ``_ . - + :``, not
  starting with ``.``, at most :data:`MAX_ID_LEN` characters), checked where they are read;
- :func:`safe_name`: any other string that becomes a file name (episode ids, figure keys) is
  mapped to a safe name (unsafe characters → ``_``, plus a short hash when anything changed so
  that two ids never share a name);
- :func:`inside`: every output path is joined from its folder and proven to resolve inside it.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from typing import TypeGuard

from navbench.errors import FormatError, NavbenchError

#: Longest id accepted as a file name (characters).
MAX_ID_LEN = 128
#: Pattern of ids that may name files and folders as they are.
SAFE_ID = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+:-]{0,%s}" % (MAX_ID_LEN - 1))
SAFE_ID_TEXT = ("a safe id (letters, digits, '_', '.', '-', '+', ':'; not starting with '.'; "
                f"at most {MAX_ID_LEN} characters)")
_UNSAFE = re.compile(r"[^A-Za-z0-9_.+:-]")


class UnsafePathError(NavbenchError):
    """An output path would leave its folder."""


def is_safe_id(value: object) -> TypeGuard[str]:
    """Whether ``value`` is a string matching :data:`SAFE_ID`."""
    return isinstance(value, str) and SAFE_ID.fullmatch(value) is not None


def check_id(value: object, file: str | Path, field: str) -> str:
    """``value`` if it is a safe id, else a :class:`FormatError` naming ``file`` and ``field``."""
    if not is_safe_id(value):
        raise FormatError(file, field, SAFE_ID_TEXT, value)
    return value


def safe_name(text: str) -> str:
    """A file name for any string: ``text`` itself when it is a safe id, else ``text`` with
    unsafe characters replaced by ``_``, cut to 100 characters, plus ``-`` and 8 hex digits of
    its SHA-256 (distinct inputs keep distinct names)."""
    if is_safe_id(text):
        return text
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    base = _UNSAFE.sub("_", text)[:100].lstrip(".") or "_"
    return f"{base}-{digest}"


def inside(root: str | Path, *parts: str) -> Path:
    """``root / parts...``, proven to resolve inside ``root`` (symbolic links followed).

    Raises:
        UnsafePathError: a part is absolute, contains ``..`` or a NUL, or the joined path
            resolves outside ``root``.
    """
    base = Path(root)
    for p in parts:
        if "\x00" in p or os.path.isabs(p) or ".." in Path(p).parts:
            raise UnsafePathError(f"{base}: refusing to write {p!r} (it would leave the folder)")
    path = base.joinpath(*parts)
    real_root = os.path.realpath(base)
    real = os.path.realpath(path)
    if os.path.commonpath([real_root, real]) != real_root:
        raise UnsafePathError(f"{base}: refusing to write {path} (it resolves outside the folder, "
                              f"to {real})")
    return path
