"""Matterport3D .house: a small file written record by record (SPEC §8 field layout)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from navbench.errors import SceneFormatError
from navbench.geometry import polygon_area
from navbench.scene.sources import import_scene

C30, S30 = math.cos(math.radians(30)), math.sin(math.radians(30))
Z5 = "0 0 0 0 0"


def house_text(n_objects_declared: int = 3) -> str:
    lines = [
        "ASCII 1.1",
        # H name label #images #panoramas #vertices #surfaces #segments #objects #categories
        #   #regions #portals #levels 0 0 0 0 0 xlo ylo zlo xhi yhi zhi 0 0 0 0 0
        f"H  tiny_house  house  0 1 4 1 0 {n_objects_declared} 3 3 1 1  {Z5}  0 -1 0 8 3 3  {Z5}",
        f"L  0 3 -  4 1.5 0.1  0 -1 0 8 3 3  {Z5}",
        # R region_index level_index 0 0 label px py pz xlo ylo zlo xhi yhi zhi height 0 0 0 0
        "R  0 0 0 0 k  2 1.5 0.1  0 0 0.1 4 3 2.6  2.5  0 0 0 0",
        "R  1 0 0 0 l  6 1.5 0.1  4 0 0.1 8 3 2.6  0  0 0 0 0",
        "R  2 0 0 0 Z  1 -0.5 0.1  0 -1 0.1 2 0 2.6  0  0 0 0 0",
        # P portal_index region0 region1 label xlo ylo zlo xhi yhi zhi 0 0 0 0
        "P  0 0 1 door  3.95 1 0.1 4.05 2 2.2  0 0 0 0",
        # a panorama record shares the letter P
        f"P  abcdef0123  0 0 0  1 1 1.5  {Z5}",
        # S surface_index region_index 0 label px py pz nx ny nz xlo ylo zlo xhi yhi zhi 0 0 0 0 0
        f"S  0 0 0 floor  2 1.5 0.1  0 0 1  0 0 0.1 4 3 0.1  {Z5}",
        "V  0 0 floor  0 0 0.1  0 0 1  0 0 0",
        "V  1 0 floor  4 0 0.1  0 0 1  0 0 0",
        "V  2 0 floor  4 3 0.1  0 0 1  0 0 0",
        "V  3 0 floor  0 3 0.1  0 0 1  0 0 0",
        # C category_index raw_index raw_name mpcat40_index mpcat40_name 0 0 0 0 0
        f"C  0 1 kitchen#cabinet 7 cabinet  {Z5}",
        f"C  1 2 dining#table 5 table  {Z5}",
        f"C  2 3 wall 1 wall  {Z5}",
        # O object_index region_index category_index px py pz a0 a1 r0 r1 r2 0 0 0 0 0 0 0 0
        f"O  0 0 0  1 2 0.5  {C30} {S30} 0  {-S30} {C30} 0  0.5 0.25 0.4  0 0 0 0 0 0 0 0",
        "O  1 2 1  1 -0.5 0.5  1 0 0  0 1 0  0.3 0.3 0.3  0 0 0 0 0 0 0 0",
        "O  2 0 2  0 1 1.3  1 0 0  0 1 0  0.05 1.5 1.2  0 0 0 0 0 0 0 0",
    ]
    return "\n".join(lines) + "\n"


@pytest.fixture
def house_file(tmp_path: Path) -> Path:
    p = tmp_path / "tiny.house"
    p.write_text(house_text())
    return p


def test_regions_objects_frame(house_file: Path) -> None:
    s = import_scene(house_file, "mp3d")
    assert s.source == "mp3d" and s.meta["house_name"] == "tiny_house"
    assert [(r.id, r.label, r.level) for r in s.rooms] == [("region0", "kitchen", 0), ("region1", "living room", 0)]
    k = s.rooms[0]
    # Floor surface (0,0)(4,0)(4,3)(0,3) at z = 0.1 (Z up) -> Habitat (x, -y), floor y = 0.1.
    assert set(k.floor_polygon) == {(0.0, 0.0), (4.0, 0.0), (4.0, -3.0), (0.0, -3.0)}
    assert polygon_area(k.floor_polygon) == pytest.approx(12.0)
    assert k.floor_y == pytest.approx(0.1) and k.height == pytest.approx(2.5)
    lr = s.rooms[1]  # no floor surface: bounding box x 4..8, y 0..3 -> z 0..-3; height = 2.6 - 0.1
    assert set(lr.floor_polygon) == {(4.0, 0.0), (8.0, 0.0), (8.0, -3.0), (4.0, -3.0)}
    assert lr.height == pytest.approx(2.5)
    assert len(s.objects) == 2  # the wall object is structure
    cab = s.object_index["object0"]
    assert cab.label == "cabinet" and cab.room_id == "region0"
    assert cab.center == pytest.approx((1.0, 0.5, -2.0))
    # radii (0.5, 0.25, 0.4) about axes rotated 30 deg CCW about +Z -> size (1.0, 0.8, 0.5), yaw +30 deg.
    assert cab.size == pytest.approx((1.0, 0.8, 0.5))
    assert cab.yaw == pytest.approx(math.radians(30))
    assert s.object_index["object1"].room_id is None  # its region is junk ('Z'), dropped
    (portal,) = s.portals
    assert portal.regions == ("region0", "region1") and portal.width == pytest.approx(1.0)
    assert portal.center == pytest.approx((4.0, 0.1, -1.5))
    assert portal.yaw == pytest.approx(-math.pi / 2)  # towards +X


def test_raw_categories_and_structure(house_file: Path) -> None:
    s = import_scene(house_file, "mp3d", categories="raw", keep_structure=True)
    assert [o.label for o in s.objects] == ["kitchen cabinet", "dining table", "wall"]
    wall = s.objects[2]
    assert wall.size == pytest.approx((0.1, 2.4, 3.0))  # (2 r0, 2 r2, 2 r1)


def test_malformed_house_files(tmp_path: Path) -> None:
    p = tmp_path / "bad.house"
    p.write_text(house_text(n_objects_declared=4))
    with pytest.raises(SceneFormatError, match=r"bad\.house: field 'line 2 \(H record\): #objects'.*truncated"):
        import_scene(p, "mp3d")
    p.write_text(house_text().replace("O  0 0 0  1 2 0.5", "O  0 0 0  1 two 0.5"))
    with pytest.raises(SceneFormatError, match=r"line 17 \(O record\): center"):
        import_scene(p, "mp3d")
    p.write_text(house_text().rsplit("\n", 3)[0][:-30] + "\n")
    with pytest.raises(SceneFormatError, match=r"bad\.house"):
        import_scene(p, "mp3d")
    p.write_text("ASCII 2.0\n")
    with pytest.raises(SceneFormatError, match=r"line 1.*ASCII 1\.1"):
        import_scene(p, "mp3d")
    p.write_text(house_text().replace("R  0 0 0 0 k", "R  0 0 0 0 ?"))
    with pytest.raises(SceneFormatError, match=r"R record\): label"):
        import_scene(p, "mp3d")
