"""habitat ObjectNav v1 files mean what habitat-lab means (ObjectNavDatasetV1 / ObjectGoal /
ObjectViewLocation / DistanceToGoal(VIEW_POINTS) / ObjectGoalSensor), checked on the raw JSON by
hand: view points on the navmesh within τ of their object and facing it, one instance id per
object (its index in the scene's object list), one goal list per scene and category that
navbench scores too, one category → id mapping whatever the split."""

from __future__ import annotations

import gzip
import json
import math
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from navbench.episodes import Episode, Goal
from navbench.episodes.goal_tasks import GoalTaskSettings, goal_episodes
from navbench.episodes.habitat_objectnav import read_objectnav, write_objectnav
from navbench.errors import EpisodeFormatError
from navbench.metrics import EpisodeFacts, Trajectory, compute_episode_metrics
from navbench.nav import NavMesh, NavSettings
from navbench.scene import Box, Room, Scene
from navbench.scene.model import SceneObject

TAU = 1.6
FLOOR = Box("floor", "floor", (0.0, -0.05, 0.0), (16.0, 0.1, 16.0), label="floor")
# scene object order: table, chair c1, chair c0 (habitat object_id = this index)
OBJS = (("t0", "table", (0.0, 6.0)), ("c1", "chair", (6.0, 6.0)), ("c0", "chair", (-6.0, -6.0)))


def _raw(p: Path) -> dict:
    with gzip.open(p, "rt", encoding="utf-8") as f:
        return json.load(f)


@pytest.fixture(scope="module")
def room() -> tuple[Scene, NavMesh]:
    boxes = [FLOOR]
    objs = []
    for oid, label, (x, z) in OBJS:
        boxes.append(Box(f"b_{oid}", "furniture", (x, 0.4, z), (1.0, 0.8, 1.0), label=label, ref=oid))
        objs.append(SceneObject(oid, label, (x, 0.4, z), "r", size=(1.0, 0.8, 1.0)))
    r = Room("r", "living room", ((-8.0, -8.0), (8.0, -8.0), (8.0, 8.0), (-8.0, 8.0)))
    scene = Scene("room", "indoor", "test", rooms=(r,), objects=tuple(objs), boxes=tuple(boxes))
    return scene, NavMesh.build(scene, NavSettings.preset("spot", agent_radius=0.4))


def _forward(q: list[float]) -> np.ndarray:
    """Facing direction (XZ) of a yaw quaternion [0, sin θ/2, 0, cos θ/2]: (−sin θ, −cos θ)."""
    assert q[0] == 0.0 and q[2] == 0.0
    th = 2.0 * math.atan2(q[1], q[3])
    return np.array([-math.sin(th), -math.cos(th)])


def test_two_episodes_of_a_category_share_goals_that_habitat_and_navbench_score_alike(
        tmp_path: Path, room: tuple[Scene, NavMesh]) -> None:
    scene, nm = room
    eps = goal_episodes("objectnav", scene, nm, 0, 8, Counter(), GoalTaskSettings(success_distance=TAU))
    chairs = [e for e in eps if e.object_category == "chair"]
    assert len(chairs) >= 2 and len({e.start_position for e in chairs}) >= 2
    write_objectnav(tmp_path, "val", eps, scenes=[scene], categories=["chair", "sofa", "table"])
    top = _raw(tmp_path / "val.json.gz")
    assert top["category_to_task_category_id"] == {"chair": 0, "sofa": 1, "table": 2}
    assert top["category_to_scene_annotation_category_id"] == {"chair": 0, "sofa": 1, "table": 2}
    content = _raw(tmp_path / "content" / "room.json.gz")
    goals = content["goals_by_category"]["scene.json_chair"]
    # habitat's instance id: the object's index in the scene's object list
    assert {g["object_name"]: g["object_id"] for g in goals} == {"c0": 2, "c1": 1}
    centre = {oid: np.array([x, 0.4, z]) for oid, _, (x, z) in OBJS}
    for g in goals:
        assert set(g) == {"position", "radius", "object_id", "object_name", "object_category", "view_points"}
        assert g["view_points"]
        for v in g["view_points"]:
            assert set(v) == {"agent_state", "iou"} and set(v["agent_state"]) == {"position", "rotation"}
            p = np.array(v["agent_state"]["position"])
            assert nm.is_navigable(p)
            # NavVerse distance to goal by hand: 3D distance to the centre less ½ max(sx, sz)
            c = centre[g["object_name"]]
            assert max(0.0, float(np.linalg.norm(p - c)) - 0.5) <= TAU - 0.2 + 1e-9
            to_obj = (c - p)[[0, 2]] / np.linalg.norm((c - p)[[0, 2]])
            assert float(_forward(v["agent_state"]["rotation"]) @ to_obj) > 1 - 1e-9
    all_vps = np.array([v["agent_state"]["position"] for g in goals for v in g["view_points"]])
    raw_eps = [e for e in content["episodes"] if e["object_category"] == "chair"]
    read = {e.episode_id: e for e in read_objectnav(tmp_path / "val.json.gz")}
    assert len(raw_eps) == len(chairs)
    for raw in raw_eps:
        ep = read[str(raw["episode_id"])]
        assert raw["goals"] == [] and sorted(raw["info"]["navbench"]["goal_ids"]) == ["c0", "c1"]
        assert sorted(str(g.object_id) for g in ep.goals) == ["c0", "c1"]
        # habitat's d_0 (DistanceToGoal, VIEW_POINTS): geodesic to the nearest view point of any
        # goal of the key; navbench's L is that distance (a cell's rounding)
        d0 = nm.find_path(np.array(raw["start_position"]), all_vps).geodesic_distance
        assert d0 == pytest.approx(ep.geodesic_distance, abs=0.05) and d0 >= 5.0
        for g in goals:  # habitat: stopping on a view point of either chair succeeds; navbench too
            end = np.array(g["view_points"][-1]["agent_state"]["position"])
            traj = Trajectory(ep.episode_id, np.array([ep.start_position, end]), stopped=True)
            assert compute_episode_metrics(traj, EpisodeFacts.from_episode(ep))["success"] == 1.0


