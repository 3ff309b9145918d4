"""Recursive-descent parser for the instruction grammar of :mod:`.templates`.

``parse(text)`` recovers the :class:`Program` structure with references by label, qualifier
and room label (ids are ``None``; program equality ignores ids, so ``parse(inst.text) ==
inst.program_obj``). :func:`ground` then resolves the references in a scene. Text outside
the grammar raises :class:`ParseError` naming the fragment and what was expected.

Grammar (case-insensitive; ``SEP_L`` is ``,`` / ``;`` / ``.`` for depth L = 1 / 2 / 3)::

    program  := seq | ifchain | go
    seq      := ["first"] go (JOIN go)* JOIN (go | ifchain)    JOIN := "and then" | "and after that"
              | "first" go ("," "then" go)* "," "and finally" go      (oracle-linear form)
    ifchain  := IF cond "," ["then"] program (SEP_L ELSE [","] IF cond "," ["then"] program)*
                SEP_L ELSE [","] program
    go       := VERB ref                ref := "the" LABEL [PRED "the" LABEL] "in the" ROOM
    cond     := "there is"|"there's"|"you see" ART LABEL "in the" ROOM
              | "the" ROOM ("has"|"contains") ART LABEL | "there are any" PLURAL "in the" ROOM
              | "the" LABEL "in the" ROOM "is" PRED "the" LABEL
              | "the" LABEL "is" PRED "the" LABEL "in the" ROOM
"""

from __future__ import annotations

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
from navbench.tasks.conditional.templates import (
    ALL_ELSE_WORDS,
    IF_WORDS,
    SEPARATORS,
    VERBS,
    singularize,
)

_PREDS = tuple(sorted(ALL_PREDICATES, key=len, reverse=True))
_VERBS = tuple(sorted(VERBS, key=len, reverse=True))
_JOINERS = (" and then ", " and after that ", ", then ", ", and finally ")
_PRESENCE = (
    re.compile(r"^(?:there is|there's|you see) an? (?P<label>.+?) in the (?P<room>.+)$"),
    re.compile(r"^the (?P<room>.+?) (?:has|contains) an? (?P<label>.+)$"),
    re.compile(r"^there are any (?P<plural>.+?) in the (?P<room>.+)$"),
)


class ParseError(NavbenchError):
    """Text outside the instruction grammar."""

    def __init__(self, text: str, fragment: str, expected: str) -> None:
        self.text, self.fragment, self.expected = text, fragment, expected
        frag = fragment if len(fragment) <= 80 else fragment[:77] + "..."
        super().__init__(f"cannot parse instruction: expected {expected} at {frag!r}")


