"""Property-based fuzzing of every reader (hypothesis): 0 tracebacks, 0 silent acceptances.

Two kinds of properties, each over a valid base document of the format:

- *robustness*: random structural mutations (a node replaced by any JSON value, or deleted) and
  byte mutations (truncation, flipped or inserted bytes) must either load or raise a
  :class:`~navbench.errors.NavbenchError` — any other exception is a traceback the CLI would show;
- *strictness*: mutations that make the file certainly invalid (a coordinate replaced by NaN,
  ±inf, a string, a bool or a list; an unsafe scene id) must be rejected.

The default run is bounded (``FUZZ_EXAMPLES`` = 120 examples per property, ~40 s in all on 2 cores);
the ``slow`` variants run ``FUZZ_EXAMPLES_SLOW`` (``-m slow``); see :mod:`tests.hardening.fuzz_support`.
The scene importers (Habitat, Gibson, HM3D, MP3D bytes) are fuzzed in ``test_fuzz_importers``.
"""

from __future__ import annotations

import contextlib
import copy
import gzip
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import strategies as st

from navbench.errors import NavbenchError
from tests.hardening.fuzz_support import (
    BAD_NUMBERS,
    JSON,
    WORK,
    mutate_bytes,
    mutate_tree,
    numeric_leaves,
    outcome,
    properties,
    set_at,
    tree_paths,
)

# ----------------------------------------------------------------------------------- scene.json

def _scene_base() -> dict:
    from navbench.scene.io import scene_to_dict
    from tests.conftest import two_room_scene

    return json.loads(json.dumps(scene_to_dict(two_room_scene())))


SCENE = _scene_base()
SCENE_PATHS = list(tree_paths(SCENE))
SCENE_NUMBERS = numeric_leaves(SCENE, lambda p: p[0] not in ("meta",) and p[-1] != "level")


def _load_scene_text(text: str) -> None:
    from navbench.scene.io import loads

    loads(text, "fuzz/scene.json")


def _scene_tree(data: Any) -> None:
    outcome(_load_scene_text, json.dumps(mutate_tree(data, SCENE, SCENE_PATHS)))


def _scene_bytes(data: Any) -> None:
    raw = mutate_bytes(data, json.dumps(SCENE).encode())
    outcome(_load_scene_text, raw.decode("utf-8", "replace"))


def _scene_strict(data: Any) -> None:
    doc = copy.deepcopy(SCENE)
    if data.draw(st.booleans()):
        set_at(doc, data.draw(st.sampled_from(SCENE_NUMBERS)), data.draw(BAD_NUMBERS))
    else:
        doc["id"] = data.draw(st.sampled_from(["../x", "/abs", "a/b", ".h", "", "x" * 200]))
    assert not outcome(_load_scene_text, json.dumps(doc)), "invalid scene accepted"


test_scene_tree, test_scene_tree_slow = properties(_scene_tree)
test_scene_bytes, test_scene_bytes_slow = properties(_scene_bytes)
test_scene_strict, test_scene_strict_slow = properties(_scene_strict)


# ---------------------------------------------------------------------- R2R episodes, GT, manifest

def _r2r_base() -> dict:
    from navbench.episodes import Episode, Goal
    from navbench.episodes.vlnce import write_r2r

    eps = [Episode(str(i), "scenes/s/scene.json", (1.0, 0.0, -1.0 - i), (0, 0, 0, 1),
                   (Goal((3.0, 0.0, -2.0), 1.0, "o1", (0.5, 0.5, 0.5)),), instruction_text="go to the lamp",
                   reference_path=((1.0, 0.0, -1.0), (3.0, 0.0, -2.0)), geodesic_distance=2.3,
                   info={"navbench": {"success_distance": 1.0, "scene": "s", "task": "route"}})
           for i in range(2)]
    p = WORK / "base.json.gz"
    write_r2r(p, eps)
    return json.loads(gzip.decompress(p.read_bytes()))