def _ep(i: int, goal_ids: tuple[str, ...]) -> Episode:
    """An episode of scene ``s`` whose goal ``o<k>`` stands at x = k − 1 (view point z = −1)."""
    xs = {g: float(g[1:]) - 1.0 for g in goal_ids}
    goals = tuple(Goal((xs[g], 0.0, -2.0), 1.0, g, (0.5, 0.5, 0.5), ((xs[g], 0.0, -1.0),))
                  for g in goal_ids)
    return Episode(str(i), "scenes/s/scene.json", (1.0, 0.0, 4.0), (0, 0, 0, 1), goals,
                   geodesic_distance=5.5, object_category="lamp",
                   info={"navbench": {"success_distance": 1.0, "scene": "s"}})


def test_episodes_of_one_key_with_other_goals_are_refused(tmp_path: Path) -> None:
    # habitat gives both episodes goals_by_category["scene.json_lamp"]: navbench would score o2
    # a failure for episode 0 where habitat scores it a success
    with pytest.raises(EpisodeFormatError, match="goals_by_category"):
        write_objectnav(tmp_path, "val", [_ep(0, ("o1",)), _ep(1, ("o1", "o2"))])


def test_reader_rejects_files_habitat_would_read_otherwise(tmp_path: Path) -> None:
    write_objectnav(tmp_path, "val", [_ep(0, ("o1", "o2")), _ep(1, ("o2", "o1"))])
    content = tmp_path / "content" / "s.json.gz"
    good = _raw(content)
    # no scene given: ids are the sorted names' indices; episode 1's goal order follows the key's
    assert [g["object_id"] for g in good["goals_by_category"]["scene.json_lamp"]] == [0, 1]
    assert good["episodes"][1]["info"]["navbench"]["goal_ids"] == ["o1", "o2"]
    back = read_objectnav(tmp_path / "val.json.gz")
    assert [g.view_points for g in back[0].goals] == [((0.0, 0.0, -1.0),), ((1.0, 0.0, -1.0),)]
    assert [g.size for g in back[1].goals] == [(0.5, 0.5, 0.5)] * 2

    def broken(edit: str) -> None:
        d = json.loads(json.dumps(good))
        if edit == "goal_ids":
            d["episodes"][0]["info"]["navbench"]["goal_ids"] = ["o1"]
            d["episodes"][0]["info"]["navbench"]["goal_sizes"] = [[0.5, 0.5, 0.5]]
        elif edit == "object_id":
            d["goals_by_category"]["scene.json_lamp"][1]["object_id"] = 0
        else:
            d["episodes"][0]["object_category"] = "desk"
            d["goals_by_category"]["scene.json_desk"] = d["goals_by_category"]["scene.json_lamp"]
        content.write_bytes(gzip.compress(json.dumps(d).encode()))
        with pytest.raises(EpisodeFormatError, match=edit if edit != "category" else "category_to_task"):
            read_objectnav(tmp_path / "val.json.gz")

    for edit in ("goal_ids", "object_id", "category"):
        broken(edit)


