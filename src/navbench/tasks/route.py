"""Route-style VLN instructions (NavVerse App. 8.3, SPEC §7): reference path → template text.

Pipeline: (1) :func:`simplify_path` — Douglas–Peucker on the XZ polyline, then vertices whose
heading change is below ``min_turn_deg`` and segments shorter than ``min_segment`` are merged;
(2) :func:`route_directives` — one optional turn (relative to the start yaw or the previous
segment) and one move per simplified segment; a move is qualified by what it crosses (a door
portal → "through the door into the kitchen", the exit portal → "out of the building", a
hallway room → "along the corridor", a crosswalk / road / long sidewalk outdoors) and by one
visible landmark ("past the sofa"); an arrival statement names the goal; (3)
:func:`render_text` — seeded phrase variants. The text never contains numbers or distances.

Landmarks (:mod:`navbench.tasks.route_landmarks`): scene objects and places within range of a
segment with an eye-level line of sight, named by a referring expression that is unique
(label unique in the room, else qualified by a scene-graph relation; outdoors unique within a
radius; places by category or shop name). Frame: Habitat world, metres, yaw 0 faces -Z,
positive yaw = left turn.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace

import numpy as np

from navbench.geometry import wrap_angle, yaw_of_direction
from navbench.jsontypes import JSONObject
from navbench.rng import derive
from navbench.tasks.route_landmarks import RouteContext, RouteSettings

__all__ = ["Directive", "RouteContext", "RouteInstruction", "RouteSettings", "douglas_peucker",
           "render_text", "route_directives", "route_instruction", "simplify_path", "turn_word"]


def douglas_peucker(xz: np.ndarray, tolerance: float) -> list[int]:
    """Indices of the Douglas–Peucker simplification of an (N, 2) polyline (ends always kept)."""
    pts = np.asarray(xz, float)
    n = len(pts)
    if n <= 2:
        return list(range(n))
    keep = np.zeros(n, bool)
    keep[[0, n - 1]] = True
    stack = [(0, n - 1)]
    while stack:
        i, j = stack.pop()
        if j <= i + 1:
            continue
        a, b = pts[i], pts[j]
        ab = b - a
        L2 = float(ab @ ab)
        mid = pts[i + 1: j]
        if L2 < 1e-18:
            d = np.hypot(*(mid - a).T)
        else:
            t = np.clip(((mid - a) @ ab) / L2, 0.0, 1.0)
            d = np.hypot(*(mid - (a + t[:, None] * ab)).T)
        k = int(np.argmax(d))
        if d[k] > tolerance:
            keep[i + 1 + k] = True
            stack += [(i, i + 1 + k), (i + 1 + k, j)]
    return [int(i) for i in np.flatnonzero(keep)]


def _heading(a: np.ndarray, b: np.ndarray) -> float:
    return yaw_of_direction(float(b[0] - a[0]), float(b[2] - a[2]))


def simplify_path(path: np.ndarray, tolerance: float = 0.5, min_turn_deg: float = 20.0,
                  min_segment: float = 1.0) -> list[int]:
    """Indices of ``path`` (N, 3) kept as turn points; first and last always kept.

    After Douglas–Peucker (``tolerance`` m, XZ), a vertex is dropped while its heading change
    is below ``min_turn_deg`` or one of its segments is shorter than ``min_segment`` m (the
    shorter side's vertex goes; the ends stay).
    """
    p = np.asarray(path, float)
    idx = douglas_peucker(p[:, [0, 2]], tolerance)
    idx = [i for k, i in enumerate(idx) if k == 0 or np.hypot(*(p[i] - p[idx[k - 1]])[[0, 2]]) > 1e-9]
    if len(idx) >= 2 and idx[-1] != len(p) - 1:
        idx[-1] = len(p) - 1
    changed = True
    while changed and len(idx) > 2:
        changed = False
        seg = [float(np.hypot(*(p[b] - p[a])[[0, 2]])) for a, b in itertools.pairwise(idx)]
        turns = [abs(wrap_angle(_heading(p[idx[k]], p[idx[k + 1]]) - _heading(p[idx[k - 1]], p[idx[k]])))
                 for k in range(1, len(idx) - 1)]
        k_turn = int(np.argmin(turns))
        if math.degrees(turns[k_turn]) < min_turn_deg:
            del idx[k_turn + 1]
            changed = True
            continue
        k_seg = int(np.argmin(seg))
        if seg[k_seg] < min_segment:
            # drop the interior vertex of the short segment (never an end)
            drop = k_seg + 1 if k_seg + 1 < len(idx) - 1 else k_seg
            if drop in (0, len(idx) - 1):
                break
            del idx[drop]
            changed = True
    return idx


def _arc(p: np.ndarray) -> np.ndarray:
    """Cumulative XZ arc length (m) at each vertex of ``p`` (N, 3)."""
    return np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(p[:, [0, 2]], axis=0).T))])


def split_at_events(path: np.ndarray, idx: list[int], events: Sequence[tuple[float, float, str]]
                    ) -> tuple[np.ndarray, list[int]]:
    """Insert turn-free vertices so that no simplified segment holds two events.

    ``events`` are ``(s_lo, s_hi, kind)`` by arc length (see ``RouteContext.events``); an event
    belongs to the segment holding its middle. Between two events of one segment a vertex is
    inserted on the path midway between them. Returns the (possibly longer) path and indices.
    """
    p = np.asarray(path, float)
    cum = _arc(p)
    cuts: list[float] = []
    for a, b in itertools.pairwise(idx):
        mids = sorted(e for e in events if cum[a] <= (e[0] + e[1]) / 2 < cum[b])
        cuts += [(e1[1] + e2[0]) / 2 for e1, e2 in itertools.pairwise(mids)]
    if not cuts:
        return p, list(idx)
    keep_orig = set(idx)
    ins: list[tuple[int, float, np.ndarray]] = []
    for c in cuts:
        j = int(np.clip(np.searchsorted(cum, c, side="right") - 1, 0, len(p) - 2))
        t = (c - cum[j]) / max(cum[j + 1] - cum[j], 1e-12)
        if t <= 1e-6 or t >= 1 - 1e-6:
            keep_orig.add(j if t <= 1e-6 else j + 1)
        else:
            ins.append((j, t, p[j] + t * (p[j + 1] - p[j])))
    ins.sort(key=lambda x: (x[0], x[1]))
    pts: list[np.ndarray] = []
    where: dict[int, int] = {}
    keep: set[int] = set()
    k = 0
    for i in range(len(p)):
        where[i] = len(pts)
        pts.append(p[i])
        while k < len(ins) and ins[k][0] == i:
            keep.add(len(pts))
            pts.append(ins[k][2])
            k += 1
    keep |= {where[i] for i in keep_orig}
    return np.asarray(pts, float), sorted(keep)


def turn_word(angle: float, s: RouteSettings) -> str | None:
    """Name of a heading change (rad, positive = left): ``None`` below ``min_turn_deg``,
    ``"slightly left/right"`` below ``slight_turn_deg`` (45°), ``"left/right"`` up to
    ``sharp_turn_deg`` (135°), ``"sharp left/right"`` above it, ``"around"`` above
    ``around_turn_deg`` (170°: left and right are then the same turn)."""
    angle = wrap_angle(angle)  # the side of the wrapped change: headings straddle ±π facing +Z
    d = math.degrees(abs(angle))
    if d < s.min_turn_deg:
        return None
    if d > s.around_turn_deg:
        return "around"
    side = "left" if angle > 0 else "right"
    if d < s.slight_turn_deg:
        return f"slightly {side}"
    return f"sharp {side}" if d > s.sharp_turn_deg else side


@dataclass(frozen=True)
class Directive:
    """One step of a route instruction.

    Attributes:
        kind: ``"turn"``, ``"move"`` or ``"arrive"``.
        turn: for turns, ``left``/``right``/``slightly left``/``slightly right``/
            ``sharp left``/``sharp right``/``around`` (:func:`turn_word`).
        via: for moves, what the segment crosses or follows: ``door``, ``exit``, ``corridor``,
            ``crosswalk``, ``road``, ``sidewalk`` or ``None``; for arrivals, ``object``/``place``.
        into: label of the room entered through a door (``"kitchen"``), if any.
        landmark: referring expression of the landmark (``"the sofa"``), if any.
        landmark_id: its object / place id.
        side: for arrivals, where the goal is relative to the final heading
            (``left``/``right``/``ahead``).
        vertex: index of the simplified path vertex where the step starts.
        length: segment length in metres (metadata only; never in the text).
        angle: for turns, the heading change in degrees (positive = left; metadata only).
    """

    kind: str
    turn: str | None = None
    via: str | None = None
    into: str | None = None
    landmark: str | None = None
    landmark_id: str | None = None
    side: str | None = None
    vertex: int = 0
    length: float = 0.0
    angle: float | None = None

    def to_dict(self) -> JSONObject:
        """JSON-able dict (``None`` fields dropped, length rounded to mm, angle to 0.1°)."""
        return {k: (round(v, 3) if k == "length" else round(v, 1) if k == "angle" else v)
                for k, v in asdict(self).items() if v is not None}


@dataclass(frozen=True)
class RouteInstruction:
    """A route instruction: ``text``, its ``directives``, the simplified path (K, 3), the
    ``landmarks`` named (ids, in order) and the goal's referring expression."""

    text: str
    directives: tuple[Directive, ...]
    simplified_path: np.ndarray
    landmarks: tuple[str, ...]
    goal_phrase: str


def route_directives(ctx: RouteContext, path: np.ndarray, start_yaw: float, goal_id: str
                     ) -> tuple[list[Directive], np.ndarray]:
    """Directives for ``path`` (N, 3) from ``start_yaw`` (rad) to the goal object/place ``goal_id``.

    Returns the directives and the simplified path. Raises ``KeyError`` if the goal cannot be
    named (see :meth:`RouteContext.refer`).
    """
    s = ctx.settings
    p = np.asarray(path, float)
    goal_phrase = ctx.refer(goal_id)
    if goal_phrase is None:
        raise KeyError(goal_id)
    idx = simplify_path(p, s.simplify_tolerance, s.min_turn_deg, s.min_segment)
    events = ctx.events(p)
    p, idx = split_at_events(p, idx, events)
    cum = _arc(p)
    v = p[idx]
    used = {goal_id}
    out: list[Directive] = []
    heading = start_yaw
    n_landmarks = 0
    for k in range(len(v) - 1):
        a, b = v[k], v[k + 1]
        h = _heading(a, b)
        turn = wrap_angle(h - heading)
        tw = turn_word(turn, s)
        if tw is not None and _merges(out, turn, s):  # one turn, its heading change summed
            prev = out[-2]
            total = math.radians(prev.angle or 0.0) + turn
            del out[-2:]
            tw = turn_word(total, s) or tw
            out.append(replace(prev, turn=tw, angle=math.degrees(total)))
        elif tw is not None:
            lm = ctx.landmark_at(a, used) if (k > 0 and n_landmarks < s.max_landmarks) else None
            if lm is not None:
                used.add(lm[0])
                n_landmarks += 1
            out.append(Directive("turn", turn=tw, landmark=lm and lm[1], landmark_id=lm and lm[0],
                                 vertex=k, angle=math.degrees(turn)))
        heading = h
        via, into = ctx.crossing(p, idx[k], idx[k + 1])
        mine = [e for e in events if cum[idx[k]] <= (e[0] + e[1]) / 2 < cum[idx[k + 1]]
                or (k == len(v) - 2 and (e[0] + e[1]) / 2 >= cum[idx[k + 1]])]
        if mine:  # exits and street crossings come from the path geometry, each stated once
            via, into = mine[0][2], None
        elif via in ("exit", "crosswalk", "road"):
            via, into = None, None
        lm = ctx.landmark_along(a, b, used) if n_landmarks < s.max_landmarks else None
        if lm is not None:
            used.add(lm[0])
            n_landmarks += 1
        out.append(Directive("move", via=via, into=into, landmark=lm and lm[1], landmark_id=lm and lm[0],
                             vertex=k, length=float(np.hypot(*(b - a)[[0, 2]]))))
    gx, gz = ctx.target_xz(goal_id)
    rel = wrap_angle(yaw_of_direction(gx - float(v[-1][0]), gz - float(v[-1][2])) - heading)
    dist = math.hypot(gx - float(v[-1][0]), gz - float(v[-1][2]))
    side = None if dist < 0.3 else ("ahead" if abs(rel) <= math.radians(45) else
                                    "left" if 0 < rel < math.radians(135) else
                                    "right" if -math.radians(135) < rel < 0 else None)
    out.append(Directive("arrive", via=ctx.kind_of(goal_id), landmark=goal_phrase, landmark_id=goal_id,
                         side=side, vertex=len(v) - 1))
    return out, v


def _merges(out: list[Directive], turn: float, s: RouteSettings) -> bool:
    """Whether a turn of ``turn`` rad continues the previous one: ``out`` ends with a turn the
    same way and a move shorter than ``merge_turn_distance`` with nothing to state on it."""
    if len(out) < 2 or out[-2].kind != "turn" or out[-2].angle is None or out[-1].kind != "move":
        return False
    mv = out[-1]
    quiet = mv.via is None and mv.into is None and mv.landmark is None
    return quiet and mv.length < s.merge_turn_distance and out[-2].angle * turn > 0


_TURN = {
    "left": ("turn left", "make a left turn", "take a left"),
    "right": ("turn right", "make a right turn", "take a right"),
    "slightly left": ("bear left", "turn slightly left", "veer left"),
    "slightly right": ("bear right", "turn slightly right", "veer right"),
    "sharp left": ("make a sharp left", "turn sharply left", "take a sharp left"),
    "sharp right": ("make a sharp right", "turn sharply right", "take a sharp right"),
    "around": ("turn around", "turn back"),
}
_MOVE = {
    None: ("go straight", "walk forward", "continue straight", "move ahead", "keep going"),
    "door": ("go through the door", "walk through the doorway", "pass through the door"),
    "exit": ("go out of the building", "exit the building", "walk out through the exit"),
    "corridor": ("walk along the corridor", "go down the hallway", "follow the hallway"),
    "crosswalk": ("cross the street at the crosswalk", "use the crosswalk to cross the road"),
    "road": ("cross the road", "cross the street"),
    "sidewalk": ("follow the sidewalk", "continue along the sidewalk", "walk down the street"),
}
_PAST = (" past {lm}", ", passing {lm}")
_AT = (" at {lm}", " when you reach {lm}")
_THEN = ("Then ", "After that, ", "Next, ", "")
_ARRIVE = {
    "object": ("Stop at {g}.", "Stop next to {g}.", "You will arrive at {g}.", "Your destination is {g}."),
    "place": ("You have arrived at {g}.", "Stop in front of {g}.", "You will arrive at {g}.",
              "Your destination is {g}."),
}
_SIDE = {"left": " It is on your left.", "right": " It is on your right.", "ahead": " It is ahead of you."}


def _pick(rng: np.random.Generator, options: Sequence[str]) -> str:
    return options[int(rng.integers(len(options)))]


def render_text(directives: Sequence[Directive], rng: np.random.Generator) -> str:
    """Template text of ``directives`` (phrase variants drawn from ``rng``)."""
    clauses: list[str] = []
    pending: str | None = None
    for d in directives:
        if d.kind == "turn":
            t = _pick(rng, _TURN[d.turn or "left"])
            if d.landmark:
                t += _pick(rng, _AT).format(lm=d.landmark)
            pending = t
        elif d.kind == "move":
            m = _pick(rng, _MOVE.get(d.via, _MOVE[None]))
            if d.via == "door" and d.into:
                m += f" into the {d.into}"
            if d.landmark:
                m += _pick(rng, _PAST).format(lm=d.landmark)
            clauses.append(f"{pending} and {m}" if pending else m)
            pending = None
        else:
            if pending:
                clauses.append(pending)
            pending = None
    sentences = []
    for i, c in enumerate(clauses):
        lead = "" if i == 0 else _pick(rng, _THEN)
        c = lead + c
        sentences.append(c[0].upper() + c[1:] + ".")
    arrive = directives[-1]
    a = _pick(rng, _ARRIVE.get(arrive.via or "object", _ARRIVE["object"])).format(g=arrive.landmark)
    if arrive.side:
        a += _SIDE[arrive.side]
    sentences.append(a[0].upper() + a[1:])
    return " ".join(sentences)


def route_instruction(ctx: RouteContext, path: np.ndarray, start_yaw: float, goal_id: str, seed: int
                      ) -> RouteInstruction:
    """The template route instruction for one reference path (deterministic given ``seed``)."""
    dirs, v = route_directives(ctx, path, start_yaw, goal_id)
    text = render_text(dirs, derive(seed, "route_text", goal_id))
    lms = tuple(d.landmark_id for d in dirs if d.landmark_id and d.kind != "arrive")
    return RouteInstruction(text, tuple(dirs), v, lms, dirs[-1].landmark or "")

