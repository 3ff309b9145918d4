"""Sampling conditional instructions from a scene (SPEC §3, CondVLN §3.1.4).

Per instruction: the category fixes a program skeleton (below); the selected outcome (branch
path) is drawn **balanced**: per scene and category, outcomes are dealt in shuffled blocks of
one of each, so an agent that always takes the first branch scores ≈ 1/(number of branches).
Conditions on the selected path get the truth that path needs; conditions off the path get a
fair coin. Each condition is then grounded with that truth:

* presence, true: a label present in the room; false: a label present elsewhere in the scene
  but absent from the room;
* relation (probability ``p_relation``): two objects with labels unique in the room and a
  predicate of ``relation_predicates`` that does / does not hold in the scene graph.

Targets are distinct objects referable without ambiguity: the only object with its label in
its room, or an object made unique by a qualifier "<predicate> the <anchor>" whose anchor has a
unique label and for which no other object with the target's label satisfies the predicate.
Only rooms whose label is unique in the scene are used (so "in the kitchen" is definite).

Skeletons (``C`` conditions in pre-order, ``T`` targets, ``W`` a waypoint in C1's room)::

    simple        If(C0, T0, T1)                              2 branches
    nested        If(C0, If(C1, T0, T1), T2)                  3
    deep_nested   If(C0, If(C1, If(C2, T0, T1), T2), T3)      4
    chain         If(C0, T0, If(C1, T1, T2))                  3
    long_chain    If(C0, T0, If(C1, T1, If(C2, T2, T3)))      4
    nested_chain  If(C0, Seq(W, If(C1, T0, T1)), If(C2, T2, T3))   4 (W is a subgoal)

Axes recorded (``Instruction.axes``): ``cross_room`` — some evaluated condition's room differs
from the goal's room; ``evidence_observability`` — ``"on_route"`` when every evaluated
condition is in the goal's room or in a room already visited (a subgoal's) when it is
evaluated, else ``"off_route"``; ``horizon`` — navigation segments (subgoals + 1);
``condition_rooms`` (condition id → room id), ``evaluated``, ``target_rooms`` (subgoal and goal
room ids, in order) so that episode builders can add start-dependent axes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from navbench.errors import ConfigError, NavbenchError
from navbench.graph.relations import AZIMUTH_NAMES, SEMANTIC_PREDICATES, PairMetrics
from navbench.graph.scene_graph import SceneGraph, build_scene_graph
from navbench.graph.settings import GraphSettings
from navbench.rng import derive
from navbench.scene.model import Scene, SceneObject
from navbench.tasks.conditional.instruction import CATEGORIES, Instruction
from navbench.tasks.conditional.program import (
    Condition,
    Go,
    If,
    ObjectRef,
    Presence,
    Program,
    Qualifier,
    Relation,
    Seq,
    conditions,
    execute,
    follow,
    outcomes,
)
from navbench.tasks.conditional.templates import is_speakable, linear_text, realise

_LEVEL_CANONICAL = tuple(f"{a} of" for a in AZIMUTH_NAMES)


class SamplingError(NavbenchError):
    """A scene cannot support the requested instructions."""


@dataclass(frozen=True)
class InstructionSettings:
    """Sampler options.

    Attributes:
        p_relation: probability that a condition is a spatial relation (else object presence).
        p_cross_room: probability of drawing conditions and targets across rooms; otherwise
            everything is drawn in one room (the recorded ``cross_room`` axis is computed).
        relation_predicates: predicates used in relation conditions.
        qualifier_predicates: predicates used to disambiguate targets.
        max_attempts: draws per instruction before giving up.
        min_target_gap: the targets of one instruction are at least this far apart (m, XZ
            footprint gap), so that an agent's stopping point tells which branch it took
            (episode builders set it to twice the success distance and check the exact goal
            positions again); ``0`` (the default) disables it.
    """

    p_relation: float = 0.3
    p_cross_room: float = 0.5
    relation_predicates: tuple[str, ...] = SEMANTIC_PREDICATES + _LEVEL_CANONICAL
    qualifier_predicates: tuple[str, ...] = ("near", "above", "below", *_LEVEL_CANONICAL)
    max_attempts: int = 200
    min_target_gap: float = 0.0

    def __post_init__(self) -> None:
        for name in ("p_relation", "p_cross_room"):
            v = getattr(self, name)
            if not 0.0 <= v <= 1.0:
                raise ConfigError(f"InstructionSettings.{name}: expected a value in [0, 1], got {v}")
        if not self.relation_predicates or not self.qualifier_predicates:
            raise ConfigError("InstructionSettings: predicate lists must not be empty")
        if self.min_target_gap < 0:
            raise ConfigError("InstructionSettings.min_target_gap: expected >= 0")
        if self.max_attempts < 1:
            raise ConfigError("InstructionSettings.max_attempts: expected >= 1")


# --------------------------------------------------------------------------- skeletons

Skeleton = Callable[[list[Condition], list[Program], Program | None], Program]
SKELETONS: dict[str, tuple[int, int, bool, Skeleton]] = {
    # name: (conditions, targets, waypoint, builder(conds, goes, waypoint))
    "simple": (1, 2, False, lambda c, t, w: If(c[0], t[0], t[1])),
    "nested": (2, 3, False, lambda c, t, w: If(c[0], If(c[1], t[0], t[1]), t[2])),
    "deep_nested": (3, 4, False, lambda c, t, w: If(c[0], If(c[1], If(c[2], t[0], t[1]), t[2]), t[3])),
    "chain": (2, 3, False, lambda c, t, w: If(c[0], t[0], If(c[1], t[1], t[2]))),
    "long_chain": (3, 4, False, lambda c, t, w: If(c[0], t[0], If(c[1], t[1], If(c[2], t[2], t[3])))),
    "nested_chain": (3, 4, True, lambda c, t, w: If(
        c[0], Seq((w, If(c[1], t[0], t[1]))), If(c[2], t[2], t[3]))),  # type: ignore[arg-type]
}
assert set(SKELETONS) == set(CATEGORIES)


def _dummy(category: str) -> Program:
    nc, nt, wp, build = SKELETONS[category]
    conds: list[Condition] = [Presence(f"x{k}", "r") for k in range(nc)]
    goes: list[Program] = [Go(ObjectRef(f"t{k}", "r")) for k in range(nt)]
    return build(conds, goes, Go(ObjectRef("w", "r")) if wp else None)


_OUTCOMES = {c: outcomes(_dummy(c)) for c in SKELETONS}
_REQUIRED = {
    c: [dict(zip(follow(_dummy(c), o).evaluated, [s == "then" for s in o], strict=True))
        for o in outs]
    for c, outs in _OUTCOMES.items()
}


# --------------------------------------------------------------------------- scene index


@dataclass
class _Room:
    id: str
    label: str
    objects: tuple[SceneObject, ...]
    pairs: PairMetrics
    labels: list[str]
    absent: list[str]
    unique: list[int]
    refs: dict[int, list[ObjectRef]]
    rel: np.ndarray  # (P, N, N) bool: [p, i, j] = o_j is pred_p o_i
    ref_keys: list[int] = field(default_factory=list)


class SceneIndex:
    """Referable rooms, objects and conditions of one scene (built once per scene)."""

    def __init__(self, scene: Scene, graph: SceneGraph, settings: InstructionSettings) -> None:
        self.scene = scene
        self.settings = settings
        room_counts = Counter(r.label for r in scene.rooms)
        scene_labels = sorted({o.label for o in scene.objects if o.room_id in scene.room_index
                               and is_speakable(o.label)})
        self.rooms: list[_Room] = []
        for r in scene.rooms:
            if room_counts[r.label] != 1 or not is_speakable(r.label) or r.id not in graph.geometry:
                continue
            objs = scene.objects_in(r.id)
            if not objs:
                continue
            pm = graph.geometry[r.id].pairs
            cnt = Counter(o.label for o in objs)
            labels = sorted(lab for lab in cnt if is_speakable(lab))
            unique = [k for k, o in enumerate(objs) if cnt[o.label] == 1 and is_speakable(o.label)]
            rel = np.stack([pm.holds(p) for p in settings.relation_predicates])
            room = _Room(r.id, r.label, objs, pm, labels,
                         [lab for lab in scene_labels if lab not in cnt], unique, {}, rel)
            self._targets(room, cnt)
            room.ref_keys = sorted(room.refs)
            self.rooms.append(room)
        self.by_id = {r.id: r for r in self.rooms}
        self.pool = [(r, k) for r in self.rooms for k in r.ref_keys]

    def _targets(self, room: _Room, cnt: Counter[str]) -> None:
        objs = room.objects
        for k in room.unique:
            o = objs[k]
            room.refs[k] = [ObjectRef(o.label, room.label, None, o.id, room.id)]
        quals = {p: room.pairs.holds(p) for p in self.settings.qualifier_predicates}
        for lab in sorted(lab for lab, c in cnt.items() if c > 1 and is_speakable(lab)):
            same = np.array([o.label == lab for o in objs])
            for p, m in quals.items():
                for a in room.unique:
                    row = m[a] & same
                    if row.sum() == 1:
                        k = int(np.nonzero(row)[0][0])
                        anchor = objs[a]
                        room.refs.setdefault(k, []).append(ObjectRef(
                            lab, room.label, Qualifier(p, anchor.label, anchor.id),
                            objs[k].id, room.id))

    def _apart(self, obj: SceneObject, taken: set[str]) -> bool:
        """Whether ``obj``'s XZ footprint is at least ``min_target_gap`` from every taken target."""
        gap = self.settings.min_target_gap
        if gap <= 0 or not taken:
            return True
        a = _footprint(obj)
        for oid in taken:
            b = _footprint(self.scene.object_index[oid])
            dx = max(a[0] - b[2], b[0] - a[2], 0.0)
            dz = max(a[1] - b[3], b[1] - a[3], 0.0)
            if dx * dx + dz * dz < gap * gap:
                return False
        return True

    # ---- grounding
    def condition(self, room: _Room, truth: bool, rng: np.random.Generator) -> Condition | None:
        """A condition in ``room`` with the given truth, or None if the room cannot supply one."""
        s = self.settings
        if len(room.unique) >= 2 and rng.random() < s.p_relation:
            for _ in range(8):
                a, b = rng.choice(len(room.unique), size=2, replace=False)
                ia, ib = room.unique[int(a)], room.unique[int(b)]
                ok = np.nonzero(room.rel[:, ib, ia] == truth)[0]
                if len(ok):
                    p = s.relation_predicates[int(ok[int(rng.integers(len(ok)))])]
                    oa, ob = room.objects[ia], room.objects[ib]
                    return Relation(ObjectRef(oa.label, room.label, None, oa.id, room.id), p,
                                    ObjectRef(ob.label, room.label, None, ob.id, room.id))
        pool = room.labels if truth else room.absent
        if not pool:
            return None
        return Presence(pool[int(rng.integers(len(pool)))], room.label, room.id)

    def target(self, room: _Room | None, rng: np.random.Generator, taken: set[str]) -> Go | None:
        """A referable target (in ``room``, or anywhere when None) not in ``taken``."""
        cands = [(room, k) for k in room.ref_keys] if room is not None else self.pool
        free = [(r, k) for r, k in cands if r.objects[k].id not in taken
                and self._apart(r.objects[k], taken)]
        if not free:
            return None
        r, k = free[int(rng.integers(len(free)))]
        refs = r.refs[k]
        ref = refs[int(rng.integers(len(refs)))]
        taken.add(r.objects[k].id)
        return Go(ref)


