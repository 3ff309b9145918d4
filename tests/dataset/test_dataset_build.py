"""A small built dataset checked against habitat-lab / VLN-CE loader constraints and geometry."""

from __future__ import annotations

import gzip
import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest

from navbench.episodes.dataset import DatasetSettings, build_dataset
from navbench.episodes.loader import load_dataset
from navbench.errors import ConfigError
from navbench.scene.procgen.indoor import generate_house
from tests.geometry_oracle import Obstacles

# habitat-lab's VLNEpisode / NavigationEpisode attrs fields (VLN-CE pins habitat 0.1.7):
# Cls(**dict) rejects any other key.
HABITAT_VLN_KEYS = {"episode_id", "scene_id", "start_position", "start_rotation", "info", "goals",
                    "reference_path", "instruction", "trajectory_id", "shortest_paths",
                    "start_room"}
REQUIRED = {"episode_id", "scene_id", "start_position", "start_rotation", "goals",
            "instruction", "reference_path", "info"}
N = 12


def _build(out: Path, seed: int = 5) -> None:
    scenes = [generate_house(s) for s in (11, 12, 13)]
    build_dataset(scenes, out, tasks=["conditional"], split="train=0.67,eval=0.33", seed=seed,
                  settings=DatasetSettings(episodes_per_scene=N))


@pytest.fixture(scope="module")
def ds_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("ds") / "data"
    _build(out)
    return out


def _raw(path: Path) -> dict:
    with open(path, "rb") as f:
        assert f.read(2) == b"\x1f\x8b"  # gzip magic
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def _scene_json(root: Path, scene_id: str) -> dict:
    """A dataset's ``scenes/<id>/scene.json``, parsed as plain JSON."""
    return json.loads((root / "scenes" / scene_id / "scene.json").read_text(encoding="utf-8"))


def test_layout_and_vlnce_loader_constraints(ds_dir: Path) -> None:
    m = json.loads((ds_dir / "manifest.json").read_text())
    assert set(m["splits"]) == {"train", "eval"}
    # provenance: the versions the dataset's scenes say they were generated with
    versions = {json.loads((ds_dir / v["scene"]).read_text())["meta"]["version"]
                for v in m["scenes"].values()}
    assert m["generator_versions"] == {"indoor": sorted(versions)} and versions == {"indoor/2"}
    assert set(m["splits"]["train"]).isdisjoint(m["splits"]["eval"])
    for task in ("conditional", "conditional_oracle"):
        for split in ("train", "eval"):
            data = _raw(ds_dir / task / split / f"{split}.json.gz")
            assert set(data) == {"episodes", "instruction_vocab"}
            words = data["instruction_vocab"]["word_list"]
            assert words[:3] == ["<PAD>", "<UNK>", "<EOS>"]
            gt = _raw(ds_dir / task / split / f"{split}_gt.json.gz")
            assert data["episodes"], (task, split)
            for ep in data["episodes"]:
                assert REQUIRED <= set(ep) <= HABITAT_VLN_KEYS
                assert isinstance(ep["episode_id"], int)
                q = ep["start_rotation"]
                assert len(q) == 4 and q[0] == 0.0 and q[2] == 0.0
                assert math.isclose(q[0] ** 2 + q[1] ** 2 + q[2] ** 2 + q[3] ** 2, 1.0, abs_tol=1e-9)
                assert all(set(g) == {"position", "radius"} for g in ep["goals"])
                assert ep["goals"][0]["radius"] == 1.0  # multi-room houses: CondVLN τ = 1.0
                scene_file = ds_dir / ep["scene_id"]
                assert scene_file.is_file() and ep["info"]["navbench"]["scene"] in ep["scene_id"]
                toks = ep["instruction"]["instruction_tokens"]
                first = ep["instruction"]["instruction_text"].split()[0].lower().strip(",")
                assert words[toks[0]] == first and len(toks) == 200 and 1 not in toks
                nb = ep["info"]["navbench"]
                assert "subgoals" in nb and "branch_goals" in nb
                assert len(nb["branch_goals"]) == nb["n_branches"] - 1
                g = gt[str(ep["episode_id"])]
                assert g["actions"][-1] == 0 and set(g["actions"]) <= {0, 1, 2, 3}
                assert g["forward_steps"] == g["actions"].count(1)
                assert np.allclose(g["locations"][0], ep["start_position"])
                # the follower stops within one step (0.25 m) of the goal
                assert np.hypot(*(np.subtract(g["locations"][-1], ep["goals"][0]["position"]))[[0, 2]]) <= 0.25 + 1e-6


