"""Sampling conditional instructions from a scene (SPEC §3, CondVLN §3.1.4).

Per instruction: the category fixes a program skeleton (below); the selected outcome (branch
path) is drawn **balanced**: per scene and category, outcomes are dealt in shuffled blocks of
one of each, so an agent that always takes the first branch scores ≈ 1/(number of branches).
Conditions on the selected path get the truth that path needs; conditions off the path get a
fair coin. Each condition is then grounded with that truth:

* presence, true: a label the room holds; false: a label it lacks; both among the labels
  contested for the room type over the dataset's scenes, drawn so that each (label, room type)
  is asked true and false about equally often (:mod:`.distractors`: a prior cannot answer them;
  without such statistics, labels found elsewhere in the scene);
* relation (probability ``p_relation``): a predicate of ``relation_predicates`` the room can
  ask both true and false, uniformly, then two objects with labels unique in the room whose pair
  surely has the needed truth (:mod:`.margins`: never a pair a person would judge otherwise).

Only usable objects are named (:mod:`.references`: inside their room polygon, visible at
1.5 m). Targets are distinct objects referable without ambiguity: the only object with its
label in its room, or an object made unique by a qualifier "<predicate> the <anchor>" whose
anchor has a unique label, which the target surely holds and every other object with its label
surely fails (for ``near`` the runner-up is clearly farther; :func:`.margins.qualifies`). A
presence condition's (label, room) is never named in its own branches nor after it (only a
true one could be named in its then-branch). A room whose label is unique is "the
kitchen"; a room whose label repeats is named by a room hint: "the bedroom with the desk" (the
only bedroom holding a desk) or "the bathroom off the hallway" (the only bathroom with a door
to the hallway, itself unique); a repeated room with neither is not used.

Consistency (issue 16, :mod:`.consistency`): programs are grounded in execution order, each
branch under the facts its enclosing conditions and earlier visits imply, so absent objects are
never targets, anchors or relation objects there and no condition is decided by an enclosing
one. With probability ``p_subgoal`` a lead subgoal is prepended: ``Seq(W0, skeleton)`` ("First,
go to W0. Then: if ..."), in the first condition's room.

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
from navbench.graph.scene_graph import SceneGraph, build_scene_graph
from navbench.graph.settings import GraphSettings
from navbench.rng import derive
from navbench.scene.model import Scene
from navbench.tasks.conditional.consistency import (
    Context,
    condition_keys,
    presence_key,
    ref_keys,
)
from navbench.tasks.conditional.distractors import RoomLabelStats
from navbench.tasks.conditional.instruction import CATEGORIES, Instruction
from navbench.tasks.conditional.program import (
    Condition,
    Go,
    If,
    ObjectRef,
    Presence,
    Program,
    Relation,
    Seq,
    conditions,
    execute,
    follow,
    outcomes,
)
from navbench.tasks.conditional.scene_index import SceneIndex, _Room
from navbench.tasks.conditional.settings import (  # noqa: F401  (re-exported: the sampler's API)
    EVIDENCE,
    GENERATOR,
    InstructionSettings,
)
from navbench.tasks.conditional.templates import linear_text, realise


class SamplingError(NavbenchError):
    """A scene cannot support the requested instructions."""


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


_SKELETON_PROGRAMS = {c: _dummy(c) for c in SKELETONS}
_OUTCOMES = {c: outcomes(_dummy(c)) for c in SKELETONS}
_REQUIRED = {
    c: [dict(zip(follow(_dummy(c), o).evaluated, [s == "then" for s in o], strict=True))
        for o in outs]
    for c, outs in _OUTCOMES.items()
}


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


@dataclass
class _Draw:
    """One grounding attempt: truths, rooms, and what has been drawn so far."""

    truths: dict[str, bool]
    c_rooms: list[_Room]
    t_rooms: list[_Room | None]
    w_room: _Room | None
    lead_room: _Room | None
    conds: list[Condition] = field(default_factory=list)
    taken: set[str] = field(default_factory=set)
    #: (label, room id) named by a definite reference so far ("the lamp in the bedroom"): the
    #: text presupposes them, so no later presence condition may ask about them.
    mentioned: set[tuple[str, str]] = field(default_factory=set)
    #: presence conditions already drawn: no reference may name them, inside their branches or
    #: after, or the text would answer the condition (only a true one could be a target).
    closed: set[tuple[str, str]] = field(default_factory=set)

    def drawing(self, ctx: Context) -> Context:
        """``ctx`` plus the program-wide presuppositions (used only to choose, never to assume)."""
        return Context(ctx.present | self.mentioned, ctx.absent | self.closed, ctx.relations)


def _ground(index: SceneIndex, node: Program, ctx: Context, st: _Draw,
            rng: np.random.Generator) -> Program | None:
    """Ground a skeleton node in execution order under the branch facts ``ctx``."""
    if isinstance(node, Go):
        name = node.target.label
        room = {"w": st.w_room, "w0": st.lead_room}.get(name) if name.startswith("w") \
            else st.t_rooms[int(name[1:])]
        g = index.target(room, rng, st.taken, st.drawing(ctx))
        if g is not None:
            st.mentioned.update(ref_keys(g.target))
        return g
    if isinstance(node, Seq):
        steps: list[Program] = []
        for step in node.steps:
            sub = _ground(index, step, ctx, st, rng)
            if sub is None:
                return None
            steps.append(sub)
            if isinstance(sub, Go):
                ctx = ctx.visit(sub.target)
        return Seq(tuple(steps))
    assert isinstance(node, If) and isinstance(node.cond, Presence)
    cid = f"c{node.cond.label[1:]}"
    c = index.condition(st.c_rooms[int(cid[1:])], st.truths[cid], rng, st.drawing(ctx))
    if c is None or c in st.conds:
        return None
    st.conds.append(c)
    if isinstance(c, Relation):
        st.mentioned.update(condition_keys(c))
    else:  # never named again, not even in its then-branch, where only a true one could be
        st.closed.add(presence_key(c))
    then = _ground(index, node.then, ctx.assume(c, True), st, rng)
    if then is None:
        return None
    other = _ground(index, node.else_, ctx.assume(c, False), st, rng)
    return None if other is None else If(c, then, other)


def _lead_choice(category: str, outcome: int, horizons: tuple[int, ...] | None) -> bool | None:
    """Whether the lead subgoal is forced on (True), off (False) or free (None) to meet the
    allowed ``horizons``; raises ConfigError when neither meets them."""
    if horizons is None:
        return None
    base = len(follow(_SKELETON_PROGRAMS[category], _OUTCOMES[category][outcome]).subgoals) + 1
    without, with_lead = base in horizons, base + 1 in horizons
    if not (without or with_lead):
        raise ConfigError(f"horizons {list(horizons)}: a {category!r} instruction whose branch "
                          f"visits {base} target(s) has horizon {base} or {base + 1}; allow one "
                          "of them or leave that category out")
    return None if without and with_lead else with_lead


def _draw(index: SceneIndex, category: str, outcome: int, rng: np.random.Generator
          ) -> tuple[Program, dict[str, bool]] | None:
    nc, nt, _wp, _build = SKELETONS[category]
    need = _REQUIRED[category][outcome]
    truths = {f"c{k}": need.get(f"c{k}", bool(rng.integers(2))) for k in range(nc)}
    rooms = index.rooms
    lead = rng.random() < index.settings.p_subgoal
    forced = _lead_choice(category, outcome, index.settings.horizons)
    lead = lead if forced is None else forced
    if rng.random() < index.settings.p_cross_room:
        c_rooms = [rooms[int(rng.integers(len(rooms)))] for _ in range(nc)]
        t_rooms: list[_Room | None] = [None] * nt
    else:
        r = rooms[int(rng.integers(len(rooms)))]
        c_rooms, t_rooms = [r] * nc, [r] * nt
    skeleton = _SKELETON_PROGRAMS[category]
    if lead:  # the lead subgoal W0 is in the first condition's room (evidence on the way)
        skeleton = Seq((Go(ObjectRef("w0", "r")), skeleton))
    st = _Draw(truths, c_rooms, t_rooms, c_rooms[min(1, nc - 1)], c_rooms[0])
    prog = _ground(index, skeleton, index.base, st, rng)
    return None if prog is None else (prog, truths)


def generate_instructions(
    scene: Scene,
    n: int,
    seed: int,
    categories: Sequence[str] | None = None,
    settings: GraphSettings | None = None,
    graph: SceneGraph | None = None,
    instruction_settings: InstructionSettings | None = None,
    start_index: int = 0,
    label_stats: RoomLabelStats | None = None,
) -> list[Instruction]:
    """Draw ``n`` instructions for ``scene``; categories are dealt round-robin.

    Same scene, ``n``, ``seed`` and settings → identical instructions. Ids are
    ``f"{scene.id}:{start_index + i}"``.

    Parameters
    ----------
    scene : Scene
        Rooms and objects to refer to.
    n : int
        Number of instructions (≥ 0).
    seed : int
        Seed; outcomes are balanced per category in shuffled blocks (see the module docs).
    categories : sequence of str, optional
        Some of :data:`CATEGORIES` (``simple``, ``nested``, ``deep_nested``, ``chain``,
        ``long_chain``, ``nested_chain``); default all of them.
    settings : GraphSettings, optional
        Scene-graph thresholds when ``graph`` is not given.
    graph : SceneGraph, optional
        A prebuilt :func:`~navbench.graph.build_scene_graph` of ``scene``.
    instruction_settings : InstructionSettings, optional
        Sampling probabilities (relations, subgoals), attempts.
    start_index : int, default 0
        First id number.
    label_stats : RoomLabelStats, optional
        Label / room-type statistics of the dataset the scene belongs to
        (:func:`~navbench.tasks.conditional.distractors.room_label_stats` over all its scenes):
        presence conditions ask about labels contested for the room type, balanced true /
        false over those scenes. Default: this scene's own, with which most room types have
        no contested label and fall back to labels found elsewhere in the scene.

    Returns
    -------
    list of Instruction
        Each with its ``text``, ``program`` (AST), the ``truths`` of its conditions in this
        scene, the selected ``branch_index`` of ``n_branches``, the ``goal_id`` of the object
        that branch leads to, and ``linear_text`` (the oracle linearisation).

    Raises
    ------
    navbench.errors.ConfigError
        Unknown category, negative ``n``, or ``horizons`` a category cannot meet.
    SamplingError
        The scene cannot support a category (too few referable objects or rooms).

    Examples
    --------
    >>> from navbench.scene.procgen.indoor import generate_house
    >>> from navbench.tasks.conditional.sampler import generate_instructions
    >>> house = generate_house(0, n_rooms=3)
    >>> inst = generate_instructions(house, 1, seed=0, categories=["simple"])[0]
    >>> inst.id, inst.category
    ('house_0_3:0', 'simple')
    >>> inst.text
    'Should there be a tv in the living room, walk to the potted plant in the living room; if not, walk to the toilet in the bathroom.'

    The living room has a tv, so the condition holds and the first branch is the one to follow:

    >>> "tv" in [o.label for o in house.objects_in("room_0")], inst.truths, inst.branch_index
    (True, {'c0': True}, 0)
    >>> inst.linear_text, inst.n_branches
    ('Go to the potted plant in the living room.', 2)
    """
    cats = list(categories or CATEGORIES)
    bad = [c for c in cats if c not in CATEGORIES]
    if bad or not cats:
        raise ConfigError(f"unknown categories {bad}; expected some of {list(CATEGORIES)}")
    if n < 0:
        raise ConfigError(f"n: expected >= 0, got {n}")
    ist = instruction_settings or InstructionSettings()
    graph = graph or build_scene_graph(scene, settings)
    for cat in cats:  # horizons a category cannot meet: one error before any drawing
        for o in range(len(_OUTCOMES[cat])):
            _lead_choice(cat, o, ist.horizons)
    index = SceneIndex(scene, graph, ist, label_stats)
    if not index.rooms:
        raise SamplingError(f"scene {scene.id!r}: no room that can be named (unique label or "
                            "room hint) with objects")
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
            if got is None:
                continue
            inst = _record(scene.id, f"{scene.id}:{start_index + i}", cat, *got, rng)
            if ist.evidence is None or inst.axes["evidence_observability"] == ist.evidence:
                break
        else:
            raise SamplingError(
                f"scene {scene.id!r}: could not draw a {cat!r} instruction in "
                f"{ist.max_attempts} attempts (too few referable objects or rooms"
                + (f", or none with {ist.evidence} evidence)" if ist.evidence else ")"))
        out.append(inst)
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