R2R = _r2r_base()
R2R_PATHS = list(tree_paths(R2R))
R2R_NUMBERS = numeric_leaves(R2R, lambda p: "episodes" in p and any(
    k in p for k in ("start_position", "start_rotation", "position", "reference_path",
                     "success_distance", "radius")))


def _read_r2r_doc(doc_text: bytes) -> None:
    from navbench.episodes.vlnce import read_r2r

    p = WORK / "fuzz_r2r.json.gz"
    p.write_bytes(gzip.compress(doc_text))
    read_r2r(p)


def _r2r_tree(data: Any) -> None:
    outcome(_read_r2r_doc, json.dumps(mutate_tree(data, R2R, R2R_PATHS)).encode())


def _r2r_bytes(data: Any) -> None:
    from navbench.episodes.vlnce import read_r2r

    p = WORK / "fuzz_r2r_raw.json.gz"
    p.write_bytes(mutate_bytes(data, gzip.compress(json.dumps(R2R).encode())))
    outcome(read_r2r, p)


def _r2r_strict(data: Any) -> None:
    doc = set_at(copy.deepcopy(R2R), data.draw(st.sampled_from(R2R_NUMBERS)), data.draw(BAD_NUMBERS))
    assert not outcome(_read_r2r_doc, json.dumps(doc).encode()), "invalid episode accepted"


GT = {"0": {"locations": [[1.0, 0.0, -1.0], [1.0, 0.0, -1.25]], "actions": [1, 0], "forward_steps": 1}}
GT_PATHS = list(tree_paths(GT))


def _gt_tree(data: Any) -> None:
    from navbench.episodes.vlnce import read_gt

    p = WORK / "fuzz_gt.json.gz"
    p.write_bytes(gzip.compress(json.dumps(mutate_tree(data, GT, GT_PATHS)).encode()))
    outcome(read_gt, p)


MANIFEST = {"schema": "navbench.dataset/1", "seed": 0, "tasks": ["route"], "splits": {"val": ["s"]},
            "counts": {}, "files": {"route": {"val": {"episodes": "route/val/val.json.gz",
                                                      "gt": "route/val/val_gt.json.gz"}}},
            "dropped": {}, "scenes": {"s": {"scene": "scenes/s/scene.json", "navmesh": "navmeshes/s.npz"}}}
MANIFEST_PATHS = list(tree_paths(MANIFEST))


def _open_dataset(doc: Any) -> None:
    from navbench.episodes.loader import load_dataset

    root = WORK / "fuzz_ds"
    root.mkdir(exist_ok=True)
    (root / "manifest.json").write_text(json.dumps(doc))
    ds = load_dataset(root)
    for task in ds.tasks:
        for split in ds.splits:
            with contextlib.suppress(NavbenchError):
                ds.path(task, split)
    for sid in ds.manifest.scenes:
        ds.scene_path(sid)


def _manifest_tree(data: Any) -> None:
    outcome(_open_dataset, mutate_tree(data, MANIFEST, MANIFEST_PATHS))


def _objectnav_base() -> dict:
    from navbench.episodes import Episode, Goal
    from navbench.episodes.habitat_objectnav import write_objectnav

    eps = [Episode(str(i), "scenes/s/scene.json", (1.0, 0.0, -1.0), (0, 0, 0, 1),
                   (Goal((3.0, 0.0, -2.0), 1.0, "o1", (0.5, 0.5, 0.5)),), geodesic_distance=2.3,
                   object_category="lamp", info={"navbench": {"success_distance": 1.0, "scene": "s"}})
           for i in range(2)]
    write_objectnav(WORK / "objectnav_base", "val", eps)
    return json.loads(gzip.decompress((WORK / "objectnav_base" / "content" / "s.json.gz").read_bytes()))


OBJECTNAV = _objectnav_base()
OBJECTNAV_PATHS = list(tree_paths(OBJECTNAV))


