"""Hostile-input cases for ``hostile_campaign.py``: malformed datasets under ``dataset check``
(every case must be flagged: exit status 2), ``score`` / ``evaluate`` on datasets with malformed
branch goals and subgoals, a trajectory ``.npz`` with a foreign index, deep TOML, a hostile
report title and an oversized ``rxr`` prediction.

Each dataset case edits one thing of a freshly built dataset (``ds``: conditional + objectnav,
one scene, split ``val``); :data:`DATASET_EDITS` lists them by name.
"""

from __future__ import annotations

import gzip
import json
import re
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

COND = Path("conditional") / "val" / "val.json.gz"
COND_GT = Path("conditional") / "val" / "val_gt.json.gz"


class Campaign(Protocol):
    """What the cases need of ``hostile_campaign.Campaign``."""

    root: Path

    def case(self, name: str, argv: list[str], *, expect: str = "reject",
             check: Callable[[], bool] | None = None, writes: tuple[str, ...] = ()) -> None: ...


def _gz(path: Path) -> Any:
    return json.loads(gzip.decompress(path.read_bytes()))


def _put_gz(path: Path, doc: Any) -> None:
    path.write_bytes(gzip.compress(json.dumps(doc).encode()))


Edit = Callable[[Path], None]


def _episode(fn: Callable[[dict[str, Any]], Any], rel: Path = COND, k: int = 0) -> Edit:
    """An edit of episode ``k`` of an R2R file."""
    def edit(d: Path) -> None:
        doc = _gz(d / rel)
        fn(doc["episodes"][k])
        _put_gz(d / rel, doc)
    return edit


def _nb(key: str, value: Any) -> Edit:
    return _episode(lambda e: e["info"]["navbench"].__setitem__(key, value))


def _program(fn: Callable[[dict[str, Any]], Any]) -> Edit:
    return _episode(lambda e: fn(e["info"]["navbench"]["program"]))


def _doc(rel: Path | str, fn: Callable[[Any], Any], *, replace: bool = False) -> Edit:
    """An edit of a whole (gzip) JSON file in place (``fn``'s return value is ignored: ``pop``
    returns what it removed), or with ``replace`` the document ``fn`` returns."""
    def edit(d: Path) -> None:
        p = d / rel
        doc = _gz(p) if str(p).endswith(".gz") else json.loads(p.read_text())
        new = fn(doc)
        doc = new if replace else doc
        if str(p).endswith(".gz"):
            _put_gz(p, doc)
        else:
            p.write_text(json.dumps(doc))
    return edit


def _objnav(fn: Callable[[dict[str, Any]], Any]) -> Edit:
    def edit(d: Path) -> None:
        p = next((d / "objectnav" / "val" / "content").glob("*.json.gz"))
        doc = _gz(p)
        fn(doc)
        _put_gz(p, doc)
    return edit


def _shift(key: str, dx: float) -> Callable[[dict[str, Any]], None]:
    def fn(e: dict[str, Any]) -> None:
        e[key] = [e[key][0] + dx, e[key][1], e[key][2]]
    return fn


def _first_target(p: dict[str, Any]) -> dict[str, Any]:
    while p.get("op") != "go":
        p = p["then"] if p.get("op") == "if" else p["steps"][0]
    return p["target"]


def _other_goal(e: dict[str, Any]) -> None:
    """Point the goal object id at another object of the program (the branch's goal differs)."""
    nb = e["info"]["navbench"]
    p = nb["program"]
    ids = []
    stack = [p]
    while stack:
        n = stack.pop()
        if n.get("op") == "go":
            ids.append(n["target"].get("object_id"))
        else:
            stack.extend(n.get("steps") or [n.get("then"), n.get("else")])
    nb["goal_object_id"] = next(i for i in ids if i and i != nb["goal_object_id"])


def _file(rel: str, raw: bytes) -> Edit:
    return lambda d: (d / rel).write_bytes(raw)


def _manifest(fn: Callable[[dict[str, Any]], Any]) -> Edit:
    return _doc("manifest.json", fn)