def test_every_instance_of_the_category_is_a_goal_and_the_closest_is_5_to_max_m_away(
        room: tuple[Scene, NavMesh]) -> None:
    scene, nm = room
    # the chairs are ~17 m apart: with max_path = 10 m a start near one has the other out of
    # range, yet habitat scores both (one goal list per scene and category), so both are goals
    s = GoalTaskSettings(success_distance=TAU, max_path=10.0)
    eps = [e for e in goal_episodes("objectnav", scene, nm, 0, 8, Counter(), s)
           if e.object_category == "chair"]
    assert len(eps) >= 2
    far = 0
    for e in eps:
        assert [g.object_id for g in e.goals] == ["c0", "c1"] and all(g.view_points for g in e.goals)
        start = np.array(e.start_position)
        d = [nm.find_path(start, np.array(g.view_points)).geodesic_distance for g in e.goals]
        assert 5.0 <= min(d) <= 10.0 and e.geodesic_distance == pytest.approx(min(d), abs=1e-6)
        far += max(d) > 10.0
    assert far >= 1  # an instance beyond max_path is a goal too


def test_episodes_of_one_key_with_moved_goals_are_refused(tmp_path: Path) -> None:
    moved = _ep(1, ("o1",))
    moved = Episode(moved.episode_id, moved.scene_id, moved.start_position, moved.start_rotation,
                    (Goal((0.0, 0.0, -2.5), 1.0, "o1", (0.5, 0.5, 0.5), ((0.0, 0.0, -1.0),)),),
                    geodesic_distance=5.5, object_category="lamp", info=moved.info)
    with pytest.raises(EpisodeFormatError, match="goals_by_category"):
        write_objectnav(tmp_path, "val", [_ep(0, ("o1",)), moved])


def test_a_file_in_hm3d_s_own_layout_reads(tmp_path: Path) -> None:
    """habitat-lab's Episode / NavigationEpisode fields (start_room, shortest_paths,
    scene_dataset_config, additional_obj_config_paths) and its goal fields (radius null,
    object_name_id, room_id / room_name, view points with iou) as HM3D ObjectNav v1 writes
    them: the reader kept them out ('no such key'); now it reads past them."""
    d = tmp_path / "val"
    (d / "content").mkdir(parents=True)
    top = {"episodes": [], "category_to_task_category_id": {"chair": 0, "bed": 1},
           "category_to_scene_annotation_category_id": {"chair": 3, "bed": 11}}
    (d / "val.json.gz").write_bytes(gzip.compress(json.dumps(top).encode()))
    scene = "hm3d/val/00800-TEEsavR23oF/TEEsavR23oF.basis.glb"
    goal = {"position": [5.0, 0.4, 4.0], "radius": None, "object_id": 5, "object_name": "chair_5",
            "object_name_id": None, "object_category": "chair", "room_id": None,
            "room_name": None, "view_points": [
                {"agent_state": {"position": [4.5, 0.0, 4.0], "rotation": [0, 0.7, 0, 0.7]},
                 "iou": 0.6}]}
    ep = {"episode_id": "0", "scene_id": scene,
          "scene_dataset_config": "hm3d.scene_dataset_config.json",
          "additional_obj_config_paths": [], "start_position": [1.0, 0.0, 2.0],
          "start_rotation": [0, 0.38, 0, 0.92], "start_room": None, "shortest_paths": None,
          "info": {"geodesic_distance": 6.2, "euclidean_distance": 5.1,
                   "closest_goal_object_id": 5},
          "goals": [], "object_category": "chair"}
    content = {"episodes": [ep], "goals_by_category": {"TEEsavR23oF.basis.glb_chair": [goal]}}
    raw = gzip.compress(json.dumps(content).encode())
    (d / "content" / "TEEsavR23oF.json.gz").write_bytes(raw)
    (e,) = read_objectnav(d / "val.json.gz")
    assert (e.object_category, e.geodesic_distance) == ("chair", 6.2)
    assert e.start_position == (1.0, 0.0, 2.0)
    assert [(g.object_id, g.position, g.view_points) for g in e.goals] == [
        ("chair_5", (5.0, 0.4, 4.0), ((4.5, 0.0, 4.0),))]
    ep["teleport"] = True  # anything else still belongs in info
    content = {"episodes": [ep], "goals_by_category": {"TEEsavR23oF.basis.glb_chair": [goal]}}
    raw = gzip.compress(json.dumps(content).encode())
    (d / "content" / "TEEsavR23oF.json.gz").write_bytes(raw)
    with pytest.raises(EpisodeFormatError, match=r"episodes\[0\]\.teleport"):
        read_objectnav(d / "val.json.gz")
