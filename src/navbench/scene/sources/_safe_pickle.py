"""Reading ``.npz`` archives whose object arrays are pickled, without trusting the pickle.

``np.load(..., allow_pickle=True)`` executes any callable a pickle names (``os.system``,
``subprocess.Popen``, ...). :func:`load_npz` instead parses each ``.npy`` member itself and
unpickles object arrays with :class:`RestrictedUnpickler`, which admits only numpy's array
reconstructors (plus ``set`` / ``frozenset``, and ``_codecs.encode(text, 'latin1')``, which
protocol-2 pickles use to rebuild ``bytes``: Python-2-era Gibson 3D Scene Graph files, and any
``bytes`` pickled with protocol 2 from Python 3); anything else raises
:class:`~navbench.errors.SceneFormatError` naming the file, the member and the refused global.
"""

from __future__ import annotations

import importlib
import io
import pickle
import tokenize
import zipfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
from numpy.lib import format as npformat

from navbench.errors import SceneFormatError, in_words
from navbench.io import ARRAY_READ_ERRORS, JSONLimitError, check_json_depth

#: (module, name) pairs the unpickler may resolve. ``numpy.core`` was renamed ``numpy._core``
#: in numpy 2; pickles written by either version name one of the two.
ALLOWED_GLOBALS: frozenset[tuple[str, str]] = frozenset({
    ("numpy.core.multiarray", "_reconstruct"),
    ("numpy._core.multiarray", "_reconstruct"),
    ("numpy.core.multiarray", "scalar"),
    ("numpy._core.multiarray", "scalar"),
    ("numpy.core.numeric", "_frombuffer"),
    ("numpy._core.numeric", "_frombuffer"),
    ("numpy", "ndarray"),
    ("numpy", "dtype"),
    ("builtins", "set"),
    ("builtins", "frozenset"),
    ("__builtin__", "set"),
    ("__builtin__", "frozenset"),
})


#: Object-array items whose nesting is checked (a 3D scene graph is one 0-d array of a dict).
MAX_OBJECT_ITEMS = 1024

#: Encodings :func:`_latin1_encode` accepts (protocol 2 writes ``'latin1'``).
_LATIN1 = frozenset({"latin1", "latin-1", "iso-8859-1", "iso8859-1"})


def _latin1_encode(text: object, encoding: object = "latin1", *rest: object) -> bytes:
    """The one ``_codecs.encode`` call protocol-2 pickles make: ``encode(str, 'latin1')``.

    Raises:
        RefusedGlobal: any other argument shape (another codec, non-text input, extra args).
    """
    if rest or not isinstance(text, str) or not isinstance(encoding, str) \
            or encoding.lower() not in _LATIN1:
        raise RefusedGlobal(f"_codecs.encode({type(text).__name__}, {encoding!r}"
                            f"{', ...' if rest else ''}) (only (str, 'latin1') is allowed)")
    return text.encode("latin1")


class RefusedGlobal(pickle.UnpicklingError):
    """The pickle names a global outside :data:`ALLOWED_GLOBALS`."""


class RestrictedUnpickler(pickle.Unpickler):
    """An unpickler that resolves only :data:`ALLOWED_GLOBALS`."""

    def find_class(self, module: str, name: str) -> Callable[..., object]:
        if (module, name) == ("_codecs", "encode"):
            return _latin1_encode
        if (module, name) not in ALLOWED_GLOBALS:
            raise RefusedGlobal(f"{module}.{name}")
        if module == "__builtin__":
            module = "builtins"
        if module.startswith("numpy.core") or module.startswith("numpy._core"):
            tail = module.split(".", 2)[2]
            for prefix in ("numpy._core.", "numpy.core."):
                try:
                    found: Callable[..., object] = getattr(importlib.import_module(prefix + tail), name)
                    return found
                except (ImportError, AttributeError):
                    continue
        resolved: Callable[..., object] = getattr(importlib.import_module(module), name)
        return resolved


def _read_npy(data: bytes, file: str, member: str) -> np.ndarray:
    f = io.BytesIO(data)
    try:
        version = npformat.read_magic(f)
        if version == (1, 0):
            _shape, _fortran, dtype = npformat.read_array_header_1_0(f)
        else:
            _shape, _fortran, dtype = npformat.read_array_header_2_0(f)
    except ARRAY_READ_ERRORS as e:  # numpy parses the header with tokenize + literal_eval
        what = "a header that is not a Python literal" if isinstance(e, (SyntaxError, tokenize.TokenError,
                                                                           ValueError)) else in_words(e)
        raise SceneFormatError(file, f"{member} (header)", "a .npy array header", what) from e
    if not dtype.hasobject:
        f.seek(0)
        try:
            return npformat.read_array(f, allow_pickle=False)
        except ARRAY_READ_ERRORS as e:
            raise SceneFormatError(file, member, "a complete .npy array (truncated?)", str(e)) from e
    try:
        arr = RestrictedUnpickler(f, encoding="latin1").load()
    except RefusedGlobal as e:
        raise SceneFormatError(
            file, member, "a pickle using only numpy array reconstructors (refused to unpickle)",
            f"global {e}",
        ) from e
    except Exception as e:  # truncated / corrupt pickles raise many kinds
        raise SceneFormatError(file, member, "a complete pickled object array (truncated?)",
                               in_words(e)) from e
    if not isinstance(arr, np.ndarray):
        raise SceneFormatError(file, member, "a pickled numpy array", type(arr).__name__)
    try:  # the JSON limits hold for pickled documents too (readers walk them, name ids with str())
        for item in arr.reshape(-1)[:MAX_OBJECT_ITEMS]:
            check_json_depth(item, ints=True)
    except JSONLimitError as e:
        raise SceneFormatError(file, member, str(e), "data past that limit") from None
    return arr


def load_npz(path: str | Path) -> dict[str, np.ndarray]:
    """All arrays of an ``.npz`` archive, unpickling object arrays with the restricted unpickler."""
    path = Path(path)
    name = path.name
    try:
        with zipfile.ZipFile(path) as z:
            out: dict[str, np.ndarray] = {}
            for info in z.infolist():
                if not info.filename.endswith(".npy"):
                    continue
                try:
                    data = z.read(info)
                except ARRAY_READ_ERRORS as e:  # bad CRC, unknown compression, encrypted member
                    raise SceneFormatError(name, info.filename, "a readable archive member", str(e)) from e
                out[info.filename[:-4]] = _read_npy(data, name, info.filename)
            return out
    except FileNotFoundError as e:
        raise SceneFormatError(name, "<file>", "an existing .npz file", str(path)) from e
    except SceneFormatError:
        raise
    except ARRAY_READ_ERRORS as e:  # the archive itself: truncated, altered version fields, ...
        raise SceneFormatError(name, "<file>", "an .npz (zip) archive (truncated?)", str(e)) from e
