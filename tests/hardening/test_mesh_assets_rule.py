"""Mesh side files under one rule (every referenced file inside the mesh's folder, refused at
import in one line) and texture images measured from their header against the pixel budget:
a 12,000² PNG imports in well under 500 MB (peak RSS of a fresh process) and is drawn in its
material's colour with a warning naming the file."""

from __future__ import annotations

import logging
import os
import re
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from navbench.errors import SceneFormatError
from navbench.io import DEFAULT_MAX_PIXELS, image_size, max_pixels
from navbench.scene.mesh_assets import mesh_assets, oversized_textures
from navbench.scene.sources import import_scene

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from hostile_assets import gltf_quad, obj_room, png_bytes


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    d = tmp_path / "outside"
    d.mkdir()
    (d / "x.mtl").write_text("newmtl wall\nKd 0.8 0.2 0.2\n")
    (d / "tex.png").write_bytes(png_bytes(8, 8))
    (d / "quad.bin").write_bytes(b"\x00" * 96)
    return d


def _refused(mesh: Path, field: str, ref: str) -> None:
    with pytest.raises(SceneFormatError) as ei:
        import_scene(mesh)
    msg = str(ei.value)
    assert "\n" not in msg and ei.value.field == field, msg
    assert "a file inside the mesh's folder" in msg or "inside the mesh's folder" in msg, msg
    assert ref[-60:] in msg and not re.search(r"[A-Z]\w*(Error|Exception)", msg), msg


def test_obj_references_outside_the_folder(tmp_path: Path, outside: Path) -> None:
    _refused(obj_room(tmp_path / "a" / "b", mtllib="../../outside/x.mtl"), "mtllib", "../../outside/x.mtl")
    _refused(obj_room(tmp_path / "c", mtllib=str(outside / "x.mtl")), "mtllib", str(outside / "x.mtl"))
    _refused(obj_room(tmp_path / "d", map_kd=str(outside / "tex.png")), "room.mtl: map_Kd", "tex.png")
    _refused(obj_room(tmp_path / "e", map_kd="../outside/tex.png"), "room.mtl: map_Kd", "../outside/tex.png")
    _refused(obj_room(tmp_path / "f", map_kd="-s 2 2 ../outside/tex.png"), "room.mtl: map_Kd", "../outside")
    link = obj_room(tmp_path / "g", map_kd="tex.png")
    os.symlink(outside / "tex.png", link.parent / "tex.png")  # inside by name, outside by target
    _refused(link, "room.mtl: map_Kd", "tex.png")


def test_gltf_references_outside_the_folder(tmp_path: Path, outside: Path) -> None:
    _refused(gltf_quad(tmp_path / "a" / "r.gltf", image_uri="../outside/tex.png"), "images[0].uri", "../outside")
    _refused(gltf_quad(tmp_path / "b" / "r.gltf", image_uri="%2E%2E/outside/tex.png"), "images[0].uri", "%2E%2E")
    _refused(gltf_quad(tmp_path / "c" / "r.gltf", image_uri=f"file://{outside / 'tex.png'}"), "images[0].uri",
             "file://")
    _refused(gltf_quad(tmp_path / "d" / "r.gltf", buffer_uri="../outside/quad.bin"), "buffers[0].uri", "../outside")


def test_references_inside_the_folder_are_assets(tmp_path: Path) -> None:
    obj = obj_room(tmp_path / "o", map_kd="tex/wood%20a.png")
    (obj.parent / "tex").mkdir()
    (obj.parent / "tex" / "wood%20a.png").write_bytes(png_bytes(8, 8))  # OBJ names are not URIs
    assert [p.name for p in mesh_assets(obj)] == ["room.mtl", "wood%20a.png"]
    g = gltf_quad(tmp_path / "g" / "r.gltf", image_uri="my%20tex.png")
    (g.parent / "my tex.png").write_bytes(png_bytes(8, 8))  # glTF URIs are percent-decoded
    assert [p.name for p in mesh_assets(g)] == ["my tex.png", "quad.bin"]
    scene = import_scene(g)
    assert sorted(Path(a).name for a, _ in scene.meshes[0].assets) == ["my tex.png", "quad.bin"]


def test_a_missing_buffer_is_said_in_words(tmp_path: Path) -> None:
    g = gltf_quad(tmp_path / "m" / "model.gltf", buffer_uri="model.bin")
    (g.parent / "model.bin").unlink()
    with pytest.raises(SceneFormatError) as ei:
        import_scene(g)
    assert "model.bin" in str(ei.value) and "FileNotFoundError" not in str(ei.value)


# -------------------------------------------------------------------------------- images

