"""Habitat scene datasets (ReplicaCAD, HSSD): ``*.scene_instance.json`` (+ the
``*.scene_dataset_config.json`` that names it) and ``*.semantic_config.json`` regions as rooms.

Already in the Habitat frame. Instance rotations are quaternions **[w, x, y, z]**; their yaw
becomes ``SceneObject.yaw`` (tilted objects get an explicit ``aabb``). Object sizes come from the
object's render mesh (``render_asset`` of its ``*.object_config.json``, scaled) when the file is
present; otherwise the object keeps only its centre (``translation``). Labels: a ``labels`` map
(JSON ``{template: label}`` or a CSV with an ``id`` column and a ``main_category`` / ``category`` /
``label`` / ``name`` column, as HSSD's ``semantics/objects.csv``), else the template name without
dataset prefixes and numeric suffixes (``"frl_apartment_chair_01"`` → ``"chair"``).

The stage's render mesh (or ``mesh=``) becomes the static geometry; its ``up`` vector
``[0, 0, 1]`` selects a Z-up conversion.
"""

from __future__ import annotations

import csv
import io
import math
import re
from pathlib import Path

import numpy as np

from navbench.errors import ConfigError
from navbench.geometry import Vec3
from navbench.jsontypes import JSON, JSONObject
from navbench.scene.model import Box, Mesh, Room, Scene, SceneObject
from navbench.scene.sources._common import (
    as_float,
    assign_room,
    camel_words,
    ccw,
    clean_label,
    fail,
    obb_to_habitat,
    provenance,
    read_json_file,
    read_text,
    require,
    vec3,
)
from navbench.scene.sources.mesh import UpAxis, load_mesh, load_trimesh, to_habitat

_SUFFIXES = (".object_config.json", ".stage_config.json", ".scene_instance.json",
             ".semantic_config.json", ".scene_dataset_config.json", ".json")


def _base(handle: str) -> str:
    name = handle.replace("\\", "/").rsplit("/", 1)[-1]
    for suf in _SUFFIXES:
        if name.endswith(suf):
            return name[: -len(suf)]
    return name


def _section(doc: JSONObject | None, file: Path | None, *keys: str) -> JSON:
    """``doc[k0][k1]...`` (None where a key is missing or null); an intermediate value that is
    not a JSON object is a format error naming the dotted field."""
    value: JSON = doc
    for n, k in enumerate(keys):
        if value is None:
            return None
        if not isinstance(value, dict):
            raise fail(file or "<dataset>", ".".join(keys[:n]) or "<document>", "a JSON object",
                       type(value).__name__)
        value = value.get(k)
    return value


def _relative_dirs(value: JSON, file: Path, field: str) -> list[str]:
    """A dataset config's search folders: relative path strings (``""`` is the config's folder)."""
    if value is None:
        return ["."]
    if not isinstance(value, list):
        raise fail(file, field, "a list of relative folder names", type(value).__name__)
    out = []
    for i, d in enumerate(value):
        if not isinstance(d, str) or d.startswith(("/", "\\")) or (len(d) > 1 and d[1] == ":"):
            raise fail(file, f"{field}[{i}]", "a relative folder name", d)
        out.append(d.rstrip("/") or ".")
    return out


def quat_wxyz_to_matrix(q: JSON, file: Path, field: str) -> np.ndarray:
    """Rotation matrix of a Habitat ``[w, x, y, z]`` quaternion (normalised)."""
    if not isinstance(q, list) or len(q) != 4:
        raise fail(file, field, "a quaternion [w, x, y, z]", q)
    w, x, y, z = (as_float(v, file, f"{field}[{i}]") for i, v in enumerate(q))
    n = (w * w + x * x + y * y + z * z) ** 0.5
    if n < 1e-9:
        raise fail(file, field, "a non-zero quaternion [w, x, y, z]", q)
    w, x, y, z = w / n, x / n, y / n, z / n
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ])


def template_label(handle: str) -> str:
    """A readable label from a template handle (dataset prefixes and numeric suffixes removed)."""
    name = _base(handle)
    if re.fullmatch(r"[0-9a-fA-F_]{16,}", name):
        return "object"  # HSSD-style hash: needs a labels map
    name = re.sub(r"^(frl_apartment_|replicacad_|ycb_|\d+_)", "", name, flags=re.IGNORECASE)
    words = [w for w in re.split(r"[_\-\s]+", name) if w and not re.fullmatch(r"\d+[a-z]?|v\d+", w)]
    label = " ".join(w for w in camel_words(" ".join(words)).split() if not w.isdigit())
    return label or "object"


