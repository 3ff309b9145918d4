"""What a reader knows inside a branch: the facts implied by the enclosing conditions.

Inside the ``then`` part of ``If(c, ...)`` the reader assumes ``c``; inside the ``else`` part,
``not c``; after a ``Go`` step of a ``Seq`` the visited object (and its qualifier's anchor) is
known to be there. A branch is **consistent** (issue 16) when, under those facts:

* no reference (target, qualifier anchor, relation subject or reference) names an object whose
  (label, room) an enclosing condition declared absent;
* no condition is already decided: a presence whose (label, room) is known present or absent;
  a relation equal to a known one (also written inversely: "A north of B" = "B south of A"),
  or excluded by a known true one for the same pair (sectors, near/far, higher/lower and
  above/below are mutually exclusive).

Rooms are identified by room id (labels may repeat); relation objects by object id.
"""

from __future__ import annotations

from dataclasses import dataclass

from navbench.graph.relations import AZIMUTH_NAMES, CANONICAL_PREDICATES, ELEVATION_NAMES
from navbench.tasks.conditional.program import Condition, ObjectRef, Presence

_OPPOSITE_EL = {"level": "level", "up": "down", "down": "up"}


def _canonical_inverse() -> dict[str, str]:
    out = {}
    for a, az in enumerate(AZIMUTH_NAMES):
        opp = AZIMUTH_NAMES[(a + 4) % 8]
        for el in ELEVATION_NAMES:
            name = f"{az} of" if el == "level" else f"{az}-and-{el} of"
            oel = _OPPOSITE_EL[el]
            out[name] = f"{opp} of" if oel == "level" else f"{opp}-and-{oel} of"
    return out


#: "A p B" ⇔ "B INVERSE[p] A".
INVERSE: dict[str, str] = {"near": "near", "far from": "far from", "higher than": "lower than",
                           "lower than": "higher than", "above": "below", "below": "above",
                           **_canonical_inverse()}
_UPWARD = {"higher than", "above"}
_DOWNWARD = {"lower than", "below"}


def exclusive(p: str, q: str) -> bool:
    """Whether "A p B" and "A q B" can never both hold (p ≠ q, same ordered pair)."""
    if p == q:
        return False
    if p in CANONICAL_PREDICATES and q in CANONICAL_PREDICATES:
        return True
    if {p, q} == {"near", "far from"}:
        return True
    return (p in _UPWARD and q in _DOWNWARD) or (p in _DOWNWARD and q in _UPWARD)


def presence_key(c: Presence) -> tuple[str, str]:
    """(label, room id) of a presence condition."""
    return (c.label, str(c.room_id))


def ref_keys(r: ObjectRef) -> list[tuple[str, str]]:
    """(label, room id) of a reference and of its qualifier's anchor."""
    keys = [(r.label, str(r.room_id))]
    if r.qualifier is not None:
        keys.append((r.qualifier.anchor, str(r.room_id)))
    return keys


def condition_keys(c: Condition) -> list[tuple[str, str]]:
    """(label, room id) of every object a condition names (presence: the one it asks about)."""
    if isinstance(c, Presence):
        return [presence_key(c)]
    return ref_keys(c.subject) + ref_keys(c.reference)


@dataclass(frozen=True)
class Context:
    """Facts known inside a branch (see the module docstring)."""

    present: frozenset[tuple[str, str]] = frozenset()
    absent: frozenset[tuple[str, str]] = frozenset()
    relations: tuple[tuple[str, str, str, bool], ...] = ()  # (subject id, pred, reference id, holds)

    def assume(self, c: Condition, holds: bool) -> Context:
        """The context inside the branch where ``c`` is ``holds``."""
        if isinstance(c, Presence):
            k = presence_key(c)
            if holds:
                return Context(self.present | {k}, self.absent, self.relations)
            return Context(self.present, self.absent | {k}, self.relations)
        rel = (str(c.subject.object_id), c.predicate, str(c.reference.object_id), holds)
        return Context(self.present | set(condition_keys(c)), self.absent, (*self.relations, rel))

    def visit(self, r: ObjectRef) -> Context:
        """The context after going to ``r`` (its object and anchor are known present)."""
        return Context(self.present | set(ref_keys(r)), self.absent, self.relations)

    def allows(self, keys: list[tuple[str, str]]) -> bool:
        """Whether none of these (label, room id) is declared absent."""
        return not any(k in self.absent for k in keys)

    def decides(self, c: Condition) -> bool:
        """Whether ``c``'s truth already follows from the context."""
        if isinstance(c, Presence):
            k = presence_key(c)
            return k in self.present or k in self.absent
        s, r = str(c.subject.object_id), str(c.reference.object_id)
        for a, q, b, holds in self.relations:
            if (s, r) == (a, b):
                p = c.predicate
            elif (s, r) == (b, a):
                p = INVERSE[c.predicate]
            else:
                continue
            if p == q or (holds and exclusive(p, q)):
                return True
        return False

    def consistent(self, c: Condition) -> bool:
        """Whether ``c`` may be asked here: not decided, and naming no absent object (a
        presence condition may ask about anything not yet decided)."""
        if self.decides(c):
            return False
        return isinstance(c, Presence) or self.allows(condition_keys(c))
