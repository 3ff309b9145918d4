"""Natural-language realisation of programs (the grammar :mod:`.parser` reads back).

Scope is carried by words *and* by a strict punctuation hierarchy, so that a reader (and the
parser) always knows which condition an "otherwise" closes:

* An ``If`` (else-if chain) at **level** L separates its parts with ``", "`` (L = 1),
  ``"; "`` (L = 2) or ``". "`` (L = 3, separate sentences). Inner conditionals always use a
  weaker mark than the one around them (level ≥ depth; the top level may use a stronger mark
  than its depth needs, chains never use commas).
* Each level has its own closing words, so two closings of different scope never share a
  word in one sentence: level 1 "otherwise" / "or else", level 2 "if not" / "failing that",
  the sentence level "Otherwise" / "If not" / "If neither holds" / "In any other case".
* A conditional inside an action is never a bare stacked "if A, if B": it is opened by
  "check whether B: if so, ..." or "then: if B, ...". A nested conditional is always said
  inside the branch that holds it ("If A, then: if B, go to x; if not, go to y. Otherwise, go
  to z"), never negated-first ("If not A, go to z. Otherwise, if B, ...", which reads as an
  else-if chain); only a single-arm ``If`` whose then-part is a ``Seq`` of ``Go`` steps and
  whose else-part is a plain ``Go`` may be said negated-first: "If there is no sofa in the
  living room, go to X. Otherwise, go to W and then go to V".
* Conditions open with "if", "provided that" or "should there be" (for a there-is condition),
  never "in case" (which means "as a precaution against", not "if").
* Predicates are said in words (:func:`~navbench.graph.relations.predicate_phrase`): "the lamp
  above and to the south of the table", never the relation id "south-and-up of".
* In a ``Seq`` only the last step may be conditional: "first go to W and then, if ..." or, at
  the top level, "First, go to W. Then: if ...".
* Labels and room labels must be lower-case words (letters, digits, spaces, ``'`` and ``-``),
  with no word of the grammar's connectives; :func:`is_speakable` checks this.
"""

from __future__ import annotations

import re

import numpy as np

