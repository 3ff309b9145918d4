"""TOML configuration files within the JSON limits (:mod:`navbench.io.jsondoc`): at most
:data:`~navbench.io.jsondoc.MAX_JSON_DEPTH` levels of tables and arrays, integers of at most
:data:`~navbench.io.jsondoc.MAX_INT_DIGITS` digits, UTF-8, at most 16 MiB.

``tomllib`` parses nested arrays and inline tables recursively (a ``RecursionError`` past
~1,000 levels) and converts integers with ``int()`` (a ``ValueError`` past 4,300 digits); both
become :class:`TOMLLimitError`, as do documents within Python's limits but past ours.
"""

from __future__ import annotations

import sys
from pathlib import Path

from navbench.io.jsondoc import MAX_INT_DIGITS, MAX_JSON_DEPTH, JSONLimitError, check_json_depth
from navbench.jsontypes import JSONObject

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

#: Largest TOML file read (configuration files are a few KB).
MAX_TOML_BYTES = 16 << 20


class TOMLLimitError(ValueError):
    """A TOML document is invalid or breaks a limit; the message says which, in words."""


def loads_toml(text: str) -> JSONObject:
    """Parse TOML text within the limits above.

    Raises:
        TOMLLimitError: a syntax error (with tomllib's line and column) or a broken limit.
    """
    if len(text) > MAX_TOML_BYTES:
        raise TOMLLimitError(f"at most {MAX_TOML_BYTES} bytes of TOML, got {len(text)}")
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise TOMLLimitError(f"valid TOML ({e})") from None
    except RecursionError:
        raise TOMLLimitError(f"at most {MAX_JSON_DEPTH} levels of nesting") from None
    except ValueError:  # int() of a literal past Python's 4,300-digit limit
        raise TOMLLimitError(f"integers of at most {MAX_INT_DIGITS} digits") from None
    try:
        check_json_depth(doc, ints=True)
    except JSONLimitError as e:
        raise TOMLLimitError(str(e)) from None
    return doc


def read_toml(path: str | Path) -> JSONObject:
    """Read a UTF-8 TOML file with :func:`loads_toml`'s limits.

    Raises:
        OSError: a missing or unreadable file.
        TOMLLimitError: not UTF-8, invalid TOML, or past a limit.
    """
    with open(path, "rb") as f:
        raw = f.read(MAX_TOML_BYTES + 1)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise TOMLLimitError(f"UTF-8 text (byte {raw[e.start:e.start + 1]!r} at offset {e.start})") from None
    return loads_toml(text)