def test_paths_collision_free_lengths_and_goals(ds_dir: Path) -> None:
    ds = load_dataset(ds_dir)
    oracles: dict[str, Obstacles] = {}
    for split in ds.splits:
        for ep in ds.episodes("conditional", split):
            sid = ep.navbench["scene"]
            nm, scene = ds.navmesh(sid), ds.scene(sid)
            ref = np.array(ep.reference_path)
            # path length = geodesic distance within 1 %; never shorter than the straight line
            length = float(np.linalg.norm(np.diff(ref, axis=0), axis=1).sum())
            assert abs(length - ep.geodesic_distance) <= 0.01 * ep.geodesic_distance
            assert ep.geodesic_distance >= np.linalg.norm(ref[-1] - ref[0]) - 1e-9
            # collision-free against the scene's boxes (shapely, not the navmesh that planned it):
            # dense samples keep the agent radius less half a cell diagonal of rasterisation and
            # half a cell of line-of-sight tolerance: (√2/2 + 1/2) · 0.05 m ≈ 0.060 m
            obstacles = oracles.setdefault(sid, Obstacles(scene, climb=nm.settings.max_climb))
            tol = (math.sqrt(2.0) / 2 + 0.5) * nm.settings.cell_size
            for a, b in itertools.pairwise(ref):
                k = max(2, int(np.linalg.norm(b - a) / 0.05) + 1)
                for t in np.linspace(0, 1, k):
                    assert obstacles.distance(a + t * (b - a)) >= nm.settings.agent_radius - tol
            # goal within τ (XZ) of its object's box, computed from the object's size by hand
            obj = scene.object_index[ep.goals[0].object_id]
            lo, hi = obj.bounds
            gx, _, gz = ep.goals[0].position
            dx = max(lo[0] - gx, gx - hi[0], 0.0)
            dz = max(lo[2] - gz, gz - hi[2], 0.0)
            assert math.hypot(dx, dz) <= ep.navbench["success_distance"]
            assert np.allclose(ref[-1], ep.goals[0].position)
            # every subgoal lies on the reference path, in order
            idx = [int(np.argmin(np.linalg.norm(ref - np.array(s["position"]), axis=1)))
                   for s in ep.navbench["subgoals"]]
            assert idx == sorted(idx)
            assert all(np.allclose(ref[i], s["position"]) for i, s in zip(idx, ep.navbench["subgoals"], strict=True))


def test_oracle_copy_only_changes_text(ds_dir: Path) -> None:
    ds = load_dataset(ds_dir)
    a, b = ds.episodes("conditional", "train"), ds.episodes("conditional_oracle", "train")
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        assert x.instruction_text != y.instruction_text or x.navbench["category"] == "none"
        assert y.instruction_text == x.navbench["oracle_text"]
        assert (x.start_position, x.start_rotation, x.goals, x.reference_path, x.info) == (
            y.start_position, y.start_rotation, y.goals, y.reference_path, y.info)
        assert "if" not in y.instruction_text.lower().split()


def test_counts_add_up(ds_dir: Path) -> None:
    m = load_dataset(ds_dir).manifest
    for split in ("train", "eval"):
        c = m.counts["conditional"][split]
        assert sum(c["by_category"].values()) == c["total"]
    dropped = sum(n for per in m.dropped.get("conditional", {}).values() for n in per.values())
    total = sum(m.counts["conditional"][s]["total"] for s in ("train", "eval"))
    # every generated instruction (the first N per scene + those re-sampled to refill the
    # categories after drops) is kept or dropped by reason
    resampled = sum(m.raw.get("resampled", {}).get("conditional", {}).values())
    assert total + dropped == 3 * N + resampled


def test_same_seed_byte_identical(ds_dir: Path, tmp_path: Path) -> None:
    _build(tmp_path / "again")
    files = sorted(p.relative_to(ds_dir) for p in ds_dir.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(tmp_path / "again") for p in (tmp_path / "again").rglob("*") if p.is_file())
    for f in files:
        assert (ds_dir / f).read_bytes() == (tmp_path / "again" / f).read_bytes(), f


