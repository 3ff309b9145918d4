"""Templates and parser on hand-written texts."""

from __future__ import annotations

import pytest

from navbench.rng import derive
from navbench.tasks.conditional import (
    Go,
    If,
    ObjectRef,
    ParseError,
    Presence,
    Qualifier,
    Relation,
    Seq,
    parse,
    realise,
)
from navbench.tasks.conditional.sampler import _dummy
from navbench.tasks.conditional.templates import article, pluralize, singularize


def test_paper_example_parses() -> None:
    text = ("If there's a coffee table in the kitchen, head to the stool north of the dishwasher "
            "in the kitchen, otherwise make your way to the light below the sink in the bathroom.")
    assert parse(text) == If(
        Presence("coffee table", "kitchen"),
        Go(ObjectRef("stool", "kitchen", Qualifier("north of", "dishwasher"))),
        Go(ObjectRef("light", "bathroom", Qualifier("below", "sink"))),
    )


def test_nested_levels_and_relation() -> None:
    text = ("If the lamp is near the bed in the bedroom, if the kitchen has an oven, go to the "
            "sink in the kitchen, otherwise go to the oven in the kitchen; otherwise, walk to the "
            "bed in the bedroom.")
    lamp, bed = ObjectRef("lamp", "bedroom"), ObjectRef("bed", "bedroom")
    assert parse(text) == If(
        Relation(lamp, "near", bed),
        If(Presence("oven", "kitchen"), Go(ObjectRef("sink", "kitchen")),
           Go(ObjectRef("oven", "kitchen"))),
        Go(bed),
    )


def test_chain_seq_and_plural() -> None:
    text = ("If there are any boxes in the garage, go to the car in the garage, otherwise, if "
            "the sofa in the living room is east of the tv, first go to the tv in the living room "
            "and then go to the sofa in the living room, else go to the door in the garage.")
    assert parse(text) == If(
        Presence("box", "garage"), Go(ObjectRef("car", "garage")),
        If(Relation(ObjectRef("sofa", "living room"), "east of", ObjectRef("tv", "living room")),
           Seq((Go(ObjectRef("tv", "living room")), Go(ObjectRef("sofa", "living room")))),
           Go(ObjectRef("door", "garage"))))


@pytest.mark.parametrize(
    "bad",
    ["", "Go to the lamp.", "If there is a lamp in the kitchen, go to the sofa in the kitchen.",
     "Dance with the lamp in the kitchen.",
     "If the lamp is beside the bed in the bedroom, go to the bed in the bedroom, otherwise go "
     "to the lamp in the bedroom."],
)
def test_rejects_text_outside_grammar(bad: str) -> None:
    with pytest.raises(ParseError, match="expected"):
        parse(bad)


def test_every_skeleton_round_trips_many_phrasings() -> None:
    for cat in ("simple", "nested", "deep_nested", "chain", "long_chain", "nested_chain"):
        p = _dummy(cat)
        texts = {realise(p, derive(k, cat)) for k in range(60)}
        assert len(texts) > 20  # many distinct phrasings
        for t in texts:
            assert parse(t) == p, t


def test_inflection() -> None:
    assert [article(w) for w in ("oven", "lamp", "umbrella stand", "unicycle", "hour glass")] == [
        "an", "a", "an", "a", "an"]
    cases = {"box": "boxes", "shelf": "shelves", "coffee table": "coffee tables",
             "bookcase": "bookcases", "library": "libraries", "toy": "toys", "couch": "couches"}
    for s, p in cases.items():
        assert pluralize(s) == p
    assert singularize("coffee tables") == "coffee table" and singularize("boxes") == "box"
