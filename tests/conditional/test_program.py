"""Programs: structure measures, evaluation, serialisation (hand-built trees)."""

from __future__ import annotations

import pytest

from navbench.errors import FormatError
from navbench.tasks.conditional import (
    Go,
    If,
    ObjectRef,
    Presence,
    Seq,
    chain_length,
    depth,
    evaluate,
    linearize,
    outcomes,
    program_from_dict,
    program_to_dict,
)
from navbench.tasks.conditional.sampler import SKELETONS, _dummy


def g(name: str) -> Go:
    return Go(ObjectRef(name, "kitchen", object_id=f"id_{name}", room_id="r0"))


def c(name: str) -> Presence:
    return Presence(name, "kitchen")


@pytest.mark.parametrize(
    ("category", "d", "ell", "branches"),
    [("simple", 1, 1, 2), ("nested", 2, 1, 3), ("deep_nested", 3, 1, 4), ("chain", 1, 2, 3),
     ("long_chain", 1, 3, 4), ("nested_chain", 2, 2, 4)],
)
def test_taxonomy_table1(category: str, d: int, ell: int, branches: int) -> None:
    p = _dummy(category)
    assert (depth(p), chain_length(p), len(outcomes(p))) == (d, ell, branches)
    assert category in SKELETONS


def test_evaluate_chain_and_nested() -> None:
    chain = If(c("a"), g("x"), If(c("b"), g("y"), g("z")))
    ev = evaluate(chain, {"c0": False, "c1": True})
    assert ev.branch_path == ("else", "then") and ev.goal.label == "y" and ev.subgoals == ()
    assert ev.evaluated == ("c0", "c1") and ev.branch_index == 1
    ev = evaluate(chain, {"c0": True})  # c1 never needed
    assert ev.goal.label == "x" and ev.branch_index == 0
    with pytest.raises(KeyError):
        evaluate(chain, {"c0": False})


def test_seq_subgoals_and_linearize() -> None:
    p = If(c("a"), Seq((g("w"), If(c("b"), g("x"), g("y")))), g("z"))
    ev = evaluate(p, {"c0": True, "c1": False})
    assert [s.label for s in ev.subgoals] == ["w"] and ev.goal.label == "y"
    assert outcomes(p) == [("then", "then"), ("then", "else"), ("else",)]
    assert linearize(p, {"c0": True, "c1": False}) == (
        "First go to the w in the kitchen, and finally go to the y in the kitchen.")
    assert linearize(p, {"c0": False, "c1": True}) == "Go to the z in the kitchen."
    three = Seq((g("a"), g("b"), g("c")))
    assert linearize(three, {}) == ("First go to the a in the kitchen, then go to the b in the "
                                    "kitchen, and finally go to the c in the kitchen.")


def test_callable_facts() -> None:
    p = If(c("lamp"), g("x"), g("y"))
    assert evaluate(p, lambda cond: cond.label == "lamp").goal.label == "x"


def test_dict_round_trip_keeps_ids_and_errors() -> None:
    p = If(c("a"), Seq((g("w"), g("v"))), g("z"))
    d = program_to_dict(p)
    q = program_from_dict(d)
    assert q == p and q.else_.target.object_id == "id_z"  # type: ignore[union-attr]
    d["then"]["steps"][1]["op"] = "jump"
    with pytest.raises(FormatError, match=r"program\.then\.steps\[1\]\.op"):
        program_from_dict(d, "x.jsonl")


def test_equality_ignores_ids() -> None:
    assert Go(ObjectRef("a", "k", object_id="1")) == Go(ObjectRef("a", "k"))
    assert Go(ObjectRef("a", "k")) != Go(ObjectRef("a", "bedroom"))
