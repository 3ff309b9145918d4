"""Ids that become paths, outputs kept inside their folder, and scene geometry validation."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import navbench.scene as ns
from navbench.errors import FormatError, SceneFormatError
from navbench.paths import UnsafePathError, check_id, inside, is_safe_id, safe_name
from navbench.scene.io import scene_to_dict
from navbench.scene.validate import MAX_COORD, simple_polygon_problem
from tests.conftest import two_room_scene


@pytest.mark.parametrize("sid", ["house_1_3", "00800-TEEsavR23oF", "scene:3", "a.b-c+d"])
def test_ordinary_ids_are_safe_and_kept(sid: str) -> None:
    assert is_safe_id(sid) and safe_name(sid) == sid and check_id(sid, "f", "id") == sid


@pytest.mark.parametrize("sid", ["../../x", "/etc/x", "a/b", "..", ".hidden", "", "a\x00b",
                                 "a b", "x" * 129, 3])
def test_hostile_ids_are_refused_or_mapped(sid: object) -> None:
    assert not is_safe_id(sid)
    with pytest.raises(FormatError, match="safe id"):
        check_id(sid, "scene.json", "id")
    if isinstance(sid, str):
        name = safe_name(sid)
        assert is_safe_id(name) and "/" not in name and not name.startswith(".")


def test_safe_names_of_distinct_ids_differ() -> None:
    assert safe_name("a/b") != safe_name("a_b") and safe_name("a/b") != safe_name("a\\b")


def test_inside_refuses_every_escape(tmp_path: Path) -> None:
    assert inside(tmp_path, "scenes", "s1", "scene.json") == tmp_path / "scenes" / "s1" / "scene.json"
    for part in ("../x", "/tmp/x", "a/../../x", "a\x00"):
        with pytest.raises(UnsafePathError):
            inside(tmp_path, "scenes", part)
    (tmp_path / "link").symlink_to("/tmp")
    with pytest.raises(UnsafePathError, match="resolves outside"):
        inside(tmp_path, "link", "x.json")


def _doc() -> dict:
    return json.loads(json.dumps(scene_to_dict(two_room_scene())))


def _load(tmp_path: Path, doc: dict) -> None:
    f = tmp_path / "scene.json"
    f.write_text(json.dumps(doc))
    ns.load(f)


@pytest.mark.parametrize(("edit", "field"), [
    (lambda d: d.__setitem__("id", "../../x"), "id"),
    (lambda d: d["rooms"][0].__setitem__("floor_polygon", [[0, 0], [4, 0], [8, 0]]), "rooms[0].floor_polygon"),
    (lambda d: d["rooms"][0].__setitem__("floor_polygon", [[0, 0], [4, -4], [4, 0], [0, -4]]), "rooms[0].floor_polygon"),
    (lambda d: d["objects"][0].__setitem__("parent_id", "o0"), "objects[0].parent_id"),
    (lambda d: d["objects"][0].__setitem__("parent_id", "o1"), "objects[0].parent_id"),  # o1 -> o0 -> o1
    (lambda d: d["objects"][2].__setitem__("center", [2e5, 0, 0]), "objects[2].center[0]"),
    (lambda d: d["geometry"]["boxes"][0].__setitem__("size", [0, 1, 1]), "geometry.boxes[0].size[0]"),
    (lambda d: d.__setitem__("meta", {"x": math.nan}), "meta"),
])
def test_degenerate_scenes_are_rejected_naming_the_field(tmp_path: Path, edit, field: str) -> None:
    d = _doc()
    edit(d)
    with pytest.raises(SceneFormatError) as ei:
        _load(tmp_path, d)
    assert ei.value.field == field and str(tmp_path / "scene.json") in str(ei.value)


def test_polygon_checks_by_hand() -> None:
    square = [(0, 0), (1, 0), (1, 1), (0, 1)]
    assert simple_polygon_problem(square) is None
    # a zero-width spike leaves the area at 1 m² and is tolerated
    assert simple_polygon_problem([(0, 0), (1, 0), (1, 1), (0.5, 1), (0.5, 3), (0.5, 1), (0, 1)]) is None
    # bow-tie (0,0)-(3,3)-(3,0)-(0,1): signed area 3 m², enclosed 3.375 m² (two triangles)
    assert "cross" in simple_polygon_problem([(0, 0), (3, 3), (3, 0), (0, 1)])
    assert "area" in simple_polygon_problem([(0, 0), (1, 1), (2, 2)])
    assert MAX_COORD == 1e5


def test_dataset_build_refuses_an_unsafe_scene_id_from_the_api(tmp_path: Path) -> None:
    import dataclasses

    from navbench.episodes.dataset import build_dataset

    sc = dataclasses.replace(two_room_scene(), id="../../escaped")
    with pytest.raises(FormatError, match="safe id"):
        build_dataset([sc], tmp_path / "ds", tasks=("objectnav",), split="val=1", seed=0)
    assert not any(p.name.startswith("escaped") for p in tmp_path.rglob("*"))


def test_importers_validate_what_they_write(tmp_path: Path) -> None:
    """A ProcTHOR room with an empty type, then one with a zero-area floor: both pass the
    importer's own parsing but would make a scene.json navbench rejects."""
    from navbench.scene.sources import import_scene

    def house(room_type: str, zs: list[float]) -> Path:
        poly = [{"x": x, "y": 0, "z": z} for x, z in zip([0, 4, 4], zs, strict=True)]
        f = tmp_path / "house_0.json"
        f.write_text(json.dumps({"rooms": [{"id": "room|1", "roomType": room_type, "floorPolygon": poly}],
                                 "objects": [], "doors": [], "windows": [], "walls": []}))
        return f

    with pytest.raises(SceneFormatError) as ei:
        import_scene(house("", [0, 0, 4]), "procthor", asset_fallback=True)
    assert ei.value.field == "(converted scene) rooms[0].label"
    with pytest.raises(SceneFormatError) as ei:
        import_scene(house("Kitchen", [0, 0, 0]), "procthor", asset_fallback=True)
    assert ei.value.field == "(converted scene) rooms[0].floor_polygon"
    with pytest.raises(SceneFormatError) as ei:
        import_scene(house("Kitchen", [0, 0, 4]), "procthor", asset_fallback=True, scene_id="../up")
    assert ei.value.field == "(converted scene) id"


