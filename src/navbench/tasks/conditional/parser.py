"""Parser for the instruction grammar of :mod:`.templates` and common human paraphrases.

``parse(text)`` recovers the :class:`Program` structure with references by label, qualifier,
room label and room hint (ids are ``None``; program equality ignores ids, so ``parse(inst.text)
== inst.program``). Text outside the grammar raises :class:`ParseError` naming the fragment and
what was expected: the parser refuses rather than guess (conjunctions, missing "otherwise",
references without a room, unknown words when a vocabulary is given).

The templates open conditions with "if", "provided that" and "should there be"; predicates
are read as relation ids ("south-and-up of") or in words ("above and to the south of", "south
of and above"). Accepted beyond the templates: Unicode quotes, dashes and spaces (normalised
first); "in case" (people write it, though it means "as a precaution against"), "unless"
(negated condition), negated conditions ("there is no X", "the R has no X", "the X is not near
the Y"), postposed conditions ("go to A if C, otherwise ..."), "check whether C. If so, ... If
not, ...", missing commas before the action, verb synonyms ("walk over to", "move to", "get to",
...), and — with ``vocabulary`` (the scene's object and room labels) — object and room synonyms
("couch" → "sofa" when the scene has a sofa and no couch).

Structure (``SEP_L`` is ``,`` / ``;`` / ``.`` for level L; inner conditionals use weaker marks)::

    program  := seq | ifchain | go
    seq      := ["first" [","]] go (JOIN go)* JOIN program        JOIN := and then | , then | ...
    ifchain  := arm (SEP_L ELSE [","] arm)* SEP_L ELSE [","] program
    arm      := IF cond "," program | program IF cond | "check whether" cond (":" | SEP_L) "if so," program
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from navbench.errors import NavbenchError
from navbench.graph.relations import ALL_PREDICATES, PREDICATE_PHRASES
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
    SEPARATORS,
    VERBS,
    is_speakable,
    singularize,
)


def _predicate_words() -> tuple[tuple[str, str], ...]:
    """(words, predicate id) pairs, longest words first: every id as written, its English
    phrase ("above and to the south of") and the phrase's other order ("south of and above")."""
    out = {p: p for p in ALL_PREDICATES}
    for p, words in PREDICATE_PHRASES.items():
        if words != p:
            out[words] = p
            height, _, direction = words.partition(" and to the ")
            out[f"{direction} and {height}"] = p
    return tuple(sorted(out.items(), key=lambda t: (-len(t[0]), t[0])))


_PREDS = _predicate_words()
EXTRA_VERBS = ("go over to", "walk over to", "head over to", "move to", "get to", "travel to",
               "make your way over to", "find your way to", "continue to", "go back to", "return to",
               "walk up to", "go up to", "approach")
_VERBS = tuple(sorted(VERBS + EXTRA_VERBS, key=len, reverse=True))
_JOINERS = (". then: ", ", and then: ", " and then: ", ". then, ", ". then ", ". after that, ", ". next, ", " and then ", " and after that ",
            ", then ", ", and finally ", ", and then ", ", after that ", " and then, ",
            " and after that, ", " then ")
_IF_HEADS = (("check whether ", "check"), ("check if ", "check"), ("see whether ", "check"),
             ("see if ", "check"), ("in case ", "if"), ("if ", "if"), ("but ", "if"),
             ("unless ", "unless"), ("provided that ", "if"), ("should ", "if"))
