"""One deterministic case per traceback the importer fuzzing found (``test_fuzz_importers``,
``test_fuzz_readers``): each input now loads or raises a SceneFormatError naming the field."""

from __future__ import annotations

import json
import re
import struct
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from navbench.errors import SceneFormatError
from navbench.scene.sources import import_scene

# ------------------------------------------------------------------------------- ProcTHOR

PROCTHOR = Path(__file__).resolve().parents[3] / "shared" / "realdata" / "procthor" / "house_0.json"


def _house(tmp_path: Path, edit: Callable[[dict[str, Any]], None]) -> Path:
    if not PROCTHOR.is_file():
        pytest.skip("no realdata/procthor")
    doc = json.loads(PROCTHOR.read_text())
    edit(doc)
    p = tmp_path / "house_x.json"
    p.write_text(json.dumps(doc))
    return p


@pytest.mark.parametrize("edit,field", [
    (lambda d: d.__setitem__("doors", True), "doors"),  # was TypeError: 'bool' object is not iterable
    (lambda d: d.__setitem__("windows", 3), "windows"),
    (lambda d: d["objects"][0].__setitem__("children", 5), "objects[0].children"),
])
def test_procthor_non_list_sections(tmp_path: Path, edit: Callable[[dict[str, Any]], None], field: str) -> None:
    with pytest.raises(SceneFormatError, match=rf"field '{re.escape(field)}'.*expected a list"):
        import_scene(_house(tmp_path, edit), "procthor", asset_fallback=True)


def test_procthor_unhashable_wall_room_is_ignored(tmp_path: Path) -> None:
    def edit(d: dict[str, Any]) -> None:
        for w in d["walls"]:
            w["empty"], w["roomId"] = True, [1]  # was TypeError: unhashable type: 'list'
    s = import_scene(_house(tmp_path, edit), "procthor", asset_fallback=True)
    assert not [p for p in s.portals if p.kind == "opening"]


# --------------------------------------------------------------------------------- Habitat

def _tiny(tmp_path: Path, rel: str, edit: Callable[[Any], None]) -> Path:
    from tests.sources.test_habitat import _dataset

    root = tmp_path / "data"
    root.mkdir()
    _dataset(root)
    p = root / rel
    doc = json.loads(p.read_text())
    edit(doc)
    p.write_text(json.dumps(doc))
    return root / "tiny.scene_dataset_config.json"


INST, SEM, DS = "scenes/apt.scene_instance.json", "scenes/apt.semantic_config.json", "tiny.scene_dataset_config.json"
STAGE, OBJ = "stages/room.stage_config.json", "objects/frl_apartment_table_01.object_config.json"


@pytest.mark.parametrize("rel,edit,file,field", [
    # was ValueError (float('x'))
    (INST, lambda d: d["object_instances"][0].__setitem__("uniform_scale", "x"),
     "apt.scene_instance.json", "object_instances[0].uniform_scale"),
    (INST, lambda d: d["object_instances"][0].__setitem__("non_uniform_scale", [1, "a"]),
     "apt.scene_instance.json", "object_instances[0].non_uniform_scale"),
    (STAGE, lambda d: d.__setitem__("up", [0, 0, "z"]), "room.stage_config.json", "up[2]"),
    (OBJ, lambda d: d.__setitem__("scale", [1, None, 1]), "frl_apartment_table_01.object_config.json",
     "scale[1]"),  # was a NaN size caught only as '<converted scene>'
    # was NotImplementedError: Non-relative patterns are unsupported
    (DS, lambda d: d["scene_instances"]["paths"].__setitem__(".json", ["/etc"]), DS,
     "scene_instances.paths..json[0]"),
    # was AttributeError: 'list' object has no attribute 'get'
    (DS, lambda d: d.__setitem__("scene_instances", [1]), DS, "scene_instances"),
    (DS, lambda d: d["scene_instances"].__setitem__("paths", [1]), DS, "scene_instances.paths"),
    (DS, lambda d: d.__setitem__("objects", [1]), DS, "objects"),
    (DS, lambda d: d.__setitem__("objects", True), DS, "objects"),
    (DS, lambda d: d["objects"].__setitem__("configs", 5), DS, "objects.configs"),  # was TypeError
])
def test_habitat_bad_fields_are_named(tmp_path: Path, rel: str, edit: Callable[[Any], None], file: str,
                                      field: str) -> None:
    with pytest.raises(SceneFormatError, match=rf"^{re.escape(file)}: field '{re.escape(field)}'"):
        import_scene(_tiny(tmp_path, rel, edit), "habitat", scene="apt")