def _footprint(o: SceneObject) -> tuple[float, float, float, float]:
    """XZ bounds ``(xmin, zmin, xmax, zmax)`` of an object (its centre when it has no extent)."""
    b = o.bounds
    if b is None:
        r = o.extent_radius or 0.0
        x, z = o.center[0], o.center[2]
        return (x - r, z - r, x + r, z + r)
    return (b[0][0], b[0][2], b[1][0], b[1][2])


# --------------------------------------------------------------------------- axes


def _axes(p: Program, truths: dict[str, bool], goal: ObjectRef,
          subgoals: Sequence[ObjectRef]) -> dict[str, object]:
    conds = conditions(p)
    room_of = {f"c{k}": (c.room_id if isinstance(c, Presence) else c.subject.room_id)
               for k, c in enumerate(conds)}
    ids = {id(c): f"c{k}" for k, c in enumerate(conds)}
    visited: list[str] = []
    seen: list[tuple[str, set[str]]] = []

    def walk(n: Program) -> None:
        if isinstance(n, Go):
            visited.append(str(n.target.room_id))
        elif isinstance(n, Seq):
            for s in n.steps:
                walk(s)
        else:
            cid = ids[id(n.cond)]
            seen.append((cid, set(visited)))
            walk(n.then if truths[cid] else n.else_)

    walk(p)
    g_room = goal.room_id
    cross = any(room_of[c] != g_room for c, _ in seen)
    on_route = all(room_of[c] == g_room or room_of[c] in before for c, before in seen)
    return {
        "cross_room": cross,
        "evidence_observability": "on_route" if on_route else "off_route",
        "horizon": len(subgoals) + 1,
        "condition_rooms": room_of,
        "evaluated": [c for c, _ in seen],
        "target_rooms": [s.room_id for s in subgoals] + [g_room],
        "relation_conditions": sum(isinstance(c, Relation) for c in conds),
    }


