"""HM3D semantics: a semantic.txt with awkward names and a vertex-coloured semantic GLB."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import trimesh

from navbench.errors import ConfigError, SceneFormatError
from navbench.scene.sources import import_scene
from navbench.scene.sources.hm3d import parse_semantic_txt

TXT = (
    "HM3D Semantic Annotations\n"
    '1,FF0010,"toilet",0\n'
    '2,0080FF,"picture, framed ""sunset""",0\n'
    '3,00FF00,"bed",1\n'
    '4,123456,"ghost, never painted",1\n'
)


def _box(extents: tuple[float, float, float], center: tuple[float, float, float],
         rgb: tuple[int, int, int]) -> trimesh.Trimesh:
    b = trimesh.creation.box(extents=extents)
    b.apply_translation(center)
    b.visual.vertex_colors = np.tile([*rgb, 255], (len(b.vertices), 1))
    return b


@pytest.fixture
def hm3d_dir(tmp_path: Path) -> Path:
    (tmp_path / "abc.semantic.txt").write_text(TXT)
    # Z-up file coordinates (as the Matterport-derived GLBs).
    scene = trimesh.Scene([
        _box((0.4, 0.6, 0.8), (1.0, 2.0, 0.4), (255, 0, 16)),   # toilet
        _box((0.05, 1.0, 0.5), (0.0, 1.0, 1.5), (0, 128, 255)),  # picture
        _box((2.0, 1.6, 0.5), (5.0, 2.0, 0.25), (0, 255, 0)),    # bed
    ])
    scene.export(tmp_path / "abc.semantic.glb")
    return tmp_path


def test_names_with_commas_and_quotes(hm3d_dir: Path) -> None:
    rec = parse_semantic_txt(hm3d_dir / "abc.semantic.txt")
    assert rec[1] == (2, "0080FF", 'picture, framed ""sunset""', 0)
    assert rec[3][2] == "ghost, never painted"


def test_positions_from_semantic_mesh(hm3d_dir: Path) -> None:
    s = import_scene(hm3d_dir / "abc.semantic.txt", "hm3d")
    assert s.id == "abc" and s.source == "hm3d"
    toilet = s.object_index["object1"]
    # Z-up centre (1, 2, 0.4) -> Habitat (1, 0.4, -2); extents (0.4, 0.6, 0.8) -> (0.4, 0.8, 0.6).
    assert toilet.center == pytest.approx((1.0, 0.4, -2.0))
    assert toilet.size == pytest.approx((0.4, 0.8, 0.6))
    assert toilet.room_id == "region0"
    assert "object4" not in s.object_index and s.meta["unplaced_objects"] == 1
    labels = {r.id: r.label for r in s.rooms}
    assert labels == {"region0": "bathroom", "region1": "bedroom"}
    bed_room = s.room_index["region1"]
    assert bed_room.floor_y == pytest.approx(0.0) and bed_room.height == pytest.approx(0.5)
    assert bed_room.area == pytest.approx(2.0 * 1.6)  # convex hull of one box footprint


def test_y_up_option(hm3d_dir: Path) -> None:
    s = import_scene(hm3d_dir / "abc.semantic.txt", "hm3d", up="y")
    assert s.object_index["object1"].center == pytest.approx((1.0, 2.0, 0.4))


def test_hm3d_errors(hm3d_dir: Path, tmp_path: Path) -> None:
    (hm3d_dir / "abc.semantic.glb").unlink()
    with pytest.raises(ConfigError, match="--semantic-mesh"):
        import_scene(hm3d_dir / "abc.semantic.txt", "hm3d")
    bad = tmp_path / "bad.semantic.txt"
    bad.write_text("HM3D Semantic Annotations\n1,FF0010,\"toilet\",0\n2,00FF,\"x\",0\n")
    with pytest.raises(SceneFormatError, match=r"bad\.semantic\.txt: field 'line 3'"):
        parse_semantic_txt(bad)
    bad.write_text("1,FF0010,\"toilet\",0\n")
    with pytest.raises(SceneFormatError, match=r"line 1.*HM3D Semantic Annotations"):
        parse_semantic_txt(bad)
    glb = tmp_path / "broken.semantic.glb"
    glb.write_bytes(b"glTF\x02\x00\x00\x00" + b"\x00" * 10)
    bad.write_text(TXT)
    with pytest.raises(SceneFormatError, match=r"broken\.semantic\.glb"):
        import_scene(bad, "hm3d", semantic_mesh=glb)
