"""Conditional instruction programs (SPEC §3, CondVLN §3.1.4) as plain data.

A program is ``Go(target) | If(cond, then, else_) | Seq(steps)``. Conditions are grounded
predicates: :class:`Presence` ("there is a lamp in the bedroom") and :class:`Relation`
("the lamp is near the bed in the bedroom"). References name objects by label, optional
spatial qualifier and room label; the scene ids they were grounded to (``object_id``,
``room_id``) are carried along but **excluded from equality**, so a program recovered from
text by :func:`~navbench.tasks.conditional.parser.parse` compares equal to the generated one.

Structure is computed from the tree, never stored:

* An ``If`` whose ``else_`` is an ``If`` is an else-if **chain**; its *arms* are the
  (condition, action) pairs and its *final else* the last non-``If`` else.
* ``depth``: ``Go`` = 0, ``Seq`` = max over steps, a chain = 1 + max depth of its arm actions
  and final else (so else-if continuations do not add depth).
* ``chain_length``: ``Go`` = 0, a chain = max(number of arms, chain lengths inside it).
* Condition ids are ``"c0", "c1", ...`` in pre-order (condition, then, else).
* Execution: ``Seq`` runs its steps in order; every ``Go`` executed is a visit. The last visit
  is the **goal**; the earlier visits, in order, are the **subgoals** G = (g_1..g_m) (CondVLN
  §3.2). The **branch path** lists ``"then"`` / ``"else"`` for each ``If`` executed, in order;
  the program's *outcomes* are all feasible branch paths, enumerated ``then`` before ``else``,
  so outcome 0 (every condition taken as true) is the "first branch".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal, overload

from navbench.errors import FormatError
from navbench.jsontypes import JSON, JSONObject


@dataclass(frozen=True)
class Qualifier:
    """Spatial qualifier of a reference: "<label> <predicate> the <anchor>".

    ``anchor`` is the label of an object unique in the same room; the reference's object is the
    subject ("the lamp near the bed": the lamp is ``near`` the bed).
    """

    predicate: str
    anchor: str
    anchor_id: str | None = field(default=None, compare=False)


@dataclass(frozen=True)
class ObjectRef:
    """A definite reference "the <label> [<qualifier>] in the <room> [<room hint>]"; ids are not
    compared. ``room_hint`` singles out a room whose label repeats in the scene ("with the
    desk": the only room of that label holding a desk; "off the hallway": the only one with a
    door to the hallway); ``None`` when the label is unique."""

    label: str
    room: str
    qualifier: Qualifier | None = None
    object_id: str | None = field(default=None, compare=False)
    room_id: str | None = field(default=None, compare=False)
    room_hint: str | None = None


@dataclass(frozen=True)
class Presence:
    """True iff an object labelled ``label`` is in the room labelled ``room``."""

    label: str
    room: str
    room_id: str | None = field(default=None, compare=False)
    room_hint: str | None = None


@dataclass(frozen=True)
class Relation:
    """True iff ``subject`` is ``predicate`` ``reference`` (graph semantics, same room)."""

    subject: ObjectRef
    predicate: str
    reference: ObjectRef

    @property
    def room(self) -> str:
        """Room label of the relation."""
        return self.subject.room


Condition = Presence | Relation


@dataclass(frozen=True)
class Go:
    """Navigate to ``target``."""

    target: ObjectRef


@dataclass(frozen=True)
class If:
    """``if cond: then else: else_``."""

    cond: Condition
    then: Program
    else_: Program


@dataclass(frozen=True)
class Seq:
    """Run ``steps`` in order (at least two)."""

    steps: tuple[Program, ...]

    def __post_init__(self) -> None:
        if len(self.steps) < 2:
            raise ValueError("Seq needs at least two steps")


Program = Go | If | Seq
Facts = Mapping[str, bool] | Callable[[Condition], bool]


@dataclass(frozen=True)
class Evaluation:
    """Result of executing a program.

    Attributes:
        branch_path: ``"then"`` / ``"else"`` per executed ``If``, in execution order.
        goal: the final target.
        subgoals: the targets visited before the goal, in order (may be empty).
        evaluated: ids of the conditions that were evaluated, in order.
        branch_index: position of ``branch_path`` in :func:`outcomes` (0 = first branch).
    """

    branch_path: tuple[str, ...]
    goal: ObjectRef
    subgoals: tuple[ObjectRef, ...]
    evaluated: tuple[str, ...]
    branch_index: int


def chain(node: If) -> tuple[list[tuple[Condition, Program]], Program]:
    """Flatten an else-if chain into its arms and its final else."""
    arms: list[tuple[Condition, Program]] = []
    cur: Program = node
    while isinstance(cur, If):
        arms.append((cur.cond, cur.then))
        cur = cur.else_
    return arms, cur


def depth(p: Program) -> int:
    """Nesting depth (see module docstring); ``Go`` is 0, a simple if/else is 1."""
    if isinstance(p, Go):
        return 0
    if isinstance(p, Seq):
        return max(depth(s) for s in p.steps)
    arms, final = chain(p)
    return 1 + max([depth(a) for _, a in arms] + [depth(final)])


def chain_length(p: Program) -> int:
    """Longest else-if chain (number of arms) anywhere in the program."""
    if isinstance(p, Go):
        return 0
    if isinstance(p, Seq):
        return max(chain_length(s) for s in p.steps)
    arms, final = chain(p)
    return max([len(arms), chain_length(final)] + [chain_length(a) for _, a in arms])


def _walk_ifs(p: Program, out: list[If]) -> None:
    if isinstance(p, If):
        out.append(p)
        _walk_ifs(p.then, out)
        _walk_ifs(p.else_, out)
    elif isinstance(p, Seq):
        for s in p.steps:
            _walk_ifs(s, out)


def conditions(p: Program) -> list[Condition]:
    """All conditions in pre-order; condition ``k`` has id ``f"c{k}"``."""
    ifs: list[If] = []
    _walk_ifs(p, ifs)
    return [n.cond for n in ifs]


def targets(p: Program) -> list[ObjectRef]:
    """All ``Go`` targets in pre-order."""
    if isinstance(p, Go):
        return [p.target]
    if isinstance(p, Seq):
        return [t for s in p.steps for t in targets(s)]
    return targets(p.then) + targets(p.else_)


def outcomes(p: Program) -> list[tuple[str, ...]]:
    """Every feasible branch path, ``then`` before ``else`` (outcome 0 = first branch)."""
    if isinstance(p, Go):
        return [()]
    if isinstance(p, If):
        return [("then", *t) for t in outcomes(p.then)] + [("else", *e) for e in outcomes(p.else_)]
    paths: list[tuple[str, ...]] = [()]
    for s in p.steps:
        paths = [a + b for a in paths for b in outcomes(s)]
    return paths


def _run(
    p: Program, decide: Callable[[If], bool], path: list[str], visits: list[ObjectRef]
) -> None:
    if isinstance(p, Go):
        visits.append(p.target)
    elif isinstance(p, Seq):
        for s in p.steps:
            _run(s, decide, path, visits)
    else:
        take = decide(p)
        path.append("then" if take else "else")
        _run(p.then if take else p.else_, decide, path, visits)


def execute(
    p: Program, facts: Facts
) -> tuple[tuple[str, ...], list[ObjectRef], tuple[str, ...]]:
    """Low-level :func:`evaluate`: (branch path, visited targets, evaluated condition ids)."""
    ifs: list[If] = []
    _walk_ifs(p, ifs)
    ids = {id(n): f"c{k}" for k, n in enumerate(ifs)}
    evaluated: list[str] = []

    def decide(n: If) -> bool:
        cid = ids[id(n)]
        evaluated.append(cid)
        if callable(facts):
            return bool(facts(n.cond))
        if cid not in facts:
            raise KeyError(f"no truth value for condition {cid}")
        return bool(facts[cid])

    path: list[str] = []
    visits: list[ObjectRef] = []
    _run(p, decide, path, visits)
    return tuple(path), visits, tuple(evaluated)


def evaluate(p: Program, facts: Facts) -> Evaluation:
    """Execute ``p`` with condition truths ``facts`` (id → bool, or a function of the condition).

    Raises:
        KeyError: a needed condition id is missing from a mapping of facts.
    """
    bp, visits, evaluated = execute(p, facts)
    return Evaluation(bp, visits[-1], tuple(visits[:-1]), evaluated, outcomes(p).index(bp))


def follow(p: Program, branch_path: tuple[str, ...]) -> Evaluation:
    """Execute ``p`` along a given branch path (e.g. to get the goal of every other branch)."""
    it = iter(branch_path)
    return evaluate(p, lambda _c: next(it) == "then")


# --------------------------------------------------------------------------- serialisation


def _ref_to_dict(r: ObjectRef) -> JSONObject:
    q = r.qualifier
    return {
        "label": r.label,
        "room": r.room,
        "qualifier": None if q is None else {
            "predicate": q.predicate, "anchor": q.anchor, "anchor_id": q.anchor_id
        },
        "object_id": r.object_id,
        "room_id": r.room_id,
        **({} if r.room_hint is None else {"room_hint": r.room_hint}),
    }


def cond_to_dict(c: Condition) -> JSONObject:
    """JSON-able dict of a condition."""
    if isinstance(c, Presence):
        return {"type": "presence", "label": c.label, "room": c.room, "room_id": c.room_id,
                **({} if c.room_hint is None else {"room_hint": c.room_hint})}
    return {
        "type": "relation",
        "subject": _ref_to_dict(c.subject),
        "predicate": c.predicate,
        "reference": _ref_to_dict(c.reference),
    }


def program_to_dict(p: Program) -> JSONObject:
    """JSON-able tree: ``{"op": "go"|"if"|"seq", ...}``."""
    if isinstance(p, Go):
        return {"op": "go", "target": _ref_to_dict(p.target)}
    if isinstance(p, If):
        return {
            "op": "if",
            "cond": cond_to_dict(p.cond),
            "then": program_to_dict(p.then),
            "else": program_to_dict(p.else_),
        }
    return {"op": "seq", "steps": [program_to_dict(s) for s in p.steps]}


class _Reader:
    def __init__(self, file: str) -> None:
        self.file = file

    def fail(self, path: str, expected: str, got: object) -> FormatError:
        return FormatError(self.file, path, expected, got)

    def obj(self, d: JSON, path: str) -> JSONObject:
        if not isinstance(d, dict):
            raise self.fail(path, "an object", d)
        return d

    @overload
    def s(self, d: JSONObject, key: str, path: str, optional: Literal[False] = False) -> str: ...
    @overload
    def s(self, d: JSONObject, key: str, path: str, optional: bool) -> str | None: ...
    def s(self, d: JSONObject, key: str, path: str, optional: bool = False) -> str | None:
        v = d.get(key)
        if v is None and optional:
            return None
        if not isinstance(v, str) or not v:
            raise self.fail(f"{path}.{key}", "a non-empty string", v)
        return v

    def ref(self, d: JSON, path: str) -> ObjectRef:
        d = self.obj(d, path)
        q = d.get("qualifier")
        qual = None
        if q is not None:
            q = self.obj(q, f"{path}.qualifier")
            qual = Qualifier(
                self.s(q, "predicate", f"{path}.qualifier"),
                self.s(q, "anchor", f"{path}.qualifier"),
                self.s(q, "anchor_id", f"{path}.qualifier", True),
            )
        return ObjectRef(
            self.s(d, "label", path), self.s(d, "room", path), qual,
            self.s(d, "object_id", path, True), self.s(d, "room_id", path, True),
            self.s(d, "room_hint", path, True),
        )

    def cond(self, d: JSON, path: str) -> Condition:
        d = self.obj(d, path)
        t = d.get("type")
        if t == "presence":
            return Presence(self.s(d, "label", path), self.s(d, "room", path),
                            self.s(d, "room_id", path, True), self.s(d, "room_hint", path, True))
        if t == "relation":
            return Relation(self.ref(d.get("subject"), f"{path}.subject"),
                            self.s(d, "predicate", path),
                            self.ref(d.get("reference"), f"{path}.reference"))
        raise self.fail(f"{path}.type", "'presence' or 'relation'", t)

    def program(self, d: JSON, path: str) -> Program:
        d = self.obj(d, path)
        op = d.get("op")
        if op == "go":
            return Go(self.ref(d.get("target"), f"{path}.target"))
        if op == "if":
            return If(self.cond(d.get("cond"), f"{path}.cond"),
                      self.program(d.get("then"), f"{path}.then"),
                      self.program(d.get("else"), f"{path}.else"))
        if op == "seq":
            steps = d.get("steps")
            if not isinstance(steps, list) or len(steps) < 2:
                raise self.fail(f"{path}.steps", "a list of at least 2 programs", steps)
            return Seq(tuple(self.program(s, f"{path}.steps[{k}]") for k, s in enumerate(steps)))
        raise self.fail(f"{path}.op", "'go', 'if' or 'seq'", op)


def program_from_dict(d: JSON, file: str = "<memory>", path: str = "program") -> Program:
    """Inverse of :func:`program_to_dict`; raises :class:`FormatError` naming the bad field."""
    return _Reader(file).program(d, path)
