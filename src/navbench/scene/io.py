"""``scene.json`` (schema ``navbench.scene/1``): validation, loading and saving.

Saving is canonical: fixed key order, floats rounded to 1 µm (1e-6 m / rad), so that
``save → load → save`` is byte-identical and the same scene always gives the same bytes.
Loading validates every field and raises :class:`~navbench.errors.SceneFormatError` naming
the file, the JSON path of the first problem (``objects[12].center``) and what was expected.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Literal, TypeGuard, TypeVar, overload

import numpy as np

from navbench.errors import SceneFormatError
from navbench.geometry import Vec3
from navbench.io import JSONLimitError, atomic_write_text, dumps_json, loads_json
from navbench.jsontypes import JSON, JSONObject
from navbench.paths import SAFE_ID_TEXT, is_safe_id
from navbench.scene.model import (
    PORTAL_KINDS,
    SCENE_KINDS,
    SURFACE_CLASSES,
    Box,
    Mesh,
    Place,
    Portal,
    Room,
    Scene,
    SceneKind,
    SceneObject,
    Surface,
)
from navbench.scene.validate import MAX_COORD, check_scene

SCHEMA = "navbench.scene/1"
_DIGITS = 6

T = TypeVar("T")


# --------------------------------------------------------------------------- saving


def _f(x: float) -> float:
    v = round(float(x), _DIGITS)
    return 0.0 if v == 0 else v  # no "-0.0"


def _v(p: Sequence[float]) -> list[float]:
    return [round(float(c), _DIGITS) + 0.0 for c in p]  # _f inline: -0.0 + 0.0 is 0.0


def _poly(poly: Sequence[Sequence[float]]) -> list[list[float]]:
    return [_v(p) for p in poly]


def _opt(value: JSON, fn: Callable[[JSON], T]) -> T | None:
    return None if value is None else fn(value)


def _mesh_dict(m: Mesh, base: Path | None) -> JSONObject:
    """A mesh entry: inline arrays, or a side-file reference (path relative to ``base``)."""
    if m.file is None:
        return {"id": m.id, "kind": m.kind, "vertices": _poly(np.asarray(m.vertices).tolist()),
                "faces": np.asarray(m.faces, dtype=np.int64).tolist(), "label": m.label, "ref": m.ref}
    def rel(f: Path) -> str:
        return Path(os.path.relpath(f.resolve(), base.resolve())).as_posix() if base is not None else f.as_posix()

    out: JSONObject = {"id": m.id, "kind": m.kind, "file": rel(Path(m.file)), "sha256": m.sha256,
                           "up": m.up, "label": m.label, "ref": m.ref}
    if m.assets:
        out["assets"] = [{"file": rel(Path(a)), "sha256": h} for a, h in m.assets]
    return out


def scene_to_dict(scene: Scene, base: Path | None = None) -> JSONObject:
    """The JSON-ready dict of a scene (canonical order and rounding); mesh side files are
    referenced relative to ``base`` (the folder of the ``scene.json``; ``None`` = as given)."""
    return {
        "schema": SCHEMA,
        "id": scene.id,
        "kind": scene.kind,
        "source": scene.source,
        "meta": scene.meta,
        "rooms": [
            {
                "id": r.id,
                "label": r.label,
                "floor_polygon": _poly(r.floor_polygon),
                "floor_y": _f(r.floor_y),
                "height": _f(r.height),
                "level": r.level,
            }
            for r in scene.rooms
        ],
        "objects": [
            {
                "id": o.id,
                "label": o.label,
                "room_id": o.room_id,
                "center": _v(o.center),
                "size": _opt(o.size, _v),
                "aabb": _opt(o.aabb, _poly),
                "radius": _opt(o.radius, _f),
                "yaw": _f(o.yaw),
                "parent_id": o.parent_id,
            }
            for o in scene.objects
        ],
        "places": [
            {
                "id": p.id,
                "category": p.category,
                "name": p.name,
                "entrance": _v(p.entrance),
                "footprint": _poly(p.footprint),
                "yaw": _f(p.yaw),
                "building_id": p.building_id,
            }
            for p in scene.places
        ],
        "surfaces": [
            {
                "id": s.id,
                "class": s.cls,
                "polygon": _poly(s.polygon),
                "y": _f(s.y),
                "friction": _f(s.friction),
                "preferred": s.preferred,
                "holes": [_poly(h) for h in s.holes],
            }
            for s in scene.surfaces
        ],
        "portals": [
            {
                "id": p.id,
                "kind": p.kind,
                "regions": list(p.regions),
                "center": _v(p.center),
                "width": _f(p.width),
                "height": _f(p.height),
                "yaw": _f(p.yaw),
            }
            for p in scene.portals
        ],
        "geometry": {
            "boxes": [
                {
                    "id": b.id,
                    "kind": b.kind,
                    "center": _v(b.center),
                    "size": _v(b.size),
                    "yaw": _f(b.yaw),
                    "label": b.label,
                    "ref": b.ref,
                }
                for b in scene.boxes
            ],
            "meshes": [_mesh_dict(m, base) for m in scene.meshes],
        },
    }


def dumps(scene: Scene, base: Path | None = None) -> str:
    """Canonical ``scene.json`` text (mesh side files relative to ``base``, see :func:`save`)."""
    return dumps_json(scene_to_dict(scene, base), indent=1)


def save(scene: Scene, path: str | Path) -> Path:
    """Write ``scene`` to ``path`` atomically (canonical bytes); meshes read from files stay in
    those files, referenced by their path relative to ``path``'s folder and their sha256.

    Parameters
    ----------
    scene : Scene
        The scene to write.
    path : str or Path
        Output ``scene.json``; written to a temporary name in the same folder and renamed.

    Returns
    -------
    Path
        ``path``.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from navbench.scene import Room, Scene, SceneObject, load, save
    >>> room = Room("r0", "kitchen", ((0, 0), (4, 0), (4, -4), (0, -4)), 0.0, 2.7)
    >>> sofa = SceneObject("o0", "sofa", (2.0, 0.4, -3.5), "r0", size=(2.0, 0.8, 0.8))
    >>> scene = Scene("flat", "indoor", "handmade", rooms=(room,), objects=(sofa,))
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = save(scene, Path(tmp) / "scene.json")
    ...     load(path) == scene
    True
    """
    path = Path(path)
    return atomic_write_text(path, dumps(scene, path.parent))


# --------------------------------------------------------------------------- loading


def _is_scene_kind(v: str) -> TypeGuard[SceneKind]:
    return v in SCENE_KINDS


class _Reader:
    """Typed access to a JSON document that reports the JSON path of every problem."""

    def __init__(self, file: str) -> None:
        self.file = file

    def fail(self, path: str, expected: str, got: object = None) -> SceneFormatError:
        return SceneFormatError(self.file, path, expected, got)

    def obj(self, d: JSON, path: str) -> JSONObject:
        if not isinstance(d, dict):
            raise self.fail(path, "a JSON object", d)
        return d

    def get(self, d: JSONObject, key: str, path: str, *, required: bool = True) -> JSON:
        if key not in d:
            if required:
                raise self.fail(f"{path}.{key}" if path else key, "a value (field is missing)")
            return None
        return d[key]

    @overload
    def str_(self, d: JSONObject, key: str, path: str, *, required: Literal[True] = True,
             nonempty: bool = True) -> str: ...

    @overload
    def str_(self, d: JSONObject, key: str, path: str, *, required: bool,
             nonempty: bool = True) -> str | None: ...

    def str_(self, d: JSONObject, key: str, path: str, *, required: bool = True,
             nonempty: bool = True) -> str | None:
        v = self.get(d, key, path, required=required)
        p = f"{path}.{key}" if path else key
        if v is None and not required:
            return None
        if not isinstance(v, str) or (nonempty and not v):
            raise self.fail(p, "a non-empty string" if nonempty else "a string", v)
        return v

    def num(self, v: JSON, p: str, *, positive: bool = False, nonneg: bool = False) -> float:
        if (isinstance(v, bool) or not isinstance(v, (int, float))
                or not (isinstance(v, float) or abs(v) <= 1e300) or not math.isfinite(v)):
            raise self.fail(p, "a finite number", v)
        if positive and v <= 0:
            raise self.fail(p, "a positive number", v)
        if nonneg and v < 0:
            raise self.fail(p, "a non-negative number", v)
        return float(v)

    def num_field(self, d: JSONObject, key: str, path: str, default: float | None = None,
                  **kw: bool) -> float:
        p = f"{path}.{key}" if path else key
        if key not in d:
            if default is None:
                raise self.fail(p, "a number (field is missing)")
            return default
        return self.num(d[key], p, **kw)

    def vec(self, v: JSON, p: str, n: int, *, positive: bool = False) -> tuple[float, ...]:
        if (isinstance(v, list) and len(v) == n and all(type(c) is float and -MAX_COORD <= c <= MAX_COORD for c in v)
                and not (positive and any(c <= 0 for c in v))):
            return tuple(v)  # the common case, checked at once (a scene holds ~10^6 of them)
        if not isinstance(v, list) or len(v) != n:
            raise self.fail(p, f"a list of {n} numbers", v)
        out = tuple(self.num(c, f"{p}[{i}]", positive=positive) for i, c in enumerate(v))
        for i, c in enumerate(out):
            if abs(c) > MAX_COORD:
                raise self.fail(f"{p}[{i}]", f"a coordinate within ±{MAX_COORD:g} m", c)
        return out

    def vec2(self, v: JSON, p: str) -> tuple[float, float]:
        x, z = self.vec(v, p, 2)
        return (x, z)

    def vec3(self, v: JSON, p: str, *, positive: bool = False) -> Vec3:
        x, y, z = self.vec(v, p, 3, positive=positive)
        return (x, y, z)

    def polygon(self, v: JSON, p: str, *, min_len: int = 3) -> tuple[tuple[float, float], ...]:
        if not isinstance(v, list) or len(v) < min_len:
            raise self.fail(p, f"a list of at least {min_len} [x, z] points", v)
        m = MAX_COORD
        if all(type(q) is list and len(q) == 2 and type(q[0]) is float and type(q[1]) is float
               and -m <= q[0] <= m and -m <= q[1] <= m for q in v):
            return tuple((q[0], q[1]) for q in v)  # the common case, checked at once
        return tuple(self.vec2(q, f"{p}[{i}]") for i, q in enumerate(v))

    def items(self, d: JSONObject, key: str, path: str = "") -> list[tuple[str, JSONObject]]:
        v = d.get(key, [])
        p = f"{path}.{key}" if path else key
        if not isinstance(v, list):
            raise self.fail(p, "a list", v)
        return [(f"{p}[{i}]", self.obj(x, f"{p}[{i}]")) for i, x in enumerate(v)]

    def unique(self, ids: list[tuple[str, str]], what: str) -> None:
        seen: set[str] = set()
        for p, i in ids:
            if i in seen:
                raise self.fail(f"{p}.id", f"a {what} id unique in the scene", i)
            seen.add(i)


def scene_from_dict(doc: JSON, file: str = "<memory>") -> Scene:
    """Validate a parsed ``scene.json`` document and build the :class:`Scene`."""
    rd = _Reader(file)
    d = rd.obj(doc, "$")
    schema = d.get("schema")
    if schema != SCHEMA:
        raise rd.fail("schema", f'"{SCHEMA}"', schema)
    sid = rd.str_(d, "id", "")
    if not is_safe_id(sid):
        raise rd.fail("id", SAFE_ID_TEXT, sid)
    kind = rd.str_(d, "kind", "")
    if not _is_scene_kind(kind):
        raise rd.fail("kind", f"one of {', '.join(SCENE_KINDS)}", kind)
    source = rd.str_(d, "source", "")
    meta = d.get("meta", {})
    if not isinstance(meta, dict):
        raise rd.fail("meta", "a JSON object", meta)
    try:
        json.dumps(meta, allow_nan=False)
    except ValueError:
        raise rd.fail("meta", "a JSON object without NaN or Infinity") from None

    rooms: list[Room] = []
    for p, r in rd.items(d, "rooms"):
        level = r.get("level", 0)
        if isinstance(level, bool) or not isinstance(level, int):
            raise rd.fail(f"{p}.level", "an integer", level)
        rooms.append(
            Room(
                id=rd.str_(r, "id", p),
                label=rd.str_(r, "label", p),
                floor_polygon=rd.polygon(rd.get(r, "floor_polygon", p), f"{p}.floor_polygon"),
                floor_y=rd.num_field(r, "floor_y", p, 0.0),
                height=rd.num_field(r, "height", p, 2.7, positive=True),
                level=level,
            )
        )
    rd.unique([(f"rooms[{i}]", r.id) for i, r in enumerate(rooms)], "room")
    room_ids = {r.id for r in rooms}

    objects: list[SceneObject] = []
    for p, o in rd.items(d, "objects"):
        room_id = rd.str_(o, "room_id", p, required=False)
        if room_id is not None and room_id not in room_ids:
            raise rd.fail(f"{p}.room_id", "the id of a room in 'rooms' or null", room_id)
        size = o.get("size")
        aabb = o.get("aabb")
        radius = o.get("radius")
        aabb_t: tuple[Vec3, Vec3] | None = None
        if aabb is not None:
            if not isinstance(aabb, list) or len(aabb) != 2:
                raise rd.fail(f"{p}.aabb", "[[xmin, ymin, zmin], [xmax, ymax, zmax]] or null", aabb)
            lo = rd.vec3(aabb[0], f"{p}.aabb[0]")
            hi = rd.vec3(aabb[1], f"{p}.aabb[1]")
            if any(a > b for a, b in zip(lo, hi, strict=True)):
                raise rd.fail(f"{p}.aabb", "min <= max on every axis", aabb)
            aabb_t = (lo, hi)
        objects.append(
            SceneObject(
                id=rd.str_(o, "id", p),
                label=rd.str_(o, "label", p),
                center=rd.vec3(rd.get(o, "center", p), f"{p}.center"),
                room_id=room_id,
                size=None if size is None else rd.vec3(size, f"{p}.size", positive=True),
                aabb=aabb_t,
                radius=None if radius is None else rd.num(radius, f"{p}.radius", positive=True),
                yaw=rd.num_field(o, "yaw", p, 0.0),
                parent_id=rd.str_(o, "parent_id", p, required=False),
            )
        )
    rd.unique([(f"objects[{i}]", o.id) for i, o in enumerate(objects)], "object")
    object_ids = {o.id for o in objects}
    for i, obj in enumerate(objects):
        if obj.parent_id is not None and obj.parent_id not in object_ids:
            raise rd.fail(f"objects[{i}].parent_id", "the id of another object or null", obj.parent_id)

    places: list[Place] = []
    for p, q in rd.items(d, "places"):
        fp = q.get("footprint", [])
        places.append(
            Place(
                id=rd.str_(q, "id", p),
                category=rd.str_(q, "category", p),
                name=rd.str_(q, "name", p, nonempty=False),
                entrance=rd.vec3(rd.get(q, "entrance", p), f"{p}.entrance"),
                footprint=rd.polygon(fp, f"{p}.footprint", min_len=0) if fp else (),
                yaw=rd.num_field(q, "yaw", p, 0.0),
                building_id=rd.str_(q, "building_id", p, required=False),
            )
        )
    rd.unique([(f"places[{i}]", x.id) for i, x in enumerate(places)], "place")

    surfaces: list[Surface] = []
    for p, s in rd.items(d, "surfaces"):
        cls = rd.get(s, "class", p)
        if cls not in SURFACE_CLASSES:
            raise rd.fail(f"{p}.class", f"one of {', '.join(SURFACE_CLASSES)}", cls)
        pref = s.get("preferred", True)
        if not isinstance(pref, bool):
            raise rd.fail(f"{p}.preferred", "true or false", pref)
        holes = s.get("holes", [])
        if not isinstance(holes, list):
            raise rd.fail(f"{p}.holes", "a list of polygons", holes)
        surfaces.append(
            Surface(
                id=rd.str_(s, "id", p),
                cls=cls,
                polygon=rd.polygon(rd.get(s, "polygon", p), f"{p}.polygon"),
                y=rd.num_field(s, "y", p, 0.0),
                friction=rd.num_field(s, "friction", p, 1.0, nonneg=True),
                preferred=pref,
                holes=tuple(rd.polygon(h, f"{p}.holes[{j}]") for j, h in enumerate(holes)),
            )
        )
    rd.unique([(f"surfaces[{i}]", x.id) for i, x in enumerate(surfaces)], "surface")

    portals: list[Portal] = []
    for p, q in rd.items(d, "portals"):
        kind_ = rd.get(q, "kind", p)
        if kind_ not in PORTAL_KINDS:
            raise rd.fail(f"{p}.kind", f"one of {', '.join(PORTAL_KINDS)}", kind_)
        regions = rd.get(q, "regions", p)
        if (not isinstance(regions, list) or len(regions) != 2
                or not all(isinstance(x, str) and x for x in regions)):
            raise rd.fail(f"{p}.regions", "a list of two region ids", regions)
        portals.append(
            Portal(
                id=rd.str_(q, "id", p),
                kind=kind_,
                regions=(regions[0], regions[1]),
                center=rd.vec3(rd.get(q, "center", p), f"{p}.center"),
                width=rd.num_field(q, "width", p, positive=True),
                height=rd.num_field(q, "height", p, 2.1, positive=True),
                yaw=rd.num_field(q, "yaw", p, 0.0),
            )
        )
    rd.unique([(f"portals[{i}]", x.id) for i, x in enumerate(portals)], "portal")

    geo = d.get("geometry", {})
    rd.obj(geo, "geometry")
    boxes: list[Box] = []
    for p, b in rd.items(geo, "boxes", "geometry"):
        boxes.append(
            Box(
                id=rd.str_(b, "id", p),
                kind=rd.str_(b, "kind", p),
                center=rd.vec3(rd.get(b, "center", p), f"{p}.center"),
                size=rd.vec3(rd.get(b, "size", p), f"{p}.size", positive=True),
                yaw=rd.num_field(b, "yaw", p, 0.0),
                label=rd.str_(b, "label", p, required=False, nonempty=False) or "",
                ref=rd.str_(b, "ref", p, required=False),
            )
        )
    meshes: list[Mesh] = []
    for p, m in rd.items(geo, "meshes", "geometry"):
        if isinstance(m, dict) and "file" in m:
            meshes.append(_side_mesh(rd, m, p))
            continue
        verts = _array(rd, rd.get(m, "vertices", p), f"{p}.vertices", float)
        faces = _array(rd, rd.get(m, "faces", p), f"{p}.faces", int)
        if len(faces) and (faces.min() < 0 or faces.max() >= len(verts)):
            raise rd.fail(f"{p}.faces", f"vertex indices in [0, {len(verts)})")
        meshes.append(
            Mesh(
                id=rd.str_(m, "id", p),
                kind=rd.str_(m, "kind", p),
                vertices=verts,
                faces=faces,
                label=rd.str_(m, "label", p, required=False, nonempty=False) or "",
                ref=rd.str_(m, "ref", p, required=False),
            )
        )
    rd.unique(
        [(f"geometry.boxes[{i}]", x.id) for i, x in enumerate(boxes)]
        + [(f"geometry.meshes[{i}]", x.id) for i, x in enumerate(meshes)],
        "geometry",
    )
    scene = Scene(
        id=sid,
        kind=kind,
        source=source,
        rooms=tuple(rooms),
        objects=tuple(objects),
        places=tuple(places),
        surfaces=tuple(surfaces),
        portals=tuple(portals),
        boxes=tuple(boxes),
        meshes=tuple(meshes),
        meta=meta,
    )
    check_scene(scene, file)
    return scene


def _array(rd: _Reader, v: JSON, p: str, dtype: type) -> np.ndarray:
    if not isinstance(v, list):
        raise rd.fail(p, "a list of 3-element lists", v)
    try:
        a = np.asarray(v, dtype=np.float64 if dtype is float else np.int64)
    except (TypeError, ValueError, OverflowError):
        raise rd.fail(p, "a list of 3-element numeric lists") from None
    if a.size == 0:
        return a.reshape(0, 3)
    if a.ndim != 2 or a.shape[1] != 3:
        raise rd.fail(p, "a list of 3-element lists", f"shape {a.shape}")
    if dtype is float and not np.all(np.isfinite(a)):
        raise rd.fail(p, "finite numbers")
    if dtype is float and np.abs(a).max() > MAX_COORD:
        raise rd.fail(p, f"coordinates within ±{MAX_COORD:g} m")
    return a


def _side_mesh(rd: _Reader, m: JSONObject, p: str) -> Mesh:
    """A mesh entry referencing a side file: resolve it beside the scene file, check its
    sha256, read it (:func:`navbench.scene.meshfile.load_mesh`)."""
    from navbench.scene.meshfile import check_assets, check_up, load_mesh, sha256_file

    rel = rd.str_(m, "file", p)
    digest = rd.str_(m, "sha256", p)
    up = rd.str_(m, "up", p, required=False) or "y"
    if up not in ("y", "z"):
        raise rd.fail(f"{p}.up", "'y' or 'z'")
    base = Path(rd.file).parent if rd.file != "<memory>" else Path.cwd()
    path = base / str(rel)
    if not path.is_file():
        raise SceneFormatError(rd.file, f"{p}.file", f"the mesh side file {path} (move it back beside "
                               "the scene.json, or re-import the scene)", "missing")
    if sha256_file(path) != digest:
        raise SceneFormatError(rd.file, f"{p}.sha256", f"{digest} (the file {path} changed since "
                               "the import; re-import the scene)", "a different sha256")
    raw = rd.get(m, "assets", p, required=False) or []
    if not isinstance(raw, list):
        raise rd.fail(f"{p}.assets", "a list of {file, sha256} objects")
    assets = []
    for k, a in enumerate(raw):
        if not isinstance(a, dict):
            raise rd.fail(f"{p}.assets[{k}]", "an object with 'file' and 'sha256'")
        assets.append((base / str(rd.str_(a, "file", f"{p}.assets[{k}]")), str(rd.str_(a, "sha256", f"{p}.assets[{k}]"))))
    check_assets(rd.file, f"{p}.assets", assets)
    mesh = load_mesh(path, check_up(up), mesh_id=rd.str_(m, "id", p) or "mesh0", kind=rd.str_(m, "kind", p) or "mesh",
                     label=rd.str_(m, "label", p, required=False, nonempty=False) or "",
                     ref=rd.str_(m, "ref", p, required=False))
    return mesh


def loads(text: str, file: str = "<memory>") -> Scene:
    """Parse and validate ``scene.json`` text."""
    try:
        doc = loads_json(text, allow_nan=True)
    except json.JSONDecodeError as e:
        raise SceneFormatError(file, f"line {e.lineno} column {e.colno}", "valid JSON", e.msg) from None
    except JSONLimitError as e:
        raise SceneFormatError(file, "$", str(e)) from None
    return scene_from_dict(doc, file)


def load(path: str | Path) -> Scene:
    """Load and validate a ``scene.json`` file (the format of :func:`save`, SPEC §1).

    Parameters
    ----------
    path : str or Path
        A ``scene.json`` file (UTF-8); mesh side files are read relative to its folder.

    Returns
    -------
    Scene
        The validated scene (simple polygons, acyclic parents, extent within ±100 km).

    Raises
    ------
    navbench.errors.SceneFormatError
        If the file is missing, not UTF-8 JSON, or a field is wrong; the message names the
        file, the JSON path of the field (``objects[12].center``) and what was expected.

    Examples
    --------
    >>> from navbench.scene import load, loads
    >>> load("no/such/scene.json")
    Traceback (most recent call last):
    ...
    navbench.errors.SceneFormatError: no/such/scene.json: field '$': expected an existing scene.json file, got 'no such file'
    >>> doc = '''{"schema": "navbench.scene/1", "id": "x", "kind": "indoor", "source": "t",
    ...          "objects": [{"id": "o", "label": "sofa", "center": [0, 0]}]}'''
    >>> loads(doc, "x.json")
    Traceback (most recent call last):
    ...
    navbench.errors.SceneFormatError: x.json: field 'objects[0].center': expected a list of 3 numbers, got [0, 0]
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SceneFormatError(path, "$", "an existing scene.json file", "no such file") from None
    except UnicodeDecodeError:
        raise SceneFormatError(path, "$", "UTF-8 text") from None
    return loads(text, str(path))