def _objectnav_tree(data: Any) -> None:
    from navbench.episodes.habitat_objectnav import read_objectnav

    content = WORK / "objectnav_base" / "content" / "s.json.gz"
    doc = mutate_tree(data, OBJECTNAV, OBJECTNAV_PATHS)
    raw = gzip.compress(json.dumps(doc).encode())
    content.write_bytes(mutate_bytes(data, raw) if data.draw(st.booleans()) else raw)
    outcome(read_objectnav, WORK / "objectnav_base" / "val.json.gz")


test_objectnav_tree, test_objectnav_tree_slow = properties(_objectnav_tree)
test_r2r_tree, test_r2r_tree_slow = properties(_r2r_tree)
test_r2r_bytes, test_r2r_bytes_slow = properties(_r2r_bytes)
test_r2r_strict, test_r2r_strict_slow = properties(_r2r_strict)
test_gt_tree, test_gt_tree_slow = properties(_gt_tree)
test_manifest_tree, test_manifest_tree_slow = properties(_manifest_tree)


# ------------------------------------------------------------------------------- predictions

PRED = {"0": [{"position": [1.0, 0.0, -1.0]}, {"position": [2.0, 0.0, -1.5], "stop": True}]}
PRED_PATHS = list(tree_paths(PRED))
PRED_NUMBERS = numeric_leaves(PRED, lambda p: "position" in p)


def _read_pred(doc: Any) -> None:
    from navbench.metrics.scoring import read_r2r_predictions

    p = WORK / "fuzz_pred.json"
    p.write_text(json.dumps(doc))
    read_r2r_predictions(p)


def _pred_tree(data: Any) -> None:
    outcome(_read_pred, mutate_tree(data, PRED, PRED_PATHS))


def _pred_strict(data: Any) -> None:
    doc = set_at(copy.deepcopy(PRED), data.draw(st.sampled_from(PRED_NUMBERS)),
               data.draw(BAD_NUMBERS | st.sampled_from([2e5, -1e7])))
    assert not outcome(_read_pred, doc), "invalid prediction accepted"


def _rxr_lines(data: Any) -> None:
    from navbench.metrics.scoring import read_rxr_predictions

    base = [{"instruction_id": 0, "path": [[1.0, 0.0, -1.0], [2.0, 0.0, -1.0]]}]
    lines = [json.dumps(mutate_tree(data, base, list(tree_paths(base))))]
    p = WORK / "fuzz_pred.jsonl"
    p.write_bytes(mutate_bytes(data, "\n".join(lines).encode()) if data.draw(st.booleans())
                  else "\n".join(lines).encode())
    outcome(read_rxr_predictions, p)


test_pred_tree, test_pred_tree_slow = properties(_pred_tree)
test_pred_strict, test_pred_strict_slow = properties(_pred_strict)
test_rxr_lines, test_rxr_lines_slow = properties(_rxr_lines)


# ------------------------------------------------------------------------------------- TOML

TOML_KEYS = ["near_max", "far_min", "higher_min", "above_min_dy", "above_max_h", "elevation_deg",
             "above_footprint", "nearr", "graph"]
TOML_VALUES = ["1.0", "-1", "1e999", "nan", "inf", "'x'", "true", "[1, 2]", "{a = 1}", "2024-01-01",
               "99999999999999999999999", "0.5", "45.0"]


def _toml(data: Any) -> None:
    from navbench.cli.graph import _settings

    lines = ["[graph]"] if data.draw(st.booleans()) else []
    for _ in range(data.draw(st.integers(0, 4))):
        lines.append(f"{data.draw(st.sampled_from(TOML_KEYS))} = {data.draw(st.sampled_from(TOML_VALUES))}")
    raw = "\n".join(lines).encode()
    if data.draw(st.booleans()):
        raw = mutate_bytes(data, raw or b"[graph]")
    p = WORK / "fuzz.toml"
    p.write_bytes(raw)
    outcome(_settings, p)


test_toml, test_toml_slow = properties(_toml)


# -------------------------------------------------------------------- wire (remote protocol)

