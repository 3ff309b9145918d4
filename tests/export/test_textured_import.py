"""Textured mesh import: files built here (trimesh/Pillow), rendered, pixels of known colours.

Scene: a 4 x 4 m floor at y = 0 whose texture is red on its -X half and blue on its +X half,
and a 4 m wide, 2 m tall wall at z = -2 with green vertex colours. The Turtlebot stands at
(0, 0, 1.5) looking at -Z: the wall fills the upper middle of the picture, the floor the
bottom with red on the left and blue on the right.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest
import trimesh
from PIL import Image

from navbench.cli import main
from navbench.errors import SceneFormatError
from navbench.scene.io import load, save
from navbench.scene.sources import import_scene

os.environ.setdefault("MUJOCO_GL", "egl")
W, H = 80, 60
QUAD_F = np.array([[0, 1, 2], [0, 2, 3]])


def _floor_texture() -> np.ndarray:
    img = np.zeros((8, 8, 3), np.uint8)
    img[:, :4] = (255, 0, 0)
    img[:, 4:] = (0, 0, 255)
    return img


def _floor_wall() -> tuple[trimesh.Trimesh, trimesh.Trimesh]:
    v = np.array([[-2, 0, 2], [2, 0, 2], [2, 0, -2], [-2, 0, -2]], float)
    uv = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], float)
    mat = trimesh.visual.material.PBRMaterial(baseColorTexture=Image.fromarray(_floor_texture()),
                                              baseColorFactor=[255, 255, 255, 255])
    floor = trimesh.Trimesh(v, QUAD_F, visual=trimesh.visual.TextureVisuals(uv=uv, material=mat), process=False)
    wv = np.array([[-2, 0, -2], [2, 0, -2], [2, 2, -2], [-2, 2, -2]], float)
    wall = trimesh.Trimesh(wv, QUAD_F, vertex_colors=np.tile([0, 200, 0, 255], (4, 1)), process=False)
    return floor, wall


@pytest.fixture(scope="module")
def room_glb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("imp")
    floor, wall = _floor_wall()
    trimesh.Scene({"floor": floor, "wall": wall}).export(d / "room.glb")
    return d / "room.glb"


def _view(scene_path: Path) -> np.ndarray:
    from navbench.sim import TURTLEBOT
    from navbench.sim.snapshot import render_view

    return render_view(load(scene_path), TURTLEBOT, (0, 0, 1.5), (0, 0, -2), width=W, height=H).rgb


def _dominant(px: np.ndarray) -> str:
    return "rgb"[int(np.argmax(px))] if px.max() - np.sort(px)[-2] > 60 else "-"


def _check_picture(rgb: np.ndarray) -> None:
    assert _dominant(rgb[H - 5, 8]) == "r"  # floor, left
    assert _dominant(rgb[H - 5, W - 9]) == "b"  # floor, right
    assert _dominant(rgb[H // 4, W // 2]) == "g"  # wall, middle


def test_glb_side_file_scene_renders_its_textures_and_vertex_colours(room_glb: Path) -> None:
    scene = import_scene(room_glb)
    assert scene.meshes[0].file is not None and len(scene.meshes[0].faces) == 4
    save(scene, room_glb.parent / "scene.json")
    doc = json.loads((room_glb.parent / "scene.json").read_text())
    entry = doc["geometry"]["meshes"][0]
    assert entry["file"] == "room.glb" and "vertices" not in entry and len(entry["sha256"]) == 64
    _check_picture(_view(room_glb.parent / "scene.json"))


def test_obj_mtl_with_texture_renders(tmp_path: Path) -> None:
    floor, wall = _floor_wall()
    Image.fromarray(_floor_texture()).save(tmp_path / "floor.png")
    lines = ["mtllib room.mtl"]
    lines += [f"v {x} {y} {z}" for x, y, z in floor.vertices] + ["vt 0 0", "vt 1 0", "vt 1 1", "vt 0 1"]
    lines += ["usemtl floor", "f 1/1 2/2 3/3", "f 1/1 3/3 4/4"]
    lines += [f"v {x} {y} {z}" for x, y, z in wall.vertices] + ["usemtl wall", "f 5 6 7", "f 5 7 8"]
    (tmp_path / "room.obj").write_text("\n".join(lines) + "\n")
    (tmp_path / "room.mtl").write_text("newmtl floor\nKd 1 1 1\nmap_Kd floor.png\nnewmtl wall\nKd 0 0.8 0\n")
    save(import_scene(tmp_path / "room.obj"), tmp_path / "scene.json")
    _check_picture(_view(tmp_path / "scene.json"))


def test_side_file_missing_or_changed_is_one_clear_error(room_glb: Path, tmp_path: Path) -> None:
    d = tmp_path / "s"
    d.mkdir()
    (d / "room.glb").write_bytes(room_glb.read_bytes())
    save(import_scene(d / "room.glb"), d / "scene.json")
    (d / "room.glb").write_bytes(room_glb.read_bytes() + b"\0\0\0\0")
    with pytest.raises(SceneFormatError, match=r"sha256.*changed"):
        load(d / "scene.json")
    (d / "room.glb").unlink()
    with pytest.raises(SceneFormatError, match="missing"):
        load(d / "scene.json")


def test_bad_meshes_are_one_line_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    floor, _ = _floor_wall()
    big = trimesh.Trimesh(floor.vertices * 1e5, QUAD_F, process=False)  # centimetre-sized units gone wrong
    big.export(tmp_path / "huge.glb")
    flat = trimesh.Trimesh(np.array([[0, 0, 0], [1, 0, 0], [2, 0, 0]], float), [[0, 1, 2]], process=False)
    flat.export(tmp_path / "flat.obj")
    (tmp_path / "broken.glb").write_bytes(b"glTF\x02\0\0\0garbage")
    for name, expect in (("huge.glb", "metres"), ("flat.obj", "non-zero area"), ("broken.glb", "a GLB file")):
        with pytest.raises(SystemExit) as e:
            main(["scenes", "import", str(tmp_path / name), "-o", str(tmp_path / f"{name}.json")])
        assert e.value.code == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and name in err and expect in err, err
        assert not (tmp_path / f"{name}.json").exists()


def test_missing_texture_downgrades_to_base_colour(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    floor, _ = _floor_wall()
    lines = ["mtllib m.mtl"] + [f"v {x} {y} {z}" for x, y, z in floor.vertices]
    lines += ["vt 0 0", "vt 1 0", "vt 1 1", "vt 0 1", "usemtl a", "f 1/1 2/2 3/3", "f 1/1 3/3 4/4"]
    (tmp_path / "m.obj").write_text("\n".join(lines) + "\n")
    (tmp_path / "m.mtl").write_text("newmtl a\nKd 0.9 0.1 0.1\nmap_Kd nowhere.png\n")
    from navbench.visual.build import build_visuals

    vis = build_visuals(import_scene(tmp_path / "m.obj"), seed=0)
    mats = [vis.materials[g.material] for g in vis.geoms]
    assert len(mats) == 1 and mats[0].texture is None
    assert mats[0].rgba[0] > 0.8 and mats[0].rgba[1] < 0.2


def test_unsupported_image_format_downgrades_with_a_warning(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            caplog: pytest.LogCaptureFixture) -> None:
    import navbench.export.gltf as gltf

    ktx2 = b"\xabKTX 20\xbb\r\n\x1a\n" + b"\0" * 64
    monkeypatch.setattr(gltf, "png_bytes", lambda img: ktx2)
    floor, _ = _floor_wall()
    data = gltf.glb_bytes([gltf.Primitive(floor.vertices, QUAD_F, 0, np.array([[0, 0], [1, 0], [1, 1], [0, 1]], float))],
                          [gltf.GltfMaterial("a", (0.9, 0.2, 0.1, 1.0), _floor_texture())])
    data = data.replace(b'"image/png"', b'"image/ktx"')  # same length: the GLB stays valid
    (tmp_path / "k.glb").write_bytes(data)
    from navbench.visual.build import build_visuals

    with caplog.at_level("WARNING"):
        vis = build_visuals(import_scene(tmp_path / "k.glb"), seed=0)
    assert "image/ktx" in caplog.text and "k.glb" in caplog.text
    (mat,) = [vis.materials[g.material] for g in vis.geoms]
    assert mat.texture is None and mat.rgba[0] > 0.85


def test_obj_map_kd_with_options_loads_its_image_and_scales_uvs(tmp_path: Path) -> None:
    """``map_Kd -s 2 1 1 floor.png``: trimesh alone reads no image from such a line. With the
    scale applied, u runs 0 → 2 across the floor, so the red|blue texture repeats twice:
    red, blue, red, blue from left to right (each quarter of the 4 m floor is 1 m wide)."""
    from navbench.scene.model import Mesh
    from navbench.visual.imported import mesh_appearance

    floor, _ = _floor_wall()
    Image.fromarray(_floor_texture()).save(tmp_path / "floor.png")
    lines = ["mtllib room.mtl"]
    lines += [f"v {x} {y} {z}" for x, y, z in floor.vertices] + ["vt 0 0", "vt 1 0", "vt 1 1", "vt 0 1"]
    lines += ["usemtl floor", "f 1/1 2/2 3/3", "f 1/1 3/3 4/4"]
    (tmp_path / "room.obj").write_text("\n".join(lines) + "\n")
    (tmp_path / "room.mtl").write_text("newmtl floor\nKd 1 1 1\nmap_Kd -s 2 1 1 -bm 1 floor.png\n")
    scene = import_scene(tmp_path / "room.obj")
    mesh: Mesh = scene.meshes[0]
    ((part, _mat, img),) = mesh_appearance(mesh, "t")
    assert img is not None and img.shape == (8, 8, 3)
    assert sorted(np.round(part.uv[:, 0], 6).tolist()) == [0.0, 0.0, 2.0, 2.0]  # u scaled by 2
    assert sorted(np.round(part.uv[:, 1], 6).tolist()) == [0.0, 0.0, 1.0, 1.0]  # v unchanged
