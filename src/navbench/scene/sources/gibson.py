"""Gibson 3D Scene Graph ``.npz`` files (``3DSceneGraph_<name>.npz``).

The archive's ``output`` array holds one pickled dict: ``building`` (name, function, ...),
``room`` ``{id: {scene_category, location, size, floor_number, ...}}`` and ``object``
``{id: {class_, location, size, parent_room, ...}}`` (ids 1-based). It is read with a restricted
unpickler (:mod:`navbench.scene.sources._safe_pickle`): a pickle naming anything other than
numpy's array reconstructors is refused.

Frame: Gibson meshes are Z up → Habitat (x, y, z) → (x, z, −y); sizes (sx, sy, sz) → (sx, sz, sy).
Rooms have only a centre and a box size in the scene graph, so each floor polygon is the room's
axis-aligned box footprint (recorded in ``meta["approximations"]``).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from navbench.jsontypes import JSON, JSONObject
from navbench.scene.model import Room, Scene, SceneObject
from navbench.scene.sources._common import (
    assign_room,
    clean_label,
    fail,
    provenance,
    rect_xz,
    zup_size_to_habitat,
    zup_to_habitat,
)
from navbench.scene.sources._safe_pickle import load_npz
from navbench.scene.sources.mesh import UpAxis, load_mesh


def read_scene_graph(path: str | Path) -> JSONObject:
    """The ``output`` dict of a 3DSG ``.npz`` (restricted unpickling)."""
    path = Path(path)
    arrays = load_npz(path)
    if "output" not in arrays:
        raise fail(path, "output", "an 'output' array (Gibson 3D Scene Graph)", sorted(arrays))
    out = arrays["output"]
    value = out.item() if out.shape == () else None
    if not isinstance(value, dict):
        raise fail(path, "output", "a 0-d object array holding a dict", f"shape {out.shape}")
    return value


def _vec(d: JSONObject, key: str, file: Path, where: str) -> tuple[float, float, float]:
    if key not in d:
        raise fail(file, f"{where}.{key}", "3 numbers", "missing")
    raw = d[key]
    numbers = isinstance(raw, (list, tuple, np.ndarray)) and all(
        isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, (bool, np.bool_))
        for x in np.asarray(raw, dtype=object).reshape(-1))
    if not numbers:
        raise fail(file, f"{where}.{key}", "3 numbers", raw if not isinstance(raw, np.ndarray) else raw.tolist())
    v = np.asarray(raw, dtype=float).reshape(-1)
    if v.shape != (3,) or not np.all(np.isfinite(v)):
        raise fail(file, f"{where}.{key}", "3 finite numbers", v.tolist())
    return (float(v[0]), float(v[1]), float(v[2]))


def _level(value: JSON) -> int:
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (str, bytes)):
        s = _text(value)
        if s.strip().isdigit() and len(s.strip()) < 6:
            return int(s)
        if len(s.strip()) == 1 and s.strip().isalpha():
            return ord(s.strip().upper()) - ord("A")
    return 0


def _text(value: JSON) -> str:
    """A label: ``bytes`` (Python-2 pickles) decoded as UTF-8, undecodable bytes replaced."""
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def _entries(sg: JSONObject, key: str, file: Path) -> list[tuple[JSON, JSONObject]]:
    table = sg.get(key, {})
    if not isinstance(table, dict):
        raise fail(file, f"output.{key}", "a dict {id: attributes}", type(table).__name__)
    out = []
    for k, v in sorted(table.items(), key=lambda kv: (str(type(kv[0])), kv[0])):
        if not isinstance(v, dict):
            raise fail(file, f"output.{key}[{k}]", "a dict of attributes", type(v).__name__)
        out.append((k, v))
    return out


def load_gibson(
    path: str | Path,
    *,
    mesh: str | Path | None = None,
    up: UpAxis = "z",
    scene_id: str | None = None,
) -> Scene:
    """Load a Gibson 3D Scene Graph ``.npz`` into a :class:`Scene` (see module docstring)."""
    path = Path(path)
    sg = read_scene_graph(path)
    rooms: list[Room] = []
    for rid, r in _entries(sg, "room", path):
        where = f"output.room[{rid}]"
        if "scene_category" not in r:
            raise fail(path, f"{where}.scene_category", "a room category string", "missing")
        c = _vec(r, "location", path, where)
        s = _vec(r, "size", path, where)
        (cx, cy, cz), (sx, sy, sz) = zup_to_habitat(c), zup_size_to_habitat(s)
        if sx <= 0 or sz <= 0:
            raise fail(path, f"{where}.size", "positive extents", list(s))
        poly = rect_xz((cx - sx / 2, cz - sz / 2), (cx + sx / 2, cz + sz / 2))
        rooms.append(Room(f"room{rid}", clean_label(_text(r["scene_category"])), poly,
                          cy - sy / 2, sy, _level(r.get("floor_number", 0))))
    room_ids = {r.id for r in rooms}
    objects: list[SceneObject] = []
    for oid, o in _entries(sg, "object", path):
        where = f"output.object[{oid}]"
        if "class_" not in o:
            raise fail(path, f"{where}.class_", "an object class string", "missing")
        center = zup_to_habitat(_vec(o, "location", path, where))
        size = zup_size_to_habitat(_vec(o, "size", path, where))
        parent = o.get("parent_room")
        room = f"room{parent}" if parent is not None and f"room{parent}" in room_ids else None
        if room is None:
            room = assign_room(rooms, center)
        objects.append(SceneObject(f"object{oid}", clean_label(_text(o["class_"])), center, room,
                                   tuple(abs(v) for v in size)))  # type: ignore[arg-type]
    building = sg.get("building", {})
    info: JSONObject = {}
    if isinstance(building, dict):
        for k in ("name", "function", "num_floors", "num_rooms", "num_objects", "gibson_split"):
            v = building.get(k)
            if isinstance(v, (str, bytes)):
                info[k] = _text(v)
            elif isinstance(v, (int, float, np.integer, np.floating)) and math.isfinite(float(v)):
                info[k] = v.item() if isinstance(v, np.generic) else v
    meshes = (load_mesh(mesh, up),) if mesh is not None else ()
    name = info.get("name") if isinstance(info.get("name"), str) else None
    stem = path.stem.removeprefix("3DSceneGraph_")
    return Scene(
        scene_id or name or stem, "indoor", "gibson", rooms=tuple(rooms), objects=tuple(objects),
        meshes=meshes,
        meta=provenance(path, "gibson", ["room floor polygons are the rooms' axis-aligned box footprints"],
                        building=info, has_geometry=bool(meshes)),
    )
