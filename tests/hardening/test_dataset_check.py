"""``navbench dataset check`` on a freshly built dataset and on hand-edited copies of it."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest

from navbench.cli import main
from navbench.episodes.check import check_dataset

COND = Path("conditional") / "val" / "val.json.gz"


def _cli(args: list[str]) -> int:
    try:
        main(args)
    except SystemExit as e:
        return int(e.code or 0)
    return 0


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("check")
    assert _cli(["scenes", "generate", "--kind", "indoor", "--count", "1", "--rooms", "3",
                 "--seed", "1", "--out", str(root / "sc")]) == 0
    assert _cli(["dataset", "build", "--scenes", str(root / "sc"), "-o", str(root / "ds"), "-n", "3",
                 "--tasks", "conditional,objectnav", "--split-by-scene", "val=1"]) == 0
    return root / "ds"


def _edited(dataset: Path, tmp_path: Path, edit) -> Path:
    d = tmp_path / "ds"
    shutil.copytree(dataset, d)
    doc = json.loads(gzip.decompress((d / COND).read_bytes()))
    edit(doc["episodes"][0])
    (d / COND).write_bytes(gzip.compress(json.dumps(doc).encode()))
    return d


def test_a_built_dataset_passes(dataset: Path, capsys) -> None:
    rep = check_dataset(dataset)
    assert rep.ok and rep.episodes >= 2 and rep.files >= 6
    assert _cli(["dataset", "check", str(dataset)]) == 0
    assert "0 problem(s) - OK" in capsys.readouterr().out


@pytest.mark.parametrize(("edit", "expect"), [
    (lambda e: e["info"].__setitem__("geodesic_distance", e["info"]["geodesic_distance"] + 3.0),
     "start → subgoals → goal is"),
    (lambda e: e.__setitem__("start_position", [50.0, 0.0, 50.0]), "is not on the navmesh"),
    (lambda e: e["info"]["navbench"].__setitem__(
        "subgoals", [{"position": [60.0, 0.0, 60.0]}]), "subgoal 0 at [60.0, 0.0, 60.0] is not reachable"),
    (lambda e: e["reference_path"][-1].__setitem__(0, e["reference_path"][-1][0] + 3.0),
     "reference_path ends 3.000 m from the goal, beyond τ"),
    (lambda e: e["info"]["navbench"].__setitem__("success_distance", "far"),
     "info.navbench.success_distance"),
    (lambda e: e["info"]["navbench"].__setitem__("scene", "nowhere"), "is not in the manifest"),
    # habitat-lab loads scene_id: one that names another file is a broken dataset for it
    (lambda e: e.__setitem__("scene_id", "scenes/nonexistent/scene.json"),
     "expected 'scenes/house_1_3/scene.json' (the file of scene 'house_1_3')"),
    (lambda e: e.__setitem__("scene_id", "../../../../etc/passwd"), "got '../../../../etc/passwd'"),
])
def test_hand_edits_are_found(dataset: Path, tmp_path: Path, edit, expect: str, capsys) -> None:
    d = _edited(dataset, tmp_path, edit)
    rep = check_dataset(d)
    assert not rep.ok and any(expect in str(p) for p in rep.problems), rep.problems
    assert _cli(["dataset", "check", str(d)]) == 2
    assert expect in capsys.readouterr().out


def test_a_broken_scene_file_is_reported_not_raised(dataset: Path, tmp_path: Path) -> None:
    d = tmp_path / "ds"
    shutil.copytree(dataset, d)
    scene = next((d / "scenes").glob("*/scene.json"))
    scene.write_text(scene.read_text()[:100])
    rep = check_dataset(d)
    assert any("valid JSON" in str(p) for p in rep.problems)


def test_a_nan_in_an_episode_file_reads_as_one_plain_problem(dataset: Path, tmp_path: Path) -> None:
    """The file once, what was expected as 'expected' (was: the path twice, and 'expected
    gzip/UTF-8 JSON, got strict JSON (no NaN)')."""
    d = _edited(dataset, tmp_path, lambda e: e["start_position"].__setitem__(0, float("nan")))
    rep = check_dataset(d)
    assert [str(p) for p in rep.problems or []] == [
        f"{d / COND}: <file>: expected strict JSON (no NaN)"]
