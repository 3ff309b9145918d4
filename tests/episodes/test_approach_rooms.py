"""Approach points stay on the target's side of the wall (its room), and ``dataset check`` flags
goal points outside the target's room.

Hand-built scene (metres, XZ): room A is x ∈ [-4, 0], room B is x ∈ [0, 4], both z ∈ [-2, 2]; a
0.1 m wall at x = 0 spans z ∈ [-2, 1] (a door at z ∈ [1, 2], so both rooms are one island). A
cabinet in room A stands against the wall: x ∈ [-0.6, -0.05], z ∈ [-1.5, -0.5]. With a 0.2 m
agent radius the closest navigable cells beside it in A lie ≈ 0.2 m from its footprint, and the
cells just across the wall in B (x ≥ 0.05 + 0.2) lie ≈ 0.3 m from it: within the default 0.25 m
slack of the closest, so without the room they are candidates.
"""

from __future__ import annotations

import numpy as np
import pytest

from navbench.episodes.approach import object_approach, object_room
from navbench.episodes.check import room_problems
from navbench.episodes.model import Episode, Goal
from navbench.geometry import point_in_polygon, points_in_polygon
from navbench.nav import NavMesh, NavSettings
from navbench.scene import Box, Room, Scene
from navbench.scene.model import SceneObject

ROOM_A = Room("a", "bathroom", ((-4.0, -2.0), (0.0, -2.0), (0.0, 2.0), (-4.0, 2.0)))
ROOM_B = Room("b", "bedroom", ((0.0, -2.0), (4.0, -2.0), (4.0, 2.0), (0.0, 2.0)))
CABINET = SceneObject("cab", "cabinet", (-0.325, 0.4, -1.0), "a", aabb=((-0.6, 0.0, -1.5), (-0.05, 0.8, -0.5)))
BENCH = SceneObject("bench", "bench", (6.0, 0.25, 0.0), None, size=(1.0, 0.5, 0.5))  # outdoors
BOXES = (
    Box("floor", "floor", (2.0, -0.05, 0.0), (12.0, 0.1, 4.0), label="floor"),
    Box("wall", "wall", (0.0, 1.25, -0.5), (0.1, 2.5, 3.0), label="wall"),
    Box("cab", "furniture", (-0.325, 0.4, -1.0), (0.55, 0.8, 1.0), label="cabinet", ref="cab"),
    Box("bench", "furniture", (6.0, 0.25, 0.0), (1.0, 0.5, 0.5), label="bench", ref="bench"),
)
SCENE = Scene("two", "indoor", "test", rooms=(ROOM_A, ROOM_B), objects=(CABINET, BENCH), boxes=BOXES)


@pytest.fixture(scope="module")
def nm() -> NavMesh:
    return NavMesh.build(SCENE, NavSettings(agent_radius=0.2))


def test_points_in_polygon_matches_hand_values() -> None:
    ell = ((0.0, 0.0), (2.0, 0.0), (2.0, 1.0), (1.0, 1.0), (1.0, 2.0), (0.0, 2.0))  # an L
    pts = np.array([(0.5, 0.5), (1.5, 0.5), (0.5, 1.5), (1.5, 1.5), (-0.1, 0.5), (2.5, 0.5)])
    assert points_in_polygon(pts, ell).tolist() == [True, True, True, False, False, False]
    assert [point_in_polygon(p, ell) for p in pts] == [True, True, True, False, False, False]


def test_unfiltered_points_reach_through_the_wall(nm: NavMesh) -> None:
    ap = object_approach(nm, CABINET, 0, 1.0)
    assert ap is not None
    across = ap.points[ap.points[:, 0] > 0.0]  # room B
    assert len(across) > 0
    assert across[:, 0].min() >= 0.25 - 1e-9  # wall face 0.05 + agent radius 0.2
    assert 0.25 <= ap.distances[ap.points[:, 0] > 0.0].min() <= 0.45  # ≈ 0.3, within d_min + slack


def test_room_restricts_points_to_the_targets_room(nm: NavMesh) -> None:
    room = object_room(SCENE, CABINET)
    assert room is ROOM_A and object_room(SCENE, "cab") is ROOM_A
    before = object_approach(nm, CABINET, 0, 1.0)
    after = object_approach(nm, CABINET, 0, 1.0, room=room)
    assert before is not None and after is not None
    x, z = after.points[:, 0], after.points[:, 2]
    assert ((x > -4.0) & (x < 0.0) & (z > -2.0) & (z < 2.0)).all()  # inside room A, by hand
    # the closest cell was in room A anyway: ≈ agent radius 0.2 m from the footprint
    assert after.distances.min() == pytest.approx(before.distances.min())
    assert 0.2 - 1e-9 <= after.distances.min() <= 0.2 + 0.05 * np.sqrt(2)
    assert (after.distances <= after.distances.min() + 0.25 + 1e-9).all()


