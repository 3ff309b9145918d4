"""Habitat scene datasets: the real fixtures, and a small hand-built dataset with meshes."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import numpy as np
import pytest
import trimesh

from navbench.errors import ConfigError, SceneFormatError
from navbench.geometry import polygon_area
from navbench.scene.sources import import_scene
from navbench.scene.sources.habitat import load_habitat, template_label

REAL = Path(__file__).resolve().parents[3] / "shared" / "realdata" / "habitat"
needs_real = pytest.mark.skipif(not REAL.is_dir() and not os.environ.get("CI"),
                                reason="../shared/realdata/habitat not present (CI requires it)")


@needs_real
def test_real_scene_instance_and_regions() -> None:
    s = load_habitat(REAL / "dataset_test_scene.scene_instance.json",
                     semantic=REAL / "test_regions.semantic_config.json")
    assert [o.center for o in s.objects] == [(0.1, 0.2, 0.3), (0.3, 0.4, 0.5)]
    assert s.meta["dataset_file"] == "test_dataset_0.scene_dataset_config.json"
    assert [(r.id, r.label, r.floor_y, r.height) for r in s.rooms] == [
        ("test_region_negativeX", "bedroom", -2.0, 4.0), ("test_region_positiveX", "bathroom", -2.0, 4.0)]
    # poly_loop (x, z): hexagon (-20,-10) (-25,0) (-20,10) (-10,10) (-5,0) (-10,-10): area 300.
    assert polygon_area(s.rooms[0].floor_polygon) == pytest.approx(300.0)
    assert s.objects[0].room_id is None  # (0.1, 0.3) lies between the two regions
    with pytest.raises(ConfigError, match="--scene"):
        load_habitat(REAL / "test_dataset_0.scene_dataset_config.json")
    s0 = import_scene(REAL / "test_dataset_0.scene_dataset_config.json", "habitat",
                      scene="dataset_test_scene_0")
    assert s0.id == "dataset_test_scene_0" and len(s0.objects) == 2


def _dataset(tmp: Path) -> Path:
    (tmp / "objects").mkdir()
    (tmp / "stages").mkdir()
    (tmp / "scenes").mkdir()
    box = trimesh.creation.box(extents=(1.0, 0.5, 0.2))
    box.apply_translation((0.0, 0.25, 0.0))  # local bounds y in [0, 0.5]
    box.export(tmp / "objects" / "table.glb")
    (tmp / "objects" / "frl_apartment_table_01.object_config.json").write_text(
        json.dumps({"render_asset": "table.glb"}))
    stage = trimesh.Trimesh([[0, 0, 0], [4, 0, 0], [0, 3, 0], [1, 2, 3]], [[0, 1, 2], [0, 2, 3]])
    stage.export(tmp / "stages" / "room.glb")
    (tmp / "stages" / "room.stage_config.json").write_text(
        json.dumps({"render_asset": "room.glb", "up": [0, 0, 1], "front": [0, 1, 0]}))
    (tmp / "tiny.scene_dataset_config.json").write_text(json.dumps({
        "objects": {"paths": {".json": ["objects"]}}, "stages": {"paths": {".json": ["stages"]}},
        "scene_instances": {"paths": {".json": ["scenes"]}}}))
    c, s = math.cos(math.pi / 4), math.sin(math.pi / 4)
    (tmp / "scenes" / "apt.scene_instance.json").write_text(json.dumps({
        "stage_instance": {"template_name": "room", "translation": [0.0, 0.5, 0.0]},
        "object_instances": [
            {"template_name": "frl_apartment_table_01", "translation": [2.0, 0.0, -1.0],
             "rotation": [c, 0.0, s, 0.0], "motion_type": "STATIC"},
        ]}))
    (tmp / "scenes" / "apt.semantic_config.json").write_text(json.dumps({"region_annotations": [
        {"name": "k", "label": "Kitchen", "poly_loop": [[0, 0, 0], [0, 0, -3], [4, 0, -3], [4, 0, 0]],
         "floor_height": 0.0, "extrusion_height": 2.5}]}))
    return tmp


def test_tiny_dataset_sizes_yaw_regions_stage(tmp_path: Path) -> None:
    root = _dataset(tmp_path)
    s = import_scene(root / "tiny.scene_dataset_config.json", "habitat", scene="apt")
    (o,) = s.objects
    assert o.label == "table"
    # Local bbox centre (0, 0.25, 0) rotated 90 deg about +Y, plus the translation.
    assert o.center == pytest.approx((2.0, 0.25, -1.0))
    assert o.size == pytest.approx((1.0, 0.5, 0.2)) and o.yaw == pytest.approx(math.pi / 2)
    lo, hi = o.bounds
    assert hi[0] - lo[0] == pytest.approx(0.2) and hi[2] - lo[2] == pytest.approx(1.0)
    assert o.room_id == "k" and s.rooms[0].label == "kitchen"
    assert [b.kind for b in s.boxes] == ["furniture"]
    (stage,) = s.meshes
    # Stage is Z-up: (1, 2, 3) -> (1, 3, -2), then translated by (0, 0.5, 0).
    assert stage.vertices[3].tolist() == pytest.approx([1.0, 3.5, -2.0])
    assert s.meta["has_geometry"] is True


def test_labels_map_and_template_names(tmp_path: Path) -> None:
    assert template_label("frl_apartment_chair_01") == "chair"
    assert template_label("objects/kitchenCupboard_01") == "kitchen cupboard"
    assert template_label("0a5df6da61cd2e78e972690b501452152309e56b") == "object"
    root = _dataset(tmp_path)
    (root / "labels.csv").write_text("id,main_category\nfrl_apartment_table_01,dining_table\n")
    s = load_habitat(root / "scenes" / "apt.scene_instance.json", labels=root / "labels.csv")
    assert s.objects[0].label == "dining table"


def test_malformed_habitat_files(tmp_path: Path) -> None:
    root = _dataset(tmp_path)
    inst = root / "scenes" / "apt.scene_instance.json"
    text = inst.read_text()
    inst.write_text(text[: len(text) // 2])
    with pytest.raises(SceneFormatError, match=r"apt\.scene_instance\.json: field '<document> \(line 1"):
        load_habitat(inst)
    doc = json.loads(text)
    doc["object_instances"][0]["rotation"] = [1, 0, 0]
    inst.write_text(json.dumps(doc))
    with pytest.raises(SceneFormatError, match=r"object_instances\[0\]\.rotation.*\[w, x, y, z\]"):
        load_habitat(inst)
    sem = root / "scenes" / "apt.semantic_config.json"
    sem.write_text(json.dumps({"region_annotations": [{"name": "k", "label": "x", "poly_loop": [[0, 0]]}]}))
    with pytest.raises(SceneFormatError, match=r"region_annotations\[0\]\.poly_loop"):
        load_habitat(sem)


def test_quaternion_convention_matches_geometry() -> None:
    from navbench.geometry import quaternion_to_yaw
    from navbench.scene.sources.habitat import quat_wxyz_to_matrix

    for yaw in (0.3, -2.0, 3.0):
        w, y = math.cos(yaw / 2), math.sin(yaw / 2)
        r = quat_wxyz_to_matrix([w, 0.0, y, 0.0], Path("x"), "q")
        # -Z (forward) must turn to (-sin yaw, 0, -cos yaw), the documented heading.
        assert r @ np.array([0, 0, -1.0]) == pytest.approx([-math.sin(yaw), 0, -math.cos(yaw)])
        assert quaternion_to_yaw([0.0, y, 0.0, w]) == pytest.approx(yaw)