def load_labels(path: str | Path) -> dict[str, str]:
    """Template → label map from JSON (``{template: label}``) or CSV (``id`` + category column)."""
    path = Path(path)
    if path.suffix.lower() == ".csv":
        rows = list(csv.DictReader(io.StringIO(read_text(path))))
        if not rows:
            raise fail(path, "<header>", "a CSV header with 'id' and a category column")
        cols = rows[0].keys()
        col = next((c for c in ("main_category", "category", "label", "name") if c in cols), None)
        if "id" not in cols or col is None:
            raise fail(path, "<header>", "columns 'id' and main_category|category|label|name", list(cols))
        return {r["id"]: clean_label(r[col]) for r in rows if r.get("id") and r.get(col)}
    data = read_json_file(path)
    if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
        raise fail(path, "<document>", "a JSON object {template: label}")
    return {k: clean_label(v) for k, v in data.items()}


class _Index:
    """Finds ``*.object_config.json`` / ``*.stage_config.json`` files by handle."""

    def __init__(self, roots: list[Path], dataset: JSONObject | None, dataset_dir: Path | None,
                 dataset_file: Path | None = None):
        self.files: dict[str, Path] = {}
        self.dataset_file = dataset_file
        for root in roots:
            if root.is_dir():
                for suffix in (".object_config.json", ".stage_config.json"):
                    for p in sorted(root.rglob(f"*{suffix}")):
                        self.files.setdefault(_base(p.name), p)
        self.overrides: dict[str, tuple[Path | None, JSONObject]] = {}
        for group in ("objects", "stages"):
            configs = _section(dataset, dataset_file, group, "configs")
            if configs is not None and not isinstance(configs, list):
                raise fail(dataset_file or "<dataset>", f"{group}.configs", "a list of template configs",
                           type(configs).__name__)
            for c in configs or []:
                if isinstance(c, dict) and isinstance(c.get("template_handle"), str) and dataset_dir:
                    orig = c.get("original_file")
                    self.overrides[c["template_handle"]] = (
                        dataset_dir / orig if isinstance(orig, str) else None,
                        at if isinstance(at := c.get("attributes"), dict) else {},
                    )

    def config(self, handle: str) -> tuple[JSONObject, Path | None, Path | None]:
        """Merged attributes of a template, the folder its relative paths refer to and the file
        its attributes come from (the template's config, else the dataset config; for errors)."""
        file: Path | None = None
        attrs: JSONObject = {}
        if handle in self.overrides:
            file, attrs = self.overrides[handle]
        if file is None or not file.is_file():
            file = self.files.get(_base(handle)) or (file if file and file.is_file() else None)
        base: JSONObject = {}
        if file is not None:
            data = read_json_file(file)
            if not isinstance(data, dict):
                raise fail(file, "<document>", "a JSON object", type(data).__name__)
            base = data
        return {**base, **attrs}, (file.parent if file is not None else None), file or self.dataset_file


def _up(attrs: JSONObject, file: Path | None = None) -> UpAxis:
    """``"z"`` when a template's ``up`` vector is +-Z, else ``"y"`` (the Habitat default)."""
    up = attrs.get("up")
    if up is None:
        return "y"
    x, y, z = vec3(up, file or "<template>", "up")
    return "z" if abs(z) > 0.9 * max(math.sqrt(x * x + y * y + z * z), 1e-12) else "y"


