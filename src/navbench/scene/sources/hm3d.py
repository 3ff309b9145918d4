"""HM3D semantics: ``<scene>.semantic.txt`` + the semantic mesh ``<scene>.semantic.glb``.

The text file (first line contains ``HM3D Semantic Annotations``) lists one object per line:
``<id>,<RRGGBB>,"<name>",<region id>``; names may contain commas and quotes (the name is
everything between the first ``,"`` and the last ``",``). It has no coordinates: each object's
box is the bounds of the semantic-mesh faces painted with its colour (vertex colours, or the
texture sampled at face centroids). Without the semantic mesh there is nothing to place, so the
loader asks for it.

Regions become rooms: the floor polygon is the XZ convex hull of the region's object faces, the
floor the lowest point, and the label is inferred from the objects (toilet → bathroom, bed →
bedroom, ...) since HM3D regions carry no category; both are recorded as approximations.

Frame: the semantic GLB is Z-up by default (``up="z"``: (x, y, z) → (x, z, −y)), as declared by
habitat-sim's HM3D dataset configs; pass ``up="y"`` for a Y-up export.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np

from navbench.errors import ConfigError
from navbench.geometry import vec3
from navbench.io import MAX_INT_DIGITS, max_pixels
from navbench.scene.mesh_assets import mesh_assets
from navbench.scene.meshfile import describe_load_error, placed, scene_parts
from navbench.scene.model import Room, Scene, SceneObject
from navbench.scene.sources._common import ccw, clean_label, fail, provenance, read_text
from navbench.scene.sources.mesh import UpAxis, check_up, load_mesh, to_habitat

HEADER = "HM3D Semantic Annotations"
_LINE = re.compile(r'^\s*(\d+)\s*,\s*([0-9A-Fa-f]{6})\s*,\s*"(.*)"\s*,\s*(-?\d+)\s*$')

#: Room label inferred from the objects of a region, in priority order.
ROOM_RULES: tuple[tuple[str, frozenset[str]], ...] = (
    ("bathroom", frozenset({"toilet", "shower", "bathtub", "bath tub", "shower stall"})),
    ("kitchen", frozenset({"stove", "oven", "refrigerator", "fridge", "dishwasher", "kitchen island"})),
    ("bedroom", frozenset({"bed", "double bed", "single bed", "bunk bed"})),
    ("dining room", frozenset({"dining table"})),
    ("living room", frozenset({"sofa", "couch", "tv", "television", "fireplace"})),
)


#: Smallest object extent (m) on any axis: flat semantic meshes get this thickness (sizes must
#: be positive in ``scene.json``).
MIN_EXTENT = 0.01

def parse_semantic_txt(path: str | Path) -> list[tuple[int, str, str, int]]:
    """``(id, RRGGBB upper-case, name, region)`` per object line."""
    path = Path(path)
    lines = read_text(path).splitlines()
    if not lines or HEADER not in lines[0]:
        raise fail(path, "line 1", f"a header containing '{HEADER}'", lines[0][:60] if lines else "empty file")
    out: list[tuple[int, str, str, int]] = []
    seen: set[int] = set()
    for n, text in enumerate(lines[1:], start=2):
        if not text.strip():
            continue
        m = _LINE.match(text)
        if m is None:
            raise fail(path, f"line {n}", '<id>,<RRGGBB>,"<name>",<region id>', text[:60])
        for k, what in ((1, "id"), (4, "region id")):
            if len(m.group(k).lstrip("-")) > MAX_INT_DIGITS:
                raise fail(path, f"line {n}: {what}", f"an integer of at most {MAX_INT_DIGITS} digits",
                           f"{len(m.group(k).lstrip('-'))} digits")
        oid = int(m.group(1))
        if oid in seen:
            raise fail(path, f"line {n}: id", "a unique object id", oid)
        seen.add(oid)
        out.append((oid, m.group(2).upper(), m.group(3), int(m.group(4))))
    return out


def _face_colors(geom: Any) -> np.ndarray | None:  # a trimesh.Trimesh: .visual is narrowed by .kind
    """(F,) int RGB keys (0xRRGGBB) of a trimesh geometry's faces, or None without colours."""
    vis = geom.visual
    faces = np.asarray(geom.faces)
    if vis.kind == "texture":
        uv = getattr(vis, "uv", None)
        mat = getattr(vis, "material", None)
        img = getattr(mat, "baseColorTexture", None) or getattr(mat, "image", None)
        if uv is None or img is None:
            return None
        tex = np.asarray(img.convert("RGB"))
        h, w = tex.shape[:2]
        c = np.asarray(uv)[faces].mean(axis=1) % 1.0
        px = np.clip(np.round(c[:, 0] * (w - 1)).astype(int), 0, w - 1)
        py = np.clip(np.round((1.0 - c[:, 1]) * (h - 1)).astype(int), 0, h - 1)
        rgb = tex[py, px].astype(np.int64)
    elif vis.kind == "vertex":
        rgb = np.asarray(vis.vertex_colors)[faces[:, 0], :3].astype(np.int64)
    elif vis.kind == "face":
        rgb = np.asarray(vis.face_colors)[:, :3].astype(np.int64)
    else:
        return None
    keys: np.ndarray = (rgb[:, 0] << 16) | (rgb[:, 1] << 8) | rgb[:, 2]
    return keys


