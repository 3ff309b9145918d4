"""Presence labels a prior cannot see through: room-type label statistics and balanced draws.

A blind prior "is this label ever in this room type?" answered 93% of presence conditions
(majority class 51%) when false conditions named labels found elsewhere in the scene ("a
toilet in the bedroom"). The policy here: over a set of scenes (a dataset), a (label, room
type) pair is **contested** when some rooms of that type hold the label and others do not
(0 < n(L, T) < N(T), counting only usable objects, :mod:`.references`). Presence conditions
ask only about contested pairs — true: a contested label the room holds; false: a contested
label it lacks (plausible there, since other rooms of its type hold it) — and draw the label
with weights ``w⁺(L, T)`` / ``w⁻(L, T)`` fitted so that each pair is expected to be asked true
and false equally often over the scenes.

Fitting (per room type; rooms of a scene weigh 1 / its number of rooms, since instructions are
drawn per scene and conditions per room): a room r asks a true condition about L with
probability w⁺_L / Σ_{L' ∈ P_r} w⁺_L' (P_r: contested labels it holds), a false one with
w⁻_L / Σ_{L' ∈ A_r} w⁻_L' (A_r: those it lacks); E⁺_L, E⁻_L sum these over rooms. Iterative
proportional fitting, ``w⁺ ← w⁺ · √(E⁻/E⁺)``, ``w⁻ ← w⁻ · √(E⁺/E⁻)``, 60 rounds, balances
E⁺_L = E⁻_L wherever both are possible.

Sources name things differently (ProcTHOR "television", procedural "tv"), so a false label
drawn from another source's vocabulary would tell a prior that reads the vocabulary of the
text. Pairs are therefore fitted per (source, room type) where that source has contested
labels for the type, and over all sources otherwise (a source with a single house). A type
with no contested pair at all (a single scene alone, for one) falls back to the room's labels /
labels found elsewhere in the scene, which a prior does see through: build the statistics over
every scene of a dataset (``dataset build`` does, per split; ``instructions generate`` over its
folder).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from navbench.scene.model import Scene
from navbench.tasks.conditional.references import DEFAULT_MIN_SIZE, misplaced_labels, usable
from navbench.tasks.conditional.templates import is_speakable

_ROUNDS = 60


@dataclass(frozen=True)
class RoomLabelStats:
    """Label statistics per room type over a set of scenes.

    Attributes:
        rooms: room type → number of rooms (speakable labels, at least one object).
        holding: room type → label → rooms of that type holding a usable object of the label.
        weights: room type → label → ``(w_true, w_false)`` draw weights of its contested
            labels, fitted over all sources.
        by_source: scene source → the same ``weights`` fitted over that source's rooms alone
            (room types with contested labels only).
        min_size: the smallest usable object (m, visible size) the counts used.
    """

    rooms: dict[str, int]
    holding: dict[str, dict[str, int]]
    weights: dict[str, dict[str, tuple[float, float]]]
    by_source: dict[str, dict[str, dict[str, tuple[float, float]]]]
    min_size: float

    def contested(self, room_type: str, source: str | None = None) -> dict[str, tuple[float, float]]:
        """Contested labels of a room type with their ``(w_true, w_false)``: the source's own
        where it has some, else over all sources (empty: fall back)."""
        own = self.by_source.get(str(source), {}).get(room_type)
        return own if own else self.weights.get(room_type, {})


def room_contents(scene: Scene, min_size: float = DEFAULT_MIN_SIZE) -> list[tuple[str, frozenset[str]]]:
    """(room type, labels of its usable objects) per room with a speakable label and objects;
    labels a misplaced object makes doubtful there are left out."""
    bad = misplaced_labels(scene)
    out = []
    for r in scene.rooms:
        objs = scene.objects_in(r.id)
        if not objs or not is_speakable(r.label):
            continue
        labs = frozenset(o.label for o in objs if is_speakable(o.label) and usable(scene, o, min_size)
                         and (o.label, r.id) not in bad)
        out.append((r.label, labs))
    return out


def room_label_stats(scenes: Sequence[Scene], min_size: float = DEFAULT_MIN_SIZE) -> RoomLabelStats:
    """The statistics and balanced draw weights of ``scenes`` (module docstring).

    >>> from navbench.scene import Room, Scene, SceneObject
    >>> def house(k, labels):
    ...     room = Room("r", "kitchen", ((0, 0), (4, 0), (4, -4), (0, -4)))
    ...     objs = tuple(SceneObject(f"o{i}", lab, (1.0 + i * 0.5, 0.5, -1.0), "r", size=(0.4, 0.4, 0.4))
    ...                  for i, lab in enumerate(labels))
    ...     return Scene(f"h{k}", "indoor", "handmade", (room,), objs)
    >>> st = room_label_stats([house(0, ["sink", "oven"]), house(1, ["sink", "stool"]),
    ...                        house(2, ["sink", "oven", "stool"])])
    >>> st.rooms, st.holding["kitchen"]
    ({'kitchen': 3}, {'oven': 2, 'sink': 3, 'stool': 2})
    >>> sorted(st.contested("kitchen"))  # every kitchen has a sink: never asked about
    ['oven', 'stool']
    """
    members: dict[tuple[str, str], list[tuple[float, frozenset[str]]]] = {}
    for sc in sorted(scenes, key=lambda s: s.id):
        contents = room_contents(sc, min_size)
        for rtype, labs in contents:
            members.setdefault((sc.source, rtype), []).append((1.0 / len(contents), labs))
    pooled: dict[str, list[tuple[float, frozenset[str]]]] = {}
    for (_src, rtype), ms in sorted(members.items()):
        pooled.setdefault(rtype, []).extend(ms)
    holding = {t: Counter(lab for _w, labs in ms for lab in labs) for t, ms in sorted(pooled.items())}
    weights = {t: w for t, ms in pooled.items() if (w := _fit(ms))}
    by_source: dict[str, dict[str, dict[str, tuple[float, float]]]] = {}
    for (src, rtype), ms in sorted(members.items()):
        w = _fit(ms)
        if w:
            by_source.setdefault(src, {})[rtype] = w
    return RoomLabelStats({t: len(ms) for t, ms in pooled.items()},
                          {t: dict(sorted(c.items())) for t, c in holding.items()},
                          weights, by_source, float(min_size))


def _fit(members: list[tuple[float, frozenset[str]]]) -> dict[str, tuple[float, float]]:
    """Balanced ``(w_true, w_false)`` of the contested labels of one room type, given its rooms
    as (weight, labels held)."""
    holding = Counter(lab for _w, labs in members for lab in labs)
    cont = sorted(lab for lab, n in holding.items() if 0 < n < len(members))
    if not cont:
        return {}
    wt = dict.fromkeys(cont, 1.0)
    wf = dict.fromkeys(cont, 1.0)
    sets = [(w, [lab for lab in cont if lab in labs], [lab for lab in cont if lab not in labs])
            for w, labs in members]
    for _ in range(_ROUNDS):
        et = dict.fromkeys(cont, 0.0)
        ef = dict.fromkeys(cont, 0.0)
        for w, have, lack in sets:
            zt = sum(wt[lab] for lab in have)
            zf = sum(wf[lab] for lab in lack)
            for lab in have:
                et[lab] += w * wt[lab] / zt
            for lab in lack:
                ef[lab] += w * wf[lab] / zf
        for lab in cont:
            r = math.sqrt(ef[lab] / et[lab])
            wt[lab] *= r
            wf[lab] /= r
        st, sf = sum(wt.values()), sum(wf.values())
        wt = {k: v / st for k, v in wt.items()}
        wf = {k: v / sf for k, v in wf.items()}
    return {lab: (round(wt[lab], 12), round(wf[lab], 12)) for lab in cont}


__all__ = ["RoomLabelStats", "room_contents", "room_label_stats"]