from navbench.errors import NavbenchError
from navbench.graph.relations import predicate_phrase
from navbench.tasks.conditional.program import (
    Condition,
    Go,
    If,
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
#: Words that open a condition in generated text ("in case" is not one: "in case X, go to Y" means
#: "go to Y as a precaution against X" in English; the parser still reads it from people).
IF_WORDS: tuple[str, ...] = ("if", "provided that", "should there be")
SEPARATORS: dict[int, str] = {1: ", ", 2: "; ", 3: ". "}
MAX_DEPTH = 3
#: Closing ("else") words of inner levels (disjoint, so scopes never share a word).
INNER_ELSE: dict[int, tuple[str, ...]] = {1: ("otherwise", "or else"), 2: ("if not", "failing that")}
#: Else-if continuations of inner levels.
INNER_CONT: dict[int, tuple[str, ...]] = {1: ("or else, if",), 2: ("failing that, if",)}
TOP_CONT: tuple[str, ...] = ("otherwise, if", "failing that, if", "if not, but")
#: Every closing phrase the parser accepts (generated or human).
ALL_ELSE_WORDS: tuple[str, ...] = tuple(sorted({
    "otherwise", "or else", "else", "if not", "failing that", "if that is not the case",
    "if neither holds", "if neither is the case", "if none of these holds", "if none of them holds",
    "in any other case", "if it does not", "if it doesn't", "if there isn't", "if there is not",
    "if it isn't", "if it is not", "if you don't", "if you do not", "if not so",
}, key=len, reverse=True))
SEQ_JOINERS: tuple[str, ...] = (" and then ", " and after that ")
#: Top-level openers, drawn uniformly ("should" becomes "should there be" for a there-is
#: condition and "if" for any other, see :func:`_open`).
_OPENERS = ("if", "if", "if", "if", "should", "provided that")

_WORD = re.compile(r"^[a-z0-9][a-z0-9'\-]*( [a-z0-9][a-z0-9'\-]*)*$")
_RESERVED = {"in", "the", "is", "has", "contains", "if", "then", "otherwise", "and", "there",
             "there's", "see", "case", "else", "a", "an", "are", "any", "or", "not", "no",
             "with", "off", "unless", "but", "so", "check", "whether", "first", "finally",
             "inside", "neither", "none", "isn't", "doesn't", "don't", "does", "do"}

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


def room_text(room: str, hint: str | None) -> str:
    """"the kitchen" or, for a room whose label repeats, "the bedroom with the desk"."""
    return f"the {room}" + ("" if hint is None else f" {hint}")


def ref_text(r: ObjectRef) -> str:
    """"the stool north of the dishwasher in the kitchen" (predicates in words: "the lamp above
    and to the south of the table ...", :func:`~navbench.graph.relations.predicate_phrase`)."""
    q = "" if r.qualifier is None else \
        f" {predicate_phrase(r.qualifier.predicate)} the {r.qualifier.anchor}"
    return f"the {r.label}{q} in {room_text(r.room, r.room_hint)}"


def _pick(rng: np.random.Generator, options: tuple[str, ...] | list[str]) -> str:
    return options[int(rng.integers(len(options)))]


def condition_text(c: Condition, rng: np.random.Generator, negated: bool = False) -> str:
    """One of several phrasings of a condition (or of its negation; lower-case, no final
    punctuation)."""
    if isinstance(c, Presence):
        a, lab, room = article(c.label), c.label, room_text(c.room, c.room_hint)
        if negated:
            forms = [f"there is no {lab} in {room}", f"there isn't {a} {lab} in {room}",
                     f"{room} has no {lab}", f"{room} doesn't have {a} {lab}"]
        else:
            forms = [f"there is {a} {lab} in {room}", f"there's {a} {lab} in {room}",
                     f"you see {a} {lab} in {room}", f"{room} has {a} {lab}",
                     f"{room} contains {a} {lab}"]
            if has_safe_plural(lab):
                forms.append(f"there are any {pluralize(lab)} in {room}")
        return _pick(rng, forms)
    s, r = c.subject, c.reference
    room = room_text(s.room, s.room_hint)
    neg = " not" if negated else ""
    pred = predicate_phrase(c.predicate)
    if rng.integers(2):
        return f"the {s.label} in {room} is{neg} {pred} the {r.label}"
    return f"the {s.label} is{neg} {pred} the {r.label} in {room}"


def _open(opener: str, cond: str, postposed: bool = False) -> str:
    """A condition with its opener: "if <cond>", "provided that <cond>" or, for ``"should"`` and a
    there-is condition, "should there be <rest>" ("should there be no sofa in the hallway");
    ``"should"`` reads "if" otherwise and after the action ("go to X if ...")."""
    if opener == "should":
        for head in ("there is ", "there's ", "there are "):
            if cond.startswith(head) and not postposed:
                return "should there be " + cond[len(head):]
        opener = "if"
    return f"{opener} {cond}"


def go_text(g: Go, rng: np.random.Generator) -> str:
    """"head to the sofa in the living room"."""
    return f"{_pick(rng, VERBS)} {ref_text(g.target)}"


def _level(p: If, top: bool, rng: np.random.Generator) -> int:
    d = depth(p)
    if d > MAX_DEPTH:
        raise TemplateError(f"conditional depth {d} > {MAX_DEPTH} cannot be put into words")
    if not top:
        return d
    arms, _ = chain(p)
    if d >= 2:  # a top level with inner conditionals is always split into sentences
        return MAX_DEPTH
    return int(rng.integers(2 if len(arms) > 1 else 1, MAX_DEPTH + 1))


def _nested_action(p: Program, rng: np.random.Generator) -> str:
    """The text of an arm's action; a conditional one is opened by a scope word."""
    text = _program_text(p, rng, top=False)
    if isinstance(p, If) and not text.startswith("check whether"):
        text = "then: " + text
    return text


def _if_text(p: If, rng: np.random.Generator, top: bool) -> str:
    level = _level(p, top, rng)
    sep = SEPARATORS[level]
    arms, final = chain(p)
    sentence = level == 3
    # negated-first: "if there is no X, go to F. Otherwise, first go to W and then go to V"; never
    # for a conditional then-part, whose "Otherwise, if B, ..." would read as an else-if chain
    if top and sentence and len(arms) == 1 and isinstance(final, Go) \
            and not isinstance(arms[0][1], Go) and depth(arms[0][1]) == 0 and rng.random() < 0.5:
        cond, action = arms[0]
        opener = _pick(rng, _OPENERS)
        return (f"{_open(opener, condition_text(cond, rng, True))}, "
                f"{go_text(final, rng)}{sep}otherwise, {_program_text(action, rng, top=False)}")
    segs: list[str] = []
    conts = list(TOP_CONT if top else INNER_CONT[level])  # each continuation word once
    rng.shuffle(conts)
    check = len(arms) == 1 and rng.random() < (0.3 if top else 0.6)
    for k, (cond, action) in enumerate(arms):
        act = _nested_action(action, rng)
        if k == 0 and check:
            segs.append(f"check whether {condition_text(cond, rng)}: if so, {act}")
        elif k == 0:
            lead = _pick(rng, _OPENERS) if top else "if"
            if isinstance(action, Go) and rng.random() < 0.2:  # postposed condition
                segs.append(f"{act} {_open(lead, condition_text(cond, rng), postposed=True)}")
            else:
                segs.append(f"{_open(lead, condition_text(cond, rng))}, {act}")
        else:
            cont = conts[(k - 1) % len(conts)]
            segs.append(f"{cont} {condition_text(cond, rng)}, {act}")
    if top:
        opts = ["otherwise"]
        if len(arms) == 1 and isinstance(arms[0][1], Go):
            opts += ["if not", "or else"] if not check else ["if not"]
        if len(arms) == 2:
            opts += ["if neither holds", "in any other case"]
        if len(arms) == 3:
            opts += ["if none of these holds", "in any other case"]
        else_w = _pick(rng, opts)
    else:
        else_w = _pick(rng, INNER_ELSE[level])
    joiner = " " if else_w == "or else" or (level == 1 and else_w == "otherwise" and not top) else ", "
    segs.append(f"{else_w}{joiner}{_nested_action(final, rng)}")
    return sep.join(segs)


def _program_text(p: Program, rng: np.random.Generator, top: bool = True) -> str:
    if isinstance(p, Go):
        return go_text(p, rng)
    if isinstance(p, Seq):
        if any(not isinstance(s, Go) for s in p.steps[:-1]):
            raise TemplateError("only the last step of a Seq may be conditional in text")
        parts = [go_text(s, rng) for s in p.steps[:-1]]  # type: ignore[arg-type]
        last = p.steps[-1]
        if top and isinstance(last, If):  # "First, go to W. Then: if ..."
            form = int(rng.integers(3))
            if form == 0:
                head = "first, " + ". then, ".join(parts) + ". then:"
            elif form == 1:
                head = ". after that, ".join(parts) + " first. after that,"
            else:
                head = "first " + ", then ".join(parts) + ", and then:"
            return f"{head} {_program_text(last, rng, top=True)}"
        text = _pick(rng, ("", "first ")) + parts[0]
        for nxt in parts[1:]:
            text += _pick(rng, SEQ_JOINERS) + nxt
        tail = _program_text(last, rng, top=False)
        return text + _pick(rng, SEQ_JOINERS).rstrip() + (", " if isinstance(last, If) else " ") + tail
    return _if_text(p, rng, top)


def _capitalise(text: str) -> str:
    sentences = text.split(". ")
    return ". ".join(s[:1].upper() + s[1:] for s in sentences)


def realise(p: Program, rng: np.random.Generator) -> str:
    """The instruction text of ``p`` (capitalised sentences, final period)."""
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