def test_refuses_non_empty_output_and_bad_tasks(ds_dir: Path) -> None:
    with pytest.raises(ConfigError, match="not empty"):
        build_dataset([generate_house(1)], ds_dir, tasks=["conditional"])
    with pytest.raises(ConfigError, match="--tasks"):
        build_dataset([generate_house(1)], ds_dir.parent / "x", tasks=["vln"])


def test_objectnav_habitat_layout(tmp_path: Path) -> None:
    out = tmp_path / "on"
    build_dataset([generate_house(s) for s in (21, 22)], out, tasks=["objectnav"],
                  split={"train": 0.5, "eval": 0.5}, seed=2, settings=DatasetSettings(episodes_per_scene=6))
    ds = load_dataset(out)
    # one category → id mapping for every split: all object labels of the dataset's scenes
    labels = sorted({o["label"] for sid in ds.manifest.scenes
                     for o in _scene_json(out, sid)["objects"]})
    for split in ds.splits:
        top = _raw(out / "objectnav" / split / f"{split}.json.gz")
        assert top["episodes"] == []
        assert top["category_to_task_category_id"] == {c: i for i, c in enumerate(labels)}
        assert top["category_to_scene_annotation_category_id"] == top["category_to_task_category_id"]
        for f in (out / "objectnav" / split / "content").glob("*.json.gz"):
            d = _raw(f)
            # habitat's object_id: the object's index in scenes/<id>/scene.json, one per object
            order = [o["id"] for o in _scene_json(out, f.name.removesuffix(".json.gz"))["objects"]]
            pairs = {(g["object_id"], g["object_name"]) for gs in d["goals_by_category"].values()
                     for g in gs}
            assert all(order[i] == name for i, name in pairs)
            for ep in d["episodes"]:
                assert set(ep) == {"episode_id", "scene_id", "start_position", "start_rotation", "info",
                                   "goals", "object_category"}
                assert ep["goals"] == [] and f"scene.json_{ep['object_category']}" in d["goals_by_category"]
                assert ep["object_category"] in top["category_to_task_category_id"]
        eps = ds.episodes("objectnav", split)
        assert eps
        for ep in eps:
            scene, nm = ds.scene(ep.navbench["scene"]), ds.navmesh(ep.navbench["scene"])
            assert all(scene.object_index[g.object_id].label == ep.object_category for g in ep.goals)
            # every instance of the category is a goal (habitat's goals_by_category), all at
            # L >= 5 m, the closest (the episode's L) at most 50 m away
            Ls = ep.navbench["goal_path_lengths"]
            assert sorted(Ls) == sorted(g.object_id for g in ep.goals)
            assert all(v >= 5.0 for v in Ls.values()) and min(Ls.values()) <= 50.0
            assert math.isclose(ep.geodesic_distance, min(Ls.values()), abs_tol=1e-5)
            assert ep.goals[0].radius == pytest.approx(1.0 + 0.18)  # NavVerse 1.0 + r_turtlebot
            assert nm.is_navigable(ep.start_position)
            # start yaw within 30° of the direction to the first waypoint of the closest path
            ref = np.array(ep.reference_path)
            from navbench.geometry import quaternion_to_yaw, wrap_angle, yaw_of_direction
            want = yaw_of_direction(*(ref[1] - ref[0])[[0, 2]])
            assert abs(wrap_angle(quaternion_to_yaw(ep.start_rotation) - want)) <= math.radians(30) + 1e-9


def test_generator_versions_come_from_each_scene() -> None:
    """A hybrid records its own, its city's and its house's version; a loaded scene its
    converter's; a scene with none adds nothing."""
    import dataclasses

    from navbench.episodes.writer import _versions
    from tests.conftest import two_room_scene

    base = two_room_scene()
    hyb = dataclasses.replace(base, id="h", kind="hybrid", meta={
        "version": "outdoor/2", "hybrid_version": "hybrid/1", "house_version": "indoor/2"})
    loaded = dataclasses.replace(base, id="p", meta={"converter_version": "1.0"})
    old = dataclasses.replace(base, id="o", meta={"version": "indoor/1"})
    bare = dataclasses.replace(base, id="b", meta={})
    assert _versions([hyb, loaded, old, bare]) == {
        "hybrid": ["hybrid/1", "indoor/2", "outdoor/2"], "indoor": ["1.0", "indoor/1"]}
