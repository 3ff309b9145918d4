"""ProcTHOR / AI2-THOR houses (``house.json`` or one line of a ProcTHOR-10k ``.jsonl(.gz)``).

Frame: Unity is left-handed with +Y up; a Unity point (x, y, z) becomes Habitat (x, y, −z) and a
rotation of θ degrees about +Y becomes a yaw of −θ (radians). Full Euler rotations (Unity order
Z, X, Y) are converted too: upright boxes keep ``size`` + ``yaw``, tilted ones get an ``aabb``.

Labels and sizes come from the asset database (``assetId`` → ``objectType``, ``boundingBox``):
``"CoffeeTable"`` → ``"coffee table"``. Without a database pass ``asset_fallback=True``: labels
from the ``assetId`` prefix (``"Dining_Table_27_1"`` → ``"dining table"``), sizes unknown
(``radius`` = ``fallback_radius``), recorded in ``meta["approximations"]``.

Geometry: floor slabs per room (top at the floor), wall boxes ``wall_thickness`` thick centred on
the wall planes with door and window holes, one box per object (``furniture`` for top-level
objects standing on the floor, ``object`` otherwise). Exterior doors stay closed (solid wall)
unless their ``openness`` is > 0; walls marked ``empty`` (open plan) become ``opening`` portals.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np

from navbench.errors import ConfigError
from navbench.geometry import Vec2, yaw_of_direction
from navbench.jsontypes import JSON, JSONObject
from navbench.scene.model import OUTDOOR, Box, Polygon, Portal, Room, Scene, SceneObject
from navbench.scene.sources._boxes import (
    floor_slabs,
    is_rectilinear,
    unit_normal_towards,
    wall_boxes,
)
from navbench.scene.sources._common import (
    as_float,
    assign_room,
    camel_words,
    ccw,
    fail,
    obb_to_habitat,
    optional_list,
    parse_json,
    provenance,
    read_json_file,
    read_text,
    require,
    unity_to_habitat,
    vec3,
)

AssetIndex = dict[str, tuple[str, tuple[float, float, float] | None]]


def read_house(path: str | Path, index: int = 0) -> tuple[JSONObject, str]:
    """The house dict and the error-location prefix; ``.jsonl(.gz)`` picks line ``index``."""
    path = Path(path)
    name = path.name.lower()
    if name.endswith((".jsonl", ".jsonl.gz")):
        lines = [ln for ln in read_text(path).splitlines() if ln.strip()]
        if not 0 <= index < len(lines):
            raise ConfigError(f"--index {index}: {path.name} has {len(lines)} houses (0..{len(lines) - 1})")
        house = parse_json(lines[index], path, f"line {index + 1}")
        where = f"line {index + 1}: "
    else:
        house, where = read_json_file(path), ""
    if not isinstance(house, dict):
        raise fail(path, where + "<document>", "a ProcTHOR house object", type(house).__name__)
    return house, where


def load_asset_database(path: str | Path) -> AssetIndex:
    """``assetId`` → (objectType, boundingBox size) from ProcTHOR's ``asset-database.json``.

    Accepts the published layout (``{objectType: [asset, ...]}``), a flat list of assets or
    ``{assetId: asset}``.
    """
    data = read_json_file(path)
    if isinstance(data, dict) and all(isinstance(v, list) for v in data.values()):
        records = [(f"{k}[{i}]", a) for k, v in data.items() for i, a in enumerate(v)]
    elif isinstance(data, dict):
        records = [(k, {"assetId": k, **a}) if isinstance(a, dict) else (k, a) for k, a in data.items()]
    elif isinstance(data, list):
        records = [(f"[{i}]", a) for i, a in enumerate(data)]
    else:
        raise fail(path, "<document>", "an asset database object or list", type(data).__name__)
    out: AssetIndex = {}
    for where, a in records:
        aid = require(a, "assetId", path, where, str, "an assetId string")
        otype = require(a, "objectType", path, where, str, "an objectType string")
        bb = a.get("boundingBox")
        size = None if bb is None else vec3(bb, path, f"{where}.boundingBox")
        out[aid] = (otype, size)
    return out


def _fallback_label(asset_id: str) -> str:
    words = [w for w in re.split(r"_+", asset_id) if w and not re.fullmatch(r"\d+[A-Za-z]?|[A-Z]?\d+.*", w)]
    return camel_words(" ".join(words)) or "object"


def _unity_rotation(rot: JSONObject, file: Path, field: str) -> np.ndarray:
    """Habitat-frame 3x3 rotation of a Unity Euler rotation (degrees, applied Z, X, Y)."""
    x, y, z = (math.radians(v) for v in vec3(rot, file, field))
    cx, sx, cy, sy, cz, sz = math.cos(x), math.sin(x), math.cos(y), math.sin(y), math.cos(z), math.sin(z)
    rx = np.array([[1, 0, 0], [0, cx, -sx], [0, sx, cx]])
    ry = np.array([[cy, 0, sy], [0, 1, 0], [-sy, 0, cy]])
    rz = np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]])
    m = np.diag([1.0, 1.0, -1.0])
    out: np.ndarray = m @ (ry @ rx @ rz) @ m
    return out


def load_procthor(
    path: str | Path,
    *,
    assets: str | Path | None = None,
    index: int = 0,
    asset_fallback: bool = False,
    fallback_radius: float = 0.25,
    wall_thickness: float = 0.1,
    slab_thickness: float = 0.1,
    scene_id: str | None = None,
) -> Scene:
    """Load a ProcTHOR house into a :class:`Scene` in the Habitat frame (see module docstring).

    Raises:
        ConfigError: no ``assets`` and no ``asset_fallback``; ``index`` out of range.
        SceneFormatError: a malformed house or asset file (names the field, e.g.
            ``objects[3].assetId``).
    """
    path = Path(path)
    if assets is None and not asset_fallback:
        raise ConfigError(
            "ProcTHOR object labels and sizes come from the asset database: pass --assets "
            "asset-database.json (assets=...), or --asset-fallback to take labels from assetId "
            "prefixes with unknown sizes"
        )
    db = load_asset_database(assets) if assets is not None else None
    house, w = read_house(path, index)
    approx = [f"walls are {wall_thickness:g} m thick boxes centred on the wall planes",
              "object extents are the asset bounding boxes"]

    rooms = _rooms(house, path, w)
    heights: dict[str, float] = {}
    polys = {r.id: r.floor_polygon for r in rooms}
    walls, wall_geo, portals = _walls_and_portals(house, path, w, polys, heights, wall_thickness)
    rooms = [Room(r.id, r.label, r.floor_polygon, r.floor_y, heights.get(r.id, 2.5), 0) for r in rooms]

    objects: list[SceneObject] = []
    obj_boxes: list[Box] = []
    missing: list[str] = []

    def add(o: JSON, where: str, parent: str | None) -> None:
        oid = require(o, "id", path, where, str, "an object id string")
        aid = require(o, "assetId", path, where, str, "an assetId string")
        center = unity_to_habitat(vec3(require(o, "position", path, where, dict, "{x, y, z}"),
                                       path, f"{where}.position"))
        rot = _unity_rotation(o.get("rotation", {"x": 0, "y": 0, "z": 0}), path, f"{where}.rotation")
        if db is not None and aid in db:
            otype, bsize = db[aid]
            label = camel_words(otype)
        elif asset_fallback:
            label, bsize = _fallback_label(aid), None
            missing.append(aid)
        else:
            raise fail(path, f"{where}.assetId", "an assetId present in the asset database", aid)
        size: tuple[float, float, float] | None = None
        aabb = None
        yaw = 0.0
        if bsize is not None:
            size, yaw, aabb = obb_to_habitat(center, rot.T, [s / 2 for s in bsize])
            if size is not None:
                aabb = None  # upright: size + yaw describe it exactly
        room = assign_room(rooms, center)
        obj = SceneObject(oid, label, center, room, size, aabb,
                          None if bsize is not None else fallback_radius, yaw, parent)
        objects.append(obj)
        lo_hi = obj.bounds
        if lo_hi is not None:
            floor_y = next((r.floor_y for r in rooms if r.id == room), 0.0)
            on_floor = parent is None and lo_hi[0][1] <= floor_y + 0.05
            kind = "furniture" if on_floor else "object"
            if size is not None:
                obj_boxes.append(Box(f"obj:{oid}", kind, center, size, yaw, label, oid))
            else:
                lo, hi = np.asarray(lo_hi[0]), np.asarray(lo_hi[1])
                obj_boxes.append(Box(f"obj:{oid}", kind, tuple(map(float, (lo + hi) / 2)),  # type: ignore[arg-type]
                                     tuple(map(float, hi - lo)), 0.0, label, oid))  # type: ignore[arg-type]
        for k, child in enumerate(optional_list(o, "children", path, where, "a list of child objects")):
            add(child, f"{where}.children[{k}]", oid)

    for i, o in enumerate(require(house, "objects", path, w.rstrip(": "), list, "a list of objects")):
        add(o, f"{w}objects[{i}]", None)
    ids = [o.id for o in objects]
    if len(set(ids)) != len(ids):
        dup = next(i for i in ids if ids.count(i) > 1)
        raise fail(path, f"{w}objects", "unique object ids", dup)

    floors = [b for r in rooms for b in floor_slabs(r.id, r.floor_polygon, r.floor_y, slab_thickness)]
    if any(not is_rectilinear(r.floor_polygon) for r in rooms):
        approx.append("non-rectilinear floors are covered by staircase slabs")
    if missing:
        approx.append(f"{len(missing)} objects have labels from assetId prefixes and a "
                      f"{fallback_radius:g} m radius (no asset database entry)")
    meta_extra: JSONObject = {"objects": len(objects), "walls": walls}
    md = house.get("metadata")
    if isinstance(md, dict):
        meta_extra["procthor"] = {k: md[k] for k in ("roomSpecId", "schema") if k in md}
        agent = md.get("agent")
        if isinstance(agent, dict) and isinstance(agent.get("position"), dict):
            p = unity_to_habitat(vec3(agent["position"], path, f"{w}metadata.agent.position"))
            meta_extra["agent_start"] = [round(v, 6) for v in p]
    if path.name.lower().endswith((".jsonl", ".jsonl.gz")):
        meta_extra["index"] = index
    sid = scene_id or _stem(path) + (f"_{index}" if "index" in meta_extra else "")
    return Scene(
        id=sid, kind="indoor", source="procthor", rooms=tuple(rooms), objects=tuple(objects),
        portals=tuple(portals), boxes=tuple(floors + wall_geo + obj_boxes),
        meta=provenance(path, "procthor", approx, **meta_extra),
    )


def _stem(path: Path) -> str:
    name = path.name
    for suf in (".gz", ".jsonl", ".json"):
        if name.lower().endswith(suf):
            name = name[: -len(suf)]
    return name


def _rooms(house: JSONObject, path: Path, w: str) -> list[Room]:
    """Rooms with their floor polygons in the Habitat frame (heights are set from the walls)."""
    rooms: list[Room] = []
    for i, r in enumerate(require(house, "rooms", path, w.rstrip(": "), list, "a list of rooms")):
        where = f"{w}rooms[{i}]"
        rid = require(r, "id", path, where, str, "a room id string")
        rtype = require(r, "roomType", path, where, str, "a roomType string")
        fp = require(r, "floorPolygon", path, where, list, "a list of {x, y, z} points")
        if len(fp) < 3:
            raise fail(path, f"{where}.floorPolygon", "at least 3 points", len(fp))
        pts = [unity_to_habitat(vec3(p, path, f"{where}.floorPolygon[{k}]")) for k, p in enumerate(fp)]
        poly = ccw([(p[0], p[2]) for p in pts])
        rooms.append(Room(rid, camel_words(rtype), poly, float(np.mean([p[1] for p in pts])), 2.5, 0))
    return rooms


def _wall_geometry(wall: JSON, path: Path, where: str) -> tuple[Vec2, Vec2, float, float]:
    poly = require(wall, "polygon", path, where, list, "a list of {x, y, z} points")
    pts = [unity_to_habitat(vec3(p, path, f"{where}.polygon[{k}]")) for k, p in enumerate(poly)]
    xz: list[Vec2] = []
    for p in pts:
        q = (round(p[0], 6), round(p[2], 6))
        if q not in xz:
            xz.append(q)
    if len(xz) != 2:
        raise fail(path, f"{where}.polygon", "a vertical rectangle over 2 distinct floor points", len(xz))
    ys = [p[1] for p in pts]
    return xz[0], xz[1], min(ys), max(ys) - min(ys)


def _walls_and_portals(house: JSONObject, path: Path, w: str, polys: dict[str, Polygon],
                       heights: dict[str, float], thickness: float
                       ) -> tuple[int, list[Box], list[Portal]]:
    walls_by_id: dict[str, tuple[Vec2, Vec2, float, float, bool, str | None]] = {}
    for i, wall in enumerate(require(house, "walls", path, w.rstrip(": "), list, "a list of walls")):
        where = f"{w}walls[{i}]"
        wid = require(wall, "id", path, where, str, "a wall id string")
        a, b, y0, h = _wall_geometry(wall, path, where)
        room = wall.get("roomId") if isinstance(wall.get("roomId"), str) else None
        walls_by_id[wid] = (a, b, y0, h, bool(wall.get("empty", False)), room)
        if isinstance(room, str):
            heights[room] = max(heights.get(room, 0.0), h)
    # One wall per segment: ProcTHOR lists each wall once per side.
    canon: dict[frozenset[Vec2], tuple[Vec2, Vec2, float, float, list[tuple[float, float, float, float]]]] = {}
    empty_rooms: dict[frozenset[Vec2], set[str]] = {}
    for a, b, y0, h, empty, room in walls_by_id.values():
        key = frozenset((a, b))
        if empty:
            empty_rooms.setdefault(key, set()).add(room or "")
            continue
        if key not in canon:
            canon[key] = (a, b, y0, h, [])
    portals: list[Portal] = []
    for kind in ("doors", "windows"):
        for i, d in enumerate(optional_list(house, kind, path, w.rstrip(": "), f"a list of {kind}")):
            where = f"{w}{kind}[{i}]"
            did = require(d, "id", path, where, str, "an id string")
            w0 = require(d, "wall0", path, where, str, "a wall id")
            if w0 not in walls_by_id:
                raise fail(path, f"{where}.wall0", "the id of a wall in 'walls'", w0)
            hp = require(d, "holePolygon", path, where, list, "two {x, y, z} corners")
            if len(hp) < 2:
                raise fail(path, f"{where}.holePolygon", "two {x, y, z} corners", hp)
            (x0, y0, _), (x1, y1, _) = (vec3(p, path, f"{where}.holePolygon[{k}]") for k, p in enumerate(hp[:2]))
            a, b, base_y, _, _, _ = walls_by_id[w0]
            exterior = "exterior" in str(d.get("wall1", "")) or d.get("room0") == d.get("room1")
            openness = as_float(d.get("openness", 1.0), path, f"{where}.openness")
            key = frozenset((a, b))
            if key in canon and not (kind == "doors" and exterior and openness <= 0):
                ca, _cb, _, _, holes = canon[key]
                flip = ca != a
                length = math.dist(a, b)
                t0, t1 = (length - x1, length - x0) if flip else (x0, x1)
                holes.append((t0, t1, y0, y1))
            if kind == "doors":
                portals.append(_door_portal(did, d, a, b, (x0, x1, base_y + y0, base_y + y1),
                                            exterior, polys, path, where))
    for key, rset in empty_rooms.items():
        rs = sorted(r for r in rset if r in polys)
        if len(rs) == 2:
            nth = sum(p.kind == "opening" for p in portals)
            a, b = sorted(key)
            n = unit_normal_towards(a, b, polys[rs[1]])
            mid = (0.5 * (a[0] + b[0]), 0.0, 0.5 * (a[1] + b[1]))
            portals.append(Portal(f"opening|{rs[0]}|{rs[1]}|{nth}", "opening", (rs[0], rs[1]), mid,
                                  math.dist(a, b), heights.get(rs[0], 2.5),
                                  yaw_of_direction(float(n[0]), float(n[1]))))
    boxes: list[Box] = []
    for k, (a, b, y0, h, holes) in enumerate(canon.values()):
        boxes.extend(wall_boxes(f"wall{k}", a, b, y0, h, thickness, holes))
    return len(canon), boxes, portals


def _door_portal(did: str, d: JSONObject, a: Vec2, b: Vec2, hole: tuple[float, float, float, float],
                 exterior: bool, polys: dict[str, Polygon], path: Path, where: str) -> Portal:
    x0, x1, y0, y1 = hole
    length = max(math.dist(a, b), 1e-9)
    tm = 0.5 * (x0 + x1) / length
    center = (a[0] + (b[0] - a[0]) * tm, y0, a[1] + (b[1] - a[1]) * tm)
    r0, r1 = d.get("room0"), d.get("room1")
    if not isinstance(r0, str) or r0 not in polys:
        raise fail(path, f"{where}.room0", "the id of a room in 'rooms'", r0)
    if exterior:
        n = unit_normal_towards(a, b, None, away_from=polys[r0])
        regions, kind = (r0, OUTDOOR), "exit"
    else:
        if not isinstance(r1, str) or r1 not in polys:
            raise fail(path, f"{where}.room1", "the id of a room in 'rooms'", r1)
        n = unit_normal_towards(a, b, polys[r1])
        regions, kind = (r0, r1), "door"
    return Portal(did, kind, regions, (float(center[0]), float(center[1]), float(center[2])),  # type: ignore[arg-type]
                  abs(x1 - x0), abs(y1 - y0), yaw_of_direction(float(n[0]), float(n[1])))