# --------------------------------------------------------------------------- sampling


def _draw(index: SceneIndex, category: str, outcome: int, rng: np.random.Generator
          ) -> tuple[Program, dict[str, bool]] | None:
    nc, nt, wp, build = SKELETONS[category]
    need = _REQUIRED[category][outcome]
    truths = {f"c{k}": need.get(f"c{k}", bool(rng.integers(2))) for k in range(nc)}
    rooms = index.rooms
    cross = rng.random() < index.settings.p_cross_room
    if cross:
        c_rooms = [rooms[int(rng.integers(len(rooms)))] for _ in range(nc)]
        t_room: list[_Room | None] = [None] * nt
    else:
        r = rooms[int(rng.integers(len(rooms)))]
        c_rooms, t_room = [r] * nc, [r] * nt
    conds: list[Condition] = []
    for k in range(nc):
        c = index.condition(c_rooms[k], truths[f"c{k}"], rng)
        if c is None or c in conds:
            return None
        conds.append(c)
    taken: set[str] = set()
    waypoint = index.target(c_rooms[1], rng, taken) if wp else None
    goes: list[Program] = []
    for k in range(nt):
        g = index.target(t_room[k], rng, taken)
        if g is None or (wp and waypoint is None):
            return None
        goes.append(g)
    return build(conds, goes, waypoint), truths