_POSTPOSED = (" if ", " in case ", " provided that ", " unless ")
#: Object and room synonyms, used only with a vocabulary (never changing a word the scene uses).
SYNONYMS: dict[str, str] = {
    "couch": "sofa", "settee": "sofa", "tv": "television", "telly": "television",
    "lounge": "living room", "sitting room": "living room", "restroom": "bathroom",
    "washroom": "bathroom", "hall": "hallway", "corridor": "hallway", "fridge": "refrigerator",
    "bookcase": "shelf", "cupboard": "cabinet", "plant pot": "plant", "potted plant": "plant",
    "dining area": "dining room", "study": "office", "toilet room": "bathroom",
}
_ART = r"(?:an?|one|some|any)"
_IN = r"(?:in|inside|within)"
_PRESENCE = (  # (regex, negated, plural)
    (re.compile(rf"^(?:there is|there's|there exists|you see|you can see|you find|you spot) {_ART} "
                rf"(?P<label>.+?) {_IN} the (?P<room>.+)$"), False, False),
    (re.compile(r"^the (?P<room>.+?) (?:has|contains|includes|has got) " + _ART + r" (?P<label>.+)$"),
     False, False),
    (re.compile(rf"^there are no (?P<label>.+?) {_IN} the (?P<room>.+)$"), True, True),
    (re.compile(rf"^there are (?:any |some )?(?P<label>.+?) {_IN} the (?P<room>.+)$"), False, True),
    (re.compile(rf"^{_ART} (?P<label>.+?) is {_IN} the (?P<room>.+)$"), False, False),
    (re.compile(rf"^(?:there is no|there's no|there isn't {_ART}|there is not {_ART}|"
                rf"you don't see {_ART}|you do not see {_ART}|you can't see {_ART}|"
                rf"you cannot see {_ART}|no) (?P<label>.+?) (?:is )?{_IN} the (?P<room>.+)$"),
     True, False),
    (re.compile(r"^the (?P<room>.+?) (?:has no|contains no|lacks " + _ART + r"|doesn't have "
                + _ART + r"|does not have " + _ART + r"|doesn't contain " + _ART
                + r"|does not contain " + _ART + r") (?P<label>.+)$"), True, False),
)
_REL = re.compile(r"^the (?P<left>.+?) (?P<verb>is not|isn't|is) (?P<right>.+)$")
_SO = re.compile(r"^if so(?:[,:]\s*|\s+|$)")
_INLINE_ELSE = re.compile(r",? (?:otherwise|or else|else|if not),? (?=(?:" + "|".join(
    re.escape(v) for v in sorted(VERBS, key=len, reverse=True)) + r") )")


class ParseError(NavbenchError):
    """Text outside the instruction grammar."""

    def __init__(self, text: str, fragment: str, expected: str) -> None:
        self.text, self.fragment, self.expected = text, fragment, expected
        frag = fragment if len(fragment) <= 80 else fragment[:77] + "..."
        super().__init__(f"cannot parse instruction: expected {expected} at {frag!r}")


_DASHES = dict.fromkeys(map(ord, "\u2010\u2011\u2012\u2212"), "-")
_QUOTES = {**dict.fromkeys(map(ord, "\u2018\u2019\u201a\u201b\u2032\u00b4`"), "'"),
           **dict.fromkeys(map(ord, "\u201c\u201d\u201e\u201f\u2033\""), None)}


def normalise(text: str) -> str:
    """Unicode-normalised, lower-case text with canonical spacing and no final period."""
    t = unicodedata.normalize("NFKC", text).translate(_DASHES).translate(_QUOTES)
    t = re.sub(r"[\u200b-\u200d\u2060\ufeff]", "", t)
    t = re.sub(r"\s*[\u2013\u2014\u2015]\s*", ", ", t)  # en/em dashes read as a pause
    t = t.replace("!", ".")
    t = re.sub(r"\s+([,;:.])", r"\1", " ".join(t.lower().split()))
    t = re.sub(r"([,;:.])(?=[^\s\d])", r"\1 ", t)
    t = re.sub(r"([,;:])[,;:]+", r"\1", " ".join(t.split()))
    return t.rstrip(" .")


