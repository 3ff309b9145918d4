"""Property-based fuzzing of the scene importers (hypothesis): 0 tracebacks, 0 silent acceptances.

Seeds: the real Habitat test files in ``/work/shared/realdata/habitat`` (a scene instance, a
scene dataset config, a semantic config with two regions) and project-generated files — the
tiny Habitat dataset of ``tests/sources/test_habitat.py`` (object and stage configs with GLB
render assets), the hand-built Gibson 3D scene graph of ``tests/sources/test_gibson.py``, the
HM3D ``semantic.txt`` + vertex-coloured semantic GLB of ``tests/sources/test_hm3d.py`` and the
MP3D ``.house`` of ``tests/sources/test_mp3d.py``. Mutations and settings as in
``test_fuzz_readers`` (:mod:`tests.hardening.fuzz_support`): every importer must either load the
file or raise a :class:`~navbench.errors.NavbenchError` with a one-line message; certainly-invalid
coordinates must be rejected. Bounded by default (half the examples where meshes are loaded,
~20 s in all on 2 cores); the ``slow`` variants run ``FUZZ_EXAMPLES_SLOW`` examples.
"""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import strategies as st

from tests.hardening.fuzz_support import (
    BAD_NUMBERS,
    WORK,
    mutate_bytes,
    mutate_tree,
    numeric_leaves,
    outcome,
    properties,
    set_at,
    tree_paths,
)

REAL = Path(__file__).resolve().parents[3] / "shared" / "realdata" / "habitat"
#: Share of ``FUZZ_EXAMPLES`` the bounded tests of importers that load meshes run (~50 ms each).
MESH_SHARE = 0.5


def _import(path: Path, fmt: str, **options: Any) -> None:
    from navbench.scene.sources import import_scene

    import_scene(path, fmt, **options)


# ------------------------------------------------------------------------------- Habitat

def _tiny_habitat() -> tuple[Path, dict[str, Any]]:
    """The tiny dataset of the Habitat importer tests; its files as parsed JSON by name."""
    from tests.sources.test_habitat import _dataset

    root = WORK / "habitat_tiny" / "data"  # alone in its parent: the importer searches two levels up
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    _dataset(root)
    docs = {str(p.relative_to(root)): json.loads(p.read_text()) for p in sorted(root.rglob("*.json"))}
    return root, docs


HAB_ROOT, HAB_DOCS = _tiny_habitat()
HAB_PATHS = {name: list(tree_paths(doc)) for name, doc in HAB_DOCS.items()}
HAB_INSTANCE = "scenes/apt.scene_instance.json"
HAB_SEMANTIC = "scenes/apt.semantic_config.json"
HAB_NUMBERS = {
    HAB_INSTANCE: numeric_leaves(HAB_DOCS[HAB_INSTANCE], lambda p: "translation" in p or "rotation" in p),
    HAB_SEMANTIC: numeric_leaves(HAB_DOCS[HAB_SEMANTIC], lambda p: p[-1] != "name"),
}
HAB_GLB = {p: (HAB_ROOT / p).read_bytes() for p in ("objects/table.glb", "stages/room.glb")}


def _restore_tiny() -> None:
    for name, doc in HAB_DOCS.items():
        (HAB_ROOT / name).write_text(json.dumps(doc))
    for name, raw in HAB_GLB.items():
        (HAB_ROOT / name).write_bytes(raw)


def _load_tiny() -> None:
    _import(HAB_ROOT / "tiny.scene_dataset_config.json", "habitat", scene="apt")


def _habitat_tree(data: Any) -> None:
    """One of the tiny dataset's JSON files (dataset, scene instance, semantic, object or stage
    config) mutated as a tree; a byte mutation on top half of the time."""
    _restore_tiny()
    name = data.draw(st.sampled_from(sorted(HAB_DOCS)))
    raw = json.dumps(mutate_tree(data, HAB_DOCS[name], HAB_PATHS[name])).encode()
    if data.draw(st.booleans()):
        raw = mutate_bytes(data, raw)
    (HAB_ROOT / name).write_bytes(raw)
    outcome(_load_tiny)


def _habitat_glb(data: Any) -> None:
    """A damaged render asset (object or stage GLB)."""
    _restore_tiny()
    name = data.draw(st.sampled_from(sorted(HAB_GLB)))
    (HAB_ROOT / name).write_bytes(mutate_bytes(data, HAB_GLB[name]))
    outcome(_load_tiny)


