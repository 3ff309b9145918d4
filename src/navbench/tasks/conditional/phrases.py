"""Reading the phrases of an instruction: labels, rooms, object references and conditions.

Input is text after :func:`~navbench.tasks.conditional.rewrite.rewrite` (lower-case, contractions
expanded, compass words hyphenated). A reference normally names its room ("the lamp near the
bed in the kitchen"); a reference *back* does not, and is returned with a placeholder room
(:data:`THERE` or :data:`SAME_LABEL`) or label (:data:`IT`) that the parser resolves against the
conditions around it (the conditions enclosing it and the targets of earlier steps; the
nearest mention wins, as a reader resolves it):

* "it", "that", "that one" — the object of the nearest mention;
* "the tv there", "the tv in that room", "the tv in the same room" — a tv in the room of the
  nearest mention;
* "the mirror" — a mirror in the room of the nearest mention naming a mirror; "the lamp near
  the sofa" — the room of the nearest mention naming a lamp or a sofa.

A reference back with nothing before it to resolve it, or naming the object a presence
condition declares absent in that branch ("if there is a lamp ..., ...; otherwise go to it"), is
refused.
"""

from __future__ import annotations

import dataclasses
import re

from navbench.errors import NavbenchError
from navbench.graph.relations import ALL_PREDICATES
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
)
from navbench.tasks.conditional.rewrite import PREDICATE_WORDS
from navbench.tasks.conditional.templates import is_speakable, singularize
from navbench.tasks.conditional.vocabulary import Vocabulary

#: Placeholder label of "it" and placeholder rooms of "the X there" / "the X" (resolved later).
IT, THERE, SAME_LABEL = "\x00it", "\x00there", "\x00same label"


class ParseError(NavbenchError):
    """Text outside the instruction grammar."""

    def __init__(self, text: str, fragment: str, expected: str) -> None:
        self.text, self.fragment, self.expected = text, fragment, expected
        frag = fragment if len(fragment) <= 80 else fragment[:77] + "..."
        super().__init__(f"cannot parse instruction: expected {expected} at {frag!r}")


_ART = r"(?:an?|one|some|any)"
_IN = r"(?:in|inside|within)"
_PRESENCE = (  # (regex, negated, plural)
    (re.compile(rf"^(?:there is|there exists|you see|you can see|you find|you spot|you notice) "
                rf"{_ART} (?P<label>.+?) {_IN} the (?P<room>.+)$"), False, False),
    (re.compile(r"^the (?P<room>.+?) (?:has|contains|includes|has got) " + _ART + r" (?P<label>.+)$"),
     False, False),
    (re.compile(rf"^there are no (?P<label>.+?) {_IN} the (?P<room>.+)$"), True, True),
    (re.compile(rf"^there are (?:any |some )?(?P<label>.+?) {_IN} the (?P<room>.+)$"), False, True),
    (re.compile(rf"^{_ART} (?P<label>.+?) is {_IN} the (?P<room>.+)$"), False, False),
    (re.compile(rf"^(?:there is no|there is not {_ART}|you do not see {_ART}|you cannot see {_ART}|"
                rf"you do not find {_ART}|you cannot find {_ART}|no) (?P<label>.+?) (?:is )?{_IN} "
                r"the (?P<room>.+)$"), True, False),
    (re.compile(r"^the (?P<room>.+?) (?:has no|contains no|lacks " + _ART + r"|does not have "
                + _ART + r"|does not contain " + _ART + r"|has not got " + _ART + r") (?P<label>.+)$"),
     True, False),
)
_REL = re.compile(r"^the (?P<left>.+?) (?P<verb>is not|is) (?P<right>.+)$")
_BACK_ROOM = re.compile(r"^(?P<head>.+?) (?:there|in there|in that room|in the same room|over there)$")


