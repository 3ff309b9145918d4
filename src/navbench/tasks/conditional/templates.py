"""Natural-language realisation of programs (the grammar :mod:`.parser` reads back).

Layout rules that make every generated text parseable:

* An ``If`` (else-if chain) of depth L separates its parts with the level-L mark:
  ``", "`` (L = 1), ``"; "`` (L = 2), ``". "`` (L = 3, separate sentences); the condition is
  always closed by a comma. Depth > 3 is not realisable.
* In a ``Seq`` only the last step may be conditional; steps are joined by "and then" /
  "and after that", optionally introduced by "first".
* Labels and room labels must be lower-case words (letters, digits, spaces, ``'`` and ``-``),
  with no word of the grammar's connectives; :func:`is_speakable` checks this.
"""

from __future__ import annotations

import re

import numpy as np

from navbench.errors import NavbenchError
from navbench.tasks.conditional.program import (
    Condition,
    Go,
    ObjectRef,
    Presence,
    Program,
    Seq,
    chain,
    depth,
)

VERBS: tuple[str, ...] = (
    "go to", "head to", "make your way to", "walk to", "navigate to", "proceed to",
)
IF_WORDS: tuple[str, ...] = ("if", "in case")
THEN_WORDS: tuple[str, ...] = ("", "then ")
#: Else words by level; level-1 finals read "otherwise go to ...", higher levels "otherwise, go to ...".
ELSE_WORDS: dict[int, tuple[str, ...]] = {
    1: ("otherwise", "or else", "else"),
    2: ("otherwise", "if not", "failing that"),
    3: ("otherwise", "if not", "if that is not the case"),
}
ALL_ELSE_WORDS: tuple[str, ...] = tuple(
    sorted({w for ws in ELSE_WORDS.values() for w in ws}, key=len, reverse=True)
)
SEQ_JOINERS: tuple[str, ...] = (" and then ", " and after that ")
SEPARATORS: dict[int, str] = {1: ", ", 2: "; ", 3: ". "}
MAX_DEPTH = 3

_WORD = re.compile(r"^[a-z0-9][a-z0-9'\-]*( [a-z0-9][a-z0-9'\-]*)*$")
_RESERVED = {"in", "the", "is", "has", "contains", "if", "then", "otherwise", "and", "there",
             "there's", "see", "case", "else", "a", "an", "are", "any"}

_IRREGULAR = {
    "shelf": "shelves", "knife": "knives", "leaf": "leaves", "person": "people",
    "mouse": "mice", "child": "children", "foot": "feet", "man": "men", "woman": "women",
    "loaf": "loaves", "wolf": "wolves", "scarf": "scarves",
}
_IRREGULAR_INV = {v: k for k, v in _IRREGULAR.items()}


class TemplateError(NavbenchError):
    """A program cannot be put into words by the templates (too deep, unsupported shape)."""


def is_speakable(label: str) -> bool:
    """Whether a label can appear in text and be parsed back unambiguously."""
    return bool(_WORD.match(label)) and not (set(label.split()) & _RESERVED)


def article(label: str) -> str:
    """Indefinite article ``"a"`` / ``"an"`` for a singular label."""
    w = label.split()[0]
    if w.startswith(("hour", "honest", "honour", "heir")):
        return "an"
    if w.startswith(("uni", "use", "usu", "one", "eu", "ewe")):
        return "a"
    return "an" if w[0] in "aeiou" else "a"


def pluralize(label: str) -> str:
    """English plural of a label (the last word is inflected: "coffee table" → "coffee tables")."""
    *head, w = label.split()
    if w in _IRREGULAR:
        p = _IRREGULAR[w]
    elif w.endswith(("s", "x", "z", "ch", "sh")):
        p = w + "es"
    elif w.endswith("y") and len(w) > 1 and w[-2] not in "aeiou":
        p = w[:-1] + "ies"
    else:
        p = w + "s"
    return " ".join([*head, p])


def singularize(label: str) -> str:
    """Inverse of :func:`pluralize` for the forms it produces."""
    *head, w = label.split()
    if w in _IRREGULAR_INV:
        s = _IRREGULAR_INV[w]
    elif w.endswith("ies") and len(w) > 3:
        s = w[:-3] + "y"
    elif w.endswith(("ses", "xes", "zes", "ches", "shes")):
        s = w[:-2]
    elif w.endswith("s"):
        s = w[:-1]
    else:
        s = w
    return " ".join([*head, s])