def _habitat_strict(data: Any) -> None:
    _restore_tiny()
    name = data.draw(st.sampled_from(sorted(HAB_NUMBERS)))
    doc = set_at(copy.deepcopy(HAB_DOCS[name]), data.draw(st.sampled_from(HAB_NUMBERS[name])),
                 data.draw(BAD_NUMBERS))
    (HAB_ROOT / name).write_text(json.dumps(doc))
    assert not outcome(_load_tiny), f"invalid {name} accepted"


def _real_habitat() -> tuple[Path, dict[str, Any]]:
    root = WORK / "habitat_real" / "data"
    shutil.rmtree(root, ignore_errors=True)
    if not REAL.is_dir():
        return root, {}
    shutil.copytree(REAL, root)
    return root, {p.name: json.loads(p.read_text()) for p in sorted(root.glob("*.json"))}


REAL_ROOT, REAL_DOCS = _real_habitat()
REAL_PATHS = {name: list(tree_paths(doc)) for name, doc in REAL_DOCS.items()}


def _habitat_real(data: Any) -> None:
    """The real ReplicaCAD-style test files: a scene instance (with the real semantic config),
    the dataset config (scene chosen by name) or the semantic config alone, mutated."""
    for name, doc in REAL_DOCS.items():
        (REAL_ROOT / name).write_text(json.dumps(doc))
    name = data.draw(st.sampled_from(sorted(REAL_DOCS)))
    raw = json.dumps(mutate_tree(data, REAL_DOCS[name], REAL_PATHS[name])).encode()
    if data.draw(st.booleans()):
        raw = mutate_bytes(data, raw)
    (REAL_ROOT / name).write_bytes(raw)
    how = data.draw(st.sampled_from(["instance", "dataset", "semantic"]))
    if how == "instance":
        outcome(lambda: _import(REAL_ROOT / "dataset_test_scene.scene_instance.json", "habitat",
                                semantic=REAL_ROOT / "test_regions.semantic_config.json"))
    elif how == "dataset":
        outcome(lambda: _import(REAL_ROOT / "test_dataset_0.scene_dataset_config.json", "habitat",
                                scene="dataset_test_scene_0"))
    else:
        outcome(_import, REAL_ROOT / "test_regions.semantic_config.json", "habitat")


test_habitat_tree, test_habitat_tree_slow = properties(_habitat_tree, MESH_SHARE)
test_habitat_glb, test_habitat_glb_slow = properties(_habitat_glb, MESH_SHARE)
test_habitat_strict, test_habitat_strict_slow = properties(_habitat_strict, MESH_SHARE)
test_habitat_real, test_habitat_real_slow = (
    properties(_habitat_real, MESH_SHARE) if REAL_DOCS else (pytest.mark.skip("no realdata/habitat")(lambda: None),) * 2)


# ------------------------------------------------------------------- Gibson 3D scene graph

def _gibson_graph() -> dict[str, Any]:
    from tests.sources.test_gibson import _graph

    return _graph()


GIBSON = _gibson_graph()
GIBSON_PATHS = list(tree_paths(GIBSON))
GIBSON_VECTORS = [(t, k, f) for t in ("room", "object") for k in GIBSON[t] for f in ("location", "size")]
GIBSON_FILE = WORK / "3DSceneGraph_Fuzz.npz"


def _save_gibson(doc: Any) -> bytes:
    np.savez(GIBSON_FILE, output=np.array(doc, dtype=object) if not isinstance(doc, dict) else doc)
    return GIBSON_FILE.read_bytes()


GIBSON_BYTES = _save_gibson(GIBSON)


def _gibson_tree(data: Any) -> None:
    """The scene graph dict mutated (any JSON value, numpy arrays of odd shapes, deletions)."""
    doc = mutate_tree(data, GIBSON, GIBSON_PATHS)
    if data.draw(st.booleans()):
        t, k, f = data.draw(st.sampled_from(GIBSON_VECTORS))
        with_shape = data.draw(st.sampled_from([(), (2,), (3, 1), (4,), (0,), (1, 3)]))
        if isinstance(doc, dict) and isinstance(doc.get(t), dict) and isinstance(doc[t].get(k), dict):
            doc[t][k][f] = np.ones(with_shape)
    _save_gibson(doc)
    outcome(_import, GIBSON_FILE, "gibson")


