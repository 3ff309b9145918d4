"""Gibson 3D Scene Graph .npz: hand-built graph, frame conversion, restricted unpickling."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from navbench.errors import SceneFormatError
from navbench.scene.sources import import_scene
from navbench.scene.sources._safe_pickle import load_npz


def _graph() -> dict:
    return {
        "building": {"name": "Allensville", "function": "residential", "num_floors": 1},
        "room": {
            1: {"id": 1, "scene_category": "living_room", "location": np.array([2.0, 3.0, 1.5]),
                "size": np.array([4.0, 6.0, 3.0]), "floor_number": "A"},
            2: {"id": 2, "scene_category": "bathroom", "location": np.array([6.0, 3.0, 1.5]),
                "size": np.array([2.0, 2.0, 3.0]), "floor_number": "A"},
        },
        "object": {
            1: {"id": 1, "class_": "potted_plant", "location": np.array([1.0, 2.0, 0.4]),
                "size": np.array([0.3, 0.5, 0.8]), "parent_room": 1},
            2: {"id": 2, "class_": "toilet", "location": np.array([6.2, 2.8, 0.4]),
                "size": np.array([0.4, 0.7, 0.8]), "parent_room": None},
        },
        "camera": {}, "panorama": {},
    }


def test_gibson_graph_frame(tmp_path: Path) -> None:
    p = tmp_path / "3DSceneGraph_Allensville.npz"
    np.savez(p, output=_graph())
    s = import_scene(p, "gibson")
    assert s.id == "Allensville" and s.meta["building"]["function"] == "residential"
    lr = s.room_index["room1"]
    assert lr.label == "living room" and lr.level == 0
    # centre (2, 3, 1.5) size (4, 6, 3), Z up -> x 0..4, z -6..0, floor y = 1.5 - 1.5 = 0, height 3.
    assert set(lr.floor_polygon) == {(0.0, 0.0), (4.0, 0.0), (4.0, -6.0), (0.0, -6.0)}
    assert lr.floor_y == pytest.approx(0.0) and lr.height == pytest.approx(3.0)
    plant = s.object_index["object1"]
    assert plant.label == "potted plant" and plant.room_id == "room1"
    assert plant.center == pytest.approx((1.0, 0.4, -2.0))
    assert plant.size == pytest.approx((0.3, 0.8, 0.5))
    assert s.object_index["object2"].room_id == "room2"  # no parent_room: by polygon (x 5..7, z -4..-2)


class _Evil:
    def __init__(self, target: Path) -> None:
        self.target = target

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (os.system, (f"touch {self.target}",))


def test_malicious_npz_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "pwned"
    graph = _graph()
    graph["building"]["name"] = _Evil(target)
    p = tmp_path / "3DSceneGraph_evil.npz"
    np.savez(p, output=graph)
    with pytest.raises(SceneFormatError, match=r"3DSceneGraph_evil\.npz: field 'output\.npy'.*refused.*system"):
        import_scene(p, "gibson")
    assert not target.exists()


def test_truncated_and_malformed_npz(tmp_path: Path) -> None:
    p = tmp_path / "g.npz"
    np.savez(p, output=_graph())
    data = p.read_bytes()
    cut = tmp_path / "cut.npz"
    cut.write_bytes(data[: len(data) // 2])
    with pytest.raises(SceneFormatError, match=r"cut\.npz"):
        import_scene(cut, "gibson")
    g = _graph()
    g["object"][2]["location"] = np.array([1.0, 2.0])
    np.savez(p, output=g)
    with pytest.raises(SceneFormatError, match=r"output\.object\[2\]\.location.*3 finite numbers"):
        import_scene(p, "gibson")
    np.savez(p, other=np.zeros(3))
    with pytest.raises(SceneFormatError, match=r"field 'output'"):
        import_scene(p, "gibson")


def test_plain_arrays_still_load(tmp_path: Path) -> None:
    p = tmp_path / "a.npz"
    np.savez(p, a=np.arange(4.0), b=np.array([{"k": np.float32(1.5)}], dtype=object))
    out = load_npz(p)
    assert out["a"].tolist() == [0.0, 1.0, 2.0, 3.0]
    assert out["b"][0]["k"] == np.float32(1.5)


def save_npz_protocol2(path: Path, **arrays: object) -> Path:
    """An ``.npz`` whose object arrays are pickled with protocol 2, as Python-2-era Gibson 3DSG
    files are: every ``bytes`` (numpy's own array state included) becomes
    ``_codecs.encode(str, 'latin1')``."""
    import io
    import pickle
    import zipfile

    from numpy.lib import format as npformat

    with zipfile.ZipFile(path, "w") as z:
        for name, value in arrays.items():
            arr = np.empty((), dtype=object)
            arr[()] = value
            buf = io.BytesIO()
            npformat.write_array_header_1_0(buf, npformat.header_data_from_array_1_0(arr))
            pickle.dump(arr, buf, protocol=2)
            z.writestr(f"{name}.npy", buf.getvalue())
    return path


def test_protocol2_pickles_use_codecs_encode_and_load(tmp_path: Path) -> None:
    import pickletools

    g = _graph()
    g["building"]["name"] = b"Allensville"  # bytes value, as Python 2 str pickles come back
    p = save_npz_protocol2(tmp_path / "3DSceneGraph_Allensville.npz", output=g)
    import zipfile
    raw = zipfile.ZipFile(p).read("output.npy")
    ops = [(op.name, arg) for op, arg, _ in pickletools.genops(raw[raw.index(b"\x80\x02"):])]
    assert ("GLOBAL", "_codecs encode") in ops  # the shape real files have
    s = import_scene(p, "gibson")
    assert s.id == "Allensville" and len(s.rooms) == 2 and len(s.objects) == 2
    assert s.object_index["object1"].center == pytest.approx((1.0, 0.4, -2.0))


class _CodecsOther:
    def __reduce__(self):  # type: ignore[no-untyped-def]
        import _codecs
        return (_codecs.encode, ("x", "rot13"))


class _CodecsDecode:
    def __reduce__(self):  # type: ignore[no-untyped-def]
        import _codecs
        return (_codecs.decode, (b"x", "latin1"))


@pytest.mark.parametrize("evil", [_CodecsOther(), _CodecsDecode(), _Evil(Path("/tmp/never"))])
def test_only_latin1_codecs_encode_is_new(tmp_path: Path, evil: object) -> None:
    g = _graph()
    g["building"]["name"] = evil
    p = save_npz_protocol2(tmp_path / "3DSceneGraph_bad.npz", output=g)
    with pytest.raises(SceneFormatError, match=r"refused.*(rot13|_codecs\.decode|system)"):
        import_scene(p, "gibson")
