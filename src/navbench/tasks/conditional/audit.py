"""Consistency census of conditional instructions (issue 16), per category.

Counted per category (and over ``"all"``), from each instruction's program tree and text alone
(plus the scene objects for ``ambiguous_qualifiers``):

* ``absent_refs``: instructions with a reference (target, qualifier anchor, relation object)
  to an object an enclosing condition declared absent ("if there is a frame in the hallway,
  ..., else go to the frame in the hallway");
* ``dead_conditions``: instructions with a condition already decided by the enclosing ones or
  by an earlier visit (same presence; same, inverse or excluded relation), or answered by the
  text itself (a presence asked about an object that a definite reference outside the
  condition's own branches presupposes: "..., go to the sink in the kitchen. Otherwise, check
  whether there is a sink in the kitchen");
* ``ambiguous_qualifiers``: instructions with a qualified reference ("the stool north of the
  sink", "the vase near the table") a person could not resolve: the target inside a margin of
  the predicate, or another object with its label not surely failing it, or for ``near`` not
  clearly farther (:func:`~navbench.tasks.conditional.margins.qualifies`; ``None`` without
  scenes); ``direction_qualified`` counts the direction-qualified references;
* ``stacked_conditions``: texts with a bare "if A, if B" (no scope word in between);
* ``scope_conflicts``: texts with a sentence where one closing word ("otherwise", "if not",
  ...) closes conditionals of two different levels, or "if not" appears twice;
* ``in_case_openers``: texts using "in case" as a condition ("In case X, go to Y", "go to Y in
  case X"), which in English means "as a precaution against X", not "if X"; the templates open
  conditions with "if", "provided that" and "should there be", so this is 0 for generated text
  and counts hand-written or older instructions; ``openers``: distinct first two words;
  ``connectives``: distinct closing / continuation phrases used;
* ``with_subgoals``: instructions with subgoals (Seq steps before the goal);
* ``parse_failures``: texts the parser does not map back to the program.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping

from navbench.graph.relations import ObjectArrays, pair_metrics
from navbench.graph.settings import GraphSettings
from navbench.jsontypes import JSONObject
from navbench.scene.model import Scene
from navbench.tasks.conditional.consistency import INVERSE, exclusive
from navbench.tasks.conditional.instruction import CATEGORIES, Instruction
from navbench.tasks.conditional.margins import MarginSettings, qualifies
from navbench.tasks.conditional.parser import ParseError, parse
from navbench.tasks.conditional.program import Go, If, ObjectRef, Presence, Program, Seq

CENSUS_KEYS = ("n", "absent_refs", "dead_conditions", "ambiguous_qualifiers", "direction_qualified",
               "stacked_conditions", "scope_conflicts", "in_case_openers", "openers", "connectives",
               "with_subgoals", "parse_failures")
_CLOSINGS = ("otherwise", "or else", "else", "if not", "failing that", "if neither holds",
             "if none of these holds", "in any other case", "if not, but")
_IF = r"(?:if|in case|provided that|should)"
_STACKED = re.compile(rf"(?:^|[.;:] |, ){_IF} [^,;.:]+, (?:then )?{_IF} ")
#: "in case" used as a conditional (labels and room names never contain "in" or "case").
_IN_CASE = re.compile(r"\bin case\b")
_DIRS = ("east", "north-east", "north", "north-west", "west", "south-west", "south", "south-east")

Key = tuple[str, str, str | None]


def _keys(r: ObjectRef) -> list[Key]:
    ks = [(r.label, r.room, r.room_hint)]
    if r.qualifier is not None:
        ks.append((r.qualifier.anchor, r.room, r.room_hint))
    return ks


def program_issues(p: Program) -> tuple[int, int]:
    """(references to declared-absent objects, decided conditions) in a program."""
    absent_refs = dead = 0

    def walk(n: Program, present: frozenset[Key], absent: frozenset[Key],
             rels: tuple[tuple[Key, str, Key, bool], ...]) -> None:
        nonlocal absent_refs, dead
        if isinstance(n, Go):
            absent_refs += sum(k in absent for k in _keys(n.target))
        elif isinstance(n, Seq):
            for s in n.steps:
                walk(s, present, absent, rels)
                if isinstance(s, Go):
                    present = present | set(_keys(s.target))
        elif isinstance(n, If):
            c = n.cond
            if isinstance(c, Presence):
                k = (c.label, c.room, c.room_hint)
                dead += k in present or k in absent or c.room_hint == f"with the {c.label}"
                walk(n.then, present | {k}, absent, rels)
                walk(n.else_, present, absent | {k}, rels)
                return
            sk, rk = (c.subject.label, c.room, c.subject.room_hint), \
                (c.reference.label, c.room, c.reference.room_hint)
            absent_refs += (sk in absent) + (rk in absent)
            for a, q, b, holds in rels:
                p = c.predicate if (a, b) == (sk, rk) else INVERSE.get(c.predicate, "") \
                    if (a, b) == (rk, sk) else None
                if p is not None and (p == q or (holds and exclusive(p, q))):
                    dead += 1
                    break
            both = present | {sk, rk}
            walk(n.then, both, absent, (*rels, (sk, c.predicate, rk, True)))
            walk(n.else_, both, absent, (*rels, (sk, c.predicate, rk, False)))

    walk(p, frozenset(), frozenset(), ())
    everywhere = Counter(_mentions(p))
    for n in _ifs(p):  # presupposed by a definite reference outside the condition's subtree
        if isinstance(n.cond, Presence):
            k = (n.cond.label, n.cond.room, n.cond.room_hint)
            if everywhere[k] - Counter(_mentions(n.then))[k] - Counter(_mentions(n.else_))[k] > 0:
                dead += 1
    return absent_refs, dead


def _mentions(p: Program) -> list[Key]:
    """Keys of every definite reference (targets, anchors, relation objects, "with the X")."""
    def of(r: ObjectRef) -> list[Key]:
        hint = r.room_hint
        extra: list[Key] = [(hint[9:], r.room, hint)] if hint is not None and hint.startswith("with the ") else []
        return _keys(r) + extra

    if isinstance(p, Go):
        return of(p.target)
    if isinstance(p, Seq):
        return [k for s in p.steps for k in _mentions(s)]
    c = p.cond
    own = [] if isinstance(c, Presence) else of(c.subject) + of(c.reference)
    return own + _mentions(p.then) + _mentions(p.else_)


def _ifs(p: Program) -> list[If]:
    if isinstance(p, Go):
        return []
    if isinstance(p, Seq):
        return [n for s in p.steps for n in _ifs(s)]
    return [p, *_ifs(p.then), *_ifs(p.else_)]


def _refs(p: Program) -> list[ObjectRef]:
    if isinstance(p, Go):
        return [p.target]
    if isinstance(p, Seq):
        return [r for s in p.steps for r in _refs(s)]
    return _refs(p.then) + _refs(p.else_)


def direction_ambiguity(p: Program, scene: Scene, graph: GraphSettings | None = None,
                        margins: MarginSettings | None = None) -> tuple[int, int]:
    """(direction-qualified references, qualified references a person could not resolve) of a
    program in its scene: the qualifier (any predicate) must single out its target under the
    margin rule of :func:`~navbench.tasks.conditional.margins.qualifies`."""
    n = bad = 0
    objs = scene.object_index
    for r in _refs(p):
        q = r.qualifier
        if q is None:
            continue
        n += q.predicate.endswith(" of") and q.predicate[:-3] in _DIRS
        anchor, target = objs.get(str(q.anchor_id)), objs.get(str(r.object_id))
        if anchor is None or target is None:
            continue
        room = scene.objects_in(target.room_id)
        idx = {o.id: k for k, o in enumerate(room)}
        if anchor.id not in idx:
            bad += 1
            continue
        pm = pair_metrics(ObjectArrays.from_objects(room), graph)
        others = [k for k, o in enumerate(room) if o.label == r.label and o.id != target.id]
        bad += not qualifies(pm, q.predicate, idx[anchor.id], idx[target.id], others, graph, margins)
    return n, bad


def scope_conflict(text: str) -> bool:
    """Whether a sentence closes two levels with one word, or says "if not" twice."""
    for sentence in text.lower().split(". "):
        if sentence.count("if not") > 1:
            return True
        for w in ("otherwise", "or else", "if not", "failing that"):
            marks = {m.group(1) for m in re.finditer(rf"([,;:]) {w}\b", sentence)}
            if len(marks) > 1:
                return True
    return False


def audit_instructions(insts: Iterable[Instruction], scenes: Mapping[str, Scene] | None = None
                       ) -> dict[str, JSONObject]:
    """The census (module docstring) per category, in :data:`CATEGORIES` order, then ``"all"``."""
    groups: dict[str, list[Instruction]] = {}
    for i in insts:
        groups.setdefault(i.category, []).append(i)
    out: dict[str, JSONObject] = {}
    order = [c for c in CATEGORIES if c in groups] + sorted(set(groups) - set(CATEGORIES))
    for cat in [*order, "all"]:
        items = [i for c in order for i in groups[c]] if cat == "all" else groups[cat]
        row: Counter[str] = Counter()
        openers: set[str] = set()
        connectives: set[str] = set()
        amb_known = scenes is not None
        for i in items:
            a, d = program_issues(i.program)
            row["absent_refs"] += a > 0
            row["dead_conditions"] += d > 0
            if scenes is not None and i.scene_id in scenes:
                nq, nb = direction_ambiguity(i.program, scenes[i.scene_id])
                row["direction_qualified"] += nq
                row["ambiguous_qualifiers"] += nb > 0
            else:
                amb_known = False
            low = i.text.lower()
            row["stacked_conditions"] += bool(_STACKED.search(low))
            row["scope_conflicts"] += scope_conflict(low)
            row["in_case_openers"] += bool(_IN_CASE.search(low))
            openers.add(" ".join(low.split()[:2]))
            connectives.update(w for w in _CLOSINGS if re.search(rf"(?:^|[,;:.] ){w}\b", low))
            row["with_subgoals"] += bool(i.subgoal_ids)
            try:
                row["parse_failures"] += parse(i.text) != i.program
            except ParseError:
                row["parse_failures"] += 1
        out[cat] = {"n": len(items), **{k: row[k] for k in CENSUS_KEYS[1:] if k not in
                                          ("openers", "connectives")},
                    "openers": len(openers), "connectives": len(connectives)}
        if not amb_known:
            out[cat]["ambiguous_qualifiers"] = None
            out[cat]["direction_qualified"] = None
        out[cat] = {k: out[cat][k] for k in CENSUS_KEYS}
    return out
