"""Referable rooms, objects and conditions of one scene (the sampler's grounding tables).

Rooms: a room with a unique label is "the kitchen"; a room whose label repeats gets a room hint
that singles it out among the rooms with its label — "with the <X>" (X present in it and in no
other room of that label; labels unique in the room, then the largest object, preferred) or "off the <Y>" (a portal joins
it to the room Y, whose label is unique in the scene, and no other room of its label touches
Y). Rooms with neither are not used. Targets and conditions: see :mod:`.sampler`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from navbench.graph.relations import PairMetrics
from navbench.graph.scene_graph import SceneGraph
from navbench.graph.settings import GraphSettings
from navbench.scene.model import Scene, SceneObject
from navbench.tasks.conditional.consistency import Context, condition_keys, ref_keys
from navbench.tasks.conditional.distractors import RoomLabelStats, room_label_stats
from navbench.tasks.conditional.margins import decidable, qualifies
from navbench.tasks.conditional.program import (
    Condition,
    Go,
    ObjectRef,
    Presence,
    Qualifier,
    Relation,
)
from navbench.tasks.conditional.references import misplaced_labels, seen_in, usable
from navbench.tasks.conditional.settings import InstructionSettings
from navbench.tasks.conditional.templates import is_speakable


@dataclass
class _Room:
    id: str
    label: str
    hint: str | None
    objects: tuple[SceneObject, ...]
    pairs: PairMetrics
    labels: list[str]  # labels of usable objects (a person sees them)
    present: list[tuple[str, float]]  # true presence labels and draw weights
    absent: list[tuple[str, float]]  # false presence labels (distractors) and draw weights
    unique: list[int]  # usable objects whose label is unique in the room
    refs: dict[int, list[ObjectRef]]
    #: predicate → (surely-failing, surely-holding) (subject, reference) pairs of unique objects
    relations: dict[str, tuple[list[tuple[int, int]], ...]]
    ref_keys: list[int] = field(default_factory=list)


def room_hints(scene: Scene) -> dict[str, str | None]:
    """Room id → ``None`` (label unique), a hint ("with the desk", "off the hallway"), or
    absent from the result when a repeated room cannot be singled out."""
    counts = Counter(r.label for r in scene.rooms)
    labels_in = {r.id: Counter(o.label for o in scene.objects_in(r.id)) for r in scene.rooms}
    by_id = {r.id: r for r in scene.rooms}
    touches: dict[str, set[str]] = {r.id: set() for r in scene.rooms}
    for p in scene.portals:
        a, b = p.regions
        if a in touches and b in touches:
            touches[a].add(b)
            touches[b].add(a)
    out: dict[str, str | None] = {}
    for r in scene.rooms:
        if counts[r.label] == 1:
            out[r.id] = None
            continue
        others = [o for o in scene.rooms if o.label == r.label and o.id != r.id]
        vol = {o.label: max(_volume(o), 0.0) for o in scene.objects_in(r.id)}
        cands = sorted((labels_in[r.id][lab] != 1, -round(vol[lab], 6), lab) for lab in labels_in[r.id]
                       if is_speakable(lab) and all(lab not in labels_in[o.id] for o in others))
        if cands:
            out[r.id] = f"with the {cands[0][2]}"
            continue
        offs = sorted(by_id[n].label for n in touches[r.id]
                      if counts[by_id[n].label] == 1 and is_speakable(by_id[n].label)
                      and all(n not in touches[o.id] for o in others))
        if offs:
            out[r.id] = f"off the {offs[0]}"
    return out


def _volume(o: SceneObject) -> float:
    """Bounding volume (m³; 0 without extent): big, unique furniture names a room best."""
    b = o.bounds
    if b is not None:
        return float(np.prod(np.asarray(b[1]) - np.asarray(b[0])))
    r = o.extent_radius or 0.0
    return 8.0 * r ** 3


def hint_facts(rooms: list[_Room]) -> Context:
    """What room hints state: "the bedroom with the desk" has a desk."""
    keys = {(r.hint[len("with the "):], r.id) for r in rooms
            if r.hint is not None and r.hint.startswith("with the ")}
    return Context(present=frozenset(keys))


class SceneIndex:
    """Referable rooms, objects and conditions of one scene (built once per scene).

    Only usable objects (:mod:`.references`: inside their room, visible at 1.5 m) are targets,
    anchors and relation objects; relation conditions and qualifiers use only pairs that surely
    hold or surely fail their predicate (:mod:`.margins`); presence labels follow
    :mod:`.distractors` with ``label_stats`` (default: the scene's own, which falls back)."""

    def __init__(self, scene: Scene, graph: SceneGraph, settings: InstructionSettings,
                 label_stats: RoomLabelStats | None = None) -> None:
        self.scene = scene
        self.settings = settings
        self.graph_settings: GraphSettings = graph.settings
        s = settings
        size = s.min_reference_size
        stats = label_stats or room_label_stats([scene], size)
        hints = room_hints(scene)
        bad = misplaced_labels(scene)
        ok = {o.id: usable(scene, o, size) for o in scene.objects}
        scene_labels = sorted({o.label for o in scene.objects if o.room_id in scene.room_index
                               and is_speakable(o.label) and ok[o.id]})
        self.rooms: list[_Room] = []
        for r in scene.rooms:
            if r.id not in hints or not is_speakable(r.label) or r.id not in graph.geometry:
                continue
            objs = scene.objects_in(r.id)
            if not objs:
                continue
            pm = graph.geometry[r.id].pairs
            cnt = Counter(o.label for o in objs)
            labels = sorted({o.label for o in objs if is_speakable(o.label) and ok[o.id]
                             and (o.label, r.id) not in bad})
            seen = seen_in(scene, r)
            contested = stats.contested(r.label, scene.source)
            if contested:  # balanced, plausible distractors (distractors.py)
                present = [(lab, contested[lab][0]) for lab in labels if lab in contested]
                absent = [(lab, w[1]) for lab, w in contested.items()
                          if lab not in seen and (lab, r.id) not in bad]
            else:  # no statistics for this room type: labels found elsewhere in the scene
                present = [(lab, 1.0) for lab in labels]
                absent = [(lab, 1.0) for lab in scene_labels if lab not in seen and (lab, r.id) not in bad]
            unique = [k for k, o in enumerate(objs) if cnt[o.label] == 1 and is_speakable(o.label)
                      and ok[o.id]]
            room = _Room(r.id, r.label, hints[r.id], objs, pm, labels, present, absent, unique, {},
                         self._relations(pm, unique))
            self._targets(room, cnt, ok)
            room.ref_keys = sorted(room.refs)
            self.rooms.append(room)
        self.by_id = {r.id: r for r in self.rooms}
        self.pool = [(r, k) for r in self.rooms for k in r.ref_keys]
        self.base = hint_facts(self.rooms)

    def _ref(self, room: _Room, o: SceneObject, q: Qualifier | None = None) -> ObjectRef:
        return ObjectRef(o.label, room.label, q, o.id, room.id, room.hint)

    def _relations(self, pm: PairMetrics, unique: list[int]) -> dict[str, tuple[list[tuple[int, int]], ...]]:
        """Predicate → (pairs that surely fail, pairs that surely hold) among the unique-label
        objects, as (subject, reference) indices; only predicates with both kinds of pair
        (so that each is asked true and false alike)."""
        s = self.settings
        out: dict[str, tuple[list[tuple[int, int]], ...]] = {}
        if len(unique) < 2:
            return out
        for p in s.relation_predicates:
            yes, no = decidable(pm, p, self.graph_settings, s.margins)
            pairs: tuple[list[tuple[int, int]], list[tuple[int, int]]] = ([], [])
            for ia in unique:
                for ib in unique:
                    if ia != ib and (no[ib, ia] or yes[ib, ia]):
                        pairs[int(bool(yes[ib, ia]))].append((ia, ib))
            if pairs[0] and pairs[1]:
                out[p] = pairs
        return out

    def _targets(self, room: _Room, cnt: Counter[str], ok: dict[str, bool]) -> None:
        objs = room.objects
        for k in room.unique:
            room.refs[k] = [self._ref(room, objs[k])]
        s = self.settings
        quals = {p: decidable(room.pairs, p, self.graph_settings, s.margins)
                 for p in s.qualifier_predicates}
        for lab in sorted(lab for lab, c in cnt.items() if c > 1 and is_speakable(lab)):
            same = [j for j, o in enumerate(objs) if o.label == lab]
            for p, table in quals.items():
                for a in room.unique:
                    for k in same:
                        if not ok[objs[k].id]:
                            continue
                        others = [j for j in same if j != k]
                        if qualifies(room.pairs, p, a, k, others, self.graph_settings, s.margins, table):
                            anchor = objs[a]
                            room.refs.setdefault(k, []).append(
                                self._ref(room, objs[k], Qualifier(p, anchor.label, anchor.id)))
                            break

    def _apart(self, obj: SceneObject, taken: set[str]) -> bool:
        """Whether ``obj``'s XZ footprint is at least ``min_target_gap`` from every taken target."""
        gap = self.settings.min_target_gap
        if gap <= 0 or not taken:
            return True
        a = footprint(obj)
        for oid in taken:
            b = footprint(self.scene.object_index[oid])
            dx = max(a[0] - b[2], b[0] - a[2], 0.0)
            dz = max(a[1] - b[3], b[1] - a[3], 0.0)
            if dx * dx + dz * dz < gap * gap:
                return False
        return True

    # ---- grounding
    def condition(self, room: _Room, truth: bool, rng: np.random.Generator,
                  ctx: Context | None = None) -> Condition | None:
        """A condition in ``room`` with the given truth that the context ``ctx`` neither decides
        nor contradicts, or None if the room cannot supply one. A relation (probability
        ``p_relation``) picks its predicate uniformly among those the room can ask both true and
        false, then a pair that surely has ``truth``; a presence draws a label with the
        balanced weights of :mod:`.distractors`."""
        s = self.settings
        ctx = ctx or Context()
        if room.relations and rng.random() < s.p_relation:
            preds = sorted(room.relations)
            p = preds[int(rng.integers(len(preds)))]
            pairs = room.relations[p][int(truth)]
            for k in rng.permutation(len(pairs))[:8]:
                ia, ib = pairs[int(k)]
                c = Relation(self._ref(room, room.objects[ia]), p, self._ref(room, room.objects[ib]))
                if ctx.consistent(c):
                    return c
        pool = [(lab, w) for lab, w in (room.present if truth else room.absent)
                if not ctx.decides(Presence(lab, room.label, room.id))]
        if not pool:
            return None
        w = np.array([x[1] for x in pool])
        k = int(np.searchsorted(np.cumsum(w), rng.random() * w.sum(), side="right"))
        return Presence(pool[min(k, len(pool) - 1)][0], room.label, room.id, room.hint)

    def target(self, room: _Room | None, rng: np.random.Generator, taken: set[str],
               ctx: Context | None = None) -> Go | None:
        """A referable target (in ``room``, or anywhere when None) not in ``taken``, one of the
        settings' ``targets`` if they are given, with no reference to an object ``ctx`` declares
        absent."""
        ctx = ctx or Context()
        cands = [(room, k) for k in room.ref_keys] if room is not None else self.pool
        allowed = self.settings.targets
        if allowed is not None:
            cands = [(r, k) for r, k in cands if r.objects[k].id in allowed]
        free = [(r, k) for r, k in cands if r.objects[k].id not in taken
                and self._apart(r.objects[k], taken)]
        while free:
            i = int(rng.integers(len(free)))
            r, k = free[i]
            refs = [x for x in r.refs[k] if ctx.allows(ref_keys(x))]
            if refs:
                taken.add(r.objects[k].id)
                return Go(refs[int(rng.integers(len(refs)))])
            free.pop(i)
        return None


def footprint(o: SceneObject) -> tuple[float, float, float, float]:
    """XZ bounds ``(xmin, zmin, xmax, zmax)`` of an object (its centre when it has no extent)."""
    b = o.bounds
    if b is None:
        r = o.extent_radius or 0.0
        x, z = o.center[0], o.center[2]
        return (x - r, z - r, x + r, z + r)
    return (b[0][0], b[0][2], b[1][0], b[1][2])


__all__ = ["SceneIndex", "condition_keys", "footprint", "room_hints"]