class Phrases:
    """Reads labels, references and conditions of one instruction (``text``, for messages),
    checking labels against ``vocab`` when one is given."""

    def __init__(self, text: str, vocab: Vocabulary | None) -> None:
        self.text = text
        self.vocab = vocab

    def fail(self, fragment: str, expected: str) -> ParseError:
        return ParseError(self.text, fragment, expected)

    def label(self, label: str, s: str, what: str) -> str:
        if re.search(r"\b(and|or)\b", label):
            raise self.fail(s, f"{what} (a single condition or reference; conjunctions with "
                               "'and' / 'or' are not supported)")
        if not label or not is_speakable(label):
            raise self.fail(s, what)
        if self.vocab is None:
            return label
        known = self.vocab.resolve(label)
        if known is None:
            raise self.fail(s, f"{what} known in this scene ({label!r} is not)")
        return known

    def room(self, phrase: str, s: str) -> tuple[str, str | None]:
        for key in (" with the ", " off the "):
            if key in phrase:
                room, obj = phrase.split(key, 1)
                hint_obj = self.label(obj, s, "an object label in the room hint")
                return self.label(room, s, "a room name"), f"{key.strip()} {hint_obj}"
        return self.label(phrase, s, "a room name"), None

    def _head(self, head: str, room: str, hint: str | None, s: str) -> ObjectRef:
        """ "lamp near the bed" in ``room``: a label with an optional qualifier."""
        for words, p in PREDICATE_WORDS:
            key = f" {words} the "
            if key in head:
                label, anchor = head.split(key, 1)
                return ObjectRef(self.label(label, s, "an object label"), room,
                                 Qualifier(p, self.label(anchor, s, "an object label")),
                                 room_hint=hint)
        return ObjectRef(self.label(head, s, "an object label"), room, room_hint=hint)

    def ref(self, s: str) -> ObjectRef:
        """A reference; a reference back gets a placeholder (module docstring)."""
        s = s[:-6] if s.endswith(" first") else s
        if s in ("it", "that", "that one", "this one", "there"):
            return ObjectRef(IT, THERE)
        m = re.match(rf"^the (?P<head>.+?) {_IN} the (?P<room>.+)$", s)
        if m and m["room"] != "same room":
            room, hint = self.room(m["room"], s)
            return self._head(m["head"], room, hint, s)
        if not s.startswith("the "):
            raise self.fail(s, "'the <object> in the <room>'")
        back = _BACK_ROOM.match(s[4:])
        if back:
            return self._head(back["head"], THERE, None, s)
        return self._head(s[4:], SAME_LABEL, None, s)

    def cond(self, s: str) -> tuple[Condition, bool]:
        """A condition and whether it was said negated."""
        s = s.removeprefix("that ")
        if s.startswith("there be "):  # "should there be a sofa / no sofa / any sofas in ..."
            rest = s[len("there be "):]
            singular = rest.startswith(("a ", "an ", "one ", "no "))
            s = ("there is " if singular else "there are ") + rest
        for rx, neg, plural in _PRESENCE:
            m = rx.match(s)
            if m:
                raw = singularize(m["label"]) if plural else m["label"]
                label = self.label(raw, s, "an object label")
                room, hint = self.room(m["room"], s)
                return Presence(label, room, room_hint=hint), neg
        m = _REL.match(s)
        if m:
            neg = m["verb"] != "is"
            left, right = m["left"], m["right"]
            in_room: str | None = None
            if " in the " in left:
                left, in_room = left.rsplit(" in the ", 1)
            for words, p in PREDICATE_WORDS:
                if right.startswith(words + " the "):
                    rest = right[len(words) + 5:]
                    if in_room is None:
                        if " in the " not in rest:
                            raise self.fail(s, "'... in the <room>'")
                        rest, in_room = rest.rsplit(" in the ", 1)
                    rl, hint = self.room(in_room, s)
                    subj = ObjectRef(self.label(left, s, "an object label"), rl, room_hint=hint)
                    ref = ObjectRef(self.label(rest, s, "an object label"), rl, room_hint=hint)
                    return Relation(subj, p, ref), neg
            raise self.fail(right, f"a predicate (one of {', '.join(ALL_PREDICATES[:6])}, "
                                   "'north of', ...)")
        raise self.fail(s, "a condition ('there is a <object> in the <room>' or "
                           "'the <object> is <predicate> the <object> in the <room>')")

    # ---- references back
    def resolve(self, p: Program, said: tuple[tuple[Condition | ObjectRef, bool], ...] = ()) -> Program:
        """``p`` with every reference back resolved against ``said``: the conditions and visited
        targets mentioned before (nearest last), each with whether its object is there in this
        branch (not in the else-part of a presence condition)."""
        if isinstance(p, Go):
            return Go(self._resolve_ref(p.target, said))
        if isinstance(p, If):
            absent = isinstance(p.cond, Presence)
            return If(p.cond, self.resolve(p.then, (*said, (p.cond, True))),
                      self.resolve(p.else_, (*said, (p.cond, not absent))))
        steps: list[Program] = []
        for step in p.steps:
            steps.append(self.resolve(step, said))
            if isinstance(steps[-1], Go):
                said = (*said, (steps[-1].target, True))
        return Seq(tuple(steps))

    def _resolve_ref(self, r: ObjectRef, said: tuple[tuple[Condition | ObjectRef, bool], ...]) -> ObjectRef:
        if r.room not in (THERE, SAME_LABEL):
            return r
        what = "it" if r.label == IT else f"the {r.label}"
        for m, there in reversed(said):
            refs = [m] if isinstance(m, ObjectRef) else \
                [ObjectRef(m.label, m.room, room_hint=m.room_hint)] if isinstance(m, Presence) else \
                [m.subject, m.reference]
            if r.room == THERE and r.label != IT:
                if not there and refs[0].label == r.label:
                    raise self.fail(what, f"a reference to an object that is there ({what!r} "
                                          f"names the {r.label} the condition says is not)")
                return dataclasses.replace(r, room=refs[0].room, room_hint=refs[0].room_hint)
            for x in refs:  # "it", the label itself, or the anchor of its qualifier (same room)
                same = r.label in (IT, x.label)
                if not same and (r.qualifier is None or x.label != r.qualifier.anchor):
                    continue
                if not there:
                    raise self.fail(what, f"a reference to an object that is there ({what!r} "
                                          f"names the {x.label} the condition says is not)")
                if r.label == IT:
                    return x
                q = r.qualifier if r.qualifier is not None or not same else x.qualifier
                return dataclasses.replace(r, room=x.room, room_hint=x.room_hint, qualifier=q)
        raise self.fail(what, "'the <object> in the <room>' (no condition or step before it "
                              f"names {'an object' if r.label == IT else 'a ' + r.label})")
