"""Choosing episodes for an evaluation: ``--episodes`` id lists and field filters.

An ``--episodes`` expression is either

- a comma list of episode ids: ``"0,3,17"``; or
- one or more clauses ``FIELD OP VALUE`` joined by ``,`` or ``and`` (all must hold):
  ``"category=chain"``, ``"scene=house_3_6, depth>=2"``, ``"scene_kind!=indoor"``,
  ``"category=chain|long_chain"`` (``|`` = any of these values).

Operators: ``=``, ``!=``, ``<``, ``<=``, ``>``, ``>=``. Values compare as numbers when both sides
are numbers, as ``true``/``false`` for booleans, else as case-sensitive strings. Fields are
:func:`episode_fields`: ``episode_id``, ``scene`` (the scene id), ``scene_id`` (as written in
the episode), ``object_category``, ``geodesic_distance`` and every scalar of
``info["navbench"]`` (``task``, ``category``, ``depth``, ``chain_length``, ``scene_kind``, ...).
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Callable, Sequence
from pathlib import Path

from navbench.episodes.model import Episode
from navbench.errors import ConfigError
from navbench.jsontypes import JSON, JSONObject

_CLAUSE = re.compile(r"^\s*([A-Za-z_][\w.]*)\s*(!=|<=|>=|=|<|>)\s*(.*?)\s*$")
_OPS: dict[str, Callable[[JSON, JSON], bool]] = {  # compares JSON field values
    "=": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
    ">": operator.gt, ">=": operator.ge,
}


def scene_key(ep: Episode, known: Sequence[str] | None = None) -> str:
    """The scene id of an episode: ``info.navbench.scene``, else the folder or stem of its
    ``scene_id`` path (``scenes/<id>/scene.json`` → ``<id>``); restricted to ``known`` ids when
    one of the candidates is among them."""
    sid = ep.scene_id
    raw = [ep.navbench.get("scene"), Path(sid).parent.name, Path(sid).stem.split(".")[0], sid]
    cands = [str(c) for c in raw if c and str(c) not in ("", ".", "scene")]
    if known is not None:
        for c in cands:
            if c in known:
                return c
    return cands[0] if cands else sid


def episode_fields(ep: Episode, scene: str | None = None) -> JSONObject:
    """Filterable fields of one episode (see the module docstring)."""
    out: JSONObject = {k: v for k, v in ep.navbench.items()
                           if isinstance(v, (str, int, float, bool)) or v is None}
    out.update(episode_id=ep.episode_id, scene=scene or scene_key(ep), scene_id=ep.scene_id,
               geodesic_distance=ep.geodesic_distance)
    if ep.object_category is not None:
        out["object_category"] = ep.object_category
    return out


def _number(v: object) -> float | None:
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return float(v)
    try:
        return float(str(v))
    except ValueError:
        return None


def _matches(value: JSON, op: str, wanted: str) -> bool:
    if value is None:
        return op == "!=" and wanted.lower() not in ("none", "null")
    if isinstance(value, bool):
        text = "true" if value else "false"
        return _OPS[op](text, wanted.lower()) if op in ("=", "!=") else False
    a, b = _number(value), _number(wanted)
    if a is not None and b is not None and not math.isnan(a):
        return _OPS[op](a, b)
    return _OPS[op](str(value), wanted)


def parse_selection(expr: str | None) -> tuple[list[str] | None, list[tuple[str, str, list[str]]]]:
    """``(ids, [])`` for an id list, ``(None, clauses)`` for a filter, ``(None, [])`` for all.

    Raises:
        ConfigError: a clause without an operator or value mixed with filter clauses.
    """
    if expr is None or not expr.strip():
        return None, []
    parts = [p.strip() for p in re.split(r",|\band\b", expr) if p.strip()]
    if not any(_CLAUSE.match(p) for p in parts):
        ids = [p for p in (q.strip() for q in expr.split(",")) if p]
        return ids, []
    clauses = []
    for p in parts:
        m = _CLAUSE.match(p)
        if m is None or m.group(3) == "":
            raise ConfigError(f"--episodes: expected ids (0,1,2) or clauses FIELD=VALUE joined by "
                              f"',' (e.g. category=chain,scene=house_3_6), got the part {p!r}")
        clauses.append((m.group(1), m.group(2), [v.strip() for v in m.group(3).split("|")]))
    return None, clauses


def select_episodes(episodes: Sequence[Episode], expr: str | None,
                    scenes: Sequence[str] | None = None, *, where: str = "--episodes"
                    ) -> list[Episode]:
    """The episodes matching ``expr`` (see the module docstring), in their original order.

    Raises:
        ConfigError: an unknown id, a field no episode has, or nothing matches.
    """
    ids, clauses = parse_selection(expr)
    if ids is not None:
        by_id = {e.episode_id: e for e in episodes}
        missing = [i for i in ids if i not in by_id]
        if missing:
            raise ConfigError(f"{where}: unknown episode ids {missing[:10]} (the split has "
                              f"{len(by_id)} episodes)")
        wanted = set(ids)
        return [e for e in episodes if e.episode_id in wanted]
    if not clauses:
        return list(episodes)
    rows = [(e, episode_fields(e, scene_key(e, scenes))) for e in episodes]
    known = sorted({k for _, f in rows for k in f})
    for field, _, _ in clauses:
        if field not in known:
            raise ConfigError(f"{where}: unknown field {field!r}; expected one of {known}")
    out = [e for e, f in rows
           if all(any(_matches(f.get(k), op, v) for v in vals) if op != "!=" else
                  all(_matches(f.get(k), op, v) for v in vals) for k, op, vals in clauses)]
    if not out:
        raise ConfigError(f"{where}: no episode matches {expr!r}")
    return out