def _normalise(text: str) -> str:
    t = " ".join(text.strip().lower().split())
    return t[:-1] if t.endswith(".") else t


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text

    def fail(self, fragment: str, expected: str) -> ParseError:
        return ParseError(self.text, fragment, expected)

    # ---- references and conditions
    def ref(self, s: str) -> ObjectRef:
        if not s.startswith("the ") or " in the " not in s:
            raise self.fail(s, "'the <object> in the <room>'")
        head, room = s[4:].rsplit(" in the ", 1)
        self._check_label(room, s, "a room name")
        for p in _PREDS:
            key = f" {p} the "
            if key in head:
                label, anchor = head.split(key, 1)
                self._check_label(label, s, "an object label")
                self._check_label(anchor, s, "an object label")
                return ObjectRef(label, room, Qualifier(p, anchor))
        self._check_label(head, s, "an object label")
        return ObjectRef(head, room)

    def _check_label(self, label: str, s: str, what: str) -> None:
        if not label or any(c in label for c in ",;.") or label.startswith("the "):
            raise self.fail(s, what)

    def cond(self, s: str) -> Condition:
        for k, rx in enumerate(_PRESENCE):
            m = rx.match(s)
            if m:
                label = singularize(m["plural"]) if k == 2 else m["label"]
                self._check_label(label, s, "an object label")
                self._check_label(m["room"], s, "a room name")
                return Presence(label, m["room"])
        if s.startswith("the ") and " is " in s:
            left, right = s[4:].split(" is ", 1)
            room = None
            if " in the " in left:
                left, room = left.rsplit(" in the ", 1)
            for p in _PREDS:
                if right.startswith(p + " the "):
                    rest = right[len(p) + 5 :]
                    if room is None:
                        if " in the " not in rest:
                            raise self.fail(s, "'... in the <room>'")
                        rest, room = rest.rsplit(" in the ", 1)
                    for lab in (left, rest, room):
                        self._check_label(lab, s, "a label")
                    return Relation(ObjectRef(left, room), p, ObjectRef(rest, room))
            raise self.fail(right, f"a predicate (one of {', '.join(ALL_PREDICATES[:6])}, 'north of', ...)")
        raise self.fail(s, "a condition ('there is a <object> in the <room>' or "
                           "'the <object> is <predicate> the <object> in the <room>')")

    # ---- programs
    def go(self, s: str) -> Go:
        for v in _VERBS:
            if s.startswith(v + " "):
                return Go(self.ref(s[len(v) + 1 :]))
        raise self.fail(s, f"a movement verb ({', '.join(VERBS)})")

    def program(self, s: str) -> Program:
        if not s:
            raise self.fail(s, "an instruction")
        if s.startswith("first "):
            s = s[6:]
            if not s.startswith(_VERBS):
                raise self.fail(s, "a movement verb after 'first'")
        if s.startswith(_VERBS):
            steps: list[Program] = []
            rest = s
            while True:
                hits = [(rest.find(j), j) for j in _JOINERS if j in rest]
                if not hits:
                    break
                pos, j = min(hits)
                head = rest[:pos]
                if any(c in head for c in ",;.") or not head.startswith(_VERBS):
                    break
                steps.append(self.go(head))
                rest = rest[pos + len(j) :]
            if steps:
                steps.append(self.program(rest))
                return Seq(tuple(steps))
            return self.go(s)
        if self._if_start(s) is not None:
            return self.ifchain(s)
        raise self.fail(s, "a movement verb or 'if'")

    def _if_start(self, s: str) -> str | None:
        for w in IF_WORDS:
            if s.startswith(w + " "):
                return s[len(w) + 1 :]
        return None

    def _strip_else(self, s: str) -> str | None:
        for w in ALL_ELSE_WORDS:
            if s == w:
                return ""
            if s.startswith(w + ", ") or s.startswith(w + " "):
                return s[len(w) :].lstrip(",").lstrip()
        return None

    def ifchain(self, s: str) -> Program:
        level = 3 if ". " in s else 2 if "; " in s else 1
        segs = s.split(SEPARATORS[level])
        # Tokens: ("if", cond_text) | ("else", "") | ("act", text)
        toks: list[tuple[str, str]] = []
        for seg in segs:
            rest = self._strip_else(seg)
            if rest is not None:
                toks.append(("else", ""))
                seg = rest
                if not seg:
                    continue
            body = self._if_start(seg)
            if body is None:
                toks.append(("act", seg))
            elif level == 1:
                toks.append(("if", body))
            else:
                if ", " not in body:
                    raise self.fail(seg, "', ' after the condition")
                c, a = body.split(", ", 1)
                toks += [("if", c), ("act", a)]
        arms: list[tuple[Condition, Program]] = []
        k = 0
        while True:
            if k + 1 >= len(toks) or toks[k][0] != "if" or toks[k + 1][0] != "act":
                frag = toks[k][1] if k < len(toks) else s
                raise self.fail(frag or s, "'if <condition>, <action>'")
            act = toks[k + 1][1]
            act = act[5:] if act.startswith("then ") else act
            arms.append((self.cond(toks[k][1]), self.program(act)))
            k += 2
            if k >= len(toks) or toks[k][0] != "else":
                raise self.fail(s, "'otherwise ...' closing the conditional")
            k += 1
            if k < len(toks) and toks[k][0] == "if":
                continue
            if k != len(toks) - 1 or toks[k][0] != "act":
                raise self.fail(toks[k][1] if k < len(toks) else s, "one final action after 'otherwise'")
            final = self.program(toks[k][1])
            break
        out: Program = final
        for c, a in reversed(arms):
            out = If(c, a, out)
        return out


def parse(text: str) -> Program:
    """Parse an instruction (or an oracle-linear instruction) into a :class:`Program`."""
    return _Parser(text).program(_normalise(text))