def test_a_room_without_navigable_points_gives_no_approach(nm: NavMesh) -> None:
    closet = Room("c", "closet", ((-0.7, -1.6), (0.0, -1.6), (0.0, -0.4), (-0.7, -0.4)))  # 5 cm around
    assert object_approach(nm, CABINET, 0, 1.0) is not None
    assert object_approach(nm, CABINET, 0, 1.0, room=closet) is None


def test_outdoor_objects_keep_every_point(nm: NavMesh) -> None:
    assert object_room(SCENE, BENCH) is None and object_room(SCENE, "nowhere") is None
    ap = object_approach(nm, BENCH, 0, 1.0, room=object_room(SCENE, BENCH))
    assert ap is not None
    # all four sides of the 1.0 × 0.5 m bench (centre (6, 0)) are represented
    dx, dz = ap.points[:, 0] - 6.0, ap.points[:, 2]
    assert (dx < -0.5).any() and (dx > 0.5).any() and (dz < -0.25).any() and (dz > 0.25).any()


def _episode(goal: tuple[float, float, float], sub: tuple[float, float, float],
             branch: tuple[float, float, float], task: str = "conditional") -> Episode:
    nb = {"task": task, "subgoals": [{"position": list(sub), "object_id": "cab"}],
          "branch_goals": [{"position": list(branch), "object_id": "cab"},
                           {"position": [9.0, 0.0, 0.0], "object_id": "bench"}]}  # outdoor: any side
    return Episode("two:0", "two", (-3.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0),
                   (Goal(goal, 1.0, "cab"),), info={"navbench": nb})


def test_check_flags_points_outside_the_targets_room() -> None:
    inside, outside = (-0.9, 0.0, -1.0), (0.3, 0.0, -1.0)
    assert room_problems(_episode(inside, inside, inside), SCENE) == []
    found = room_problems(_episode(outside, outside, inside), SCENE)
    assert found == [
        "goal at [0.3, 0.0, -1.0] is outside room 'a' of its target object 'cab' (it lies in room 'b')",
        "subgoal 0 at [0.3, 0.0, -1.0] is outside room 'a' of its target object 'cab' (it lies in room 'b')",
    ]
    bad_branch = room_problems(_episode(inside, inside, (-5.0, 0.0, 0.0)), SCENE)
    assert bad_branch == ["branch goal 0 at [-5.0, 0.0, 0.0] is outside room 'a' of its target object "
                          "'cab' (it lies in no room)"]
    # ObjectNav goals are object centres, not approach points: not checked
    assert room_problems(_episode(outside, outside, outside, task="objectnav"), SCENE) == []


def test_objectnav_reference_paths_end_in_the_targets_room(nm: NavMesh) -> None:
    from collections import Counter

    from navbench.episodes.goal_tasks import GoalTaskSettings, goal_episodes

    scene = Scene("two", "indoor", "test", rooms=(ROOM_A, ROOM_B), objects=(CABINET,), boxes=BOXES)
    eps = goal_episodes("objectnav", scene, nm, 0, 4, Counter(), GoalTaskSettings(min_path=1.0))
    assert eps
    for e in eps:  # the cabinet is reached from room A, never from just across the wall in B
        x, _, z = e.reference_path[-1]
        assert -4.0 < x < 0.0 and -2.0 < z < 2.0


def test_oracle_goal_plans_to_the_targets_room(nm: NavMesh) -> None:
    from navbench.agents.oracle import OracleGoalAgent

    start = np.array([1.0, 0.0, -1.0])  # room B, 1.05 m from the wall; the door is at z ∈ [1, 2]
    goal, r = np.array([[-0.325, 0.4, -1.0]]), np.array([0.5])  # cabinet centre, ½ max(0.55, 1.0)
    free = OracleGoalAgent._near_goals(nm, start, goal, r, 1.0)
    inside = OracleGoalAgent._near_goals(nm, start, goal, r, 1.0, [ROOM_A])
    assert free.points is not None and inside.points is not None
    assert free.points[-1][0] > 0.0 and free.geodesic_distance < 1.0  # just across the wall, in B
    end = inside.points[-1]
    assert end[0] < 0.0 and inside.geodesic_distance > 2 * 1.0  # through the door into room A
