"""Human wording rewritten into the instruction grammar's own words, before parsing.

:func:`normalise` canonicalises Unicode, case and spacing. :func:`rewrite` then maps
paraphrases that only differ in wording onto one form (each rule is one regular expression
over the normalised text, so the parser sees a single spelling):

* contractions are expanded ("isn't" → "is not", "can't" → "cannot", "there's" → "there is");
* compass words take a hyphen ("southwest", "south west" → "south-west"), and "is to the
  north of" reads "is north of" ("above and to the north of" is a predicate and stays);
* arrows ("→", "=>", "-->") become ``" -> "`` (a list of steps, split by the parser);
* the question form "is there a sofa in the den? if yes, ..." becomes "check whether there is
  a sofa in the den: if yes, ..." ("is the X <predicate> the Y ...?", "are there any X ...?",
  "does the R have a X?", "can you see a X ...?");
* "check for a X in the R" / "check the R for a X" / "look for a X in the R" become "check
  whether there is a X in the R".

A question that is none of these keeps its "?", and the parser refuses it.
"""

from __future__ import annotations

import re
import unicodedata

from navbench.graph.relations import ALL_PREDICATES, PREDICATE_PHRASES


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


#: Every way the grammar says a predicate, longest first, with its relation id.
PREDICATE_WORDS: tuple[tuple[str, str], ...] = _predicate_words()

_DASHES = dict.fromkeys(map(ord, "\u2010\u2011\u2012\u2212"), "-")
_QUOTES = {**dict.fromkeys(map(ord, "\u2018\u2019\u201a\u201b\u2032\u00b4`"), "'"),
           **dict.fromkeys(map(ord, "\u201c\u201d\u201e\u201f\u2033\""), None)}


def normalise(text: str) -> str:
    """Unicode-normalised, lower-case text with canonical spacing and no final period."""
    t = unicodedata.normalize("NFKC", text).translate(_DASHES).translate(_QUOTES)
    t = re.sub(r"[\u200b-\u200d\u2060\ufeff]", "", t)
    t = re.sub(r"\s*[\u2013\u2014\u2015]\s*", ", ", t)  # en/em dashes read as a pause
    t = t.replace("!", ".")
    t = re.sub(r"\s+([,;:.?])", r"\1", " ".join(t.lower().split()))
    t = re.sub(r"([,;:.?])(?=[^\s\d])", r"\1 ", t)
    t = re.sub(r"([,;:])[,;:]+", r"\1", " ".join(t.split()))
    return t.rstrip(" .")


_CONTRACTIONS = (
    (r"\b(is|are|does|do|has|have|was|were)n't\b", r"\1 not"),
    (r"\b(?:can't|can not)\b", "cannot"), (r"\bwon't\b", "will not"),
    (r"\b(there|it|that)'s\b", r"\1 is"), (r"\b(there|they)'re\b", r"\1 are"),
)
_DIR = r"(?:north-east|north-west|south-east|south-west|north|south|east|west)"
_ARROW = re.compile(r"\s*(?:-+>|=+>|[\u2192\u21d2\u27f6\u2794\u279c\u27a1])\s*")
_PRED_ALT = "|".join(re.escape(w) for w, _ in PREDICATE_WORDS)
#: (question regex, declarative template); each question is matched as a whole.
_QUESTIONS = (
    (re.compile(r"^(is|are) there (.+)$"), r"there \1 \2"),
    (re.compile(r"^(?:does|do) (the .+?) (have|contain|include) (.+)$"), None),
    (re.compile(r"^(?:can|could|do) you (see|find|spot) (.+)$"), r"you \1 \2"),
    (re.compile(rf"^is (the .+?) (not )?((?:{_PRED_ALT}) the .+)$"), r"\1 is \2\3"),
    (re.compile(r"^is (an?|one) (.+?) (in|inside) the (.+)$"), r"\1 \2 is \3 the \4"),
)
_HAS = {"have": "has", "contain": "contains", "include": "includes"}
_QUESTION = re.compile(r"(?P<pre>^|[.;:,] |-> )(?P<q>(?:is|are|does|do|can|could)\b[^?.;:]*)\?\s*")
_CHECK_FOR = (
    re.compile(r"\b(?:check|look|search) (?:for|out for) (?P<np>(?:an?|one|any|some) .+?) "
               r"(?:in|inside) the (?P<room>[^:;,.]+)"),
    re.compile(r"\b(?:check|look in|search|inspect) the (?P<room>[^:;,.]+?) for "
               r"(?P<np>(?:an?|one|any|some) [^:;,.]+)"),
)


def _declarative(q: str) -> str | None:
    """ "is there a sofa in the den" → "there is a sofa in the den"; None if not a question of
    the grammar's conditions."""
    for rx, template in _QUESTIONS:
        m = rx.match(q)
        if m is None:
            continue
        if template is None:  # does the den have a sofa → the den has a sofa
            return f"{m[1]} {_HAS[m[2]]} {m[3]}"
        return m.expand(template).replace("  ", " ")
    return None


def _question(m: re.Match[str]) -> str:
    decl = _declarative(m["q"].strip())
    return m[0] if decl is None else f"{m['pre']}check whether {decl}: "


def _check_for(m: re.Match[str]) -> str:
    np = m["np"]
    if np.startswith(("any ", "some ")):
        return f"check whether there are {np} in the {m['room']}"
    return f"check whether there is {np} in the {m['room']}"


def rewrite(text: str) -> str:
    """:func:`normalise` and the paraphrase rewrites of the module docstring.

    >>> rewrite("Is the sofa southwest of the TV stand in the den? If yes, go to it.")
    'check whether the sofa is south-west of the tv stand in the den: if yes, go to it'
    >>> rewrite("Check the kitchen for a kettle: if there isn't one, walk to the sink → the oven")
    'check whether there is a kettle in the kitchen: if there is not one, walk to the sink -> the oven'
    """
    t = normalise(text)
    for rx, rep in _CONTRACTIONS:
        t = re.sub(rx, rep, t)
    t = re.sub(r"\b(north|south)[ -]?(east|west)\b", r"\1-\2", t)
    t = re.sub(rf"\b(is|is not|are|are not) to the ({_DIR}) of\b", r"\1 \2 of", t)
    t = _ARROW.sub(" -> ", t)
    for check in _CHECK_FOR:
        t = check.sub(_check_for, t)
    t = _QUESTION.sub(_question, t)
    return t.strip().rstrip(" .:")
