"""Path ends keep the embodiment's end clearance (where the robot stands and turns in place):
checked against the scene's boxes by hand-written rectangle distances, not the navmesh."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np

from navbench.episodes.approach import approach_points
from navbench.episodes.goal_tasks import GoalTaskSettings, goal_episodes
from navbench.nav import NavMesh, NavSettings
from navbench.nav.settings import EMBODIMENT_END_CLEARANCE
from navbench.scene import Box, Room, Scene
from navbench.scene.model import SceneObject

FLOOR = Box("floor", "floor", (0.0, -0.05, 0.0), (16.0, 0.1, 16.0), label="floor")


def box_distance(p: np.ndarray, b: Box) -> float:
    """XZ distance (m) from a point to an axis-aligned box (yaw 0), 0 inside."""
    dx = max(abs(p[0] - b.center[0]) - b.size[0] / 2.0, 0.0)
    dz = max(abs(p[2] - b.center[2]) - b.size[2] / 2.0, 0.0)
    return math.hypot(dx, dz)


def test_spot_end_clearance_is_its_circumscribed_radius_plus_5cm():
    from navbench.sim import SPOT, TURTLEBOT

    w, _, length = SPOT.sole_size  # the hull has the same 0.5 × 1.1 m footprint
    assert SPOT.hull_size[0] == w and SPOT.hull_size[2] == length
    assert EMBODIMENT_END_CLEARANCE["spot"] >= math.hypot(w / 2, length / 2) + 0.045
    assert EMBODIMENT_END_CLEARANCE["turtlebot"] >= TURTLEBOT.radius + 0.05  # round body


def test_approach_points_keep_min_clearance_from_the_target():
    table = Box("t", "furniture", (0.0, 0.4, 0.0), (1.0, 0.8, 1.0), label="table", ref="t")
    scene = Scene("one", "indoor", "test", boxes=(FLOOR, table))
    nm = NavMesh.build(scene, NavSettings.preset("spot", agent_radius=0.4))
    near = approach_points(nm, (-0.5, -0.5), (0.5, 0.5), 0, 1.2, slack=0.05)
    far = approach_points(nm, (-0.5, -0.5), (0.5, 0.5), 0, 1.2, slack=0.05, min_clearance=0.65)
    assert near is not None and far is not None
    d_near = [box_distance(p, table) for p in near.points]
    d_far = [box_distance(p, table) for p in far.points]
    assert min(d_near) < 0.5  # the 0.4 m navmesh alone lets points hug the table
    assert min(d_far) >= 0.65 - 0.1 / 2 - 1e-6  # within half a 0.1 m cell of 0.65


def test_goal_episode_starts_and_goals_keep_end_clearance():
    boxes = [FLOOR]
    objs = []
    for i, (x, z) in enumerate(((-5.0, -5.0), (5.0, 5.0), (-5.0, 5.0), (5.0, -5.0), (0.0, 2.0))):
        boxes.append(Box(f"b{i}", "furniture", (x, 0.4, z), (1.0, 0.8, 1.0), label="chair", ref=f"o{i}"))
        objs.append(SceneObject(f"o{i}", "chair", (x, 0.4, z), "r", size=(1.0, 0.8, 1.0)))
    room = Room("r", "living room", ((-8.0, -8.0), (8.0, -8.0), (8.0, 8.0), (-8.0, 8.0)))
    scene = Scene("room", "indoor", "test", rooms=(room,), objects=tuple(objs), boxes=tuple(boxes))
    nm = NavMesh.build(scene, NavSettings.preset("spot", agent_radius=0.4))
    end = EMBODIMENT_END_CLEARANCE["spot"]
    # every chair is a goal of every episode: in a 16 m room no start is 5 m from all five
    eps = goal_episodes("objectnav", scene, nm, 0, 6, Counter(),
                        GoalTaskSettings(success_distance=1.6, end_clearance=end, min_path=2.0))
    assert len(eps) >= 3
    for ep in eps:
        for p in (np.asarray(ep.start_position), np.asarray(ep.reference_path[-1])):
            assert min(box_distance(p, b) for b in boxes[1:]) >= end - 0.05
            assert max(abs(p[0]), abs(p[2])) <= 8.0 - end + 0.05  # the floor's edge too


def test_conditional_starts_and_subgoals_keep_end_clearance():
    """A Spot dataset's conditional starts (random heading: the robot turns there) and subgoal
    approach points (the path goes on, often back: it turns there) keep its end clearance
    from every wall and piece of furniture in the body's height band (shapely distances to the
    boxes' rotated footprints, not the navmesh); goals need not. Without the setting (the old
    builder) starts 0.4–0.6 m from furniture are common."""
    import shapely

    from navbench.episodes.conditional import (
        ConditionalEpisodeSettings,
        conditional_episodes,
        instruction_settings,
    )
    from navbench.episodes.dataset import DatasetSettings
    from navbench.geometry import box_corners_xz
    from navbench.scene.procgen.indoor import generate_house
    from navbench.tasks.conditional import generate_instructions

    scene = generate_house(7, n_rooms=5)
    nm = NavMesh.build(scene, DatasetSettings(embodiment="spot").nav_settings("indoor"))
    end = EMBODIMENT_END_CLEARANCE["spot"]
    walls = [shapely.Polygon(box_corners_xz(b.center, b.size, b.yaw)) for b in scene.boxes
             if b.kind in ("wall", "furniture", "object", "door")
             and b.center[1] - b.size[1] / 2 < 1.0 and b.center[1] + b.size[1] / 2 > 0.05]

    def clearance(p) -> float:
        return min(shapely.Point(p[0], p[2]).distance(w) for w in walls)

    ins = generate_instructions(scene, 24, seed=3,
                                instruction_settings=instruction_settings(scene, navmesh=nm))
    plain, _ = conditional_episodes(scene, nm, ins, seed=3)
    kept, dropped = conditional_episodes(scene, nm, ins, seed=3,
                                         settings=ConditionalEpisodeSettings(end_clearance=end))
    assert min(clearance(e.start_position) for e in plain) < 0.6  # a turn there can touch
    assert len(kept) >= 12, dropped  # of 23 without the setting
    subgoals = [s["position"] for e in kept for s in e.navbench["subgoals"]]
    assert subgoals  # some instructions have subgoals
    for p in [e.start_position for e in kept] + subgoals:
        assert clearance(p) >= end - 0.1 / 2 - 1e-6  # within half a 0.1 m cell of 0.65 m
