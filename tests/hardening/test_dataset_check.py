"""``navbench dataset check`` on a freshly built dataset, on hand-edited copies of it, and fuzzed
(hypothesis): structural and byte mutations of the episode file and the manifest never trace
back, and certainly-invalid edits (non-unit quaternions, malformed branch goals and subgoals,
programs that do not parse, non-boolean truths, a manifest whose files miss a task) are always
flagged."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest

from navbench.cli import main
from navbench.episodes.check import check_dataset
from navbench.errors import NavbenchError

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


# ------------------------------------------- ground truth, quaternions and the manifest vs files

def _first_go_target(p: dict) -> dict:
    while p["op"] != "go":
        p = p["then"] if p["op"] == "if" else p["steps"][0]
    return p["target"]


def _another_goal(e: dict) -> None:
    nb = e["info"]["navbench"]
    stack, ids = [nb["program"]], []
    while stack:
        n = stack.pop()
        if n["op"] == "go":
            ids.append(n["target"]["object_id"])
        else:
            stack.extend(n.get("steps") or [n["then"], n["else"]])
    nb["goal_object_id"] = next(i for i in ids if i != nb["goal_object_id"])


@pytest.mark.parametrize(("edit", "expect"), [
    (lambda e: e.__setitem__("start_rotation", [0.0, 0.0, 0.0, 0.0]), "a unit quaternion"),
    (lambda e: e.__setitem__("start_rotation", [0.0, 0.0, 0.0, 2.0]), "norm 2"),
    (lambda e: e["info"]["navbench"].__setitem__("branch_goals", ["x"]), "info.navbench.branch_goals[0]"),
    (lambda e: e["info"]["navbench"].__setitem__("branch_goals", [{"position": [1.0, 2.0]}]),
     "branch_goals[0].position"),
    (lambda e: e["info"]["navbench"].__setitem__("subgoals", [{"object_id": "obj_1"}]), "subgoals[0].position"),
    (lambda e: e["info"]["navbench"].__setitem__("program", {"foo": 1}), "info.navbench.program.op"),
    (lambda e: _first_go_target(e["info"]["navbench"]["program"]).__setitem__("object_id", "obj_999"),
     "object 'obj_999'"),
    (_another_goal, "info.navbench.goal_object_id: the program's branch ends at"),
    (lambda e: e["info"]["navbench"].__setitem__("truths", {}), "info.navbench.truths: expected true/false"),
    (lambda e: e["info"]["navbench"].__setitem__("branch_path", ["then"] * 5), "info.navbench.branch_path"),
    (lambda e: e["info"]["navbench"].__setitem__("branch_path", False), "info.navbench.branch_path"),
    (lambda e: e["info"]["navbench"].__setitem__("branch_path", [1]), "expected a list of branch names"),
    (lambda e: e["info"]["navbench"].__setitem__("branch_index", True), "info.navbench.branch_index"),
    (lambda e: e["info"]["navbench"].__setitem__("branch_index", "1"), "info.navbench.branch_index"),
    (lambda e: e.pop("instruction"), "the instruction text"),
    (lambda e: e["goals"][0].__setitem__("colour", "red"), "goals[0].colour"),
])
def test_ground_truth_edits_are_found(dataset: Path, tmp_path: Path, edit, expect: str) -> None:
    d = _edited(dataset, tmp_path, edit)
    rep = check_dataset(d)
    assert not rep.ok and any(expect in str(p) for p in rep.problems), rep.problems


def _manifest_edit(dataset: Path, tmp_path: Path, edit) -> Path:
    d = tmp_path / "ds"
    shutil.copytree(dataset, d)
    m = json.loads((d / "manifest.json").read_text())
    edit(m)
    (d / "manifest.json").write_text(json.dumps(m))
    return d


@pytest.mark.parametrize(("edit", "expect"), [
    (lambda m: m["files"].pop("objectnav"), "files.objectnav.val.episodes: a path"),
    (lambda m: m["files"]["conditional"]["val"].pop("gt"), "files.conditional.val.gt"),
    (lambda m: m["tasks"].append("placenav"), "files.placenav.val.episodes"),
    (lambda m: m["counts"]["conditional"]["val"].__setitem__("total", 99), "the manifest says 99"),
    (lambda m: m["splits"]["val"].append("ghost"), "scene 'ghost' is not in 'scenes'"),
])
def test_the_manifest_against_its_files(dataset: Path, tmp_path: Path, edit, expect: str) -> None:
    rep = check_dataset(_manifest_edit(dataset, tmp_path, edit))
    assert not rep.ok and any(expect in str(p) for p in rep.problems), rep.problems


# ------------------------------------------------------------------------- fuzz (hypothesis)

@pytest.fixture(scope="module")
def fuzz_ds(dataset: Path, tmp_path_factory: pytest.TempPathFactory):
    """A copy of the dataset whose conditional episode file each example overwrites, and its
    scenes and navmeshes read once."""
    from navbench.episodes.loader import load_dataset

    d = tmp_path_factory.mktemp("fuzz") / "ds"
    shutil.copytree(dataset, d)
    ds = load_dataset(d)
    loaded = {sid: (ds.scene(sid), ds.navmesh(sid)) for sid in ds.manifest.scenes}
    return d, loaded, (d / COND).read_bytes(), (d / "manifest.json").read_bytes()


def _check_with(fuzz_ds, episodes: bytes | None = None, manifest: bytes | None = None):
    d, loaded, cond, mf = fuzz_ds
    try:
        (d / COND).write_bytes(episodes if episodes is not None else cond)
        (d / "manifest.json").write_bytes(manifest if manifest is not None else mf)
        return check_dataset(d, loaded=loaded)
    finally:
        (d / COND).write_bytes(cond)
        (d / "manifest.json").write_bytes(mf)


def _fuzz_tests():
    from hypothesis import strategies as st

    from tests.hardening.fuzz_support import (
        JSON,
        mutate_bytes,
        mutate_tree,
        outcome,
        properties,
        tree_paths,
    )

    def robust_tree(fuzz_ds, data) -> None:
        base = json.loads(gzip.decompress(fuzz_ds[2]))
        doc = mutate_tree(data, base, list(tree_paths(base)))
        outcome(_check_with, fuzz_ds, gzip.compress(json.dumps(doc).encode()))

    def robust_bytes(fuzz_ds, data) -> None:
        which = data.draw(st.sampled_from(["episodes", "manifest"]))
        if which == "episodes":
            raw = gzip.compress(mutate_bytes(data, gzip.decompress(fuzz_ds[2])))
            outcome(_check_with, fuzz_ds, raw)
        else:
            outcome(_check_with, fuzz_ds, None, mutate_bytes(data, fuzz_ds[3]))

    bad_point = st.one_of(st.text(max_size=3), st.lists(st.floats(-9, 9), min_size=0, max_size=2),
                          st.fixed_dictionaries({"position": st.text(max_size=3)}),
                          st.fixed_dictionaries({"object_id": st.text(max_size=3)}))

    def strict(fuzz_ds, data) -> None:
        base = json.loads(gzip.decompress(fuzz_ds[2]))
        e = base["episodes"][data.draw(st.integers(0, len(base["episodes"]) - 1))]
        nb = e["info"]["navbench"]
        kind = data.draw(st.sampled_from(["quaternion", "branch_goals", "subgoals", "program", "truths",
                                          "manifest"]))
        manifest = None
        if kind == "quaternion":
            q = data.draw(st.lists(st.floats(-3, 3), min_size=4, max_size=4).filter(
                lambda q: abs(sum(c * c for c in q) ** 0.5 - 1) > 0.05))
            e["start_rotation"] = q
        elif kind in ("branch_goals", "subgoals"):
            nb[kind] = [*nb.get(kind, []), data.draw(bad_point)]
        elif kind == "program":
            from navbench.errors import FormatError
            from navbench.tasks.conditional import program_from_dict

            def invalid(p) -> bool:
                try:
                    program_from_dict(p)
                except FormatError:
                    return True
                return False
            nb["program"] = data.draw(st.dictionaries(st.sampled_from(["op", "then", "else", "target", "x"]),
                                                      JSON, max_size=4).filter(invalid))
        elif kind == "truths":
            nb["truths"] = {**nb["truths"], "c0": data.draw(st.one_of(st.none(), st.integers(), st.text(max_size=2)))}
        else:
            m = json.loads(fuzz_ds[3])
            task = data.draw(st.sampled_from(sorted(m["files"])))
            m["files"].pop(task)
            manifest = json.dumps(m).encode()
        episodes = gzip.compress(json.dumps(base).encode())
        try:
            rep = _check_with(fuzz_ds, episodes, manifest)
        except NavbenchError:
            return  # refused outright: flagged too
        assert not rep.ok, f"{kind}: not flagged"

    def bound(body):
        def run(data) -> None:
            body(_FUZZ_DS[0], data)
        return run

    out = {}
    for name, body in (("robust_tree", robust_tree), ("robust_bytes", robust_bytes), ("strict", strict)):
        fast, slow = properties(bound(body), fast_share=0.5)
        out[f"test_fuzz_dataset_{name}"] = fast
        out[f"test_fuzz_dataset_{name}_slow"] = slow
    return out


_FUZZ_DS: list = []


@pytest.fixture(autouse=True, scope="module")
def _fuzz_ds_for_properties(fuzz_ds):
    _FUZZ_DS[:] = [fuzz_ds]


globals().update(_fuzz_tests())
