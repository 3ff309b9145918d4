"""Paraphrase variants of generated instructions, each meaning the same as the original.

Surface variants rewrite the generated text in place (typography, contractions, compass words,
dropped verbs, "else if", lists, the question form, "check for", "you can see", references
back); structural variants say a single conditional ``If(C, Go a, Go b)`` (possibly after
``Go`` steps) in the other orders and closers people use ("go to a if C, otherwise b", "b
unless C, in which case a", "if not C, b; if it is, a", "Is C? If yes, ..."). The test compares
*behaviour*: under every truth assignment of the conditions the parsed variant visits the same
targets as the original program.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from itertools import product

from navbench.graph.relations import predicate_phrase
from navbench.tasks.conditional import Condition, Go, If, ObjectRef, Presence, Program, Seq
from navbench.tasks.conditional.program import conditions, execute
from navbench.tasks.conditional.templates import VERBS, article, ref_text

_VERB = "|".join(VERBS)
_W = r"[a-z0-9' -]+?"  # a label or room phrase (lazy)
_END = r"(?=, |; |\. |\.$| or else)"


def _cap(s: str) -> str:
    return ". ".join(p[:1].upper() + p[1:] for p in s.split(". "))


def _sub(pattern: str, repl: str | Callable[[re.Match[str]], str], text: str) -> str:
    return re.sub(pattern, repl, text, flags=re.IGNORECASE)


def _back_reference(kind: str) -> Callable[[re.Match[str]], str]:
    """"if there is a X in the R, go to the Y in the R" → "... go to it / the Y there / the Y"."""
    def repl(m: re.Match[str]) -> str:
        x, y = m["x"].lower(), m["y"].lower()
        if kind == "it" and x == y:
            target = "it"
        elif kind == "there":
            target = f"the {y} there"
        elif kind == "label" and x == y:
            target = f"the {y}"
        else:
            return m[0]
        return f"{m['head']}{m['verb']} {target}"
    return repl


_ARM = (rf"(?P<head>(?:if|provided that|check whether) (?:there is|there's|you see) (?:a|an) "
        rf"(?P<x>{_W}) in the (?P<r>{_W})(?:, |: if so, )(?:then )?)(?P<verb>{_VERB}) "
        rf"the (?P<y>{_W}) in the (?P=r){_END}")


def _question(m: re.Match[str]) -> str:
    c = m["c"]
    for rx, q in ((r"^(?:there is|there's) (.*)$", r"is there \1"),
                  (r"^the (.+?) (has|contains) (.*)$", None),
                  (r"^you see (.*)$", r"can you see \1")):
        mm = re.match(rx, c, flags=re.IGNORECASE)
        if mm and q is None:
            return f"{m['pre']}does the {mm[1]} {'have' if mm[2] == 'has' else 'contain'} {mm[3]}? If yes, "
        if mm:
            return f"{m['pre']}{mm.expand(q)}? If yes, "
    mm = re.match(r"^(the .+?) is (.+)$", c)
    if mm:
        return f"{m['pre']}is {mm[1]} {mm[2]}? If yes, "
    return m[0]


SURFACE: dict[str, Callable[[str], str]] = {
    "curly quotes and dashes": lambda t: t.replace("'", "\u2019").replace(", otherwise", " \u2014 otherwise"),
    "contractions": lambda t: _sub(r"\bthere is (an?) ", r"there's \1 ", _sub(r"\b(is|does) not\b", r"\1n't", t)),
    "expanded": lambda t: _sub(r"\bthere's\b", "there is", _sub(r"\b(is|does)n't\b", r"\1 not", t)),
    "compass without hyphen": lambda t: _sub(r"\b(north|south)-(east|west)\b", r"\1\2", t),
    "compass with a space": lambda t: _sub(r"\b(north|south)-(east|west)\b", r"\1 \2", t),
    "dropped verb": lambda t: _sub(rf"\b(otherwise|or else)(,?) (?:{_VERB}) (?=the )", r"\1\2 to ", t),
    "dropped verb and to": lambda t: _sub(rf"\b(otherwise|or else)(,?) (?:{_VERB}) (?=the )", r"\1\2 ", t),
    "else if": lambda t: _sub(r"\b(?:otherwise|or else), if\b", "else if", t),
    "numbered list": lambda t: _numbered(t),
    "arrow list": lambda t: _arrows(t),
    "question form": lambda t: _sub(r"(?P<pre>^|, |: |\. )check whether (?P<c>[^:]+): if so, ", _question, t),
    "check for": lambda t: _sub(rf"\bcheck whether (?:there is|there's) (?P<a>an?) (?P<x>{_W}) in the (?P<r>[^:]+): if so,",
                                r"check for \g<a> \g<x> in the \g<r>: if there is one,", t),
    "check the room for": lambda t: _sub(rf"\bcheck whether (?:there is|there's) (?P<a>an?) (?P<x>{_W}) in the (?P<r>[^:]+): if so,",
                                         r"check the \g<r> for \g<a> \g<x>: if you find one,", t),
    "you can see": lambda t: _sub(r"\b(if|whether) (?:there is|there's) (an?) ", r"\1 you can see \2 ", t),
    "reference back: it": lambda t: _sub(_ARM, _back_reference("it"), t),
    "reference back: there": lambda t: _sub(_ARM, _back_reference("there"), t),
    "reference back: label": lambda t: _sub(_ARM, _back_reference("label"), t),
}


def _numbered(t: str) -> str:
    """"First, W. Then, V. Then: REST" → "1. W. 2. V. 3. REST"."""
    m = re.match(r"^First, (.+?)\. Then: (.+)$", t)
    if not m:
        return t
    steps = [*m[1].split(". Then, "), _cap(m[2])]
    return " ".join(f"{k}. {_cap(s)}{'' if s.endswith('.') else '.'}" for k, s in enumerate(steps, 1))


def _arrows(t: str) -> str:
    """"First W, then V, and then: REST" → "W -> V -> REST"."""
    m = re.match(r"^First (.+?), and then: (.+)$", t)
    if not m:
        return t
    return " -> ".join([*m[1].split(", then "), m[2]])


def surface_variants(text: str) -> Iterator[tuple[str, str]]:
    """(class, variant) for every surface rewrite that changes ``text``."""
    for name, f in SURFACE.items():
        v = f(text)
        if v != text:
            yield name, v


def _cond(c: Condition, negated: bool = False) -> str:
    if isinstance(c, Presence):
        room = ref_text(ObjectRef("x", c.room, room_hint=c.room_hint))[len("the x in "):]
        return f"there is {'no' if negated else article(c.label)} {c.label} in {room}"
    s = c.subject
    room = ref_text(ObjectRef("x", s.room, room_hint=s.room_hint))[len("the x in "):]
    return f"the {s.label} is{' not' if negated else ''} {predicate_phrase(c.predicate)} the {c.reference.label} in {room}"


def structural_variants(p: Program) -> Iterator[tuple[str, str]]:
    """(class, text) for a program ``[Go ...,] If(C, Go a, Go b)``; nothing for other shapes."""
    steps = list(p.steps) if isinstance(p, Seq) else [p]
    last = steps[-1]
    if not (isinstance(last, If) and isinstance(last.then, Go) and isinstance(last.else_, Go)
            and all(isinstance(s, Go) for s in steps[:-1])):
        return
    c, a, b = last.cond, ref_text(last.then.target), ref_text(last.else_.target)
    yes_word = "if there is" if isinstance(c, Presence) else "if it is"
    forms = {
        "postposed": f"go to {a} if {_cond(c)}, otherwise {b}.",
        "unless, in which case": f"go to {b} unless {_cond(c)}, in which case go to {a}.",
        "unless first": f"unless {_cond(c)}, go to {b}; otherwise, go to {a}.",
        "negated with affirmative closer": f"if {_cond(c, True)}, go to {b}; {yes_word}, go to {a}.",
        "unless with affirmative closer": f"go to {b} unless {_cond(c)}; {yes_word}, go to {a}.",
        "in case": f"in case {_cond(c)}, go to {a}; otherwise go to {b}.",
        "question": _question(re.match(r"(?P<pre>)check whether (?P<c>.+)$",  # type: ignore[arg-type]
                                       f"check whether {_cond(c)}")) + f"go to {a}. If no, go to {b}.",
    }
    if isinstance(c, Presence):
        x = f"{article(c.label)} {c.label} in {_cond(c).split(' in ', 1)[1]}"
        forms["can see / cannot"] = f"if you can see {x}, go to {a}. If you can't, go to {b}."
        forms["cannot see / can"] = f"if you can't see {x}, go to {b}; if you can, go to {a}."
        forms["check for"] = f"check for {x}: if there is one, go to {a}; otherwise go to {b}."
    then = last.then.target
    if isinstance(c, Presence) and (then.room, then.room_hint) == (c.room, c.room_hint):
        there = f"the {then.label}" + ("" if then.qualifier is None else f" {predicate_phrase(then.qualifier.predicate)} the {then.qualifier.anchor}")
        forms["reference back: there"] = f"if {_cond(c)}, go to {there} there; otherwise go to {b}."
        if then.label == c.label and then.qualifier is None:
            forms["reference back: it"] = f"if {_cond(c)}, walk to it. Otherwise, go to {b}."
            forms["reference back: label"] = f"if {_cond(c)}, walk to the {c.label}. Otherwise, go to {b}."
    prefix = [ref_text(s.target) for s in steps[:-1]]  # type: ignore[union-attr]
    for name, text in forms.items():
        if not prefix:
            yield name, _cap(text)
        else:
            yield name + " after a numbered list", " ".join(
                f"{k}. Go to {r}." for k, r in enumerate(prefix, 1)) + f" {len(prefix) + 1}. {_cap(text)}"
            yield name + " after arrows", " -> ".join([*(f"go to {r}" for r in prefix), text])


def same_behaviour(p: Program, q: Program) -> bool:
    """Whether ``q`` visits the same targets as ``p`` under every truth assignment of ``p``'s
    conditions (``q`` may order or negate them differently but must not add any)."""
    conds = list(dict.fromkeys(conditions(p)))
    if not set(conditions(q)) <= set(conds):
        return False
    for bits in product((True, False), repeat=len(conds)):
        truth = dict(zip(conds, bits, strict=True))
        if execute(p, truth.__getitem__)[1] != execute(q, truth.__getitem__)[1]:
            return False
    return True
