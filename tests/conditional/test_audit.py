"""The audit census on hand-written instructions (counts by hand), and from the CLI on a
``scenes generate`` folder (index.json included) through ``instructions generate``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from navbench.cli import main
from navbench.scene import Room, Scene, SceneObject
from navbench.tasks.conditional import (
    Go,
    If,
    Instruction,
    ObjectRef,
    Presence,
    Qualifier,
    Relation,
    Seq,
    audit_instructions,
)


def _inst(cat: str, text: str, program, subgoals: tuple[str, ...] = ()) -> Instruction:
    return Instruction(f"s:{text[:8]}", "s", cat, text, program, {}, (), 0, 2, "g", subgoals, ())


FRAME, CONSOLE = ObjectRef("frame", "hallway"), ObjectRef("console", "hallway")
SOFA = ObjectRef("sofa", "living room")


def test_census_counts_by_hand() -> None:
    absent = _inst(  # the else branch goes to the frame the condition declared absent
        "simple", "If there's a frame in the hallway, walk to the console in the hallway, else go "
        "to the frame in the hallway.",
        If(Presence("frame", "hallway"), Go(CONSOLE), Go(FRAME)))
    dead = _inst(  # the inner condition repeats the outer one; stacked "if A, if B"
        "nested", "If there is a frame in the hallway, if there is a frame in the hallway, go to "
        "the frame in the hallway, otherwise go to the console in the hallway; otherwise, go to "
        "the sofa in the living room.",
        If(Presence("frame", "hallway"), If(Presence("frame", "hallway"), Go(FRAME), Go(CONSOLE)),
           Go(SOFA)))
    lamp, bed = ObjectRef("lamp", "bedroom"), ObjectRef("bed", "bedroom")
    inverse = _inst(  # "lamp north of bed" true, then "bed south of lamp": decided; + subgoal
        "nested", "First, go to the sofa in the living room. Then: if the lamp is north of the "
        "bed in the bedroom, check whether the bed is south of the lamp in the bedroom: if so, "
        "go to the lamp in the bedroom, otherwise go to the bed in the bedroom. Otherwise, go "
        "to the sofa in the living room.",
        Seq((Go(SOFA), If(Relation(lamp, "north of", bed),
                          If(Relation(bed, "south of", lamp), Go(lamp), Go(bed)), Go(SOFA)))),
        subgoals=("x",))
    anchored = _inst(  # else branch anchors a target on the absent frame; "in case" opener
        "simple", "In case there is a frame in the hallway, go to the sofa in the living room, "
        "otherwise go to the console near the frame in the hallway.",
        If(Presence("frame", "hallway"), Go(SOFA),
           Go(ObjectRef("console", "hallway", Qualifier("near", "frame")))))
    c = audit_instructions([absent, dead, inverse, anchored])
    assert list(c) == ["simple", "nested", "all"]
    assert c["simple"]["n"] == 2 and c["simple"]["absent_refs"] == 2
    assert c["simple"]["dead_conditions"] == 0 and c["simple"]["in_case_openers"] == 1
    assert c["nested"]["dead_conditions"] == 2 and c["nested"]["absent_refs"] == 0
    assert c["nested"]["stacked_conditions"] == 1 and c["nested"]["with_subgoals"] == 1
    assert c["nested"]["scope_conflicts"] == 1  # "otherwise" closes both levels in one sentence
    assert c["all"]["parse_failures"] == 0 and c["all"]["openers"] == 4  # "if there's", "if there", "first, go", "in case"
    assert c["all"]["ambiguous_qualifiers"] is None  # no scenes given


def test_direction_ambiguity_needs_the_scene() -> None:
    room = Room("r", "kitchen", ((0, 0), (6, 0), (6, -6), (0, -6)))
    sink = SceneObject("s", "sink", (3.0, 0.5, -3.0), "r")
    near_stool = SceneObject("a", "stool", (3.0, 0.5, -5.0), "r")  # due north of the sink
    # bearing 68.2° from the sink: 21.8° from north, inside the sector + 10° margin of "north of"
    other = SceneObject("b", "stool", (3.8, 0.5, -5.0), "r")
    scene = Scene("s", "indoor", "t", (room,), (sink, near_stool, other))
    ref = ObjectRef("stool", "kitchen", Qualifier("north of", "sink", "s"), "a", "r")
    i = _inst("simple", "If there is a sink in the kitchen, go to the stool north of the sink in "
              "the kitchen, otherwise go to the sink in the kitchen.",
              If(Presence("sink", "kitchen"), Go(ref), Go(ObjectRef("sink", "kitchen", None, "s", "r"))))
    row = audit_instructions([i], {"s": scene})["simple"]
    assert row["direction_qualified"] == 1 and row["ambiguous_qualifiers"] == 1
    far = SceneObject("b", "stool", (5.0, 0.5, -3.2), "r")  # bearing 5.7°: 84° from north, surely not
    row = audit_instructions([i], {"s": Scene("s", "indoor", "t", (room,), (sink, near_stool, far))})
    assert row["simple"]["ambiguous_qualifiers"] == 0


def _run(args: list[str]) -> int:
    with pytest.raises(SystemExit) as e:
        main(args)
    return int(e.value.code or 0)


def test_generate_on_scenes_generate_output_then_audit(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    d = tmp_path / "scenes"
    assert _run(["scenes", "generate", "--out", str(d), "-n", "2", "--seed", "3"]) == 0
    assert (d / "index.json").exists()
    out = tmp_path / "i.jsonl"
    assert _run(["instructions", "generate", "--scenes", str(d), "--per-scene", "30", "--out",
                 str(out)]) == 0
    assert _run(["instructions", "audit", str(out), "--scenes", str(d), "--json",
                 str(tmp_path / "a.json")]) == 0
    census = json.loads((tmp_path / "a.json").read_text())
    assert census["all"]["n"] == 60 and census["all"]["absent_refs"] == 0
    assert census["all"]["ambiguous_qualifiers"] == 0 and census["all"]["parse_failures"] == 0
    assert "nested_chain" in capsys.readouterr().out
    assert _run(["instructions", "audit", str(tmp_path / "missing.jsonl")]) == 2