def _wire(data: Any) -> None:
    from navbench.agents.base import to_action
    from navbench.agents.wire import decode_observation, decode_task

    v = data.draw(JSON)
    outcome(decode_task, v)
    outcome(decode_observation, v)
    outcome(to_action, v)
    outcome(decode_task, {"episode_id": "1", **(v if isinstance(v, dict) else {"kind": v})})


test_wire, test_wire_slow = properties(_wire)


# ------------------------------------------------------------------- binary: navmesh, sqlite

def _navmesh_bytes() -> bytes:
    from navbench.nav import NavMesh
    from tests.conftest import two_room_scene

    p = WORK / "base.npz"
    NavMesh.build(two_room_scene()).save(p)
    return p.read_bytes()


NAVMESH = _navmesh_bytes()


def _navmesh(data: Any) -> None:
    from navbench.nav import NavMesh

    p = WORK / "fuzz.npz"
    p.write_bytes(mutate_bytes(data, NAVMESH))
    outcome(NavMesh.load, p)


def _sqlite_bytes() -> bytes:
    from navbench.eval import EpisodeResult, ResultsDB

    p = WORK / "base.sqlite"
    with ResultsDB(p) as db:
        rid = db.get_or_create_run("agent", "h", {}, 0, "v")
        for i in range(3):
            db.add_episode(rid, EpisodeResult(str(i), "s", "success", {"spl": 0.5}, None, 0.1, 1.0,
                                              {"pos": np.zeros((4, 3))}, {}))
    for suffix in ("-wal", "-shm"):
        assert not Path(f"{p}{suffix}").exists()
    return p.read_bytes()


SQLITE = _sqlite_bytes()


def _read_db(path: Path) -> None:
    from navbench.eval import ResultsDB

    with ResultsDB(path, create=False) as db:
        for r in db.runs():
            for row in db.rows(r["run_id"]):
                db.trajectory(r["run_id"], row["episode_id"])


def _sqlite(data: Any) -> None:
    p = WORK / "fuzz.sqlite"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{p}{suffix}").unlink(missing_ok=True)
    p.write_bytes(mutate_bytes(data, SQLITE))
    outcome(_read_db, p)


test_navmesh, test_navmesh_slow = properties(_navmesh)
test_sqlite, test_sqlite_slow = properties(_sqlite)


# ---------------------------------------------------------------------- importers (text formats)

def _mp3d(data: Any) -> None:
    from navbench.scene.sources import import_scene
    from tests.sources.test_mp3d import house_text

    lines = house_text().splitlines()
    i = data.draw(st.integers(0, len(lines) - 1))
    tokens = lines[i].split()
    if tokens:
        j = data.draw(st.integers(0, len(tokens) - 1))
        tokens[j] = data.draw(st.sampled_from(["nan", "inf", "-1", "0", "x", "1e400", "", "99999"]))
        lines[i] = " ".join(tokens)
    if data.draw(st.booleans()):
        del lines[data.draw(st.integers(0, len(lines) - 1))]
    p = WORK / "fuzz.house"
    p.write_text("\n".join(lines) + "\n")
    outcome(import_scene, p, "mp3d")


def _procthor(data: Any) -> None:
    from navbench.scene.sources import import_scene

    p = WORK / "house_fuzz.json"
    p.write_text(json.dumps(mutate_tree(data, PROCTHOR, PROCTHOR_PATHS)))
    outcome(lambda: import_scene(p, "procthor", asset_fallback=True))


_REAL = Path(__file__).resolve().parents[3] / "shared" / "realdata" / "procthor" / "house_0.json"
PROCTHOR = json.loads(_REAL.read_text()) if _REAL.is_file() else None
PROCTHOR_PATHS = list(tree_paths(PROCTHOR)) if PROCTHOR is not None else []

test_mp3d, test_mp3d_slow = properties(_mp3d)
test_procthor, test_procthor_slow = (
    properties(_procthor) if PROCTHOR is not None else (pytest.mark.skip("no ProcTHOR house")(lambda: None),) * 2)
