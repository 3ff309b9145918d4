"""Symbolic layer of the scene-graph agent: conditions and references decided on the *observed*
scene graph of a :class:`~navbench.agents.scene_graph.belief.Belief`, with the predicates of
:mod:`navbench.graph.relations`.

Types map room regions to recognised room types (``dict[int, str | None]``,
:meth:`Belief.region_types`); times are simulated seconds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import numpy as np

from navbench.agents.mapping import Track
from navbench.agents.scene_graph.belief import Belief

if TYPE_CHECKING:
    from navbench.graph import GraphSettings
    from navbench.tasks.conditional import Condition, Evaluation, ObjectRef

#: Why the search for things in a room is over.
SearchEnd = Literal["covered", "no such room", "budget"]


def regions_of(room: str, types: dict[int, str | None]) -> list[int]:
    """Regions whose recognised type is ``room`` (in region order)."""
    return [r for r, t in types.items() if t == room]


class NeedRoom(Exception):  # noqa: N818 - a control-flow signal, not an error
    """A condition or target cannot be decided yet: inspect room type ``room`` (``""``:
    explore anywhere)."""

    def __init__(self, room: str) -> None:
        super().__init__(room)
        self.room = room


@dataclass(frozen=True)
class Reasoner:
    """Decides conditions and grounds references on a belief.

    Parameters
    ----------
    coverage : float
        Seen fraction of a room's floor above which the room counts as inspected.
    explore_budget : float
        Simulated seconds of search before undecided conditions become false.
    graph : GraphSettings or None
        Predicate thresholds (``None``: the defaults of :mod:`navbench.graph`).

    Examples
    --------
    >>> from navbench.agents.mapping import Track
    >>> r = Reasoner(0.8, 150.0)
    >>> a = Track("table", np.array([0.0, 0.0, 0.0]), np.array([1.0, 0.8, 1.0]))
    >>> b = Track("chair", np.array([1.2, 0.0, 0.0]), np.array([1.7, 0.9, 0.5]))
    >>> r.holds(b, "east of", a), r.holds(b, "west of", a)
    (True, False)
    """

    coverage: float
    explore_budget: float
    graph: GraphSettings | None = None

    def out_of_budget(self, t: float) -> bool:
        """Whether the search time is used up at simulated time ``t`` (s)."""
        return t > self.explore_budget

    def searched(self, b: Belief, room: str, types: dict[int, str | None]) -> SearchEnd | None:
        """Why the search for things in room type ``room`` is over (``None`` while it is not)."""
        regs = regions_of(room, types)
        if regs and all(b.covered(r, self.coverage) for r in regs):
            return "covered"
        if not regs and b.exhausted:
            return "no such room"
        if self.out_of_budget(b.time):
            return "budget"
        return None

    def ground(self, b: Belief, ref: ObjectRef, types: dict[int, str | None]) -> list[Track]:
        """Observed tracks matching a reference (label, qualifier, room), most seen first.

        Raises
        ------
        NeedRoom
            When none is seen yet and the search of the reference's room is not over.
        """
        regs = regions_of(ref.room, types)
        cands = [o for o in b.objects.tracks if o.label == ref.label and o.region in regs]
        q = ref.qualifier
        if q is not None and cands:
            cands = [o for o in cands if any(
                self.holds(o, q.predicate, a) for a in b.objects.tracks
                if a.label == q.anchor and a.region == o.region)]
        if cands or self.searched(b, ref.room, types):
            return sorted(cands, key=lambda o: -o.seen)
        raise NeedRoom(ref.room)

    def holds(self, subject: Track, predicate: str, reference: Track) -> bool:
        """Whether "subject is <predicate> reference" on the observed boxes (graph semantics)."""
        from navbench.graph.relations import ObjectArrays, pair_metrics

        lo, hi = np.stack([reference.lo, subject.lo]), np.stack([reference.hi, subject.hi])
        arrs = ObjectArrays(("r", "s"), (reference.label, subject.label), 0.5 * (lo + hi), lo, hi,
                            0.5 * np.linalg.norm(hi - lo, axis=1))
        return bool(pair_metrics(arrs, self.graph).holds(predicate)[0, 1])

    def truth(self, b: Belief, cond: Condition, types: dict[int, str | None]) -> bool:
        """Truth of a condition on the observed graph; a decided truth is recorded in ``b``
        (``truths``, ``decisions``, ``assumed_false``) and kept for the episode.

        A presence condition is true once the label is seen in a room of that type, false once
        the search there is over (:meth:`searched`); a relation is decided once both referents
        are grounded (:meth:`ground`).

        Raises
        ------
        NeedRoom
            While the condition is undecided.
        """
        from navbench.tasks.conditional import Presence

        if cond in b.truths:
            return b.truths[cond]
        why: str | None
        if isinstance(cond, Presence):
            regs = regions_of(cond.room, types)
            if any(o.label == cond.label and o.region in regs for o in b.objects.tracks):
                value, why = True, "seen"
            else:
                why = self.searched(b, cond.room, types)
                if why is None:
                    raise NeedRoom(cond.room)
                value = False
        else:
            subj, ref = self.ground(b, cond.subject, types), self.ground(b, cond.reference, types)
            value = any(self.holds(s, cond.predicate, r) for s in subj for r in ref if s is not r)
            why = f"{len(subj)}x{len(ref)} candidates"
        if why == "budget":
            b.assumed_false.append(str(cond))
        b.truths[cond] = value
        b.decisions.append([str(cond), value, round(b.time, 1), why])
        return value

    def choose(self, b: Belief, types: dict[int, str | None]) -> Evaluation:
        """The :class:`~navbench.tasks.conditional.Evaluation` of ``b.program`` on the observed
        graph (raises :class:`NeedRoom` while a needed condition is undecided)."""
        from navbench.tasks.conditional import evaluate

        assert b.program is not None
        return evaluate(b.program, lambda c: self.truth(b, c, types))


__all__ = ["NeedRoom", "Reasoner", "SearchEnd", "regions_of"]