def generate_instructions(
    scene: Scene,
    n: int,
    seed: int,
    categories: Sequence[str] | None = None,
    settings: GraphSettings | None = None,
    graph: SceneGraph | None = None,
    instruction_settings: InstructionSettings | None = None,
    start_index: int = 0,
) -> list[Instruction]:
    """Draw ``n`` instructions for ``scene``; categories are dealt round-robin.

    Same scene, ``n``, ``seed`` and settings → identical instructions. Ids are
    ``f"{scene.id}:{start_index + i}"``.

    Raises:
        ConfigError: unknown category or negative ``n``.
        SamplingError: the scene cannot support a category (too few referable objects/rooms).
    """
    cats = list(categories or CATEGORIES)
    bad = [c for c in cats if c not in CATEGORIES]
    if bad or not cats:
        raise ConfigError(f"unknown categories {bad}; expected some of {list(CATEGORIES)}")
    if n < 0:
        raise ConfigError(f"n: expected >= 0, got {n}")
    ist = instruction_settings or InstructionSettings()
    graph = graph or build_scene_graph(scene, settings)
    index = SceneIndex(scene, graph, ist)
    if not index.rooms:
        raise SamplingError(f"scene {scene.id!r}: no room with a unique label and objects")
    out: list[Instruction] = []
    per_cat: Counter[str] = Counter()
    blocks: dict[str, np.ndarray] = {}
    for i in range(n):
        cat = cats[i % len(cats)]
        k = per_cat[cat]
        per_cat[cat] += 1
        outs = _OUTCOMES[cat]
        if k % len(outs) == 0:
            blocks[cat] = derive(seed, scene.id, cat, "block", k // len(outs)).permutation(len(outs))
        outcome = int(blocks[cat][k % len(outs)])
        rng = derive(seed, scene.id, cat, "draw", k)
        for _ in range(ist.max_attempts):
            got = _draw(index, cat, outcome, rng)
            if got is not None:
                break
        else:
            raise SamplingError(
                f"scene {scene.id!r}: could not draw a {cat!r} instruction in "
                f"{ist.max_attempts} attempts (too few referable objects or rooms)")
        prog, truths = got
        out.append(_record(scene.id, f"{scene.id}:{start_index + i}", cat, prog, truths, rng))
    return out


def _record(scene_id: str, iid: str, cat: str, prog: Program, truths: dict[str, bool],
            rng: np.random.Generator) -> Instruction:
    outs = _OUTCOMES[cat]
    path, visits, _ = execute(prog, truths)
    goal, subgoals = visits[-1], tuple(visits[:-1])

    def goal_of(o: tuple[str, ...]) -> str:
        it = iter(o)
        return str(execute(prog, lambda _c: next(it) == "then")[1][-1].object_id)

    others = tuple(goal_of(o) for o in outs if o != path)
    return Instruction(
        id=iid,
        scene_id=scene_id,
        category=cat,
        text=realise(prog, rng),
        program=prog,
        truths=truths,
        branch_path=path,
        branch_index=outs.index(path),
        n_branches=len(outs),
        goal_id=str(goal.object_id),
        subgoal_ids=tuple(str(s.object_id) for s in subgoals),
        branch_goal_ids=others,
        axes=_axes(prog, truths, goal, subgoals),
        linear_text=linear_text(goal, subgoals),
    )