DATASET_EDITS: dict[str, Edit] = {
    # start pose
    "start_position_string": _episode(lambda e: e.__setitem__("start_position", "here")),
    "start_position_two_numbers": _episode(lambda e: e.__setitem__("start_position", [1.0, 0.0])),
    "start_position_missing": _episode(lambda e: e.pop("start_position")),
    "start_off_navmesh": _episode(lambda e: e.__setitem__("start_position", [50.0, 0.0, 50.0])),
    "start_rotation_zero": _episode(lambda e: e.__setitem__("start_rotation", [0.0, 0.0, 0.0, 0.0])),
    "start_rotation_norm_2": _episode(lambda e: e.__setitem__("start_rotation", [0.0, 0.0, 0.0, 2.0])),
    "start_rotation_three": _episode(lambda e: e.__setitem__("start_rotation", [0.0, 0.0, 1.0])),
    "start_rotation_strings": _episode(lambda e: e.__setitem__("start_rotation", ["0", "0", "0", "1"])),
    # goals
    "goals_empty": _episode(lambda e: e.__setitem__("goals", [])),
    "goals_missing": _episode(lambda e: e.pop("goals")),
    "goal_position_string": _episode(lambda e: e["goals"][0].__setitem__("position", "there")),
    "goal_radius_negative": _episode(lambda e: e["goals"][0].__setitem__("radius", -1.0)),
    "goal_unknown_key": _episode(lambda e: e["goals"][0].__setitem__("colour", "red")),
    "goal_far_away": _episode(lambda e: e["goals"][0].__setitem__("position", [60.0, 0.0, 60.0])),
    # reference path, lengths, τ
    "reference_path_string": _episode(lambda e: e.__setitem__("reference_path", "straight")),
    "reference_path_two_numbers": _episode(lambda e: e.__setitem__("reference_path", [[1.0, 0.0]])),
    "reference_path_ends_far": _episode(lambda e: e["reference_path"][-1].__setitem__(
        0, e["reference_path"][-1][0] + 3.0)),
    "geodesic_negative": _episode(lambda e: e["info"].__setitem__("geodesic_distance", -1.0)),
    "geodesic_string": _episode(lambda e: e["info"].__setitem__("geodesic_distance", "far")),
    "geodesic_wrong": _episode(lambda e: e["info"].__setitem__(
        "geodesic_distance", e["info"]["geodesic_distance"] + 3.0)),
    "direct_geodesic_string": _nb("direct_geodesic_distance", "far"),
    "tau_string": _nb("success_distance", "far"),
    "tau_negative": _nb("success_distance", -1.0),
    "tau_zero": _nb("success_distance", 0.0),
    # subgoals
    "subgoals_string": _nb("subgoals", "kitchen"),
    "subgoals_strings": _nb("subgoals", ["a", "b"]),
    "subgoal_without_position": _nb("subgoals", [{"object_id": "obj_1"}]),
    "subgoal_two_numbers": _nb("subgoals", [[1.0, 2.0]]),
    "subgoal_position_string": _nb("subgoals", [{"position": "x"}]),
    "subgoal_position_bools": _nb("subgoals", [{"position": [True, False, True]}]),
    "subgoal_unreachable": _nb("subgoals", [{"position": [60.0, 0.0, 60.0]}]),
    "subgoal_number": _nb("subgoals", [7]),
    # branch goals
    "branch_goals_strings": _nb("branch_goals", ["x", "y"]),
    "branch_goal_position_string": _nb("branch_goals", [{"position": "here"}]),
    "branch_goal_two_numbers": _nb("branch_goals", [{"position": [1.0, 2.0]}]),
    "branch_goal_nested_lists": _nb("branch_goals", [[[1.0, 2.0, 3.0]]]),
    "branch_goals_number": _nb("branch_goals", 5),
    "branch_goals_object_garbage": _nb("branch_goals", {"a": "b"}),
    "branch_goal_without_position": _nb("branch_goals", [{"object_id": "obj_1"}]),
    # programs
    "program_garbage": _nb("program", {"foo": 1}),
    "program_string": _nb("program", "go to the kitchen"),
    "program_unknown_op": _program(lambda p: p.__setitem__("op", "while")),
    "program_go_without_target": _nb("program", {"op": "go"}),
    "program_if_without_else": _program(lambda p: p.pop("else", None) if p.get("op") == "if"
                                        else p.__setitem__("op", "if")),
    "program_seq_of_one": _nb("program", {"op": "seq", "steps": [{"op": "go", "target": {
        "label": "sofa", "room": "living room"}}]}),
    "program_unknown_object": _program(lambda p: _first_target(p).__setitem__("object_id", "obj_999")),
    "program_unknown_room": _program(lambda p: _first_target(p).__setitem__("room_id", "room_99")),
    "program_goal_mismatch": _episode(_other_goal),
    "truths_missing": _nb("truths", {}),
    "truths_string": _nb("truths", "yes"),
    "truths_not_bool": _episode(lambda e: e["info"]["navbench"]["truths"].__setitem__("c0", "maybe")),
    "branch_path_wrong": _nb("branch_path", ["then", "then", "then", "then", "then"]),
    # ids, scenes, text
    "scene_unknown": _nb("scene", "nowhere"),
    "scene_id_other": _episode(lambda e: e.__setitem__("scene_id", "scenes/nonexistent/scene.json")),
    "scene_id_escape": _episode(lambda e: e.__setitem__("scene_id", "../../../../etc/passwd")),
    "instruction_missing": _episode(lambda e: e.pop("instruction")),
    "instruction_text_number": _episode(lambda e: e["instruction"].__setitem__("instruction_text", 5)),
    "episode_id_duplicate": _doc(COND, lambda d: d["episodes"][1].__setitem__(
        "episode_id", d["episodes"][0]["episode_id"])),
    "episode_id_object": _episode(lambda e: e.__setitem__("episode_id", {"a": 1})),
    "trajectory_id_string": _episode(lambda e: e.__setitem__("trajectory_id", "abc")),
    "info_navbench_string": _episode(lambda e: e["info"].__setitem__("navbench", "x")),
    "episodes_not_list": _doc(COND, lambda d: d.__setitem__("episodes", {})),
    "vocab_missing": _doc(COND, lambda d: d.pop("instruction_vocab")),
    "oracle_subgoals_strings": _episode(lambda e: e["info"]["navbench"].__setitem__("subgoals", ["x"]),
                                        Path("conditional_oracle") / "val" / "val.json.gz"),
    # GT files
    "gt_missing_episode": _doc(COND_GT, lambda d: d.pop("0")),
    "gt_locations_string": _doc(COND_GT, lambda d: d["0"].__setitem__("locations", "x")),
    "gt_actions_unknown": _doc(COND_GT, lambda d: d["0"].__setitem__("actions", [9, 9])),
    "gt_not_object": _doc(COND_GT, lambda d: [], replace=True),
    "gt_truncated_gzip": lambda d: (d / COND_GT).write_bytes((d / COND_GT).read_bytes()[:40]),
    # manifest
    "manifest_files_miss_task": _manifest(lambda m: m["files"].pop("objectnav")),
    "manifest_files_miss_split": _manifest(lambda m: m["files"].__setitem__("conditional", {})),
    "manifest_task_without_folder": _manifest(lambda m: m["tasks"].append("placenav")),
    "manifest_file_missing": _manifest(lambda m: m["files"]["conditional"]["val"].__setitem__(
        "episodes", "conditional/val/nope.json.gz")),
    "manifest_split_unknown_scene": _manifest(lambda m: m["splits"]["val"].append("ghost")),
    "manifest_navmesh_missing": _manifest(lambda m: next(iter(m["scenes"].values())).__setitem__(
        "navmesh", "navmeshes/ghost.npz")),
    "manifest_seed_string": _manifest(lambda m: m.__setitem__("seed", "x")),
    "manifest_count_wrong": _manifest(lambda m: m["counts"]["conditional"]["val"].__setitem__("total", 99)),
    # ObjectNav content
    "objectnav_goals_by_category_missing": _objnav(lambda d: d.pop("goals_by_category")),
    "objectnav_category_unknown": _objnav(lambda d: d["episodes"][0].__setitem__("object_category", "unicorn")),
    "objectnav_start_off_navmesh": _objnav(lambda d: d["episodes"][0].__setitem__(
        "start_position", [50.0, 0.0, 50.0])),
    "objectnav_start_rotation_zero": _objnav(lambda d: d["episodes"][0].__setitem__(
        "start_rotation", [0.0, 0.0, 0.0, 0.0])),
    "objectnav_view_point_string": _objnav(lambda d: next(iter(d["goals_by_category"].values()))[0]
                                           .__setitem__("view_points", ["x"])),
    # scene and navmesh files
    "scene_truncated": lambda d: (lambda p: p.write_text(p.read_text()[:100]))(
        next((d / "scenes").glob("*/scene.json"))),
    "scene_id_changed": lambda d: (lambda p: p.write_text(p.read_text().replace(
        '"id": "house', '"id": "other_house', 1)))(next((d / "scenes").glob("*/scene.json"))),
    "navmesh_garbage": lambda d: next((d / "navmeshes").glob("*.npz")).write_bytes(b"PK\x03\x04 garbage"),
}


