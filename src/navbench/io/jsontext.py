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
from collections.abc import Callable
from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]  # C when available
from typing import NoReturn

_CONTAINERS = (list, tuple, dict)
_NOT_SCALAR = (list, tuple, dict, str)


def _refuse(o: object) -> NoReturn:
    raise TypeError(f"Object of type {o.__class__.__name__} is not JSON serializable")


def _make(item_sep: str) -> Callable[[object], str]:
    """A one-call encoder of a container without nested containers: the C encoder object
    itself (``JSONEncoder.encode`` would build a new one per call, ~10 µs), else the encoder."""
    enc = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(item_sep, ": "))
    if c_make_encoder is None:
        return enc.encode
    c = c_make_encoder(None, _refuse, encode_basestring, None, ": ", item_sep, False, False, False)

    def run(o: object) -> str:
        return "".join(c(o, 0))

    probe = [1.5, -0, None, True, "a,\"é"]
    return run if run(probe) == enc.encode(probe) else enc.encode


_COMPACT = _make(",")
_encoders: dict[str, Callable[[object], str]] = {}


def _leaf_encoder(newline: str) -> Callable[[object], str]:
    enc = _encoders.get(newline)
    if enc is None:
        enc = _encoders[newline] = _make("," + newline)
    return enc


def _matrix(rows: list[object] | tuple[object, ...], pad: str, step: str) -> str:
    """A non-empty list of non-empty lists of numbers, booleans and nulls (polygon corners): one
    compact C encoding, then the line breaks put in by replacement (no string can hold a comma)."""
    nl1, nl2 = "\n" + pad + step, "\n" + pad + step + step
    body = _COMPACT(rows)[2:-2].replace("],[", "\0").replace(",", "," + nl2)
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
            out.append("[" + newline + _leaf_encoder(newline)(o)[1:-1] + "\n" + pad + "]")
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
            out.append("{" + newline + _leaf_encoder(newline)(o)[1:-1] + "\n" + pad + "}")
            return
        out.append("{")
        sep = newline
        deeper = newline + step
        for k, v in o.items():
            head = sep + encode_basestring(k if type(k) is str else _key(k)) + ": "
            sep = "," + newline
            t = type(v)  # the common members inline (a scene has ~10^5 such dicts)
            if t is str:
                out.append(head + encode_basestring(v))
            elif t is float and v - v == 0.0:  # finite
                out.append(head + float.__repr__(v))
            elif t is int:
                out.append(head + int.__repr__(v))
            elif (t is list or t is tuple) and v and not any(isinstance(y, _CONTAINERS) for y in v):
                out.append(head + "[" + deeper + _leaf_encoder(deeper)(v)[1:-1] + newline + "]")
            else:
                out.append(head)
                _emit(v, inner, step, out)
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