def object_bounds(semantic_mesh: str | Path, up: UpAxis) -> dict[int, np.ndarray]:
    """Colour key → (N, 3) Habitat-frame vertices of the faces painted with it."""
    import trimesh

    path = Path(semantic_mesh)
    if not path.is_file():
        raise fail(path, "<file>", "an existing semantic mesh (.semantic.glb)", str(path))
    mesh_assets(path)  # side files outside the mesh's folder are refused before anything reads them
    try:
        # a trimesh.Scene (force="scene"); its geometries are read by duck typing below
        scene: Any = trimesh.load(str(path), force="scene", process=False)
    except Exception as e:
        raise fail(path, "<mesh>", "a readable GLB", describe_load_error(e)) from e
    parts: dict[int, list[np.ndarray]] = {}
    try:
        geoms = scene_parts(scene)  # not Scene.dump(): it decodes every texture (a copy each)
    except Exception as e:  # trimesh raises many kinds on inconsistent node graphs
        raise fail(path, "<mesh>", "a readable GLB scene graph", describe_load_error(e)) from e
    for n, (geom, transform) in enumerate(geoms):
        v = np.asarray(geom.vertices, dtype=float)
        faces = np.asarray(geom.faces)
        if faces.ndim != 2 or faces.shape[1] != 3 or faces.dtype.kind not in "iu" \
                or faces.min() < 0 or faces.max() >= len(v):
            raise fail(path, f"<mesh> geometry {n} faces", f"triangles indexing its {len(v)} vertices",
                       f"shape {faces.shape}, indices {faces.min()}..{faces.max()}")
        if v.ndim != 2 or v.shape[1] != 3 or not np.all(np.isfinite(v)):
            raise fail(path, f"<mesh> geometry {n} vertices", "finite (N, 3) positions", f"shape {v.shape}")
        v, faces = placed(v, faces, transform)
        mat = getattr(geom.visual, "material", None) if geom.visual.kind == "texture" else None
        img = getattr(mat, "baseColorTexture", None) or getattr(mat, "image", None)
        budget = max_pixels()
        if img is not None and img.size[0] * img.size[1] > budget:  # the header's size, not decoded
            raise fail(path, f"<mesh> geometry {n} colours", f"a colour texture within the pixel budget "
                       f"of {budget / 1e6:.1f} Mpx (raise NAVBENCH_MAX_TEXTURE_PIXELS to read it)",
                       f"{img.size[0]} x {img.size[1]} px")
        try:
            keys = _face_colors(geom)
        except (IndexError, ValueError, TypeError, OSError) as e:  # colours not matching the mesh
            raise fail(path, f"<mesh> geometry {n} colours", "one colour per vertex, face or texel",
                       describe_load_error(e)) from e
        if keys is None:
            continue
        if len(keys) != len(faces):
            raise fail(path, f"<mesh> geometry {n} colours", f"one colour per face ({len(faces)})", len(keys))
        v = to_habitat(v, up)
        order = np.argsort(keys, kind="stable")
        uniq, starts = np.unique(keys[order], return_index=True)
        for k, s, end in zip(uniq, starts, [*starts[1:], len(order)], strict=True):
            parts.setdefault(int(k), []).append(v[faces[order[s:end]].reshape(-1)])
    if not parts:
        raise fail(path, "<mesh>", "faces with vertex colours or a colour texture", "no colours")
    return {k: np.concatenate(p) for k, p in parts.items()}


