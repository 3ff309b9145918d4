"""numpy ``.npy`` / ``.npz`` reads that never unpickle, never trace back and check a fixed schema.

:func:`read_npz` reads each member's ``.npy`` header first (dtype and shape, no data), checks it
against an :class:`ArraySpec` and a size limit, and only then reads the data; anything else numpy
or zipfile may raise on damaged bytes (:data:`ARRAY_READ_ERRORS`) becomes a
:class:`~navbench.errors.FormatError` naming the file and the member, in words.
"""

from __future__ import annotations

import fnmatch
import tokenize
import zipfile
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.lib import format as npformat

from navbench.errors import FormatError

#: Everything numpy may raise while reading a damaged ``.npy``/``.npz`` (truncated or altered
#: bytes, a corrupt zip member, a header that is not a Python literal, a shape too big to
#: allocate; zipfile's NotImplementedError for an altered version or compression method and
#: RuntimeError for a member flagged as encrypted). Readers catch this tuple and raise a
#: :class:`~navbench.errors.FormatError`.
ARRAY_READ_ERRORS: tuple[type[BaseException], ...] = (
    OSError, EOFError, ValueError, SyntaxError, tokenize.TokenError, zipfile.BadZipFile,
    zlib.error, MemoryError, OverflowError, NotImplementedError, RuntimeError)

#: Largest number of elements one member may hold (8 GiB of float64 would be 2**30).
MAX_ARRAY_ITEMS = 1 << 28

_KINDS = {"f": "floating-point", "i": "integer", "u": "unsigned integer", "b": "boolean",
          "U": "text", "S": "bytes"}


@dataclass(frozen=True)
class ArraySpec:
    """What one member must be.

    Attributes:
        kinds: accepted numpy dtype kinds (``"f"`` float, ``"iu"`` integers, ``"b"`` bool,
            ``"U"`` text); object arrays (``"O"``) are never accepted.
        shape: the shape, ``None`` per axis of any length; ``None`` for any shape.
        required: whether the member must be present.
    """

    kinds: str
    shape: tuple[int | None, ...] | None = None
    required: bool = True

    def describe(self) -> str:
        """The expectation in words, e.g. ``a floating-point array of shape (N, 3)``."""
        kinds = " or ".join(_KINDS.get(k, k) for k in self.kinds)
        if self.shape is None:
            return f"a {kinds} array"
        if self.shape == ():
            return f"a single {kinds} value"
        dims = ", ".join("N" if d is None else str(d) for d in self.shape)
        return f"a {kinds} array of shape ({dims}{',' if len(self.shape) == 1 else ''})"

    def matches(self, dtype: np.dtype, shape: tuple[int, ...]) -> bool:
        """Whether a header's dtype and shape satisfy this spec."""
        if dtype.kind not in self.kinds or dtype.hasobject:
            return False
        if self.shape is None:
            return True
        return len(shape) == len(self.shape) and all(w is None or w == s for w, s in zip(self.shape, shape, strict=True))


def _header(z: zipfile.ZipFile, name: str) -> tuple[tuple[int, ...], np.dtype]:
    with z.open(name) as f:
        version = npformat.read_magic(f)
        if version == (1, 0):
            shape, _fortran, dtype = npformat.read_array_header_1_0(f)
        else:
            shape, _fortran, dtype = npformat.read_array_header_2_0(f)
    return tuple(int(s) for s in shape), np.dtype(dtype)


def read_npz(path: str | Path, schema: Mapping[str, ArraySpec], *, file: str | None = None,
             ) -> dict[str, np.ndarray]:
    """The members of an ``.npz`` file that ``schema`` names, checked (no pickles).

    Schema keys are member names without ``.npy``; a key with ``*`` is a pattern
    (``"t*.positions"``) matching any number of members. Members no key names are ignored.

    Raises:
        FormatError: naming ``file`` (default: the path) and the member: not a zip of ``.npy``
            arrays, a required member missing, a dtype or shape other than the spec's, more
            than :data:`MAX_ARRAY_ITEMS` elements, or damaged data.
    """
    where = file or str(path)
    out: dict[str, np.ndarray] = {}
    try:
        with zipfile.ZipFile(path) as z:
            names = {n[:-4]: n for n in z.namelist() if n.endswith(".npy")}
            for key, spec in schema.items():
                found = fnmatch.filter(names, key) if "*" in key else [key] if key in names else []
                if not found and spec.required and "*" not in key:
                    raise FormatError(where, key, spec.describe(), "missing")
                for name in sorted(found):
                    try:
                        shape, dtype = _header(z, names[name])
                    except ARRAY_READ_ERRORS:
                        raise FormatError(where, name, "a .npy array header", "unreadable bytes") from None
                    if not spec.matches(dtype, shape):
                        got = f"{_KINDS.get(dtype.kind, 'object' if dtype.hasobject else dtype.kind)} " \
                              f"array of shape {shape}"
                        raise FormatError(where, name, spec.describe(), got)
                    if int(np.prod(shape, dtype=np.float64)) > MAX_ARRAY_ITEMS:
                        raise FormatError(where, name, f"at most {MAX_ARRAY_ITEMS:,} elements", f"shape {shape}")
                    try:
                        with z.open(names[name]) as f:
                            out[name] = npformat.read_array(f, allow_pickle=False)
                    except ARRAY_READ_ERRORS:
                        raise FormatError(where, name, f"{spec.describe()} with intact data",
                                          "truncated or damaged bytes") from None
    except FormatError:
        raise
    except FileNotFoundError:
        raise FormatError(where, "<file>", "an existing .npz file", "no such file") from None
    except ARRAY_READ_ERRORS:
        raise FormatError(where, "<file>", "an .npz archive (a zip of .npy arrays)", "unreadable bytes") from None
    return out
