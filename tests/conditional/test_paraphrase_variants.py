"""Paraphrase variants of generated instructions parse to programs with the same behaviour:
under every truth assignment of the conditions they visit the same targets, in order, as the
generated program (an independent check: :func:`execute` on the original program)."""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

import pytest

from navbench.tasks.conditional import (
    Go,
    If,
    Instruction,
    ObjectRef,
    ParseError,
    Presence,
    Program,
    Seq,
    generate_instructions,
    parse,
)
from tests.conditional.sources import houses
from tests.conditional.synth import random_scene
from tests.conditional.variants import (
    SURFACE,
    same_behaviour,
    structural_variants,
    surface_variants,
)


class Written(NamedTuple):
    """An instruction as a person writes it, with the program it means."""

    text: str
    program: Program


def _ref(label: str, room: str) -> Go:
    return Go(ObjectRef(label, room))


# The generator never names a presence in its own then-branch (the goal would give the answer
# away); people do ("if there is a tv ..., go to it"), so the references back are tried on these.
WRITTEN = [
    Written("If there is a tv in the living room, go to the tv in the living room; otherwise, go to "
            "the sofa in the living room.",
            If(Presence("tv", "living room"), _ref("tv", "living room"), _ref("sofa", "living room"))),
    Written("First, go to the sink in the kitchen. Then: if there is a kettle in the kitchen, walk to "
            "the kettle in the kitchen. Otherwise, go to the fridge in the kitchen.",
            Seq((_ref("sink", "kitchen"), If(Presence("kettle", "kitchen"), _ref("kettle", "kitchen"),
                                             _ref("fridge", "kitchen"))))),
    Written("Check whether there is a lamp in the bedroom: if so, go to the lamp in the bedroom. "
            "Otherwise, proceed to the bed in the bedroom.",
            If(Presence("lamp", "bedroom"), _ref("lamp", "bedroom"), _ref("bed", "bedroom"))),
]


@pytest.fixture(scope="module")
def instructions() -> list[Instruction | Written]:
    out: list[Instruction | Written] = []
    for k, scene in enumerate([*houses(2), random_scene(4)]):
        out += generate_instructions(scene, 60, k)
    return out + WRITTEN


def test_same_behaviour_is_a_real_check() -> None:
    a, b, c = (Go(ObjectRef(x, "kitchen")) for x in ("sink", "oven", "lamp"))
    p = If(Presence("oven", "kitchen"), a, b)
    assert same_behaviour(p, If(Presence("oven", "kitchen"), a, b))
    assert same_behaviour(p, If(Presence("oven", "kitchen"), a, b)) and not same_behaviour(p, If(
        Presence("oven", "kitchen"), b, a))
    assert not same_behaviour(p, If(Presence("lamp", "kitchen"), a, b))  # a condition not in p
    assert not same_behaviour(p, Seq((c, p)))  # an extra visit
    assert same_behaviour(If(Presence("oven", "kitchen"), Seq((c, a)), b),
                          If(Presence("oven", "kitchen"), Seq((c, a)), b))


def test_surface_variants_keep_behaviour(instructions: list[Instruction | Written]) -> None:
    applied: Counter[str] = Counter()
    failed = []
    for inst in instructions:
        for name, text in surface_variants(inst.text):
            applied[name] += 1
            try:
                got = parse(text)
            except ParseError as e:
                failed.append((name, text, str(e)))
                continue
            if not same_behaviour(inst.program, got):
                failed.append((name, text, "different behaviour"))
    assert not failed, failed[:3]
    # every class was exercised on several instructions (the test cannot pass vacuously)
    assert set(applied) == set(SURFACE) and sum(applied.values()) > 500, applied


def test_structural_variants_keep_behaviour(instructions: list[Instruction | Written]) -> None:
    applied: Counter[str] = Counter()
    for inst in instructions:
        for name, text in structural_variants(inst.program):
            applied[name.split(" after ")[0]] += 1
            got = parse(text)
            assert same_behaviour(inst.program, got), (name, text)
    assert len(applied) == 13 and sum(applied.values()) > 300, applied