def has_safe_plural(label: str) -> bool:
    """Whether ``singularize(pluralize(label)) == label`` (plural templates are then allowed)."""
    return singularize(pluralize(label)) == label


def ref_text(r: ObjectRef) -> str:
    """"the stool north of the dishwasher in the kitchen"."""
    q = "" if r.qualifier is None else f" {r.qualifier.predicate} the {r.qualifier.anchor}"
    return f"the {r.label}{q} in the {r.room}"


def _pick(rng: np.random.Generator, options: tuple[str, ...]) -> str:
    return options[int(rng.integers(len(options)))]


def condition_text(c: Condition, rng: np.random.Generator) -> str:
    """One of several phrasings of a condition (lower-case, no final punctuation)."""
    if isinstance(c, Presence):
        a, lab, room = article(c.label), c.label, c.room
        forms = [
            f"there is {a} {lab} in the {room}",
            f"there's {a} {lab} in the {room}",
            f"you see {a} {lab} in the {room}",
            f"the {room} has {a} {lab}",
            f"the {room} contains {a} {lab}",
        ]
        if has_safe_plural(lab):
            forms.append(f"there are any {pluralize(lab)} in the {room}")
        return forms[int(rng.integers(len(forms)))]
    s, r = c.subject, c.reference
    if rng.integers(2):
        return f"the {s.label} in the {s.room} is {c.predicate} the {r.label}"
    return f"the {s.label} is {c.predicate} the {r.label} in the {s.room}"


def go_text(g: Go, rng: np.random.Generator) -> str:
    """"head to the sofa in the living room"."""
    return f"{_pick(rng, VERBS)} {ref_text(g.target)}"


def _program_text(p: Program, rng: np.random.Generator) -> str:
    if isinstance(p, Go):
        return go_text(p, rng)
    if isinstance(p, Seq):
        if any(not isinstance(s, Go) for s in p.steps[:-1]):
            raise TemplateError("only the last step of a Seq may be conditional in text")
        parts = [go_text(s, rng) for s in p.steps[:-1]]  # type: ignore[arg-type]
        text = _pick(rng, ("", "first ")) + parts[0]
        for nxt in [*parts[1:], _program_text(p.steps[-1], rng)]:
            text += _pick(rng, SEQ_JOINERS) + nxt
        return text
    level = depth(p)
    if level > MAX_DEPTH:
        raise TemplateError(f"conditional depth {level} > {MAX_DEPTH} cannot be put into words")
    arms, final = chain(p)
    sep = SEPARATORS[level]
    if_w = _pick(rng, IF_WORDS)
    segs: list[str] = []
    for k, (cond, action) in enumerate(arms):
        lead = if_w if k == 0 else f"{_pick(rng, ELSE_WORDS[level])}, {if_w}"
        segs.append(
            f"{lead} {condition_text(cond, rng)}, {_pick(rng, THEN_WORDS)}{_program_text(action, rng)}"
        )
    else_w = _pick(rng, ELSE_WORDS[level])
    segs.append(f"{else_w}{' ' if level == 1 else ', '}{_program_text(final, rng)}")
    return sep.join(segs)


def _capitalise(text: str) -> str:
    sentences = text.split(". ")
    return ". ".join(s[:1].upper() + s[1:] for s in sentences)


def realise(p: Program, rng: np.random.Generator) -> str:
    """The instruction text of ``p`` (one sentence per top-level part, final period)."""
    return _capitalise(_program_text(p, rng)) + "."


def linear_text(goal: ObjectRef, subgoals: tuple[ObjectRef, ...] | list[ObjectRef]) -> str:
    """Oracle-linear text (CondVLN §4): "Go to g_b." or "First go to g_1, then go to g_2, and
    finally go to g_b."."""
    if not subgoals:
        return f"Go to {ref_text(goal)}."
    parts = [f"First go to {ref_text(subgoals[0])}"]
    parts += [f"then go to {ref_text(s)}" for s in subgoals[1:]]
    parts.append(f"and finally go to {ref_text(goal)}")
    return ", ".join(parts) + "."