def _jpeg(w: int, h: int) -> bytes:
    """A JPEG header with an APP0 segment and a baseline SOF0 frame (no scan data needed)."""
    app0 = b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
    sof = b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, h, w, 1) + b"\x01\x11\x00"
    return b"\xff\xd8" + app0 + sof + b"\xff\xd9"


def test_image_size_from_headers_agrees_with_pillow(tmp_path: Path) -> None:
    from PIL import Image

    for w, h in ((3, 5), (640, 480), (12000, 3)):
        assert image_size(png_bytes(w, h)) == (w, h)
    assert image_size(_jpeg(7000, 9000)) == (7000, 9000)
    for fmt, suffix in (("JPEG", "jpg"), ("PNG", "png"), ("BMP", "bmp"), ("GIF", "gif")):
        p = tmp_path / f"x.{suffix}"
        Image.new("RGB", (37, 23)).save(p, format=fmt)
        with Image.open(p) as im:
            assert image_size(p) == im.size == (37, 23)
    assert image_size(b"not an image") is None
    assert image_size(png_bytes(4, 4)[:20]) is None  # truncated before the size


def test_the_budget_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    assert max_pixels() == DEFAULT_MAX_PIXELS == 8192 ** 2
    monkeypatch.setenv("NAVBENCH_MAX_TEXTURE_PIXELS", "100")
    assert max_pixels() == 100 and max_pixels(5) == 5
    monkeypatch.setenv("NAVBENCH_MAX_TEXTURE_PIXELS", "lots")
    with pytest.raises(ValueError, match="NAVBENCH_MAX_TEXTURE_PIXELS"):
        max_pixels()


def test_an_oversized_texture_is_drawn_in_its_colour_with_a_warning(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    from navbench.visual.imported import mesh_appearance

    obj = obj_room(tmp_path / "o", texture=png_bytes(16, 16, (10, 200, 10)))
    glb = gltf_quad(tmp_path / "g" / "r.glb", image=png_bytes(16, 16, (10, 200, 10)))
    assert oversized_textures(obj) == [] and oversized_textures(glb) == []
    monkeypatch.setenv("NAVBENCH_MAX_TEXTURE_PIXELS", "255")  # 16 x 16 = 256 pixels: one too many
    (o,) = oversized_textures(obj)
    assert (o.image, o.width, o.height, o.material, o.rgba) == ("tex.png", 16, 16, "wall", (0.8, 0.2, 0.2, 1.0))
    (g,) = oversized_textures(glb)
    assert (g.image, g.rgba) == ("images[0] (embedded)", (0.2, 0.6, 0.9, 1.0))
    for mesh, rgba, name in ((obj, (0.8, 0.2, 0.2, 1.0), "tex.png"), (glb, (0.2, 0.6, 0.9, 1.0), "images[0]")):
        caplog.clear()
        with caplog.at_level(logging.WARNING):
            scene = import_scene(mesh)
            (_part, mat, img) = mesh_appearance(scene.meshes[0], "k")[0]
        assert img is None and mat.rgba == pytest.approx(rgba, abs=1 / 255) and mat.texture is None
        said = [r.getMessage() for r in caplog.records if name in r.getMessage()]
        assert said and "not decoded" in said[0] and ", ".join(f"{c:.2f}" for c in rgba[:3]) in said[0]
    monkeypatch.delenv("NAVBENCH_MAX_TEXTURE_PIXELS")
    (_, mat, img) = mesh_appearance(import_scene(obj).meshes[0], "k")[0]
    assert img is not None and img.shape == (16, 16, 3) and tuple(img[0, 0]) == (10, 200, 10)


_MEASURE = ("import os, subprocess, sys; p = subprocess.Popen(sys.argv[1:]); "
            "_, st, ru = os.wait4(p.pid, 0); print(ru.ru_maxrss); sys.exit(os.waitstatus_to_exitcode(st))")


def test_a_12k_png_imports_in_under_500_mb(tmp_path: Path) -> None:
    big = png_bytes(12000, 12000)  # ~440 KB of zlib, 432 MB as RGB
    obj = obj_room(tmp_path / "bomb", texture=big)
    code = "import sys; from navbench.cli import main; main(sys.argv[1:])"
    p = subprocess.run([sys.executable, "-c", _MEASURE, sys.executable, "-c", code, "scenes", "import",
                        str(obj), "-o", str(tmp_path / "out" / "scene.json")],
                       capture_output=True, text=True, check=False, timeout=120)
    assert p.returncode == 0, p.stderr
    peak_mb = int(p.stdout.strip().splitlines()[-1]) / 1024
    assert peak_mb < 500, f"peak {peak_mb:.0f} MB"
    assert "tex.png is 12000 x 12000 px" in p.stderr and "(0.80, 0.20, 0.20)" in p.stderr