class _Parser:
    def __init__(self, text: str, vocabulary: Iterable[str] | None) -> None:
        self.text = text
        self.vocab = None if vocabulary is None else frozenset(vocabulary)

    def fail(self, fragment: str, expected: str) -> ParseError:
        return ParseError(self.text, fragment, expected)

    # ---- words
    def label(self, label: str, s: str, what: str) -> str:
        if re.search(r"\b(and|or)\b", label):
            raise self.fail(s, f"{what} (a single condition or reference; conjunctions with "
                               "'and' / 'or' are not supported)")
        if not label or not is_speakable(label):
            raise self.fail(s, what)
        if self.vocab is None or label in self.vocab:
            return label
        syn = SYNONYMS.get(label)
        if syn is not None and syn in self.vocab:
            return syn
        raise self.fail(s, f"{what} known in this scene ({label!r} is not)")

    def room(self, phrase: str, s: str) -> tuple[str, str | None]:
        for key in (" with the ", " off the "):
            if key in phrase:
                room, obj = phrase.split(key, 1)
                hint_obj = self.label(obj, s, "an object label in the room hint")
                return self.label(room, s, "a room name"), f"{key.strip()} {hint_obj}"
        return self.label(phrase, s, "a room name"), None

    # ---- references and conditions
    def ref(self, s: str) -> ObjectRef:
        s = s[:-6] if s.endswith(" first") else s
        m = re.match(rf"^the (?P<head>.+?) {_IN} the (?P<room>.+)$", s)
        if not m:
            raise self.fail(s, "'the <object> in the <room>'")
        head, (room, hint) = m["head"], self.room(m["room"], s)
        for words, p in _PREDS:
            key = f" {words} the "
            if key in head:
                label, anchor = head.split(key, 1)
                return ObjectRef(self.label(label, s, "an object label"), room,
                                 Qualifier(p, self.label(anchor, s, "an object label")),
                                 room_hint=hint)
        return ObjectRef(self.label(head, s, "an object label"), room, room_hint=hint)

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
            for words, p in _PREDS:
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

    # ---- programs
    def go(self, s: str) -> Go:
        s = s.removeprefix("then ").removeprefix("simply ")
        for v in _VERBS:
            if s.startswith(v + " "):
                return Go(self.ref(s[len(v) + 1:]))
        raise self.fail(s, f"a movement verb ({', '.join(VERBS)}, ...)")

    def _is_go(self, s: str) -> bool:
        return s.startswith(_VERBS) and not any(w in s for w in (*_POSTPOSED, ",", ";", ":", "."))

    def program(self, s: str) -> Program:
        s = re.sub(r"^(?:then|and then|after that)\s*[:,]?\s*", "", s.strip(" ,:")).strip()
        if not s:
            raise self.fail(self.text, "an instruction")
        body = re.sub(r"^first\s*,?\s*", "", s)
        if body.startswith(_VERBS):
            hits = [(body.find(j), j) for j in _JOINERS if j in body]
            if hits:
                pos, j = min(hits)
                if self._is_go(body[:pos]):
                    rest = self.program(body[pos + len(j):])
                    tail = rest.steps if isinstance(rest, Seq) else (rest,)
                    return Seq((self.go(body[:pos]), *tail))
            elif self._is_go(body):
                return self.go(body)
        if s.startswith(("if ", "in case ", "unless ", "check ", "see ", "provided ", "should ")) \
                or any(w in s for w in _POSTPOSED):
            return self.ifchain(s)
        if s.startswith(_VERBS):
            return self.go(s)
        raise self.fail(s, "a movement verb or 'if'")

    def _else(self, seg: str) -> str | None:
        """The rest of a segment opened by a closing word, or None."""
        for w in (*ALL_ELSE_WORDS, "in which case"):
            if seg == w:
                return ""
            if seg.startswith(w + ", ") or seg.startswith(w + ": "):
                return seg[len(w) + 2:]
            if seg.startswith(w + " "):
                rest = seg[len(w) + 1:]
                if not w.startswith("if ") or rest.startswith((*_VERBS, "if ", "then", "check")):
                    return rest
        return None

    def _tokens(self, seg: str, level: int, toks: list[tuple[str, str]]) -> None:
        rest = self._else(seg)
        if rest is not None:
            toks.append(("which" if seg.startswith("in which case") else "else", ""))
            seg = rest
            if not seg:
                return
            if self._complete(seg):
                toks.append(("act", seg))  # a whole nested conditional as the final action
                return
        m = _SO.match(seg)
        if m:
            toks.append(("so", ""))
            if seg[m.end():]:
                self._action(seg[m.end():], level, toks)
            return
        for head, kind in _IF_HEADS:
            if seg.startswith(head):
                body = seg[len(head):]
                cut = re.search(r": |, ", body)
                if cut is None:
                    verbs = [body.find(" " + v + " ") for v in _VERBS if " " + v + " " in body]
                    if kind == "check" or not verbs:
                        toks.append((kind, body))
                        return
                    cut_at, skip = min(verbs), 1
                else:
                    cut_at, skip = cut.start(), 2
                toks.append((kind, body[:cut_at]))
                rest = body[cut_at + skip:]
                m = _SO.match(rest)
                if m:
                    toks.append(("so", ""))
                    rest = rest[m.end():]
                if rest:
                    self._action(rest, level, toks)
                return
        if seg.startswith(("first ", *_VERBS)):
            for w in _POSTPOSED:
                if w in seg:
                    act, c = seg.split(w, 1)
                    c, _, rest = c.partition(", ")
                    toks += [("unless" if w == " unless " else "if", c), ("act", act)]
                    if rest:
                        self._tokens(rest, level, toks)
                    return
        self._action(seg, level, toks)

    def _action(self, seg: str, level: int, toks: list[tuple[str, str]]) -> None:
        """An action; at level 1 an inline "otherwise go to ..." (missing comma) is split off."""
        m = None if self._complete(seg) else _INLINE_ELSE.search(seg)
        if m:
            toks += [("act", seg[:m.start()]), ("else", ""), ("act", seg[m.end():])]
        else:
            toks.append(("act", seg))

    def _complete(self, s: str) -> bool:
        try:
            self.program(s)
        except ParseError:
            return False
        return True

    def ifchain(self, s: str) -> Program:
        level = 3 if ". " in s else 2 if "; " in s else 1
        toks: list[tuple[str, str]] = []
        for seg in s.split(SEPARATORS[level]):
            self._tokens(seg, level, toks)
        arms: list[tuple[Condition, bool, Program]] = []
        k = 0
        while True:
            if k >= len(toks) or toks[k][0] not in ("if", "unless", "check"):
                raise self.fail(toks[k][1] if k < len(toks) and toks[k][1] else s,
                                "'if <condition>, <action>'")
            kind, ctext = toks[k]
            k += 1
            if kind == "check":
                if k >= len(toks) or toks[k][0] != "so":
                    raise self.fail(ctext, "'check whether <condition>: if so, <action>'")
                k += 1
            if k >= len(toks) or toks[k][0] != "act":
                raise self.fail(ctext, "an action after the condition")
            cond, neg = self.cond(ctext)
            arms.append((cond, neg != (kind == "unless"), self.program(toks[k][1])))
            k += 1
            if k >= len(toks) or toks[k][0] not in ("else", "which"):
                raise self.fail(s, "'otherwise ...' closing the conditional")
            if toks[k][0] == "which" and not (kind == "unless" and len(arms) == 1):
                raise self.fail(s, "'in which case' only after 'unless'")
            k += 1
            if k < len(toks) and toks[k][0] in ("if", "unless", "check"):
                continue
            if k != len(toks) - 1 or toks[k][0] != "act":
                raise self.fail(toks[k][1] if k < len(toks) and toks[k][1] else s,
                                "one final action after 'otherwise'")
            out = self.program(toks[k][1])
            break
        for c, neg, a in reversed(arms):
            out = If(c, out, a) if neg else If(c, a, out)
        return out