@pytest.mark.parametrize("meta", [{}, {"pair": (1, 2)}, {"big": 10 ** 40}])
def test_the_written_text_is_checked_as_the_loader_reads_it(meta: dict) -> None:
    """A scene whose document is plain JSON is checked as a document; one with a tuple in its
    meta (it comes back a list) or a 41-digit integer (the reader refuses it) through its text:
    either way the text is :func:`navbench.scene.dumps`' and a bad field is named alike."""
    import navbench.scene as ns
    from navbench.scene.model import Room, Scene
    from navbench.scene.sources._common import validated_text

    room = Room("r0", "kitchen", ((0.0, 0.0), (4.0, 0.0), (4.0, 4.0)))
    good = Scene("s", "indoor", "test", rooms=(room,), meta=meta)
    if "big" in meta:
        with pytest.raises(SceneFormatError, match="digits"):
            validated_text(good, "h.json")
        return
    assert validated_text(good, "h.json") == ns.dumps(good)
    bad = Scene("s", "indoor", "test", rooms=(Room("r0", "", room.floor_polygon),), meta=meta)
    with pytest.raises(SceneFormatError) as ei:
        validated_text(bad, "h.json")
    assert ei.value.field == "(converted scene) rooms[0].label" and ei.value.file == "h.json"


def test_a_nan_in_the_written_text_names_the_converted_scene() -> None:
    """A NaN the encoder cannot write (here in ``meta``, which the loader does not read field
    by field) is refused before any check, naming the converted scene."""
    from navbench.scene.model import Room, Scene
    from navbench.scene.sources._common import validated_text

    room = Room("r0", "kitchen", ((0.0, 0.0), (4.0, 0.0), (4.0, 4.0)))
    with pytest.raises(SceneFormatError) as ei:
        validated_text(Scene("s", "indoor", "test", rooms=(room,), meta={"scale": math.nan}), "h.json")
    assert ei.value.field == "<converted scene>" and "finite numbers" in ei.value.expected


def test_osm_bbox_limits_by_hand() -> None:
    from navbench.scene.sources.osm import MAX_EXTENT_M, _check_bbox

    p = Path("x.osm")
    assert _check_bbox(p, (8.0, 47.0, 8.01, 47.01)) == (8.0, 47.0, 8.01, 47.01)
    for bad in ((8.0, 47.0, 9.0, 48.0), (8.0, 47.0, 7.0, 48.0), (8.0, 95.0, 8.1, 96.0),
                (math.nan, 0.0, 1.0, 1.0)):
        with pytest.raises(SceneFormatError, match="bbox"):
            _check_bbox(p, bad)
    # 0.1° of latitude is 11.1 km > 10 km
    assert MAX_EXTENT_M == 10_000.0
    with pytest.raises(SceneFormatError, match="extent"):
        _check_bbox(p, (8.0, 47.0, 8.001, 47.1))


def test_flat_hm3d_objects_get_a_thickness_instead_of_an_invalid_scene(tmp_path: Path) -> None:
    import trimesh

    from navbench.scene.sources import import_scene
    from navbench.scene.sources.hm3d import MIN_EXTENT
    from tests.sources.test_hm3d import TXT, _box

    (tmp_path / "abc.semantic.txt").write_text(TXT)
    # a picture flat in Z-up z (Habitat y): extents (0.4, 0.6, 0)
    trimesh.Scene([_box((0.4, 0.6, 0.0), (1.0, 2.0, 1.0), (255, 0, 16)),
                   _box((2.0, 1.6, 0.5), (5.0, 2.0, 0.25), (0, 255, 0))]).export(tmp_path / "abc.semantic.glb")
    s = import_scene(tmp_path / "abc.semantic.txt", "hm3d")
    flat = s.object_index["object1"]
    assert flat.size == pytest.approx((0.4, MIN_EXTENT, 0.6))
    ns.save(s, tmp_path / "out.json")
    assert ns.load(tmp_path / "out.json").object_index["object1"].size[1] == pytest.approx(MIN_EXTENT)
