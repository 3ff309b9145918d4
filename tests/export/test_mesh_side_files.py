"""Mesh side files: the files a mesh references (.mtl, texture images, glTF buffers) are listed
with their sha256 in ``scene.json`` and checked at load; datasets copy them beside their scenes.

Files are built here: an OBJ + MTL + PNG room and a glTF with external buffers (trimesh/Pillow).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
import trimesh
from PIL import Image

from navbench.errors import ConfigError, SceneFormatError
from navbench.scene.io import load, save
from navbench.scene.meshfile import copy_side_files, mesh_assets, sha256_file
from navbench.scene.sources import import_scene
from tests.export.test_textured_import import _check_picture, _floor_texture, _floor_wall, _view


def _obj_room(d: Path, image: str = "tex/floor.png", options: str = "") -> Path:
    """room.obj + room.mtl (floor textured with ``image``, wall green) in ``d``; ``options``
    precede the image name on the ``map_Kd`` line (trimesh then drops the texture)."""
    floor, wall = _floor_wall()
    (d / image).parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(_floor_texture()).save(d / image)
    lines = ["mtllib room.mtl"]
    lines += [f"v {x} {y} {z}" for x, y, z in floor.vertices] + ["vt 0 0", "vt 1 0", "vt 1 1", "vt 0 1"]
    lines += ["usemtl floor", "f 1/1 2/2 3/3", "f 1/1 3/3 4/4"]
    lines += [f"v {x} {y} {z}" for x, y, z in wall.vertices] + ["usemtl wall", "f 5 6 7", "f 5 7 8"]
    (d / "room.obj").write_text("\n".join(lines) + "\n")
    (d / "room.mtl").write_text(f"newmtl floor\nKd 1 1 1\nmap_Kd {options}{image}\nnewmtl wall\nKd 0 0.8 0\n")
    return d / "room.obj"


def test_obj_assets_are_listed_with_sha256_and_checked_at_load(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    obj = _obj_room(src, options="-s 1 1 1 ")
    assert mesh_assets(obj) == sorted([(src / "room.mtl").resolve(), (src / "tex/floor.png").resolve()])
    save(import_scene(obj), tmp_path / "scenes/room/scene.json")
    entry = json.loads((tmp_path / "scenes/room/scene.json").read_text())["geometry"]["meshes"][0]
    assert entry["assets"] == [
        {"file": "../../src/room.mtl", "sha256": sha256_file(src / "room.mtl")},
        {"file": "../../src/tex/floor.png", "sha256": sha256_file(src / "tex/floor.png")},
    ]
    assert len(load(tmp_path / "scenes/room/scene.json").meshes[0].assets) == 2

    Image.fromarray(np.full((8, 8, 3), 9, np.uint8)).save(src / "tex/floor.png")  # texture changed
    with pytest.raises(SceneFormatError, match=r"assets\[1\]\.sha256.*floor\.png changed"):
        load(tmp_path / "scenes/room/scene.json")
    (src / "room.mtl").unlink()
    with pytest.raises(SceneFormatError, match=r"assets\[0\]\.file.*room\.mtl.*missing"):
        load(tmp_path / "scenes/room/scene.json")


def test_gltf_external_buffers_are_checked(tmp_path: Path) -> None:
    floor, wall = _floor_wall()
    files = trimesh.Scene({"floor": floor, "wall": wall}).export(file_type="gltf")
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    bins = sorted(n for n in files if n.endswith(".bin"))
    scene = import_scene(tmp_path / "model.gltf")
    assert [Path(a).name for a, _ in scene.meshes[0].assets] == bins
    save(scene, tmp_path / "scene.json")
    _check_picture(_view(tmp_path / "scene.json"))
    (tmp_path / bins[0]).write_bytes(b"\0" * len(files[bins[0]]))
    with pytest.raises(SceneFormatError, match=f"{bins[0]} changed"):
        load(tmp_path / "scene.json")


def test_copied_side_files_keep_a_moved_folder_loadable(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    scene = import_scene(_obj_room(src))
    copied = copy_side_files(scene, tmp_path / "a")
    save(copied, tmp_path / "a/scene.json")
    assert sorted(p.relative_to(tmp_path / "a").as_posix() for p in (tmp_path / "a").rglob("*") if p.is_file()) == [
        "room.mtl", "room.obj", "scene.json", "tex/floor.png"]
    shutil.rmtree(src)  # the originals are gone ...
    shutil.move(tmp_path / "a", tmp_path / "b")  # ... and the folder moved
    _check_picture(_view(tmp_path / "b/scene.json"))


def test_asset_outside_the_mesh_folder_is_refused_at_import_and_at_copy(tmp_path: Path) -> None:
    from dataclasses import replace

    (tmp_path / "m").mkdir()
    obj = _obj_room(tmp_path / "m", image="../floor.png")
    with pytest.raises(SceneFormatError, match=r"field 'room.mtl: map_Kd': expected a file inside the "
                                               r"mesh's folder.*got '\.\./floor.png'"):
        import_scene(obj)
    scene = import_scene(_obj_room(tmp_path / "ok"))  # the same rule when a scene is copied
    outside = (tmp_path / "floor.png").resolve()
    mesh = replace(scene.meshes[0], assets=((str(outside), sha256_file(outside)),))
    with pytest.raises(ConfigError, match="outside the mesh's folder"):
        copy_side_files(replace(scene, meshes=(mesh,)), tmp_path / "out")


def test_dataset_build_copies_side_files_beside_its_scenes(tmp_path: Path) -> None:
    from navbench.episodes.dataset import DatasetSettings, build_dataset

    src = tmp_path / "src"
    src.mkdir()
    build_dataset([import_scene(_obj_room(src), scene_id="room")], tmp_path / "ds", tasks=("route",),
                  split="train=1", settings=DatasetSettings(episodes_per_scene=1))
    assert {p.name for p in (tmp_path / "ds/scenes/room").iterdir()} == {"scene.json", "room.obj", "room.mtl", "tex"}
    doc = json.loads((tmp_path / "ds/scenes/room/scene.json").read_text())
    assert doc["geometry"]["meshes"][0]["file"] == "room.obj"
    shutil.rmtree(src)
    shutil.move(tmp_path / "ds", tmp_path / "moved")
    _check_picture(_view(tmp_path / "moved/scenes/room/scene.json"))


def test_a_hostile_mesh_id_cannot_place_files_outside_the_folder(tmp_path: Path) -> None:
    """Two file-backed meshes go to folder/<mesh id>/: an id '../../x' (scene data) wrote
    room.obj outside the dataset (a review reached /tmp with it); now it is a safe name."""
    from dataclasses import replace

    src = tmp_path / "src"
    src.mkdir()
    scene = import_scene(_obj_room(src))
    evil = replace(scene.meshes[0], id="../../../escaped")
    scene = replace(scene, meshes=(scene.meshes[0], evil))
    out = tmp_path / "deep" / "out"
    copied = copy_side_files(scene, out)
    outside = [p for p in tmp_path.rglob("room.obj")
               if out not in p.parents and src not in p.parents]
    assert outside == []
    dirs = sorted(p.name for p in out.iterdir() if p.is_dir())
    assert dirs == ["_.._.._escaped-e9d20ae4", "mesh0"]  # safe_name: unsafe characters -> _
    assert all(Path(str(m.file)).resolve().is_relative_to(out.resolve()) for m in copied.meshes)
