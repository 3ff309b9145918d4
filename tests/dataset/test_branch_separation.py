"""Branch goals are far enough apart that 'which branch did the agent end at' is well defined."""

from __future__ import annotations

import math

from navbench.episodes.conditional import (
    ConditionalEpisodeSettings,
    conditional_episodes,
    instruction_settings,
)
from navbench.nav import NavMesh
from navbench.scene.procgen.indoor import generate_house
from navbench.tasks.conditional import generate_instructions


def test_other_branch_goals_lie_beyond_two_tau() -> None:
    scene = generate_house(21, n_rooms=5)
    nm = NavMesh.build(scene)
    insts = generate_instructions(scene, 60, seed=3,
                                  instruction_settings=instruction_settings(scene))
    eps, dropped = conditional_episodes(scene, nm, insts, seed=3)
    assert eps and len(eps) + sum(dropped.values()) == 60
    for ep in eps:
        tau = ep.info["navbench"]["success_distance"]
        g = ep.goals[0].position
        for b in ep.info["navbench"]["branch_goals"]:
            assert math.dist(g, b["position"]) > 2 * tau
    # with the check off, the same instructions keep the close pairs: nothing else is dropped
    loose, dropped_loose = conditional_episodes(
        scene, nm, insts, seed=3, settings=ConditionalEpisodeSettings(branch_separation=0.0))
    assert "branch_goals_close" not in dropped_loose
    assert len(loose) == len(eps) + dropped.get("branch_goals_close", 0)
    close = [ep for ep in loose if any(
        math.dist(ep.goals[0].position, b["position"]) <= 2 * ep.info["navbench"]["success_distance"]
        for b in ep.info["navbench"]["branch_goals"])]
    assert len(close) == dropped.get("branch_goals_close", 0)
