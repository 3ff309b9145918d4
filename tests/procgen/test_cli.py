"""``navbench scenes generate`` and ``navbench scene show`` through Typer's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import navbench.cli.scenes as scenes_cli  # registers the commands
from navbench.cli._app import app
from navbench.errors import ConfigError
from navbench.scene import load


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_generate_writes_scenes_and_index_deterministically(tmp_path: Path) -> None:
    runner = CliRunner()
    for name in ("a", "b"):
        r = runner.invoke(app, ["scenes", "generate", "--kind", "indoor", "--count", "3",
                                "--seed", "5", "--rooms", "3-5", "--out", str(tmp_path / name)])
        assert r.exit_code == 0, r.output
    a, b = _files(tmp_path / "a"), _files(tmp_path / "b")
    assert a == b
    index = json.loads(a["index.json"])
    assert index["kind"] == "indoor" and index["seed"] == 5 and index["count"] == 3
    assert index["parameters"]["rooms"] == [3, 5] and index["generator_version"]
    assert [e["seed"] for e in index["scenes"]] == [5, 6, 7]
    assert len([k for k in a if k.endswith("scene.json")]) == 3
    for e in index["scenes"]:
        sc = load(tmp_path / "a" / e["path"])
        assert sc.id == e["id"] and 3 <= len(sc.rooms) <= 5 and e["picture"] is None


def test_generate_with_pictures_and_fixed_room_count(tmp_path: Path) -> None:
    r = CliRunner().invoke(app, ["scenes", "generate", "--count", "1", "--seed", "2",
                                 "--rooms", "6", "--pictures", "--out", str(tmp_path)])
    assert r.exit_code == 0, r.output
    e = json.loads((tmp_path / "index.json").read_text())["scenes"][0]
    assert e["n_rooms"] == 6
    assert (tmp_path / e["picture"]).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_unknown_kind_and_bad_rooms_are_clear_errors(tmp_path: Path) -> None:
    r = CliRunner().invoke(app, ["scenes", "generate", "--kind", "castle", "--out", str(tmp_path)])
    assert isinstance(r.exception, ConfigError) and "--kind" in str(r.exception)
    assert "indoor" in str(r.exception)
    for bad in ("0-3", "5-2", "x", "11"):
        with pytest.raises(ConfigError, match="--rooms"):
            scenes_cli.parse_rooms(bad)
    assert scenes_cli.parse_rooms("4") == (4, 4) and scenes_cli.parse_rooms("2-9") == (2, 9)


def test_a_scene_that_cannot_be_built_is_skipped_with_a_warning(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    real = scenes_cli.GENERATORS["indoor"]

    def flaky(seed: int, rooms: tuple[int, int] | None):  # type: ignore[no-untyped-def]
        if seed == 6:
            raise ConfigError("no road-facing lot can hold the house")
        return real(seed, rooms)

    monkeypatch.setitem(scenes_cli.GENERATORS, "indoor", flaky)
    r = CliRunner().invoke(app, ["scenes", "generate", "--count", "3", "--seed", "5",
                                 "--rooms", "3", "--out", str(tmp_path)])
    assert r.exit_code == 0, r.output
    assert "seed 6 skipped: no road-facing lot" in r.output and "2 indoor scenes" in r.output
    index = json.loads((tmp_path / "index.json").read_text())
    assert [e["seed"] for e in index["scenes"]] == [5, 7]
    assert index["skipped"] == [{"seed": 6, "reason": "no road-facing lot can hold the house"}]
