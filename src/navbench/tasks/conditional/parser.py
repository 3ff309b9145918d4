"""Parser for the instruction grammar of :mod:`.templates` and the ways people paraphrase it.

``parse(text)`` recovers the :class:`Program` structure with references by label, qualifier,
room label and room hint (ids are ``None``; program equality ignores ids, so ``parse(inst.text)
== inst.program``). Text outside the grammar raises :class:`ParseError` naming the fragment and
what was expected: the parser refuses rather than guess (conjunctions, a conditional without
an alternative, references nothing before them resolves, unknown words when a vocabulary is
given). Any input gives a program or a ``ParseError``: texts over :data:`MAX_CHARS` characters
and more than :data:`MAX_NESTING` nested parts are refused, never a ``RecursionError``.

Accepted beyond the templates (the wording rules live in :mod:`.rewrite`, the phrases in
:mod:`.phrases`):

* typography: Unicode quotes, dashes and spaces, any case, missing commas, contractions;
* openers and closers: "unless" (with "in which case" / "if there is" / "if it is" closing it),
  "else if", "if it does not", "if you cannot (see one)", "if there is none", "if yes" /
  "if no"; "in case" opens a condition: the grammar only reads conditionals with an explicit
  alternative ("..., otherwise ..."), where the precaution reading of "in case" ("take an
  umbrella in case it rains") is impossible; "just in case" and "in case of" are refused;
* any order: "go to A if C, otherwise B", "go to B unless C, in which case go to A";
* "check whether C: if so, ...", "check for a X in the R", "check the R for a X", the question
  form "Is there a X in the R? If yes, ... If no, ...";
* negated conditions ("there is no X", "the R has no X", "you cannot see a X in the R", "the X
  is not near the Y") and their affirmative closers ("if it is, ...", "if you can, ...");
* references back: "it", "the tv there", "the mirror" (room of the nearest condition or step
  naming it), a dropped verb ("or else to the lamp in the bedroom", "otherwise the bed ...");
* lists of steps: "1. ... 2. ...", "1) ... 2) ...", "step 1: ...", "A -> B -> C" (also → and =>),
  each step any instruction;
* verb synonyms ("walk over to", "move to", ...) and, with a vocabulary
  (:class:`~navbench.tasks.conditional.vocabulary.Vocabulary`), object and room synonyms.

Structure (``SEP_L`` is ``,`` / ``;`` / ``.`` for level L; inner conditionals use weaker marks)::

    program  := list | seq | ifchain | go
    list     := ("1." program)+ | program ("->" program)+
    seq      := ["first" [","]] go (JOIN go)* JOIN program        JOIN := and then | , then | ...
    ifchain  := arm (SEP_L CLOSE [","] arm)* SEP_L CLOSE [","] program
    arm      := IF cond "," program | program IF cond | "check whether" cond (":" | SEP_L) YES program
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from navbench.tasks.conditional.phrases import ParseError, Phrases
from navbench.tasks.conditional.program import Condition, Go, If, Program, Seq
from navbench.tasks.conditional.rewrite import normalise, rewrite
from navbench.tasks.conditional.templates import ALL_ELSE_WORDS, SEPARATORS, VERBS
from navbench.tasks.conditional.vocabulary import SYNONYMS, Vocabulary

__all__ = ["MAX_CHARS", "MAX_NESTING", "SYNONYMS", "ParseError", "normalise", "parse"]

#: Longest text read (characters after normalisation); generated instructions stay under 1,000.
MAX_CHARS = 5000
#: Most parts nested in one another (conditionals in branches, list items, sequence tails).
MAX_NESTING = 24
EXTRA_VERBS = ("go over to", "walk over to", "head over to", "move to", "get to", "travel to",
               "make your way over to", "find your way to", "continue to", "go back to", "return to",
               "walk up to", "go up to", "approach")
_VERBS = tuple(sorted(VERBS + EXTRA_VERBS, key=len, reverse=True))
#: How an action may start: a verb or, with the verb dropped, "to the ..." / "the ...".
_GO_HEADS = (*_VERBS, "to the ", "the ")
_JOINERS = (". then: ", ", and then: ", " and then: ", ", then: ", ". then, ", ". then ", ". after that, ", ". next, ",
            " and then ", " and after that ", ", then ", ", and finally ", ", and then ", ", after that ",
            " and then, ", " and after that, ", " then ")
_IF_HEADS = (("check whether ", "check"), ("check if ", "check"), ("see whether ", "check"),
             ("see if ", "check"), ("in case ", "if"), ("if ", "if"), ("but ", "if"),
             ("unless ", "unless"), ("provided that ", "if"), ("should ", "if"))
_POSTPOSED = (" if ", " in case ", " provided that ", " unless ")
#: Closers saying the condition's positive proposition fails ("otherwise" and the like).
_NO = (*ALL_ELSE_WORDS, "if you cannot", "if you cannot see one", "if you cannot see it",
       "if you cannot find one", "if you do not see one", "if you do not find one",
       "if there is not one", "if there is none", "if there are none", "if there are not any",
       "if no", "if they are not", "if it is not there", "if you cannot see any")
#: Closers saying the positive proposition holds: the then-part after "check whether", the
#: alternative after a negated condition ("if there is no X, go to A; if there is, go to B").
_YES = ("if there is one", "if there are some", "if there are any", "if you can see one",
        "if you can see it", "if you see one", "if you find one", "if there is", "if there are",
        "if it is", "if it does", "if you can", "if you do", "if they are", "if it is there")
_CLOSERS = tuple(sorted([(w, "else") for w in _NO] + [(w, "yes") for w in _YES]
                        + [("in which case", "which")], key=lambda t: -len(t[0])))
_ACTION_START = (*_VERBS, "to the ", "if ", "then", "check", "first")
#: "if so" / "if yes": the condition holds as it was said or asked ("is there no X? if yes, ...").
_SO = re.compile(r"^if (?:so|yes)(?:[,:]\s*|\s+|$)")
_INLINE_ELSE = re.compile(r",? (?:otherwise|or else|else|if not),? (?=(?:" + "|".join(
    re.escape(v) for v in sorted(VERBS, key=len, reverse=True)) + r"|to the|if) )")
_NUMBER = re.compile(r"(?:^|(?<=\s))(?:step )?(\d{1,2})[.):](?=\s)")
_LEAD = re.compile(r"^(?:then|and then|after that|next)\s*[:,]?\s*")


class _Parser(Phrases):
    def __init__(self, text: str, vocab: Vocabulary | None) -> None:
        super().__init__(text, vocab)
        self.memo: dict[str, Program | tuple[str, str]] = {}
        self.active: list[str] = []

    # ---- actions
    def go(self, s: str) -> Go:
        s = s.removeprefix("then ").removeprefix("simply ")
        for v in _VERBS:
            if s.startswith(v + " "):
                return Go(self.ref(s[len(v) + 1:]))
        if s.startswith(("to the ", "the ")):  # a dropped verb: "or else to the lamp in ..."
            return Go(self.ref(s.removeprefix("to ")))
        raise self.fail(s, f"a movement verb ({', '.join(VERBS)}, ...)")

    def _is_go(self, s: str) -> bool:
        return s.startswith(_GO_HEADS) and not any(w in s for w in (*_POSTPOSED, ",", ";", ":", "."))

    # ---- programs
    def program(self, s: str) -> Program:
        """The program of ``s``; memoised (speculative reads try a part more than once)."""
        s = _LEAD.sub("", s.strip(" ,:;")).strip()
        if not s:
            raise self.fail(self.text, "an instruction")
        got = self.memo.get(s)
        if isinstance(got, tuple):
            raise self.fail(*got)
        if got is not None:
            return got
        if s in self.active or len(self.active) >= MAX_NESTING:
            raise self.fail(s, f"an instruction of at most {MAX_NESTING} nested parts")
        self.active.append(s)
        try:
            out = self._program(s)
        except ParseError as e:
            self.memo[s] = (e.fragment, e.expected)
            raise
        finally:
            self.active.pop()
        self.memo[s] = out
        return out

    def _program(self, s: str) -> Program:
        items = _list_items(s)
        if items is not None:
            return _seq([self.program(i) for i in items])
        body = re.sub(r"^first\s*,?\s*", "", s)
        steps: list[Program] = []
        while body.startswith(_GO_HEADS):  # "go to A and then go to B, then ..."
            hits = [(body.find(j), j) for j in _JOINERS if j in body]
            if not hits:
                break
            pos, j = min(hits)
            if not self._is_go(body[:pos]):
                break
            steps.append(self.go(body[:pos]))
            body = re.sub(r"^first\s*,?\s*", "", _LEAD.sub("", body[pos + len(j):].strip(" ,:")).strip())
        if steps:
            return _seq([*steps, self.program(body)])
        if self._is_go(body):
            return self.go(body)
        if s.startswith(("if ", "in case ", "unless ", "check ", "see ", "provided ", "should ")) \
                or any(w in s for w in _POSTPOSED):
            return self.ifchain(s)
        if s.startswith(_GO_HEADS):
            return self.go(s)
        raise self.fail(s, "a movement verb or 'if'")

    def _closer(self, seg: str) -> tuple[str, str] | None:
        """(kind, rest) of a segment opened by a closing phrase (kind "else", "yes" or
        "which"; "and" / "but" may precede it), else None."""
        for lead in ("", "and ", "but "):
            if not seg.startswith(lead):
                continue
            s = seg[len(lead):]
            for w, kind in _CLOSERS:
                if s == w:
                    return kind, ""
                if s.startswith(w + ", ") or s.startswith(w + ": "):
                    return kind, s[len(w) + 2:]
                if s.startswith(w + " "):
                    rest = s[len(w) + 1:]
                    if not w.startswith("if ") or rest.startswith(_ACTION_START):
                        return kind, rest
        return None

    def _yes(self, seg: str, toks: list[tuple[str, str]]) -> str:
        """After "check whether C": an "if so" / "if there is" opening ``seg`` becomes a token;
        returns the rest."""
        m = _SO.match(seg)
        if m:
            toks.append(("so", ""))
            return seg[m.end():]
        c = self._closer(seg)
        if c is not None and c[0] == "yes":
            toks.append(c)
            return c[1]
        return seg

    def _tokens(self, seg: str, level: int, toks: list[tuple[str, str]]) -> None:
        c = self._closer(seg)
        if c is not None:
            toks.append((c[0], ""))
            seg = c[1]
            if not seg:
                return
            if self._complete(seg):
                toks.append(("act", seg))  # a whole nested conditional as the final action
                return
        rest = self._yes(seg, toks)
        if rest != seg:
            if rest:
                self._action(rest, toks)
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
                if kind == "check":
                    rest = self._yes(rest, toks)
                if rest:
                    self._action(rest, toks)
                return
        if seg.startswith(("first ", *_GO_HEADS)):
            for w in _POSTPOSED:
                if w in seg:
                    act, cond = seg.split(w, 1)
                    cond, _, rest = cond.partition(", ")
                    toks += [("unless" if w == " unless " else "if", cond), ("act", act)]
                    if rest:
                        self._tokens(rest, level, toks)
                    return
        self._action(seg, toks)

    def _action(self, seg: str, toks: list[tuple[str, str]]) -> None:
        """An action; an inline "otherwise go to ..." (missing comma) is split off."""
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
        arms: list[tuple[Condition, bool, Program]] = []  # (condition, its truth for the action, action)
        k = 0
        while True:
            if k >= len(toks) or toks[k][0] not in ("if", "unless", "check"):
                raise self.fail(toks[k][1] if k < len(toks) and toks[k][1] else s,
                                "'if <condition>, <action>'")
            kind, ctext = toks[k]
            k += 1
            said = ""
            if kind == "check":
                if k >= len(toks) or toks[k][0] not in ("so", "yes"):
                    raise self.fail(ctext, "'check whether <condition>: if so, <action>'")
                said = toks[k][0]
                k += 1
            if k >= len(toks) or toks[k][0] != "act":
                raise self.fail(ctext, "an action after the condition")
            cond, neg = self.cond(ctext)
            when = True if said == "yes" else neg == (kind == "unless")
            arms.append((cond, when, self.program(toks[k][1])))
            k += 1
            if k >= len(toks) or toks[k][0] not in ("else", "which", "yes"):
                raise self.fail(s, "'otherwise ...' closing the conditional")
            if toks[k][0] == "which" and not (kind == "unless" and len(arms) == 1):
                raise self.fail(s, "'in which case' only after 'unless'")
            if toks[k][0] == "yes" and when:
                raise self.fail(s, "'otherwise ...' closing the conditional (an affirmative "
                                   "'if it is' / 'if there is' only answers a negated condition)")
            k += 1
            if k < len(toks) and toks[k][0] in ("if", "unless", "check"):
                continue
            if k != len(toks) - 1 or toks[k][0] != "act":
                raise self.fail(toks[k][1] if k < len(toks) and toks[k][1] else s,
                                "one final action after 'otherwise'")
            out = self.program(toks[k][1])
            break
        for c, when, a in reversed(arms):
            out = If(c, a, out) if when else If(c, out, a)
        return out


def _list_items(s: str) -> list[str] | None:
    """The steps of "1. A 2. B ..." (numbered 1, 2, ... in order) or "A -> B"; None otherwise."""
    if " -> " in s:
        items = s.split(" -> ")
    elif re.match(r"^(?:step )?1[.):]\s", s):
        marks, want = [], 1
        for m in _NUMBER.finditer(s):
            if int(m[1]) == want:
                marks.append(m)
                want += 1
        ends = [m.start() for m in marks[1:]] + [len(s)]
        items = [s[m.end():e] for m, e in zip(marks, ends, strict=True)]
    else:
        return None
    return [i.strip(" ,;.") for i in items]


def _seq(steps: list[Program]) -> Program:
    """Steps run in order, nested sequences flattened (a single step is itself)."""
    flat = [x for p in steps for x in (p.steps if isinstance(p, Seq) else (p,))]
    return flat[0] if len(flat) == 1 else Seq(tuple(flat))


def parse(text: str, vocabulary: Vocabulary | Iterable[str] | None = None) -> Program:
    """Parse an instruction (or an oracle-linear instruction) into a :class:`Program`.

    Parameters
    ----------
    text : str
        The instruction (any case, Unicode punctuation allowed; at most :data:`MAX_CHARS`).
    vocabulary : Vocabulary or iterable of str, optional
        The scene's object and room labels (or a
        :func:`~navbench.tasks.conditional.vocabulary.read_vocabulary` result with synonyms);
        when given, every label must be one of them or a synonym of one (else
        :class:`ParseError`).

    Returns
    -------
    Program
        The AST (``Go``, ``Seq``, ``If`` with ``Presence`` / ``Relation`` conditions); its
        references carry labels and rooms, not scene object ids.

    Raises
    ------
    ParseError
        Text outside the grammar, naming the fragment and what was expected. No other
        exception escapes, whatever the input.

    Examples
    --------
    >>> from navbench.tasks.conditional import linearize, parse
    >>> p = parse("If the kitchen has a coffee table, go to the stool in the kitchen. "
    ...           "Otherwise, go to the sofa in the living room.")
    >>> type(p).__name__, p.cond.label, p.then.target.label, p.else_.target.room
    ('If', 'coffee table', 'stool', 'living room')

    People's wording reads the same ("it" is the object of the condition before it):

    >>> parse("Is there a coffee table in the kitchen? If yes, walk to it. If no, to the sofa "
    ...       "in the living room.") == parse("If there is a coffee table in the kitchen, go to "
    ...       "the coffee table in the kitchen. Otherwise, go to the sofa in the living room.")
    True

    The oracle linearisation keeps the branch the facts select (condition ids ``c0``, ``c1``,
    ... in pre-order):

    >>> linearize(p, {"c0": True}), linearize(p, {"c0": False})
    ('Go to the stool in the kitchen.', 'Go to the sofa in the living room.')
    >>> parse("Go to the sofa in the garden.", vocabulary=["sofa", "kitchen"])
    Traceback (most recent call last):
    ...
    navbench.tasks.conditional.phrases.ParseError: cannot parse instruction: expected a room name known in this scene ('garden' is not) at 'the sofa in the garden'
    """
    vocab = None if vocabulary is None else Vocabulary.of(vocabulary)
    t = normalise(text)
    if len(t) > MAX_CHARS:
        raise ParseError(text, t[:80], f"an instruction of at most {MAX_CHARS} characters "
                                       f"({len(t)} given)")
    m = re.search(r"\bjust in case\b|\bin case of\b", t)
    if m:
        raise ParseError(text, m[0], "a condition ('if ...'; 'just in case' and 'in case of' "
                                     "state a precaution, not a condition)")
    p = _Parser(text, vocab)
    return p.resolve(p.program(rewrite(t)))
