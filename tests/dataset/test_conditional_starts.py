"""Where conditional episodes start and what they ask: far enough from the goal, L = habitat's d_0
to the goal point, inside the house in indoor-to-outdoor scenes, every branch executable."""

from __future__ import annotations

import math

import pytest

from navbench import nav
from navbench.episodes.approach import object_approach
from navbench.episodes.conditional import conditional_episodes, instruction_settings
from navbench.scene.procgen.hybrid import generate_hybrid
from navbench.scene.procgen.indoor import generate_house
from navbench.tasks.conditional import generate_instructions, targets
from tests.conftest import two_room_scene


@pytest.fixture(scope="module")
def house() -> tuple:
    scene = generate_house(21, n_rooms=5)
    return scene, nav.NavMesh.build(scene)


def test_starts_are_far_from_the_goal_and_l_is_d0_to_the_goal_point(house: tuple) -> None:
    scene, nm = house
    insts = generate_instructions(scene, 40, seed=5,
                                  instruction_settings=instruction_settings(scene, navmesh=nm))
    eps, dropped = conditional_episodes(scene, nm, insts, seed=5)
    assert len(eps) >= 30, dropped
    for ep in eps:
        nb = ep.info["navbench"]
        tau = nb["success_distance"]
        d0 = nm.geodesic_distance(ep.start_position, ep.goals[0].position)  # habitat's d_0
        assert nb["direct_geodesic_distance"] == pytest.approx(d0, abs=1e-9)
        assert d0 >= max(2.0, tau)  # min_start_distance 2 m: no episode starts at its goal
        assert ep.geodesic_distance >= d0 - 1e-9  # the route through the subgoals is no shorter
        assert all(b["reachable"] for b in nb["branch_goals"])


def test_targets_are_objects_a_robot_can_approach() -> None:
    scene = generate_house(3, n_rooms=5)  # 7 of its 44 objects (vases, frames on furniture)
    nm = nav.NavMesh.build(scene)         # have no navigable point within 0.8 τ
    reach = {o.id for o in scene.objects if object_approach(nm, o, 0, 0.8 * 1.0) is not None}
    assert 0 < len(reach) < len(scene.objects)  # some objects of this house have none
    insts = generate_instructions(scene, 40, seed=5,
                                  instruction_settings=instruction_settings(scene, navmesh=nm))
    for ins in insts:
        named = {r.object_id for r in targets(ins.program)}
        assert named <= reach, named - reach
    _, dropped = conditional_episodes(scene, nm, insts, seed=5)
    assert not dropped.get("no_approach") and not dropped.get("branch_unreachable")
    # without the filter the same house yields instructions whose targets cannot be approached
    loose = generate_instructions(scene, 40, seed=5, instruction_settings=instruction_settings(scene))
    assert any(not {r.object_id for r in targets(i.program)} <= reach for i in loose)


def test_hybrid_conditional_episodes_start_inside_the_house() -> None:
    scene = generate_hybrid(3, house=two_room_scene())
    nm = nav.NavMesh.build(scene, nav.NavSettings.preset("indoor", cell_size=0.1))
    insts = generate_instructions(scene, 6, seed=2, categories=["simple"],
                                  instruction_settings=instruction_settings(scene, navmesh=nm))
    eps, dropped = conditional_episodes(scene, nm, insts, seed=2)
    assert eps, dropped
    for ep in eps:
        x, y, z = ep.start_position
        assert scene.room_at(x, z, y) is not None, ep.start_position
        assert ep.info["navbench"]["start_room"] is not None
        assert math.isfinite(ep.info["navbench"]["direct_geodesic_distance"])
