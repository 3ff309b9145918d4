"""Indented JSON text, fast: the exact bytes of ``json.dumps(obj, indent=n, ensure_ascii=False,
allow_nan=False)`` without its pure-Python encoder.

The standard library encodes with C only when ``indent`` is None; with an indent every value goes
through Python generators (about 70 % of the time of writing a large imported scene). Here the
nesting is walked in Python, but every *leaf* container (a list or dict holding no list or dict,
such as the ``[x, y, z]`` vectors and ``[x, z]`` polygon corners that make up most of a scene) is
encoded by the C encoder, with the line break and indent of its depth as the item separator, so
its layout is the one ``json.dumps`` gives.
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring  # C-accelerated when available

_CONTAINERS = (list, tuple, dict)
_NOT_SCALAR = (list, tuple, dict, str)
_COMPACT = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(",", ":"))
_encoders: dict[str, json.JSONEncoder] = {}


def _leaf_encoder(newline: str) -> json.JSONEncoder:
    enc = _encoders.get(newline)
    if enc is None:
        enc = _encoders[newline] = json.JSONEncoder(ensure_ascii=False, allow_nan=False,
                                                     separators=("," + newline, ": "))
    return enc


def _matrix(rows: list[object] | tuple[object, ...], pad: str, step: str) -> str:
    """A non-empty list of non-empty lists of numbers, booleans and nulls (polygon corners): one
    compact C encoding, then the line breaks put in by replacement (no string can hold a comma)."""
    nl1, nl2 = "\n" + pad + step, "\n" + pad + step + step
    body = _COMPACT.encode(rows)[2:-2].replace("],[", "\0").replace(",", "," + nl2)
    return "[" + nl1 + "[" + nl2 + body.replace("\0", nl1 + "]," + nl1 + "[" + nl2) + nl1 + "]" + "\n" + pad + "]"


def _float(v: float) -> str:
    if v != v or v in (float("inf"), float("-inf")):
        raise ValueError("Out of range float values are not JSON compliant: " + repr(v))
    return float.__repr__(v)


def _key(k: object) -> str:
    if isinstance(k, str):
        return k
    if k is True:
        return "true"
    if k is False:
        return "false"
    if k is None:
        return "null"
    if isinstance(k, int):
        return int.__repr__(k)
    if isinstance(k, float):
        return _float(k)
    raise TypeError(f"keys must be str, int, float, bool or None, not {k.__class__.__name__}")


def _emit(o: object, pad: str, step: str, out: list[str]) -> None:
    """Append the text of ``o`` whose first line is indented by ``pad`` (already written)."""
    if isinstance(o, str):
        out.append(encode_basestring(o))
    elif o is None:
        out.append("null")
    elif o is True:
        out.append("true")
    elif o is False:
        out.append("false")
    elif isinstance(o, int):
        out.append(int.__repr__(o))
    elif isinstance(o, float):
        out.append(_float(o))
    elif isinstance(o, (list, tuple)):
        if not o:
            out.append("[]")
            return
        inner = pad + step
        newline = "\n" + inner
        if not any(isinstance(x, _CONTAINERS) for x in o):
            out.append("[" + newline + _leaf_encoder(newline).encode(o)[1:-1] + "\n" + pad + "]")
            return
        if all(isinstance(x, (list, tuple)) and x and not any(isinstance(y, _NOT_SCALAR) for y in x) for x in o):
            out.append(_matrix(o, pad, step))
            return
        out.append("[")
        sep = newline
        for x in o:
            out.append(sep)
            _emit(x, inner, step, out)
            sep = "," + newline
        out.append("\n" + pad + "]")
    elif isinstance(o, dict):
        if not o:
            out.append("{}")
            return
        inner = pad + step
        newline = "\n" + inner
        if not any(isinstance(x, _CONTAINERS) for x in o.values()):
            out.append("{" + newline + _leaf_encoder(newline).encode(o)[1:-1] + "\n" + pad + "}")
            return
        out.append("{")
        sep = newline
        for k, v in o.items():
            out.append(sep + encode_basestring(_key(k)) + ": ")
            _emit(v, inner, step, out)
            sep = "," + newline
        out.append("\n" + pad + "}")
    else:
        raise TypeError(f"Object of type {o.__class__.__name__} is not JSON serializable")


def dumps_indented(obj: object, indent: int) -> str:
    """``json.dumps(obj, indent=indent, ensure_ascii=False, allow_nan=False)``, same text.

    Raises:
        ValueError: a NaN or infinite float.
        TypeError: a value or key JSON cannot hold.
    """
    out: list[str] = []
    _emit(obj, "", " " * indent, out)
    return "".join(out)