def parse(text: str, vocabulary: Iterable[str] | None = None) -> Program:
    """Parse an instruction (or an oracle-linear instruction) into a :class:`Program`.

    Parameters
    ----------
    text : str
        The instruction (any case, Unicode punctuation allowed).
    vocabulary : iterable of str, optional
        The scene's object and room labels; when given, every label must be one of them or a
        :data:`SYNONYMS` entry for one of them (else :class:`ParseError`).

    Returns
    -------
    Program
        The AST (``Go``, ``Seq``, ``If`` with ``Presence`` / ``Relation`` conditions); its
        references carry labels and rooms, not scene object ids.

    Raises
    ------
    ParseError
        Text outside the grammar, naming the fragment and what was expected.

    Examples
    --------
    >>> from navbench.tasks.conditional import linearize, parse
    >>> p = parse("If the kitchen has a coffee table, go to the stool in the kitchen. "
    ...           "Otherwise, go to the sofa in the living room.")
    >>> type(p).__name__, p.cond.label, p.then.target.label, p.else_.target.room
    ('If', 'coffee table', 'stool', 'living room')

    The oracle linearisation keeps the branch the facts select (condition ids ``c0``, ``c1``,
    ... in pre-order):

    >>> linearize(p, {"c0": True}), linearize(p, {"c0": False})
    ('Go to the stool in the kitchen.', 'Go to the sofa in the living room.')
    >>> parse("Go to the sofa in the garden.", vocabulary=["sofa", "kitchen"])
    Traceback (most recent call last):
    ...
    navbench.tasks.conditional.parser.ParseError: cannot parse instruction: expected a room name known in this scene ('garden' is not) at 'the sofa in the garden'
    """
    return _Parser(text, vocabulary).program(normalise(text))
