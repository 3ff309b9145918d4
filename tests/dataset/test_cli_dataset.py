"""``navbench dataset build`` / ``dataset stats`` through Typer's CliRunner on two tiny houses."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import navbench.cli  # noqa: F401  (registers the commands)
from navbench.cli._app import app
from navbench.errors import ConfigError
from navbench.scene.io import save
from navbench.scene.procgen.indoor import generate_house


@pytest.fixture(scope="module")
def scenes_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("houses")
    for s in (41, 42):
        h = generate_house(s, n_rooms=4)
        save(h, d / h.id / "scene.json")
    return d


def test_build_and_stats(scenes_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "ds"
    r = CliRunner().invoke(app, ["dataset", "build", "--scenes", str(scenes_dir), "--out", str(out),
                                 "--tasks", "conditional,route", "-n", "4", "--split-by-scene",
                                 "train=0.5,eval=0.5", "--seed", "3"])
    assert r.exit_code == 0, r.output
    m = json.loads((out / "manifest.json").read_text())
    assert m["tasks"] == ["conditional", "conditional_oracle", "route"]
    for task in ("conditional", "route"):
        total = sum(c["total"] for c in m["counts"][task].values())
        dropped = sum(n for per in m["dropped"].get(task, {}).values() for n in per.values())
        assert total + dropped == 2 * 4 + sum(m.get("resampled", {}).get(task, {}).values())
        assert f"{task}: train=" in r.output
    assert (out / "route" / "train" / "train_gt.json.gz").is_file()
    r = CliRunner().invoke(app, ["dataset", "stats", str(out)])
    assert r.exit_code == 0, r.output
    assert "route" in r.output and "path_length" in r.output


def test_verify_drops_and_records(tmp_path: Path) -> None:
    scenes_dir = tmp_path / "scenes"
    for s in (21, 22):  # houses whose verified episodes survive (checked: 6 of 12 kept)
        h = generate_house(s)
        save(h, scenes_dir / h.id / "scene.json")
    out = tmp_path / "v"
    r = CliRunner().invoke(app, ["dataset", "build", "--scenes", str(scenes_dir), "--out", str(out),
                                 "--tasks", "objectnav,route", "-n", "3", "--verify",
                                 "--split-by-scene", "train=0.5,eval=0.5"])
    assert r.exit_code == 0, r.output
    m = json.loads((out / "manifest.json").read_text())
    assert m["settings"]["verify"] is True
    kept = 0
    for task in ("objectnav", "route"):
        total = sum(c["total"] for c in m["counts"][task].values())
        dropped = m["dropped"].get(task, {})
        refilled = sum(m.get("resampled", {}).get(task, {}).values())
        assert total + sum(n for per in dropped.values() for n in per.values()) == 2 * 3 + refilled
        for per in dropped.values():  # verification rejections carry the rollout's reason
            assert all(k.startswith("verify_") or k.startswith("no_") for k in per)
        kept += total
    from navbench.episodes.loader import load_dataset

    ds = load_dataset(out)
    eps = [e for t in ("objectnav", "route") for s in ds.splits for e in ds.episodes(t, s)]
    assert len(eps) == kept and kept > 0
    for e in eps:  # NavVerse App. 8.2 acceptance window
        v = e.navbench["verify"]
        assert 5.0 < v["duration"] <= 100.0 and 5.0 < v["travelled"] < 50.0


def test_bad_options(scenes_dir: Path, tmp_path: Path) -> None:
    r = CliRunner().invoke(app, ["dataset", "build", "--scenes", str(scenes_dir), "--out", str(tmp_path / "x"),
                                 "--tasks", "vln"])
    assert isinstance(r.exception, ConfigError) and "--tasks" in str(r.exception)
    r = CliRunner().invoke(app, ["dataset", "build", "--scenes", str(scenes_dir), "--out", str(tmp_path / "y"),
                                 "--tasks", "route", "--refine-url", "http://127.0.0.1:1/v1"])
    assert isinstance(r.exception, ConfigError) and "--refine-model" in str(r.exception)


def test_a_dataset_without_episodes_is_an_error_that_says_why(tmp_path: Path) -> None:
    """Scenes with rooms but no objects: every draw is dropped; rc 0 and 'eval=0' said nothing."""
    import dataclasses

    from tests.conftest import two_room_scene

    bare = dataclasses.replace(two_room_scene(), id="bare", objects=())
    save(bare, tmp_path / "sc" / "bare" / "scene.json")
    r = CliRunner().invoke(app, ["dataset", "build", "--scenes", str(tmp_path / "sc"), "--out",
                                 str(tmp_path / "ds"), "--tasks", "objectnav", "-n", "3",
                                 "--split-by-scene", "eval=1"])
    assert isinstance(r.exception, ConfigError) and "holds no episode" in str(r.exception)
    assert "warning: objectnav: no episode could be made" in r.output