def infer_room_label(labels: set[str]) -> str:
    """A room label from the labels of its objects (:data:`ROOM_RULES`), else ``"room"``."""
    for room, keys in ROOM_RULES:
        if labels & keys:
            return room
    return "room"


def load_hm3d(
    path: str | Path,
    *,
    semantic_mesh: str | Path | None = None,
    mesh: str | Path | None = None,
    up: UpAxis = "z",
    scene_id: str | None = None,
) -> Scene:
    """Load HM3D semantics into a :class:`Scene` (see module docstring).

    Args:
        path: ``<scene>.semantic.txt``.
        semantic_mesh: ``<scene>.semantic.glb`` (default: next to ``path``).
        mesh: static geometry (e.g. ``<scene>.basis.glb``); ``up`` applies to both meshes.
    """
    from shapely import MultiPoint

    path = Path(path)
    up = check_up(up)
    records = parse_semantic_txt(path)
    stem = path.name.removesuffix(".txt").removesuffix(".semantic")
    if semantic_mesh is None:
        guess = path.with_name(f"{stem}.semantic.glb")
        if not guess.is_file():
            raise ConfigError(
                f"{path.name}: HM3D object positions come from the semantic mesh; pass "
                f"--semantic-mesh {stem}.semantic.glb (not found next to the .txt)")
        semantic_mesh = guess
    parts = object_bounds(semantic_mesh, up)
    placed: list[tuple[int, str, int, np.ndarray]] = []
    unplaced = 0
    for oid, color, name, region in records:
        pts = parts.get(int(color, 16))
        if pts is None:
            unplaced += 1
            continue
        placed.append((oid, clean_label(name), region, pts))
    rooms: list[Room] = []
    by_region: dict[int, list[tuple[str, np.ndarray]]] = {}
    for _, label, region, pts in placed:
        if region >= 0:
            by_region.setdefault(region, []).append((label, pts))
    floors: list[float] = []
    for region in sorted(by_region):
        pts = np.concatenate([p for _, p in by_region[region]])
        hull = MultiPoint(pts[:, [0, 2]]).convex_hull
        if hull.geom_type != "Polygon":
            continue
        y0, y1 = float(pts[:, 1].min()), float(pts[:, 1].max())
        floors.append(y0)
        label = infer_room_label({lab for lab, _ in by_region[region]})
        rooms.append(Room(f"region{region}", label, ccw(list(hull.exterior.coords)), y0,
                          max(y1 - y0, 0.1), 0))
    levels = _levels(floors)
    rooms = [Room(r.id, r.label, r.floor_polygon, r.floor_y, r.height, levels[i]) for i, r in enumerate(rooms)]
    room_ids = {r.id for r in rooms}
    objects = []
    for oid, label, region, pts in placed:
        lo, hi = pts.min(axis=0), pts.max(axis=0)
        rid = f"region{region}" if f"region{region}" in room_ids else None
        objects.append(SceneObject(f"object{oid}", label, vec3((lo + hi) / 2), rid,
                                   vec3(np.maximum(hi - lo, MIN_EXTENT))))
    meshes = (load_mesh(mesh, up),) if mesh is not None else ()
    approx = ["object boxes are the axis-aligned bounds of their semantic-mesh faces",
              f"flat objects (a picture, a rug) get a {MIN_EXTENT} m thickness",
              "room polygons are convex hulls of their objects; room labels inferred from objects"]
    return Scene(
        scene_id or stem, "indoor", "hm3d", rooms=tuple(rooms), objects=tuple(objects), meshes=meshes,
        meta=provenance(path, "hm3d", approx, semantic_mesh=Path(semantic_mesh).name,
                        unplaced_objects=unplaced, has_geometry=bool(meshes), up=up),
    )


def _levels(floors: list[float], gap: float = 1.5) -> list[int]:
    """Storey index per floor height: a new storey starts after a jump of more than ``gap`` m."""
    order = sorted(set(round(f, 3) for f in floors))
    level_of: dict[float, int] = {}
    lvl = 0
    for i, f in enumerate(order):
        if i and f - order[i - 1] > gap:
            lvl += 1
        level_of[f] = lvl
    return [level_of[round(f, 3)] for f in floors]
