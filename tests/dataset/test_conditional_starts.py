"""Where conditional episodes start and what they ask: far enough from the goal, L = habitat's d_0
to the goal point, inside the house in indoor-to-outdoor scenes, every branch executable."""

from __future__ import annotations

import math

import pytest

from navbench import nav
from navbench.episodes.approach import object_approach
from navbench.episodes.conditional import (
    ConditionalEpisodeSettings,
    conditional_episodes,
    instruction_settings,
    target_approach,
)
from navbench.scene.procgen.hybrid import generate_hybrid
from navbench.scene.procgen.indoor import generate_house
from navbench.tasks.conditional import follow, generate_instructions, outcomes, targets
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


def test_no_branch_goal_or_subgoal_is_near_the_start(house: tuple) -> None:
    """An agent that stops at once is never within τ of another branch's goal (it would be
    scored ``other_branch``), and every branch's goal and subgoals are ≥ min_start_distance
    away (geodesic), like the first target and the correct goal."""
    scene, nm = house
    insts = generate_instructions(scene, 40, seed=5,
                                  instruction_settings=instruction_settings(scene, navmesh=nm))
    eps, dropped = conditional_episodes(scene, nm, insts, seed=5)
    assert len(eps) + sum(dropped.values()) == len(insts)  # every instruction kept or counted
    assert len(eps) >= 30, dropped
    by_id = {i.id: i for i in insts}
    checked = 0
    for ep in eps:
        nb = ep.info["navbench"]
        tau = nb["success_distance"]
        far = max(2.0, tau)
        s = ep.start_position
        for b in nb["branch_goals"]:  # the points other_branch is scored at
            assert math.dist(s, b["position"]) > tau, (ep.episode_id, b)
            assert nm.geodesic_distance(s, b["position"]) >= far, (ep.episode_id, b)
        assert nm.geodesic_distance(s, ep.goals[0].position) >= far  # the correct goal point
        ins = by_id[ep.episode_id]
        for bp in outcomes(ins.program):  # every branch: its subgoals and goal, any approach point
            ev = follow(ins.program, bp)
            for r in (*ev.subgoals, ev.goal):
                if r.object_id == ins.goal_id:  # reached last, through the subgoals: its point
                    continue
                ap = target_approach(scene, nm, str(r.object_id), tau, ConditionalEpisodeSettings())
                assert ap is not None
                assert nm.geodesic_distance(s, ap.points) >= far - 1e-9, (ep.episode_id, r)
                checked += 1
    assert checked > 2 * len(eps)


def test_starts_near_another_branch_are_resampled_or_dropped_by_name(house: tuple) -> None:
    scene, nm = house
    insts = generate_instructions(scene, 40, seed=5,
                                  instruction_settings=instruction_settings(scene, navmesh=nm))
    one_try = ConditionalEpisodeSettings(start_tries=1)  # no second chance: the reason shows
    eps, dropped = conditional_episodes(scene, nm, insts, seed=5, settings=one_try)
    assert dropped["start_near_branch"] > 0, dropped
    assert len(eps) + sum(dropped.values()) == len(insts)


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