def dataset_check_cases(c: Campaign, ds: Path) -> None:
    """``navbench dataset check`` on one-edit copies of ``ds``: every copy must be flagged."""
    for name, edit in DATASET_EDITS.items():
        d = c.root / "ds_check" / name
        shutil.copytree(ds, d)
        try:
            edit(d)
        except (KeyError, IndexError, StopIteration) as e:  # the base dataset lacks what it edits
            print(f"   (skipped dataset check {name}: {type(e).__name__} {e})")
            continue
        c.case(f"dataset check {name}", ["dataset", "check", str(d), "--action-budget-per-word", "0"])


def _stop_predictions(ds: Path, path: Path) -> Path:
    """An r2r prediction that stops at every conditional episode's start."""
    doc = _gz(ds / COND)
    path.write_text(json.dumps({str(e["episode_id"]): [{"position": e["start_position"], "heading": 0.0,
                                                         "stop": True}] for e in doc["episodes"]}))
    return path


def score_cases(c: Campaign, ds: Path) -> None:
    """``score`` and ``evaluate`` on datasets whose branch goals or subgoals are malformed."""
    pred = _stop_predictions(ds, c.root / "pred_stop.json")
    for name in ("branch_goals_strings", "branch_goal_position_string", "branch_goal_two_numbers",
                 "branch_goal_nested_lists", "subgoals_strings", "subgoal_without_position",
                 "subgoal_two_numbers", "subgoal_position_bools", "program_garbage",
                 "start_rotation_zero", "direct_geodesic_string"):
        d = c.root / "ds_score" / name
        shutil.copytree(ds, d)
        DATASET_EDITS[name](d)
        c.case(f"score on {name}", ["score", "--episodes", str(d), "--task", "conditional", "--split", "val",
                                    "--predictions", str(pred), "--format", "r2r"])
        if name in ("branch_goals_strings", "subgoal_two_numbers", "program_garbage"):
            c.case(f"evaluate on {name}", ["evaluate", str(d), "-a", "forward", "--task", "conditional",
                                           "--split", "val", "--episodes", "0",
                                           "-o", str(c.root / "runs" / f"bad_{name}")])


