"""Sampler: truths re-evaluated from raw scenes, unambiguous targets, balance, round trips.

Scenes: random synthetic houses from ``synth.py`` (mixed extent data: sizes, AABBs, radii,
centres only); ``test_sampler_houses.py`` repeats the checks on procedural houses.
"""

from __future__ import annotations

from collections import Counter

import pytest

from navbench.errors import FormatError
from navbench.tasks.conditional import (
    CATEGORIES,
    Go,
    If,
    Instruction,
    ObjectRef,
    SamplingError,
    Seq,
    dumps_instructions,
    evaluate,
    generate_instructions,
    parse,
    read_instructions,
    write_instructions,
)
from tests.conditional.oracle import condition_truths, matches
from tests.conditional.synth import random_scene

SCENES = [s for s in (random_scene(i) for i in range(40))]


def _generate(n_per_scene: int, seed: int, categories: list[str] | None = None) -> list[Instruction]:
    out: list[Instruction] = []
    for s in SCENES:
        try:
            out += generate_instructions(s, n_per_scene, seed, categories)
        except SamplingError:
            continue
    return out


@pytest.fixture(scope="module")
def dataset() -> list[Instruction]:
    insts = _generate(150, seed=7)
    assert len(insts) >= 5000
    return insts[:5000]


def _refs(p) -> list[ObjectRef]:  # every target reference in the tree
    if isinstance(p, Go):
        return [p.target]
    if isinstance(p, Seq):
        return [r for s in p.steps for r in _refs(s)]
    assert isinstance(p, If)
    return _refs(p.then) + _refs(p.else_)


def test_truths_reevaluated_from_raw_scene(dataset: list[Instruction]) -> None:
    scenes = {s.id: s for s in SCENES}
    n = 0
    for inst in dataset:
        scene = scenes[inst.scene_id]
        for k, truth in enumerate(condition_truths(scene, inst.program)):
            assert inst.truths[f"c{k}"] == truth, (inst.id, k)
            n += 1
        # the recorded goal follows from the re-evaluated truths
        ev = evaluate(inst.program, inst.truths)
        assert ev.goal.object_id == inst.goal_id and tuple(ev.branch_path) == inst.branch_path
    assert n > 10000


def test_no_target_is_ambiguous(dataset: list[Instruction]) -> None:
    scenes = {s.id: s for s in SCENES}
    for inst in dataset:
        scene = scenes[inst.scene_id]
        ids = []
        for r in _refs(inst.program):
            q = None if r.qualifier is None else (r.qualifier.predicate, r.qualifier.anchor)
            found = matches(scene, r.label, r.room, q, r.room_hint)
            assert found == [r.object_id], (inst.text, r)
            ids.append(r.object_id)
        assert len(set(ids)) == len(ids)  # branches lead to different objects
        assert inst.goal_id not in inst.branch_goal_ids


def test_parser_round_trips_every_instruction(dataset: list[Instruction]) -> None:
    for inst in dataset:
        assert parse(inst.text) == inst.program, inst.text
        p = parse(inst.linear_text)
        assert [t.label for t in _refs(p)][-1] == next(
            r.label for r in _refs(inst.program) if r.object_id == inst.goal_id)


def test_depth_chain_and_axes(dataset: list[Instruction]) -> None:
    for inst in dataset:
        assert (inst.depth, inst.chain_length) == CATEGORIES[inst.category]
        ax = inst.axes
        assert ax["horizon"] == len(inst.subgoal_ids) + 1
        assert ax["evidence_observability"] in ("on_route", "off_route")
        ev_rooms = [ax["condition_rooms"][c] for c in ax["evaluated"]]
        goal_room = ax["target_rooms"][-1]
        assert ax["cross_room"] == any(r != goal_room for r in ev_rooms)
    cross = Counter(i.axes["cross_room"] for i in dataset)
    assert cross[True] > 1000 and cross[False] > 1000
    assert sum(i.category == "nested_chain" and len(i.subgoal_ids) == 1 for i in dataset) > 100


@pytest.mark.parametrize("category", list(CATEGORIES))
def test_branch_balance_5000_per_category(category: str) -> None:
    insts = _generate(150, seed=3, categories=[category])[:5000]
    assert len(insts) == 5000
    nb = insts[0].n_branches
    counts = Counter(i.branch_index for i in insts)
    for b in range(nb):
        assert abs(counts[b] / 5000 - 1 / nb) <= 0.03, counts
    # an agent that always takes the first branch (all conditions true)
    first = sum(i.branch_path == tuple(["then"] * len(i.branch_path)) for i in insts)
    assert abs(first / 5000 - 1 / nb) <= 0.03


def test_deterministic_and_jsonl_round_trip(tmp_path) -> None:
    s = SCENES[1]
    a = generate_instructions(s, 40, 11)
    b = generate_instructions(s, 40, 11)
    assert dumps_instructions(a) == dumps_instructions(b)
    assert dumps_instructions(a) != dumps_instructions(generate_instructions(s, 40, 12))
    path = write_instructions(tmp_path / "i.jsonl", a)
    back = read_instructions(path)
    assert back == a and dumps_instructions(back) == dumps_instructions(a)
    path.write_text(path.read_text().replace('"goal_id":', '"goal":', 1))
    with pytest.raises(FormatError, match=r"i\.jsonl: field 'line 1\.goal_id'"):
        read_instructions(path)


def test_scene_too_small_raises() -> None:
    from navbench.scene import Room, Scene, SceneObject

    s = Scene("tiny", "indoor", "t", (Room("r", "kitchen", ((0, 0), (1, 0), (1, -1))),),
              (SceneObject("o", "sink", (0.5, 0.5, -0.5), "r"),))
    with pytest.raises(SamplingError, match="tiny"):
        generate_instructions(s, 2, 0, ["simple"])