def load_habitat(
    path: str | Path,
    *,
    dataset: str | Path | None = None,
    scene: str | None = None,
    semantic: str | Path | None = None,
    mesh: str | Path | None = None,
    up: UpAxis | None = None,
    labels: str | Path | None = None,
    scene_id: str | None = None,
) -> Scene:
    """Load a Habitat scene instance (or a semantic config alone) into a :class:`Scene`.

    Args:
        path: ``*.scene_instance.json``, ``*.scene_dataset_config.json`` (with ``scene``) or
            ``*.semantic_config.json`` (rooms only).
        dataset: the ``*.scene_dataset_config.json`` (found next to or above ``path`` if omitted).
        scene: scene instance name when ``path`` is a dataset config.
        semantic: a ``*.semantic_config.json`` overriding the one the scene names.
        mesh: static geometry overriding the stage's render asset; ``up`` its up axis.
        labels: template → label map (see module docstring).
    """
    path = Path(path)
    name = path.name
    approx: list[str] = []
    notes: list[str] = []
    if name.endswith(".semantic_config.json"):
        rooms = _regions(path)
        only = (load_mesh(mesh, up or "y"),) if mesh is not None else ()
        return Scene(scene_id or _base(name), "indoor", "habitat", rooms=tuple(rooms), meshes=only,
                     meta=provenance(path, "habitat", approx, has_geometry=bool(only)))
    if name.endswith(".scene_dataset_config.json"):
        dataset, path = path, _find_scene(path, scene)
    ds_path = Path(dataset) if dataset is not None else _find_dataset(path)
    ds = read_json_file(ds_path) if ds_path is not None else None
    if ds is not None and not isinstance(ds, dict):
        raise fail(ds_path, "<document>", "a scene dataset config object")  # type: ignore[arg-type]
    ds_dir = ds_path.parent if ds_path is not None else None
    inst = read_json_file(path)
    if not isinstance(inst, dict):
        raise fail(path, "<document>", "a scene instance object", type(inst).__name__)
    roots = [r for r in {ds_dir, path.parent, path.parent.parent} if r is not None]
    index = _Index(sorted(roots), ds, ds_dir, ds_path)
    label_map = load_labels(labels) if labels is not None else {}
    default_origin = str(inst.get("translation_origin", "asset_local")).lower()

    objects: list[SceneObject] = []
    boxes: list[Box] = []
    sizes_missing = 0
    for i, o in enumerate(require(inst, "object_instances", path, "", list, "a list of object instances")
                          if "object_instances" in inst else []):
        where = f"object_instances[{i}]"
        handle = require(o, "template_name", path, where, str, "a template name string")
        t = vec3(o.get("translation", [0, 0, 0]), path, f"{where}.translation")
        rot = quat_wxyz_to_matrix(o.get("rotation", [1, 0, 0, 0]), path, f"{where}.rotation")
        attrs, base_dir, source = index.config(handle)
        label = label_map.get(handle) or label_map.get(_base(handle)) or template_label(handle)
        local = _asset_bounds(attrs, base_dir, source)
        size: Vec3 | None = None
        aabb = None
        yaw = float(np.arctan2(-rot[2, 0], rot[0, 0]))
        center = t
        if local is not None:
            lo, hi = local
            scale = np.asarray(vec3(o.get("non_uniform_scale", [1, 1, 1]), path, f"{where}.non_uniform_scale")) \
                * as_float(o.get("uniform_scale", 1.0), path, f"{where}.uniform_scale")
            lo, hi = lo * scale, hi * scale
            origin = str(o.get("translation_origin", default_origin)).lower()
            offset = np.zeros(3) if origin == "com" else rot @ ((lo + hi) / 2)
            center = tuple(map(float, np.asarray(t) + offset))  # type: ignore[assignment]
            size, yaw, aabb = obb_to_habitat(center, rot.T, (hi - lo) / 2)
            if size is not None:
                aabb = None
        else:
            sizes_missing += 1
        oid = f"{_base(handle)}_{i}"
        objects.append(SceneObject(oid, label, center, None, size, aabb, None, yaw))
        if size is not None:
            kind = "furniture" if str(o.get("motion_type", "")).upper() == "STATIC" else "object"
            boxes.append(Box(f"obj:{oid}", kind, center, size, yaw, label, oid))
    if sizes_missing:
        approx.append(f"{sizes_missing} objects without a readable render mesh have no size")
    if default_origin == "com" and len(objects) > sizes_missing:
        approx.append("translation_origin COM: the centre of mass is taken as the box centre")

    sem_path = Path(semantic) if semantic is not None else _find_semantic(inst, ds, ds_dir, path)
    rooms = _regions(sem_path) if sem_path is not None else []
    if sem_path is None:
        notes.append("no semantic_config.json found: no rooms (pass semantic=...)")
    objects = [SceneObject(o.id, o.label, o.center, assign_room(rooms, o.center), o.size, o.aabb,
                           o.radius, o.yaw) for o in objects]
    meshes: list[Mesh] = []
    if mesh is not None:
        meshes.append(load_mesh(mesh, up or "y"))
    elif isinstance(inst.get("stage_instance"), dict):
        st = inst["stage_instance"]
        handle = st.get("template_name")
        attrs, base_dir, source = index.config(handle) if isinstance(handle, str) else ({}, None, None)
        asset = attrs.get("render_asset")
        if isinstance(asset, str) and base_dir is not None and (base_dir / asset).is_file():
            tr = np.eye(4)
            tr[:3, 3] = vec3(st.get("translation", [0, 0, 0]), path, "stage_instance.translation")
            meshes.append(load_mesh(base_dir / asset, up or _up(attrs, source), mesh_id="stage",
                                    transform=tr))
        else:
            notes.append(f"stage render asset for {handle!r} not found: no static geometry")
    return Scene(
        scene_id or _base(path.name), "indoor", "habitat", rooms=tuple(rooms), objects=tuple(objects),
        boxes=tuple(boxes), meshes=tuple(meshes),
        meta=provenance(path, "habitat", approx, notes=notes, has_geometry=bool(meshes),
                        dataset_file=ds_path.name if ds_path else None,
                        semantic_file=sem_path.name if sem_path else None),
    )