def misc_cases(c: Campaign, ds: Path, scene_file: Path, run: Path) -> None:
    """Trajectory ``.npz`` with a foreign index, deep TOML, a hostile report title, a huge rxr path."""
    import io
    import zipfile

    import numpy as np

    for name, index in (("list_of_ints", [1, 2]), ("string", "abc"), ("dict", {"a": 1}),
                        ("list_of_lists", [[1, 2]])):
        p = c.root / f"traj_{name}.npz"
        buf = io.BytesIO()
        np.savez(buf, index=np.array(json.dumps(index)))
        p.write_bytes(buf.getvalue())
        c.case(f"trajectory npz index {name}: score",
               ["score", "--episodes", str(ds), "--task", "conditional", "--split", "val",
                "--predictions", str(p), "--format", "navbench"])
    p = c.root / "traj_no_index.npz"
    with zipfile.ZipFile(p, "w") as z:
        z.writestr("other.npy", b"\x93NUMPY\x01\x00v\x00" + b" " * 117 + b"\n")
    c.case("trajectory npz without index: score", ["score", "--episodes", str(ds), "--task", "conditional",
                                                   "--split", "val", "--predictions", str(p)])
    for name, text in (("toml_deep_arrays", "[graph]\nnear_max = " + "[" * 5000 + "]" * 5000),
                       ("toml_deep_inline", "graph = " + "{a = " * 3000 + "1" + "}" * 3000),
                       ("toml_deep_tables", "[" + ".".join(["a"] * 200) + "]\nx = 1"),
                       ("toml_big_int", "[graph]\nnear_max = " + "9" * 5000)):
        t = c.root / f"{name}.toml"
        t.write_text(text)
        c.case(f"config {name}: graph build", ["graph", "build", str(scene_file), "-o",
                                               str(c.root / "o" / f"{name}.json"), "--config", str(t)])
    title = "<script>alert(1)</script> *x* [y](javascript:z) | `c` \n# injected"
    out = c.root / "o" / "rep_title"

    def title_escaped() -> bool:
        md = (out / "report.md").read_text()
        lines = md.splitlines()
        return ("<script>" not in md and not re.search(r"(?<!\\)\]\(javascript:", md)
                and lines[0].startswith("# ") and not any(ln.startswith("# injected") for ln in lines))
    c.case("report --title hostile: report.md", ["report", str(run), "-o", str(out), "--title", title],
           expect="accept", check=title_escaped)
    n = 1_600_000
    p = c.root / "pred_huge.jsonl"
    with open(p, "w") as f:
        f.write('{"instruction_id": 0, "path": [' + ",".join(["[1.0,0.0,2.0]"] * n) + "]}\n")
    t0 = time.perf_counter()
    c.case("predictions rxr 1.6M-point path: score",
           ["score", "--episodes", str(ds), "--task", "conditional", "--split", "val",
            "--predictions", str(p), "--format", "rxr"])
    print(f"   (the 1.6M-point rxr case took {time.perf_counter() - t0:.1f} s)")


__all__ = ["DATASET_EDITS", "dataset_check_cases", "misc_cases", "score_cases"]