def test_habitat_region_without_floor_height_takes_its_lowest_point(tmp_path: Path) -> None:
    def edit(d: dict[str, Any]) -> None:  # was ValueError: 1.0 is not in list
        r = d["region_annotations"][0]
        del r["floor_height"]
        for q in r["poly_loop"]:
            q[1] = 1.0
    s = import_scene(_tiny(tmp_path, SEM, edit), "habitat", scene="apt")
    assert [(r.id, r.floor_y, r.level) for r in s.rooms] == [("k", 1.0, 0)]


def test_habitat_empty_search_folder_is_the_dataset_folder(tmp_path: Path) -> None:
    ds = _tiny(tmp_path, DS, lambda d: d["scene_instances"]["paths"].__setitem__(".json", [""]))
    assert import_scene(ds, "habitat", scene="apt").objects[0].label == "table"


# ---------------------------------------------------------------------------------- Gibson

def _npy(header: bytes, body: bytes) -> bytes:
    pad = (64 - (10 + len(header) + 1) % 64) % 64
    h = header + b" " * pad + b"\n"
    return b"\x93NUMPY\x01\x00" + len(h).to_bytes(2, "little") + h + body


@pytest.mark.parametrize("header", [
    b"{'descr': '|O', 'fortran_order': False, 'shape': (, }",
    b"{'descr': '|O', 'fortran_order': False, 'shape': ('''",
])
def test_gibson_npy_header_that_is_not_a_literal(tmp_path: Path, header: bytes) -> None:
    p = tmp_path / "3DSceneGraph_H.npz"
    with zipfile.ZipFile(p, "w") as z:  # a valid CRC: numpy itself parses the damaged header
        z.writestr("output.npy", _npy(header, b"\x80\x02N."))
    with pytest.raises(SceneFormatError, match=r"field 'output.npy \(header\)'.*got 'a header that is not a "
                                               r"Python literal'") as ei:
        import_scene(p, "gibson")  # was tokenize.TokenError
    assert "TokenError" not in str(ei.value) and "SyntaxError" not in str(ei.value)


def _graph_file(tmp_path: Path, edit: Callable[[dict[str, Any]], None] | None = None) -> Path:
    from tests.sources.test_gibson import _graph

    g = _graph()
    if edit is not None:
        edit(g)
    p = tmp_path / "3DSceneGraph_G.npz"
    np.savez(p, output=g)
    return p


#: (offset in the central-directory entry, value, field named): the version needed to extract
#: (zipfile: NotImplementedError "zip file version"), the flags (bit 0: encrypted, RuntimeError),
#: the compression method (NotImplementedError).
ZIP_DAMAGE = [(6, 109, "<file>"), (8, 1, "member"), (10, 99, "member")]


def _damage_zip(p: Path, offset: int, value: int) -> None:
    raw = bytearray(p.read_bytes())
    j = raw.index(b"PK\x01\x02")
    raw[j + offset: j + offset + 2] = struct.pack("<H", value)
    p.write_bytes(bytes(raw))


@pytest.mark.parametrize("offset,value,field", ZIP_DAMAGE)
def test_gibson_unsupported_zip_member(tmp_path: Path, offset: int, value: int, field: str) -> None:
    p = _graph_file(tmp_path)
    _damage_zip(p, offset, value)
    want = "'<file>': expected an .npz" if field == "<file>" else "'output.npy': expected a readable archive member"
    with pytest.raises(SceneFormatError, match=re.escape(want)):
        import_scene(p, "gibson")  # was NotImplementedError / RuntimeError


