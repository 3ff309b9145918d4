"""One JSON / TOML / .npz reading path: deep nesting, 400- and 5,000-digit integers and foreign
array schemas give one-line errors in every importer, config and trajectory reader (the README's
limits: nesting <= 64, integers <= 30 digits), never a RecursionError, ValueError or
OverflowError."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import numpy as np
import pytest

from navbench.errors import ConfigError, FormatError, NavbenchError, SceneFormatError
from navbench.io import (
    MAX_INT_DIGITS,
    MAX_JSON_DEPTH,
    ArraySpec,
    JSONLimitError,
    TOMLLimitError,
    loads_json,
    loads_toml,
    read_npz,
)
from navbench.scene.sources import import_scene


def _realdata(rel: str) -> Path:
    for p in Path(__file__).resolve().parents:
        if (p / "shared" / "realdata" / rel).is_file():
            return p / "shared" / "realdata" / rel
    pytest.skip(f"no realdata/{rel}")


def _deep(n: int) -> str:
    return "[" * n + "]" * n


#: Texts appended as a field ``x`` of a JSON object: past each limit by a little and by a lot.
PAST_LIMITS = {
    "deep_65": (_deep(MAX_JSON_DEPTH), "levels of nesting"),  # inside the object: 65 levels
    "deep_5000": (_deep(5000), "levels of nesting"),
    "int_31": ("9" * (MAX_INT_DIGITS + 1), "digits"),
    "int_400": ("9" * 400, "digits"),
    "int_5000": ("9" * 5000, "digits"),
}


def _with_x(text: str, value: str) -> str:
    text = text.strip()
    assert text.endswith("}")
    return text[:-1] + ', "x": ' + value + "}"


def test_the_limits_themselves() -> None:
    assert loads_json(_deep(MAX_JSON_DEPTH)) is not None  # exactly 64 levels: fine
    assert loads_json("9" * MAX_INT_DIGITS) == int("9" * MAX_INT_DIGITS)
    for text, _ in PAST_LIMITS.values():
        with pytest.raises(JSONLimitError):
            loads_json("{\"x\": " + text + "}")


def _one_line(e: BaseException, needle: str) -> None:
    msg = str(e)
    assert "\n" not in msg and needle in msg, msg
    assert not re.search(r"got ['\"]?[A-Z]\w*(Error|Exception)\b", msg), msg


@pytest.mark.parametrize("case", sorted(PAST_LIMITS))
def test_procthor_house_and_jsonl(tmp_path: Path, case: str) -> None:
    text, needle = PAST_LIMITS[case]
    house = _with_x(_realdata("procthor/house_0.json").read_text(), text)
    (tmp_path / "h.json").write_text(house)
    (tmp_path / "h.jsonl").write_text(house.replace("\n", " ") + "\n")
    for f in ("h.json", "h.jsonl"):
        with pytest.raises(SceneFormatError) as ei:
            import_scene(tmp_path / f, "procthor", asset_fallback=True)
        _one_line(ei.value, needle)


def test_procthor_coordinate_of_5000_digits(tmp_path: Path) -> None:
    text = _realdata("procthor/house_0.json").read_text()
    bad = re.sub(r'"x": -?[0-9.]+', '"x": ' + "9" * 5000, text, count=1)
    (tmp_path / "h.json").write_text(bad)
    with pytest.raises(SceneFormatError) as ei:
        import_scene(tmp_path / "h.json", "procthor", asset_fallback=True)
    _one_line(ei.value, "digits")


@pytest.mark.parametrize("rel", ["scenes/apt.scene_instance.json", "scenes/apt.semantic_config.json",
                                 "tiny.scene_dataset_config.json", "objects/frl_apartment_table_01.object_config.json",
                                 "stages/room.stage_config.json"])
@pytest.mark.parametrize("case", ["deep_5000", "int_5000", "int_400", "deep_65"])
def test_habitat_configs(tmp_path: Path, rel: str, case: str) -> None:
    from tests.sources.test_habitat import _dataset

    root = tmp_path / "data"
    root.mkdir()
    _dataset(root)
    text, needle = PAST_LIMITS[case]
    (root / rel).write_text(_with_x((root / rel).read_text(), text))
    with pytest.raises(SceneFormatError) as ei:
        import_scene(root / "tiny.scene_dataset_config.json", "habitat", scene="apt",
                     semantic=root / "scenes" / "apt.semantic_config.json")
    _one_line(ei.value, needle)


@pytest.mark.parametrize("line,field", [
    ("9" * 5000 + ',FF0010,"toilet",0', "line 2: id"),
    ('1,FF0010,"toilet",' + "9" * 5000, "line 2: region id"),
    ("9" * 31 + ',FF0010,"toilet",0', "line 2: id"),
])
def test_hm3d_ids(tmp_path: Path, line: str, field: str) -> None:
    from navbench.scene.sources.hm3d import parse_semantic_txt

    p = tmp_path / "abc.semantic.txt"
    p.write_text(f"HM3D Semantic Annotations\n{line}\n")
    with pytest.raises(SceneFormatError) as ei:
        parse_semantic_txt(p)
    assert ei.value.field == field
    _one_line(ei.value, "digits")


def test_mp3d_integer_field_of_5000_digits(tmp_path: Path) -> None:
    p = tmp_path / "big.house"
    p.write_text("ASCII 1.1\nH name label 0 0 0 0 0 " + "9" * 5000 + " 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n")
    with pytest.raises(SceneFormatError) as ei:
        import_scene(p, "mp3d")
    _one_line(ei.value, "digits")


def test_gibson_pickled_document_nesting(tmp_path: Path) -> None:
    deep: object = []
    for _ in range(100):
        deep = [deep]
    room = {"id": 1, "scene_category": "kitchen", "location": np.array([2.0, 2.0, 1.5]),
            "size": np.array([4.0, 4.0, 3.0]), "extra": deep}
    p = tmp_path / "3DSceneGraph_G.npz"
    np.savez(p, output={"building": {"name": "G"}, "room": {1: room}, "object": {}})
    with pytest.raises(SceneFormatError) as ei:
        import_scene(p, "gibson")
    _one_line(ei.value, "levels of nesting")


@pytest.mark.parametrize("text,needle", [
    ("[graph]\nnear_max = " + _deep(5000), "levels of nesting"),
    ("graph = " + "{a = " * 3000 + "1" + "}" * 3000, "levels of nesting"),
    ("[" + ".".join(["a"] * 100) + "]\nx = 1", "levels of nesting"),
    ("[graph]\nnear_max = " + "9" * 5000, "digits"),
    ("[graph]\nnear_max = " + "9" * 31, "digits"),
    ("[graph\nnear_max = 1", "valid TOML"),
])
def test_toml(tmp_path: Path, text: str, needle: str) -> None:
    with pytest.raises(TOMLLimitError, match=needle):
        loads_toml(text)
    from navbench.cli.graph import _settings

    p = tmp_path / "c.toml"
    p.write_text(text)
    with pytest.raises(ConfigError) as ei:
        _settings(p)
    _one_line(ei.value, needle)


def test_toml_within_the_limits() -> None:
    assert loads_toml("[graph]\nnear_max = 1.5\nn = " + "9" * 30) == {"graph": {"near_max": 1.5, "n": int("9" * 30)}}


# ------------------------------------------------------------------------------ .npz schemas

def _npz(path: Path, **arrays: np.ndarray) -> Path:
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    path.write_bytes(buf.getvalue())
    return path


SCHEMA = {"index": ArraySpec("U", ()), "t*.positions": ArraySpec("fiu", (None, 3), required=False)}


def test_read_npz_checks_the_schema(tmp_path: Path) -> None:
    ok = _npz(tmp_path / "ok.npz", index=np.array("[]"), **{"t0.positions": np.zeros((4, 3))},
              other=np.zeros(2))
    got = read_npz(ok, SCHEMA)
    assert set(got) == {"index", "t0.positions"} and got["t0.positions"].shape == (4, 3)
    cases = {
        "missing": (_npz(tmp_path / "a.npz", x=np.zeros(1)), "index", "missing"),
        "shape": (_npz(tmp_path / "b.npz", index=np.array("[]"), **{"t0.positions": np.zeros((4, 2))}),
                  "t0.positions", "shape (4, 2)"),
        "dtype": (_npz(tmp_path / "c.npz", index=np.array([1, 2])), "index", "integer array of shape (2,)"),
        "object": (_npz(tmp_path / "d.npz", index=np.array([{"a": 1}], dtype=object)), "index", "object"),
    }
    for name, (path, field, got) in cases.items():
        with pytest.raises(FormatError) as ei:
            read_npz(path, SCHEMA)
        assert ei.value.field == field and got in str(ei.value), (name, str(ei.value))
    (tmp_path / "e.npz").write_bytes(b"PK\x03\x04 not a zip")
    with pytest.raises(FormatError, match=r"a zip of \.npy arrays"):
        read_npz(tmp_path / "e.npz", SCHEMA)


@pytest.mark.parametrize("index,field", [([1, 2], "index[0]"), ("abc", "index"), ({"a": 1}, "index"),
                                         ([[1, 2]], "index[0]")])
def test_trajectory_npz_with_a_foreign_index(tmp_path: Path, index: object, field: str) -> None:
    from navbench.metrics.trajectory import load_trajectories

    p = _npz(tmp_path / "t.npz", index=np.array(json.dumps(index)))
    with pytest.raises(NavbenchError) as ei:
        load_trajectories(p)
    assert ei.value.field == field  # type: ignore[attr-defined]
    _one_line(ei.value, "expected")


def test_trajectory_npz_round_trip_still_reads(tmp_path: Path) -> None:
    from navbench.metrics.trajectory import Trajectory, load_trajectories, save_trajectories

    t = Trajectory("7", np.array([[0.0, 0.0, 0.0], [1.0, 0.0, -1.0]]), True, headings=np.array([0.0, 0.5]),
                   collisions=np.array([False, True]))
    (back,) = load_trajectories(save_trajectories(tmp_path / "t.npz", [t]))
    assert back.episode_id == "7" and back.positions.tolist() == t.positions.tolist()
    assert back.collisions is not None and back.collisions.tolist() == [False, True]
