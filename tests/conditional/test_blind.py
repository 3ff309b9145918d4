"""The blind prior's answer rule on hand-made statistics, its JSON form, and the audit's margin
count against the recount on hand-written programs with undecidable relations."""

from __future__ import annotations

from collections import Counter

import pytest

from navbench.errors import FormatError
from navbench.scene import Room, Scene, SceneObject
from navbench.tasks.conditional import (
    Go,
    If,
    Instruction,
    ObjectRef,
    Presence,
    Relation,
    program_to_dict,
)
from navbench.tasks.conditional.blind import BlindPrior, SceneCounts
from navbench.tasks.conditional.perception_audit import perception_audit
from tests.conditional.recount import recount


def _counts(rooms: dict, holding: dict, presence: dict = (), relations: dict = ()) -> SceneCounts:
    return SceneCounts(Counter(rooms), Counter(holding), Counter(dict(presence)), Counter(dict(relations)))


@pytest.fixture()
def prior() -> BlindPrior:
    return BlindPrior({
        "a": _counts({"kitchen": 1}, {("oven", "kitchen"): 1},
                     {("oven", "kitchen", True): 2, ("oven", "kitchen", False): 1},
                     {("lamp", "near", "bed", True): 1, ("cup", "near", "sink", False): 3}),
        "b": _counts({"kitchen": 1, "bedroom": 1}, {("bed", "bedroom"): 1},
                     {("oven", "kitchen", False): 2, ("stool", "kitchen", True): 1},
                     {("lamp", "near", "bed", False): 3}),
        "c": _counts({"kitchen": 2}, {("oven", "kitchen"): 1, ("stool", "kitchen"): 1}),
    })


def _p(label: str, room: str) -> Presence:
    return Presence(label, room)


def _r(s: str, p: str, o: str) -> Relation:
    return Relation(ObjectRef(s, "bedroom"), p, ObjectRef(o, "bedroom"))


def test_presence_answers(prior: BlindPrior) -> None:
    # (oven, kitchen) asked true 2, false 3 over all scenes: false
    assert prior.answer(_p("oven", "kitchen")) is False
    # without scene b: true 2, false 1
    assert prior.answer(_p("oven", "kitchen"), exclude="b") is True
    # without scene a: true 0, false 2 -> false
    assert prior.answer(_p("oven", "kitchen"), exclude="a") is False
    # (stool, kitchen) without b: no condition left; 1 of 3 kitchens (a, c×2) hold a stool: false
    assert prior.answer(_p("stool", "kitchen"), exclude="b") is False
    # (sink, kitchen): never asked, in no kitchen: false; (bed, bedroom): 1 of 1 bedrooms: true
    assert prior.answer(_p("sink", "kitchen")) is False
    assert prior.answer(_p("bed", "bedroom")) is True
    # an unseen room type: all presence conditions, true 3 vs false 3: a tie answers true;
    # without scene a: true 1 vs false 2: false
    assert prior.answer(_p("bed", "garage")) is True
    assert prior.answer(_p("bed", "garage"), exclude="a") is False


def test_relation_answers(prior: BlindPrior) -> None:
    # triplet (lamp, near, bed): true 1, false 3 -> false; without b: true
    assert prior.answer(_r("lamp", "near", "bed")) is False
    assert prior.answer(_r("lamp", "near", "bed"), exclude="b") is True
    # an unseen triplet: the predicate "near" is true 1, false 6 -> false
    assert prior.answer(_r("tv", "near", "sofa")) is False
    # an unseen predicate: all relations, true 1 vs false 6 -> false
    assert prior.answer(_r("tv", "above", "sofa")) is False


def test_branch_follows_the_blind_answers_never_the_truths(prior: BlindPrior) -> None:
    a, b, c = (ObjectRef(x, "kitchen", None, x, "k") for x in ("sink", "oven", "stool"))
    prog = If(_p("oven", "kitchen"), Go(a), If(_p("bed", "bedroom"), Go(b), Go(c)))
    ev = prior.branch(prog)
    assert ev.branch_path == ("else", "then") and ev.goal.object_id == "oven"
    assert prior.answers(prog, exclude="b") == {"c0": True, "c1": True}


def test_json_round_trip_and_errors(prior: BlindPrior) -> None:
    again = BlindPrior.from_json(prior.to_json())
    assert again.to_json() == prior.to_json()
    for c in (_p("oven", "kitchen"), _p("stool", "kitchen"), _r("lamp", "near", "bed")):
        for ex in (None, "a", "b", "c"):
            assert again.answer(c, ex) == prior.answer(c, ex)
    with pytest.raises(FormatError, match="schema"):
        BlindPrior.from_json({"schema": "other"}, "p.json")
    with pytest.raises(FormatError, match=r"p\.json: field 'scenes\.a'"):
        BlindPrior.from_json({"schema": "navbench.blind_prior/1", "scenes": {"a": {"rooms": {}}}}, "p.json")


def _room_scene() -> Scene:
    room = Room("r", "bedroom", ((0, 0), (6, 0), (6, -6), (0, -6)))
    cube = (0.2, 0.2, 0.2)
    objs = (SceneObject("bed", "bed", (1.0, 0.4, -1.0), "r", size=cube),
            SceneObject("lamp", "lamp", (2.0, 0.4, -1.35), "r", size=cube),   # 19.3° from east: 3.2° to the boundary
            SceneObject("desk", "desk", (1.0, 0.4, -2.45), "r", size=cube),   # due north, gap 1.25 m
            SceneObject("chair", "chair", (4.0, 0.4, -1.0), "r", size=cube))  # due east, 3 m
    return Scene("hand", "indoor", "handmade", (room,), objs)


def test_audit_margin_count_matches_the_recount() -> None:
    scene = _room_scene()
    ref = {o.id: ObjectRef(o.label, "bedroom", None, o.id, "r") for o in scene.objects}

    def rel(s: str, p: str, o: str) -> Relation:
        return Relation(ref[s], p, ref[o])

    progs = [  # (program, truths): undecidable 2 (east 3.2° from the boundary; near at 1.25 m)
        (If(rel("lamp", "east of", "bed"), Go(ref["desk"]), Go(ref["chair"])), {"c0": True}),
        (If(rel("desk", "near", "bed"), Go(ref["lamp"]), Go(ref["chair"])), {"c0": False}),
        (If(rel("chair", "east of", "bed"), Go(ref["desk"]), Go(ref["lamp"])), {"c0": True}),
    ]
    insts = [Instruction(f"hand:{k}", "hand", "simple", "-", p, t, ("then",) if t["c0"] else ("else",),
                         0 if t["c0"] else 1, 2, "x", (), ()) for k, (p, t) in enumerate(progs)]
    prior = BlindPrior.fit([scene])
    audit = perception_audit(insts, {"hand": scene}, prior)["all"]
    recs = [{"scene_id": "hand", "category": "simple", "program": program_to_dict(i.program),
             "truths": i.truths, "branch_index": i.branch_index} for i in insts]
    again = recount(recs, {"hand": scene})["all"]
    assert audit["evaluated_relations"] == again["evaluated_relations"] == 3
    assert audit["relations_in_margin"] == again["margin"] == 2
    assert audit["truth_mismatches"] == again["mismatch"] == 0