@pytest.mark.parametrize("offset,value,field", ZIP_DAMAGE)
def test_navmesh_unsupported_zip_member(tmp_path: Path, offset: int, value: int, field: str) -> None:
    from navbench.errors import NavbenchError
    from navbench.nav import NavMesh
    from tests.conftest import two_room_scene

    p = tmp_path / "nm.npz"
    NavMesh.build(two_room_scene()).save(p)
    _damage_zip(p, offset, value)  # the first member's entry
    with pytest.raises(NavbenchError, match="<file>" if field == "<file>" else "undamaged archive member"):
        NavMesh.load(p)  # was NotImplementedError / RuntimeError: ARRAY_READ_ERRORS lacked them


def test_gibson_undecodable_byte_labels_load(tmp_path: Path) -> None:
    def edit(g: dict[str, Any]) -> None:  # was UnicodeDecodeError
        g["room"][1]["scene_category"] = b"living\xffroom"
        g["object"][1]["class_"] = b"\xfe"
        g["room"][1]["floor_number"] = b"\xff"
    s = import_scene(_graph_file(tmp_path, edit), "gibson")
    assert s.room_index["room1"].label == "living\ufffdroom" and s.room_index["room1"].level == 0


@pytest.mark.parametrize("value", [np.array(["1", "2", "3"]), np.array([1 + 2j, 0, 0]), [1.0, True, 2.0]])
def test_gibson_non_real_vectors_are_refused(tmp_path: Path, value: Any) -> None:
    p = _graph_file(tmp_path, lambda g: g["room"][1].__setitem__("location", value))
    with pytest.raises(SceneFormatError, match=r"field 'output.room\[1\].location': expected 3 numbers"):
        import_scene(p, "gibson")  # strings and complex numbers were converted silently


# ------------------------------------------------------------------------------------ HM3D

def _point_first_index_at(glb: Path, index: int) -> None:
    """Rewrite the first triangle index of a trimesh-written GLB (uint32 indices) in place."""
    raw = bytearray(glb.read_bytes())
    json_len = struct.unpack("<I", raw[12:16])[0]
    doc = json.loads(raw[20:20 + json_len])
    acc = doc["accessors"][doc["meshes"][0]["primitives"][0]["indices"]]
    assert acc["componentType"] == 5125  # uint32 indices
    view = doc["bufferViews"][acc["bufferView"]]
    at = 20 + json_len + 8 + view.get("byteOffset", 0) + acc.get("byteOffset", 0)
    raw[at:at + 4] = struct.pack("<I", index)
    glb.write_bytes(bytes(raw))


def test_habitat_stage_face_index_out_of_range(tmp_path: Path) -> None:
    ds = _tiny(tmp_path, DS, lambda d: None)
    _point_first_index_at(ds.parent / "stages" / "room.glb", 768)  # of 4 vertices; was IndexError
    with pytest.raises(SceneFormatError, match=r"^room\.glb: field '<mesh>\.faces': expected triangles "
                                               r"indexing the 4 vertices, got 'shape \(2, 3\), indices 0\.\.768'"):
        import_scene(ds, "habitat", scene="apt")


def test_hm3d_face_index_out_of_range(tmp_path: Path) -> None:
    import trimesh

    from tests.sources.test_hm3d import _box

    (tmp_path / "abc.semantic.txt").write_text('HM3D Semantic Annotations\n1,FF0010,"toilet",0\n')
    glb = tmp_path / "abc.semantic.glb"
    trimesh.Scene([_box((0.4, 0.6, 0.8), (1.0, 2.0, 0.4), (255, 0, 16))]).export(glb)
    _point_first_index_at(glb, 256)  # the first triangle names vertex 256 of 8
    with pytest.raises(SceneFormatError, match=r"^abc\.semantic\.glb: field '<mesh> geometry 0 faces': "
                                               r"expected triangles indexing its 8 vertices"):
        import_scene(tmp_path / "abc.semantic.txt", "hm3d")  # was IndexError