def _gibson_bytes(data: Any) -> None:
    GIBSON_FILE.write_bytes(mutate_bytes(data, GIBSON_BYTES))
    outcome(_import, GIBSON_FILE, "gibson")


def _gibson_strict(data: Any) -> None:
    doc = copy.deepcopy(GIBSON)
    t, k, f = data.draw(st.sampled_from(GIBSON_VECTORS))
    bad = data.draw(st.sampled_from([np.array([np.nan, 0.0, 0.0]), np.array([0.0, np.inf, 1.0]),
                                     "1 2 3", None, np.ones(2), [1.0, 2.0, "x"]]))
    doc[t][k][f] = bad
    _save_gibson(doc)
    assert not outcome(_import, GIBSON_FILE, "gibson"), "invalid scene graph accepted"


test_gibson_tree, test_gibson_tree_slow = properties(_gibson_tree)
test_gibson_bytes, test_gibson_bytes_slow = properties(_gibson_bytes)
test_gibson_strict, test_gibson_strict_slow = properties(_gibson_strict)


# ----------------------------------------------------------------------------- HM3D semantics

def _hm3d_files() -> tuple[Path, bytes]:
    import trimesh

    from tests.sources.test_hm3d import TXT, _box

    root = WORK / "hm3d"
    root.mkdir(exist_ok=True)
    (root / "abc.semantic.txt").write_text(TXT)
    trimesh.Scene([
        _box((0.4, 0.6, 0.8), (1.0, 2.0, 0.4), (255, 0, 16)),
        _box((0.05, 1.0, 0.5), (0.0, 1.0, 1.5), (0, 128, 255)),
        _box((2.0, 1.6, 0.5), (5.0, 2.0, 0.25), (0, 255, 0)),
    ]).export(root / "abc.semantic.glb")
    return root, (root / "abc.semantic.glb").read_bytes()


HM3D_ROOT, HM3D_GLB = _hm3d_files()
HM3D_TOKENS = ["", "-1", "0", "99999999999999999999", "GGGGGG", "FFFFFF", '"', '""', ",", "nan", "1e400",
               "\u00e9", "\x00"]


def _hm3d_txt(data: Any) -> None:
    """semantic.txt lines mutated (fields replaced, lines deleted or duplicated) and bytes."""
    from tests.sources.test_hm3d import TXT

    (HM3D_ROOT / "abc.semantic.glb").write_bytes(HM3D_GLB)
    lines = TXT.splitlines()
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(lines) - 1))
        op = data.draw(st.sampled_from(["field", "delete", "duplicate"]))
        if op == "field":
            fields = lines[i].split(",")
            j = data.draw(st.integers(0, len(fields) - 1))
            fields[j] = data.draw(st.sampled_from(HM3D_TOKENS))
            lines[i] = ",".join(fields)
        elif op == "delete" and len(lines) > 1:
            del lines[i]
        else:
            lines.insert(i, lines[i])
    raw = ("\n".join(lines) + "\n").encode()
    if data.draw(st.booleans()):
        raw = mutate_bytes(data, raw)
    (HM3D_ROOT / "abc.semantic.txt").write_bytes(raw)
    outcome(_import, HM3D_ROOT / "abc.semantic.txt", "hm3d")


def _hm3d_glb(data: Any) -> None:
    from tests.sources.test_hm3d import TXT

    (HM3D_ROOT / "abc.semantic.txt").write_text(TXT)
    (HM3D_ROOT / "abc.semantic.glb").write_bytes(mutate_bytes(data, HM3D_GLB))
    outcome(_import, HM3D_ROOT / "abc.semantic.txt", "hm3d")


test_hm3d_txt, test_hm3d_txt_slow = properties(_hm3d_txt)
test_hm3d_glb, test_hm3d_glb_slow = properties(_hm3d_glb, MESH_SHARE)


# ------------------------------------------------------------------------------ MP3D (bytes)

def _mp3d_bytes(data: Any) -> None:
    """Byte mutations of a ``.house`` (token mutations are in ``test_fuzz_readers``)."""
    from tests.sources.test_mp3d import house_text

    p = WORK / "fuzz_bytes.house"
    p.write_bytes(mutate_bytes(data, house_text().encode()))
    outcome(_import, p, "mp3d")


test_mp3d_bytes, test_mp3d_bytes_slow = properties(_mp3d_bytes)