def _asset_bounds(attrs: JSONObject, base_dir: Path | None, source: Path | None
                  ) -> tuple[np.ndarray, np.ndarray] | None:
    asset = attrs.get("render_asset")
    if not isinstance(asset, str) or base_dir is None or not (base_dir / asset).is_file():
        return None
    tm = load_trimesh(base_dir / asset)
    v = to_habitat(np.asarray(tm.vertices), _up(attrs, source))
    s = np.asarray(vec3(attrs.get("scale", [1, 1, 1]), source or "<template>", "scale"))
    return v.min(axis=0) * s, v.max(axis=0) * s


def _find_dataset(path: Path) -> Path | None:
    for folder in (path.parent, path.parent.parent, path.parent.parent.parent):
        found = sorted(folder.glob("*.scene_dataset_config.json"))
        if found:
            return found[0]
    return None


def _find_scene(ds_path: Path, scene: str | None) -> Path:
    ds = read_json_file(ds_path)
    if not isinstance(ds, dict):
        raise fail(ds_path, "<document>", "a scene dataset config object")
    dirs = _relative_dirs(_section(ds, ds_path, "scene_instances", "paths", ".json"), ds_path,
                          "scene_instances.paths..json")
    found: dict[str, Path] = {}
    for d in dirs:
        for p in sorted(ds_path.parent.glob(d + "/**/*.scene_instance.json")):
            found.setdefault(_base(p.name), p)
    for p in sorted(ds_path.parent.glob("*.scene_instance.json")):
        found.setdefault(_base(p.name), p)
    if scene is not None and scene in found:
        return found[scene]
    if scene is None and len(found) == 1:
        return next(iter(found.values()))
    raise ConfigError(f"{ds_path.name}: pass --scene NAME; scene instances found: "
                      f"{', '.join(sorted(found)) or 'none'}")


def _find_semantic(inst: JSONObject, ds: JSONObject | None, ds_dir: Path | None,
                   path: Path) -> Path | None:
    handle = inst.get("semantic_scene_instance")
    cands: list[Path] = []
    folders = [path.parent] + ([ds_dir] if ds_dir else [])
    if isinstance(handle, str):
        table = (ds or {}).get("semantic_scene_descriptor_instances")
        mapped = table.get(handle) if isinstance(table, dict) else None
        for f in folders:
            if isinstance(mapped, str):
                cands.append(f / mapped)
            cands += [f / handle, f / f"{_base(handle)}.semantic_config.json"]
    for f in folders:
        cands.append(f / f"{_base(path.name)}.semantic_config.json")
        cands.extend(sorted(f.glob(f"**/{_base(path.name)}.semantic_config.json")))
    return next((c for c in cands if c.is_file() and c.name.endswith(".json")), None)


def _regions(path: Path) -> list[Room]:
    data = read_json_file(path)
    regions = require(data, "region_annotations", path, "", list, "a list of region annotations")
    parsed: list[tuple[int, str, str, list[Vec3], float, float]] = []
    for i, r in enumerate(regions):
        where = f"region_annotations[{i}]"
        name = require(r, "name", path, where, str, "a region name string")
        label = require(r, "label", path, where, str, "a region label string")
        loop = require(r, "poly_loop", path, where, list, "a list of [x, y, z] points")
        if len(loop) < 3:
            raise fail(path, f"{where}.poly_loop", "at least 3 points", len(loop))
        pts = [vec3(p, path, f"{where}.poly_loop[{k}]") for k, p in enumerate(loop)]
        fy = as_float(r.get("floor_height", min(p[1] for p in pts)), path, f"{where}.floor_height")
        h = as_float(r.get("extrusion_height", 2.5), path, f"{where}.extrusion_height")
        parsed.append((i, name, label, pts, fy, h))
    floors = sorted({round(p[4], 1) for p in parsed})  # storeys: distinct floor heights (0.1 m)
    rooms: list[Room] = []
    for i, name, label, pts, fy, h in parsed:
        rid = name if all(x.id != name for x in rooms) else f"{name}_{i}"
        rooms.append(Room(rid, clean_label(label), ccw([(p[0], p[2]) for p in pts]), fy, h,
                          floors.index(round(fy, 1))))
    return rooms
