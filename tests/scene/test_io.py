"""scene.json round trip and validation (SPEC §1)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

import navbench.scene as ns
from navbench.errors import SceneFormatError
from navbench.scene import Mesh, Scene
from tests.conftest import two_room_scene


def test_round_trip_is_byte_identical(tmp_path: Path) -> None:
    scene = two_room_scene()
    a = ns.save(scene, tmp_path / "a.json")
    loaded = ns.load(a)
    b = ns.save(loaded, tmp_path / "b.json")
    assert a.read_bytes() == b.read_bytes()
    assert loaded.objects[1].parent_id == "o0"
    assert loaded.portals[1].regions == ("r1", "outdoor")
    assert loaded.objects[3].radius == 0.3
    assert loaded.meta == {"note": "hand-built"}
    assert loaded.rooms == scene.rooms


def test_mesh_round_trip(tmp_path: Path) -> None:
    mesh = Mesh("m0", "floor", np.array([[0, 0, 0], [1, 0, 0], [0, 0, -1.0]]), np.array([[0, 1, 2]]))
    scene = Scene("m", "indoor", "mesh", meshes=(mesh,))
    loaded = ns.loads(ns.dumps(scene))
    assert loaded.meshes[0].faces.tolist() == [[0, 1, 2]]
    assert ns.dumps(loaded) == ns.dumps(scene)


def test_object_extent_rules() -> None:
    scene = two_room_scene()
    table = scene.object_index["o0"]
    assert table.bounds == ((0.5, 0.0, -1.3), (1.5, 0.8, -0.7))
    assert table.extent_radius == pytest.approx(0.5 * math.sqrt(1.0 + 0.64 + 0.36))
    plant = scene.object_index["o3"]
    assert plant.bounds is None and plant.extent_radius == 0.3
    # yaw 90 deg swaps the x and z extents
    sofa = ns.SceneObject("s", "sofa", (0.0, 0.0, 0.0), size=(2.0, 1.0, 1.0), yaw=math.pi / 2)
    lo, hi = sofa.bounds  # type: ignore[misc]
    assert hi[0] - lo[0] == pytest.approx(1.0) and hi[2] - lo[2] == pytest.approx(2.0)
    # explicit aabb wins over size
    boxed = ns.SceneObject("b", "box", (0, 0, 0), size=(1, 1, 1), aabb=((0, 0, 0), (2, 2, 2)))
    assert boxed.bounds == ((0, 0, 0), (2, 2, 2))


def test_scene_queries() -> None:
    scene = two_room_scene()
    assert scene.room_at(1.0, -1.0).id == "r0"  # type: ignore[union-attr]
    assert scene.room_at(6.0, -1.0).id == "r1"  # type: ignore[union-attr]
    assert scene.room_at(20.0, -1.0) is None
    assert [o.id for o in scene.objects_in("r0")] == ["o0", "o1"]
    assert scene.rooms[0].area == pytest.approx(16.0)
    assert scene.rooms[0].centroid == pytest.approx((2.0, -2.0))


def _doc() -> dict:
    return json.loads(ns.dumps(two_room_scene()))


def _set(doc: dict, path: list, value: object) -> dict:
    cur = doc
    for k in path[:-1]:
        cur = cur[k]
    if value is KeyError:
        del cur[path[-1]]
    else:
        cur[path[-1]] = value
    return doc


MALFORMED = [
    (["schema"], "navbench.scene/0", "schema"),
    (["kind"], "underwater", "kind"),
    (["objects", 2, "center"], [1.0, 2.0], "objects[2].center"),
    (["objects", 1, "center", 1], "high", "objects[1].center[1]"),
    (["objects", 0, "room_id"], "r9", "objects[0].room_id"),
    (["objects", 3, "radius"], -1.0, "objects[3].radius"),
    (["objects", 1, "id"], "o0", "objects[1].id"),
    (["rooms", 1, "floor_polygon"], [[0, 0], [1, 1]], "rooms[1].floor_polygon"),
    (["rooms", 0, "label"], KeyError, "rooms[0].label"),
    (["portals", 0, "width"], 0, "portals[0].width"),
    (["surfaces", 0, "class"], "lava", "surfaces[0].class"),
    (["geometry", "boxes", 2, "size"], [1.0, 0.0, 1.0], "geometry.boxes[2].size[1]"),
    (["objects", 1, "parent_id"], "nope", "objects[1].parent_id"),
    (["objects", 0, "size", 0], float("nan"), "objects[0].size[0]"),
]


@pytest.mark.parametrize(("path", "value", "field"), MALFORMED)
def test_malformed_files_name_the_field(tmp_path: Path, path: list, value: object, field: str) -> None:
    doc = _set(_doc(), path, value)
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(doc))  # NaN is written as a bare NaN token, which Python accepts
    with pytest.raises(SceneFormatError) as ei:
        ns.load(f)
    assert str(f) in str(ei.value)
    assert ei.value.field == field


def test_not_json_and_missing_file(tmp_path: Path) -> None:
    f = tmp_path / "broken.json"
    f.write_text('{"schema": ')
    with pytest.raises(SceneFormatError, match="valid JSON"):
        ns.load(f)
    with pytest.raises(SceneFormatError, match="no such file"):
        ns.load(tmp_path / "missing.json")
