"""Generated text reads as English and keeps the depth axis honest: predicates in words (never the
relation id "south-and-up of"), no "in case" opener, nested programs said nested (never
negated-first, which reads as an else-if chain) and chains said as chains."""

from __future__ import annotations

import re

import numpy as np
import pytest

from navbench.graph import CANONICAL_PREDICATES, predicate_phrase
from navbench.tasks.conditional import (
    Go,
    If,
    Instruction,
    ObjectRef,
    Presence,
    Qualifier,
    Relation,
    audit_instructions,
    parse,
    realise,
)
from navbench.tasks.conditional.templates import linear_text

SEEDS = range(60)


def _go(label: str, room: str = "kitchen", q: Qualifier | None = None) -> Go:
    return Go(ObjectRef(label, room, q))


def _texts(p: If) -> list[str]:
    return [realise(p, np.random.default_rng(k)) for k in SEEDS]


@pytest.mark.parametrize(("pid", "words"), [
    ("south-and-up of", "above and to the south of"),
    ("north-east-and-down of", "below and to the north-east of"),
    ("west-and-up of", "above and to the west of"),
    ("east of", "east of"),
    ("near", "near"),
    ("above", "above"),
])
def test_predicate_phrase_by_hand(pid: str, words: str) -> None:
    assert predicate_phrase(pid) == words


def test_no_relation_id_reaches_text_and_the_words_parse_back() -> None:
    lamp, table = ObjectRef("lamp", "kitchen"), ObjectRef("table", "kitchen")
    vase = ObjectRef("vase", "kitchen", Qualifier("north-east-and-down of", "shelf"))
    p = If(Relation(lamp, "south-and-up of", table), Go(vase), _go("sofa", "living room"))
    for text in _texts(p):
        assert "-and-" not in text, text
        assert "above and to the south of the table" in text, text
        assert "the vase below and to the north-east of the shelf in the kitchen" in text, text
        assert parse(text) == p, text
    assert linear_text(vase, []) == \
        "Go to the vase below and to the north-east of the shelf in the kitchen."
    # people may write either order or the id itself
    for words in ("above and to the south of", "south of and above", "south-and-up of"):
        got = parse(f"If the lamp is {words} the table in the kitchen, go to the sofa in the "
                    "living room. Otherwise, go to the bed in the bedroom.")
        assert isinstance(got, If) and isinstance(got.cond, Relation)
        assert got.cond.predicate == "south-and-up of"


def test_every_elevated_predicate_is_words_and_round_trips() -> None:
    elevated = [p for p in CANONICAL_PREDICATES if "-and-" in p]
    assert len(elevated) == 16
    for k, pid in enumerate(elevated):
        p = If(Presence("oven", "kitchen"), _go("cup", q=Qualifier(pid, "sink")),
               _go("bed", "bedroom"))
        text = realise(p, np.random.default_rng(k))
        assert "-and-" not in text and " and to the " in text, text
        assert parse(text) == p, text


def test_no_in_case_opener_and_the_new_openers_parse() -> None:
    p = If(Presence("oven", "kitchen"), _go("sink"), _go("bed", "bedroom"))
    chain2 = If(Presence("oven", "kitchen"), _go("sink"),
                If(Presence("sofa", "living room"), _go("lamp", "living room"),
                   _go("bed", "bedroom")))
    texts = [t for prog in (p, chain2) for t in _texts(prog)]
    low = [t.lower() for t in texts]
    assert not any("in case" in t for t in low)
    assert any(t.startswith("provided that ") for t in low)
    assert any(t.startswith("should there be ") for t in low)
    for t, prog in zip(texts, [p] * len(SEEDS) + [chain2] * len(SEEDS), strict=True):
        assert parse(t) == prog, t
    # "should there be" for each there-is form, read back with the right number and negation
    assert parse("Should there be an oven in the kitchen, go to the sink in the kitchen. "
                 "Otherwise, go to the bed in the bedroom.") == p
    assert parse("Should there be any ovens in the kitchen, go to the sink in the kitchen; "
                 "if not, go to the bed in the bedroom.") == p
    assert parse("Should there be no oven in the kitchen, go to the bed in the bedroom. "
                 "Otherwise, go to the sink in the kitchen.") == p
    assert parse("Go to the sink in the kitchen provided that there is an oven in the kitchen, "
                 "otherwise go to the bed in the bedroom.") == p


def _inst(text: str, program: If) -> Instruction:
    return Instruction("s:0", "s", "simple", text, program, {"c0": True}, ("then",), 0, 2,
                       "g", (), ("h",))


def test_audit_counts_in_case_wherever_it_opens_a_condition() -> None:
    p = If(Presence("oven", "kitchen"), _go("sink"), _go("bed", "bedroom"))
    insts = [
        _inst("In case there is an oven in the kitchen, go to the sink in the kitchen, otherwise "
              "go to the bed in the bedroom.", p),
        _inst("Go to the sink in the kitchen in case there is an oven in the kitchen, otherwise "
              "go to the bed in the bedroom.", p),  # postposed: as wrong as the opener
        _inst("Provided that there is an oven in the kitchen, go to the sink in the kitchen, "
              "otherwise go to the bed in the bedroom.", p),
    ]
    c = audit_instructions(insts)["all"]
    assert c["in_case_openers"] == 2 and c["parse_failures"] == 0


NESTED = If(Presence("oven", "kitchen"),
            If(Presence("sofa", "living room"), _go("lamp", "living room"), _go("cup")),
            _go("bed", "bedroom"))
DEEP = If(Presence("oven", "kitchen"),
          If(Presence("sofa", "living room"),
             If(Presence("desk", "office"), _go("chair", "office"), _go("lamp", "living room")),
             _go("cup")),
          _go("bed", "bedroom"))
CHAIN = If(Presence("oven", "kitchen"), _go("cup"),
           If(Presence("sofa", "living room"), _go("lamp", "living room"), _go("bed", "bedroom")))
_NEGATED = re.compile(r"there is no|there isn't|has no|doesn't have|is not ")


@pytest.mark.parametrize("prog", [NESTED, DEEP], ids=["nested", "deep_nested"])
def test_nested_programs_read_nested_never_negated_first(prog: If) -> None:
    for text in _texts(prog):
        low = text.lower()
        first = low.split(". ")[0]
        # the outer condition is said as it is, and its then-part (the inner conditional, with
        # "sofa") is in the same sentence, opened by a scope word; the outer else (the bed) after it
        assert not _NEGATED.search(first), text
        assert "sofa" in first and ("then: " in first or "check whether" in first), text
        assert low.index("sofa") < low.index("bed"), text
        assert parse(text) == prog, text


def test_chains_still_read_as_chains() -> None:
    for text in _texts(CHAIN):
        low = text.lower()
        # the second condition continues the first one's "otherwise" ("otherwise, if", "failing
        # that, if", "if not, but"), never inside its then-part
        assert re.search(r"(otherwise, if|failing that, if|if not, but|or else, if) "
                         r"(there|the living room|you)", low), text
        assert "then: " not in low and low.index("cup") < low.index("sofa"), text
        assert parse(text) == CHAIN, text
