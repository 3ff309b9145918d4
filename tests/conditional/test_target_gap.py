"""InstructionSettings.min_target_gap keeps an instruction's targets apart (checked by brute force)."""

from __future__ import annotations

import itertools
import math

from navbench.scene.procgen.indoor import generate_house
from navbench.tasks.conditional import InstructionSettings, generate_instructions


def _gap(a, b) -> float:  # XZ gap between two objects' yawed footprints' AABBs
    (ax0, _, az0), (ax1, _, az1) = a.bounds
    (bx0, _, bz0), (bx1, _, bz1) = b.bounds
    return math.hypot(max(ax0 - bx1, bx0 - ax1, 0.0), max(az0 - bz1, bz0 - az1, 0.0))


def test_targets_are_at_least_the_gap_apart() -> None:
    scene = generate_house(4, n_rooms=6)
    insts = generate_instructions(scene, 120, seed=1,
                                  instruction_settings=InstructionSettings(min_target_gap=2.0))
    objs = scene.object_index
    for ins in insts:
        targets = [objs[i] for i in (*ins.subgoal_ids, ins.goal_id, *ins.branch_goal_ids)]
        for a, b in itertools.combinations(targets, 2):
            assert _gap(a, b) >= 2.0 - 1e-9, (ins.id, a.id, b.id)
    # without the gap some instruction has two targets closer than 2 m (the option matters)
    plain = generate_instructions(scene, 120, seed=1)
    assert any(_gap(objs[x], objs[y]) < 2.0 for ins in plain
               for x, y in itertools.combinations((ins.goal_id, *ins.branch_goal_ids), 2))
