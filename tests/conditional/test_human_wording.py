"""Parser on hand-written sentences of the paraphrase classes people use (references back,
dropped verbs, "if you can't", compass words without hyphen, lists, questions, "check for",
affirmative closers), each with its program written by hand; texts it must refuse; hostile
input (never anything but a program or a ParseError); vocabulary files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from navbench.errors import FormatError
from navbench.scene import save
from navbench.tasks.conditional import (
    Go,
    If,
    ObjectRef,
    ParseError,
    Presence,
    Program,
    Qualifier,
    Relation,
    Seq,
    Vocabulary,
    chain_length,
    parse,
    read_vocabulary,
)
from navbench.tasks.conditional.parser import MAX_CHARS
from tests.conditional.synth import random_scene
from tests.conditional.test_cli import run


def R(label: str, room: str, pred: str | None = None, anchor: str = "") -> ObjectRef:  # noqa: N802
    return ObjectRef(label, room, None if pred is None else Qualifier(pred, anchor))


def G(label: str, room: str, pred: str | None = None, anchor: str = "") -> Go:  # noqa: N802
    return Go(R(label, room, pred, anchor))


KETTLE = If(Presence("kettle", "kitchen"), G("kettle", "kitchen"), G("sofa", "living room"))
LAMP = If(Presence("lamp", "bedroom"), G("lamp", "bedroom"), G("sofa", "living room"))
BOX = If(Presence("box", "garage"), G("car", "garage"), G("desk", "office"))

CASES: list[tuple[str, Program]] = [
    ("If the kitchen has a kettle, go to it. If not, go to the sofa in the living room.", KETTLE),
    ("If the kitchen has a kettle, walk to that one, otherwise the sofa in the living room.",
     KETTLE),
    ("If you can see a lamp in the bedroom, head to the lamp there, otherwise the sofa in the "
     "living room.", LAMP),
    ("If you can\u2019t see a lamp in the bedroom, go to the sofa in the living room. If you can, "
     "walk to it.", LAMP),
    ("Look for a lamp in the bedroom: if you see one, go to the lamp; if you don't see one, go "
     "to the sofa in the living room.", LAMP),
    ("Check the kitchen for a kettle \u2014 if there is one, go to it; otherwise to the sofa in "
     "the living room.", KETTLE),
    ("Unless there's a kettle in the kitchen, go to the sofa in the living room; if there is, go "
     "to it.", KETTLE),
    ("Does the garage have a box? If so, go to the car in the garage. If not, go to the desk in "
     "the office.", BOX),
    ("Is there a box in the garage? If yes go to the car in the garage, if no go to the desk in "
     "the office", BOX),
    ("Go to the desk in the office unless the garage contains a box, in which case go to the car "
     "there.", BOX),
    ("Is the lamp northwest of the bed in the bedroom? If yes, go to the lamp in the bedroom; if "
     "no, go to the desk in the office.",
     If(Relation(R("lamp", "bedroom"), "north-west of", R("bed", "bedroom")), G("lamp", "bedroom"),
        G("desk", "office"))),
    ("If the stool is to the east of the sink in the kitchen, go to the stool in the kitchen; if it "
     "isn't, go to the mirror south east of the sink in the bathroom.",
     If(Relation(R("stool", "kitchen"), "east of", R("sink", "kitchen")), G("stool", "kitchen"),
        G("mirror", "bathroom", "south-east of", "sink"))),
    ("If the lamp isn't near the bed in the bedroom, go to the desk in the office, and if it is, "
     "go to the lamp there.",
     If(Relation(R("lamp", "bedroom"), "near", R("bed", "bedroom")), G("lamp", "bedroom"),
        G("desk", "office"))),
    ("if there is an oven in the kitchen go to the sink in the kitchen else if the lamp is near "
     "the bed in the bedroom go to the lamp there else go to the sofa in the living room",
     If(Presence("oven", "kitchen"), G("sink", "kitchen"),
        If(Relation(R("lamp", "bedroom"), "near", R("bed", "bedroom")), G("lamp", "bedroom"),
           G("sofa", "living room")))),
    ("If there is a sofa in the living room, go to the lamp near the sofa, otherwise go to the "
     "bed in the bedroom.",
     If(Presence("sofa", "living room"), G("lamp", "living room", "near", "sofa"), G("bed", "bedroom"))),
    ("Go to the sofa in the living room and then to the tv there.",
     Seq((G("sofa", "living room"), G("tv", "living room")))),
    ("Step 1: go to the door in the hallway. Step 2: go to the desk in the office.",
     Seq((G("door", "hallway"), G("desk", "office")))),
    ("Go to the door in the hallway => if there is a box in the garage, go to the car in the "
     "garage, otherwise to the desk in the office", Seq((G("door", "hallway"), BOX))),
    ("1. If there is a box in the garage, go to the car in the garage, otherwise go to the desk "
     "in the office. 2. Go to the door in the hallway.", Seq((BOX, G("door", "hallway")))),
    ("First go to the door in the hallway, then: is there a box in the garage? if so, go to the "
     "car in the garage; if not, go to the desk in the office.", Seq((G("door", "hallway"), BOX))),
    ("In case there isn't a box in the garage, go to the desk in the office; otherwise go to the "
     "car in the garage.", BOX),
    ("Go to the car in the garage if you can see a box in the garage, otherwise go to the desk in "
     "the office.", BOX),
]

REFUSE = [
    "Go to it.",
    "If there is a sofa in the living room, go to the lamp, otherwise go to the bed in the bedroom.",
    "If there is a sofa in the living room, go to the bed in the bedroom; if there is, go to the "
    "lamp in the kitchen.",  # "if there is" only answers a negated condition
    "If there's no sofa in the living room, go to the bed in the bedroom; if so, go to the lamp "
    "in the kitchen.",
    "Go to the lamp in the kitchen just in case there is a sofa in the living room, otherwise go "
    "to the bed in the bedroom.",
    "Is the sofa comfortable? If yes, go to the sofa in the living room. If no, go to the bed in "
    "the bedroom.",
    "1. Go to the lamp in the kitchen. 2. . 3. Go to the bed in the bedroom.",
    "Go to the lamp in the kitchen -> -> go to the bed in the bedroom",
    "If there's a lamp in the kitchen, go to the bed there; otherwise go to the sofa over here.",
    # a reference back to the object a condition says is not there
    "If there is a lamp in the kitchen, go to the bed in the bedroom, otherwise go to it.",
    "If there is no lamp in the kitchen, go to the lamp there, otherwise go to the bed in the bedroom.",
    "If you can't see a lamp in the kitchen, walk to the lamp; if you can, go to the bed in the bedroom.",
]


@pytest.mark.parametrize(("text", "program"), CASES)
def test_hand_written(text: str, program: Program) -> None:
    assert parse(text) == program


@pytest.mark.parametrize("text", REFUSE)
def test_refused(text: str) -> None:
    with pytest.raises(ParseError, match="expected"):
        parse(text)


LEAF, COND = "go to the lamp in the kitchen", "if there is a sofa in the living room"


@pytest.mark.parametrize("text", [
    "if " * 10_000,
    f"{COND}, " * 10_000 + LEAF + ", otherwise " * 10_000 + LEAF,
    f"{COND}, then: " * 1_000 + LEAF + ". otherwise, " + LEAF,
    " and then ".join([LEAF] * 10_000),
    "(" * 5_000 + LEAF + ")" * 5_000,
    "1. " + " ".join(f"{k}. {LEAF}." for k in range(2, 3000)),
    "check whether there is a sofa in the living room: if so, " * 80 + LEAF,
])
def test_hostile_input_is_refused_in_one_line(text: str) -> None:
    with pytest.raises(ParseError) as e:
        parse(text)
    assert "\n" not in str(e.value) and len(str(e.value)) < 400


def test_long_but_well_formed_input_parses() -> None:
    chain = f"{COND}, {LEAF}. " + f"otherwise, {COND}, {LEAF}. " * 50 + f"otherwise, {LEAF}."
    assert len(chain) < MAX_CHARS and chain_length(parse(chain)) == 51
    steps = parse(" and then ".join([LEAF] * 100))
    assert isinstance(steps, Seq) and len(steps.steps) == 100
    with pytest.raises(ParseError, match=f"at most {MAX_CHARS} characters"):
        parse(" and then ".join([LEAF] * 200))


FRAGMENTS = ("if", "there is", "a sofa", "in the", "living room", ",", ".", ";", ":", "otherwise",
             "go to", "the lamp", "kitchen", "then", "check whether", "if so", "unless", "not",
             "first", "and then", "1.", "2)", "->", "?", "is", "south west of", "there", "it",
             "or else", "if not", "in case", "else if", "near", "no", "you can't see", "one",
             "if it is", "is there", "check for", "\u2019", "\u2014")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=80).map(" ".join) | st.text(max_size=200))
def test_any_text_gives_a_program_or_a_parse_error(text: str) -> None:
    try:
        parse(text)
    except ParseError as e:
        assert "\n" not in str(e)


def test_vocabulary_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "vocab.txt"
    f.write_text("# the scene\nsofa\nLamp  \nliving   room\nkitchen\n\nsettee = sofa  # ours\n")
    vocab = read_vocabulary(f)
    assert vocab == Vocabulary(frozenset({"sofa", "lamp", "living room", "kitchen"}), {"settee": "sofa"})
    text = "If there's a settee in the lounge, go to it, otherwise go to the lamp in the kitchen."
    assert parse(text, vocab) == If(Presence("sofa", "living room"), G("sofa", "living room"),
                                    G("lamp", "kitchen"))  # "lounge" is a built-in synonym
    with pytest.raises(ParseError, match="'tv' is not"):
        parse("If there's a tv in the kitchen, go to it, otherwise go to the lamp in the kitchen.", vocab)
    assert run(["instructions", "parse", "--vocabulary", str(f), text]) == 0
    assert json.loads(capsys.readouterr().out)["cond"]["label"] == "sofa"
    assert run(["instructions", "parse", "--vocabulary", str(f), "go to the bed in the kitchen"]) == 2
    for bad, line in (("sofa\ncouch = bed\n", "line 2"), ("sofa\n= sofa\n", "line 2"),
                      ("# nothing\n", "file"), ("a = b = c\nsofa\n", "line 1")):
        f.write_text(bad)
        with pytest.raises(FormatError, match=f"vocab.txt: field '{line}'"):
            read_vocabulary(f)
    assert run(["instructions", "parse", "--vocabulary", str(f), "go to the sofa in the kitchen"]) == 2
    assert "vocab.txt: field 'line 1'" in capsys.readouterr().err


def test_scene_file_as_vocabulary(tmp_path: Path) -> None:
    scene = random_scene(2)
    save(scene, tmp_path / "scene.json")
    vocab = read_vocabulary(tmp_path / "scene.json")
    assert vocab.labels == {o.label for o in scene.objects} | {r.label for r in scene.rooms}
    o = scene.objects[0]
    room = next(r.label for r in scene.rooms if r.id == o.room_id)
    assert parse(f"Go to the {o.label} in the {room}.", vocab) == G(o.label, room)
