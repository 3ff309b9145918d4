"""The sampler's guarantees on procedural houses (the default scene source), 5,000 instructions:
truths re-evaluated from the raw scene, unambiguous targets, parser round trip."""

from __future__ import annotations

from navbench.scene.procgen.indoor import generate_house
from navbench.tasks.conditional import generate_instructions, parse
from tests.conditional.oracle import condition_truths, matches
from tests.conditional.test_sampler import _refs


def test_5000_instructions_on_generated_houses() -> None:
    scenes = {s.id: s for s in (generate_house(seed) for seed in range(25))}
    insts = [i for s in scenes.values() for i in generate_instructions(s, 200, seed=11)]
    assert len(insts) == 5000
    checked = 0
    for inst in insts:
        scene = scenes[inst.scene_id]
        for k, truth in enumerate(condition_truths(scene, inst.program)):  # from raw objects
            assert inst.truths[f"c{k}"] == truth, (inst.id, k)
            checked += 1
        for r in _refs(inst.program):  # every target matches exactly one object in its room
            q = None if r.qualifier is None else (r.qualifier.predicate, r.qualifier.anchor)
            assert matches(scene, r.label, r.room, q, r.room_hint) == [r.object_id], (inst.text, r)
        assert parse(inst.text) == inst.program, inst.text
    assert checked > 10000
