"""Robust parsing of model replies: discrete actions, waypoint moves and JSON programs.

Models wrap their answer in prose, markdown, code fences and odd case or punctuation. The
parsers try, in order:

1. a JSON object in the reply (the last one that decodes) with an ``"action"`` key
   (``{"action": "TURN_LEFT"}``, ``{"action": "move", "distance": 1.5, "angle": -30}``);
2. the last ``Action: ...`` line (also ``**Action**:``, ``final answer:``, ``action =``);
3. discrete only: the last action keyword anywhere in the reply (``... so I will turn left.``).

Negated mentions (``don't stop``, ``not forward``) are ignored in step 3. ``None`` = unparseable
(the agent then applies its documented fallback).
"""

from __future__ import annotations

import json
import math
import re

#: Action words → discrete kind (after lower-casing, ``_``/``-`` → space, punctuation dropped).
from navbench.jsontypes import JSON, JSONObject

DISCRETE_WORDS: dict[str, str] = {
    "move forward": "forward", "forward": "forward", "go forward": "forward",
    "move ahead": "forward", "go straight": "forward", "ahead": "forward", "straight": "forward",
    "turn left": "left", "left": "left", "rotate left": "left",
    "turn right": "right", "right": "right", "rotate right": "right",
    "stop": "stop", "done": "stop", "finish": "stop",
}
_IDS = {"0": "stop", "1": "forward", "2": "left", "3": "right"}
_WORDS_RE = re.compile(
    r"\b(?<!not )(?<!n't )(?<!never )(?<!no )(" + "|".join(
        sorted((re.escape(w).replace(r"\ ", r"[\s_-]+") for w in DISCRETE_WORDS),
               key=len, reverse=True)) + r")\b", re.IGNORECASE)
_ACTION_LINE = re.compile(r"(?:\baction|final\s+answer|answer)\W{0,3}\s*[:=]\s*(.+)", re.IGNORECASE)
_NUM = r"([+-]?\d+(?:\.\d+)?)"


def _norm(s: str) -> str:
    s = re.sub(r"_+|-(?![\d.])", " ", s.lower())
    s = re.sub(r"[^a-z0-9.+\- ]+", " ", s)
    return re.sub(r"\s+", " ", s).strip()


def json_objects(text: str) -> list[JSON]:
    """Every JSON object decodable from some ``{`` in ``text`` (outermost first, in order)."""
    dec, i = json.JSONDecoder(), 0
    out: list[JSON] = []
    while True:
        i = text.find("{", i)
        if i < 0:
            return out
        try:
            obj, end = dec.raw_decode(text, i)
        except json.JSONDecodeError:
            i += 1
            continue
        out.append(obj)
        i = end


def _word_kind(s: str) -> str | None:
    n = _norm(s)
    if n in _IDS:
        return _IDS[n]
    for w in sorted(DISCRETE_WORDS, key=len, reverse=True):
        if n == w or n.startswith(w + " "):
            return DISCRETE_WORDS[w]
    return None


def _action_lines(text: str) -> list[str]:
    return [m.group(1).strip().strip("*`\"' ") for m in _ACTION_LINE.finditer(text)]


def parse_discrete(text: str) -> str | None:
    """``"forward"``, ``"left"``, ``"right"``, ``"stop"`` or ``None`` (see module docs)."""
    for obj in reversed(json_objects(text)):
        if isinstance(obj, dict) and "action" in obj:
            k = _word_kind(str(obj["action"]))
            if k is not None:
                return k
    for line in reversed(_action_lines(text)):
        k = _word_kind(line)
        if k is None:
            m = _WORDS_RE.search(line)
            k = DISCRETE_WORDS[_norm(m.group(1))] if m else None
        if k is not None:
            return k
    found = list(_WORDS_RE.finditer(text))
    return DISCRETE_WORDS[_norm(found[-1].group(1))] if found else None


def _move(kind: str, distance: float, angle_deg: float) -> tuple[str, float, float] | None:
    if not (math.isfinite(distance) and math.isfinite(angle_deg)):
        return None
    return kind, distance, angle_deg


def _waypoint_from(s: str) -> tuple[str, float, float] | None:
    n = _norm(s).replace(",", " ")
    n = re.sub(r"[()]", " ", n)
    m = re.match(rf"(?:move|go|walk)\s+{_NUM}\s*(?:m|meters?|metres?)?\s*(?:at\s+)?{_NUM}?", n)
    if m:
        return _move("move", float(m.group(1)), float(m.group(2) or 0.0))
    m = re.match(rf"(?:turn|rotate)\s+(left|right)?\s*{_NUM}?", n)
    if m and (m.group(1) or m.group(2)):
        a = float(m.group(2)) if m.group(2) else 30.0
        return _move("turn", 0.0, -abs(a) if m.group(1) == "right" else abs(a) if m.group(1)
                     else a)
    if n.startswith(("stop", "done", "finish")):
        return "stop", 0.0, 0.0
    return None


def parse_waypoint(text: str) -> tuple[str, float, float] | None:
    """``("move", distance_m, angle_deg)``, ``("turn", 0, angle_deg)``, ``("stop", 0, 0)`` or
    ``None``; angles positive to the left (counter-clockwise seen from above)."""
    for obj in reversed(json_objects(text)):
        if not (isinstance(obj, dict) and "action" in obj):
            continue
        a = _norm(str(obj["action"]))
        try:
            if a in ("move", "go", "walk"):
                return _move("move", float(obj.get("distance", 0.0)), float(obj.get("angle", 0.0)))
            if a in ("turn", "rotate"):
                return _move("turn", 0.0, float(obj.get("angle", 0.0)))
        except (TypeError, ValueError):
            continue
        if a in ("stop", "done"):
            return "stop", 0.0, 0.0
        w = _waypoint_from(a)
        if w is not None:
            return w
    for line in reversed(_action_lines(text)):
        w = _waypoint_from(line)
        if w is not None:
            return w
    return None


def program_json(text: str) -> JSONObject | None:
    """The program object of a planner reply: the first decodable JSON object with an ``"op"``
    key (code fences and prose around it ignored), else ``None``."""
    for obj in json_objects(text):
        if isinstance(obj, dict) and "op" in obj:
            return obj
    return None


_ID_KEYS = frozenset({"object_id", "room_id", "anchor_id"})


def normalise_program(d: JSON) -> JSON:
    """Lower-case and trim every label, room, predicate and anchor of a program dict; drop
    scene ids (``object_id``, ``room_id``, ``anchor_id``: a model cannot know them)."""
    if isinstance(d, dict):
        return {k: (" ".join(v.lower().split()) if isinstance(v, str) and k in
                    ("label", "room", "predicate", "anchor", "op", "type") else normalise_program(v))
                for k, v in d.items() if k not in _ID_KEYS}
    if isinstance(d, list):
        return [normalise_program(x) for x in d]
    return d
