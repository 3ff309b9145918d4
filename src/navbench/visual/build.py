"""The visual build of a Scene: :func:`build_visuals` → :class:`SceneVisuals` (meshes, placed
geoms with their semantics, materials, textures, lights, sky).

Every visual geom names the scene entity it shows (``ref``, ``label``, ``kind``: the same ids
and labels as the collision geometry of ``sim.world``), so segmentation stays exact. Objects
are built in their local frame (``visual.mesh``: front +Z) and placed at their box's bottom
centre, rotated by ``box.yaw + π`` (scene objects face local -Z, the Habitat forward).
Instances of an outdoor category share meshes (a few seeded variants per category and size),
which keeps a 1 km² city small. Textures come from the on-disk cache (``visual.textures``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from navbench.rng import derive
from navbench.scene.model import Box, Scene
from navbench.visual import architecture as arch
from navbench.visual.indoor_objects import build_indoor
from navbench.visual.materials import (
    MATERIALS,
    Material,
    floor_material,
    resolve,
    split_key,
    wall_material,
)
from navbench.visual.mesh import Part, merge
from navbench.visual.outdoor_textures import FACADE_BY_COLOUR, OUTDOOR_MATERIALS, TILE_M
from navbench.visual.palette import PALETTE, Palette
from navbench.visual.shadows import shadow_parts
from navbench.visual.storefront import scene_storefronts, sign_materials
from navbench.visual.textures import texture

#: Bump whenever a builder, material choice or texture changes: it keys the scene cache.
VISUAL_VERSION = "15"  # 15: facades drawn in their building_colours word (brick, concrete, render)
#: Seeded variants per outdoor category and box size (instances share these meshes).
OUTDOOR_VARIANTS = 4
OBJECT_KINDS = frozenset({"furniture", "object"})
#: Box kinds drawn as their own collision box (no coplanar neighbours, box-shaped anyway).
SELF_DRAWN = frozenset({"ground", "sidewalk", "sign", "curb", "green", "water"})
#: Wall boxes of one entity (``ref``; anonymous walls: ``None``) and one paint are drawn as one
#: mesh (outdoors: per square tile of this side, m, so that culling still works): fewer draws.
WALL_TILE_M = 40.0
#: Direction the sunlight travels (world frame; towards the ground).
SUN_DIR = (0.35, -1.0, 0.25)


@dataclass(frozen=True)
class VisualGeom:
    """One placed mesh with one material.

    Attributes:
        name: unique geom name (``vis:<n>``).
        mesh: key into :attr:`SceneVisuals.meshes` (vertices in the mesh's own frame).
        material: material key (resolved in :attr:`SceneVisuals.materials`).
        pos: world position of the mesh frame (m); yaw: rotation about +Y (rad).
        ref, label, kind: the scene entity shown (as the collision geom's ``GeomInfo``).
        layer: ``"object"``, ``"near"``/``"far"`` (level-of-detail pair of an outdoor object),
            ``"structure"`` (walls, floors, ground, buildings), ``"ceiling"`` or ``"shadow"``.
    """

    name: str
    mesh: str
    material: str
    pos: tuple[float, float, float]
    yaw: float
    ref: str | None
    label: str
    kind: str
    layer: str


@dataclass(frozen=True)
class Light:
    """A light: ``kind`` ``"sun"`` (directional, ``dir``) or ``"point"`` (at ``pos``)."""

    kind: str
    pos: tuple[float, float, float]
    dir: tuple[float, float, float]
    diffuse: float
    castshadow: bool = False


@dataclass
class SceneVisuals:
    """Everything the renderers need to draw a scene."""

    meshes: dict[str, Part] = field(default_factory=dict)
    geoms: list[VisualGeom] = field(default_factory=list)
    materials: dict[str, Material] = field(default_factory=dict)
    textures: dict[str, np.ndarray] = field(default_factory=dict)
    tiles: dict[str, float] = field(default_factory=dict)  # texture key -> metres per tile
    lights: list[Light] = field(default_factory=list)
    outdoor: bool = False
    box_materials: dict[str, str] = field(default_factory=dict)  # box id -> material (drawn as itself)
    uniform: dict[str, float] = field(default_factory=dict)  # "<key>:u" material -> metres per tile

    def add(self, part: Part, *, ref: str | None, label: str, kind: str, layer: str,
            pos: tuple[float, float, float] = (0.0, 0.0, 0.0), yaw: float = 0.0, mesh_key: str | None = None) -> None:
        """Register a mesh (once per ``mesh_key``) and one placed geom of it."""
        key = mesh_key or f"m{len(self.meshes)}"
        if key not in self.meshes:
            if len(part.faces) == 0:
                return
            self.meshes[key] = part
        self.geoms.append(VisualGeom(f"vis:{len(self.geoms)}", key, part.material, pos, yaw, ref, label, kind, layer))


def _far_version(parts: list[Part]) -> Part:
    """All parts as one mesh with the material of the largest part (by triangle area)."""
    def area(p: Part) -> float:
        t = p.vertices[p.faces]
        return float(np.linalg.norm(np.cross(t[:, 1] - t[:, 0], t[:, 2] - t[:, 0]), axis=1).sum())

    main = max(parts, key=area).material
    return merge([Part(p.vertices, p.faces, p.uv, main) for p in parts])[0]


def _opaque(m: Material) -> Material:
    """Nearly opaque (alpha ≥ 0.85: tinted glass, shop windows, water) is drawn opaque: the CPU
    renderer sorts and blends transparent geoms, ~30 % of a street frame."""
    return replace(m, rgba=(*m.rgba[:3], 1.0)) if 0.85 <= m.rgba[3] < 1.0 else m


def material_table() -> dict[str, Material]:
    """Indoor and outdoor base materials by key."""
    return {**MATERIALS, **OUTDOOR_MATERIALS}


def _facade(b: Box, colours: object, seed: int) -> str:
    """Facade material of building box ``b``: the one of its colour word in
    ``scene.meta["building_colours"]`` (what route instructions name), else a seeded pick."""
    colour = colours.get(b.ref or b.id) if isinstance(colours, dict) else None
    if isinstance(colour, str) and colour in FACADE_BY_COLOUR:
        return FACADE_BY_COLOUR[colour]
    mats = ("facade_brick", "facade_concrete", "facade_glass")
    return mats[int(derive(seed, "facade", b.ref or b.id).integers(len(mats)))]


def _room_floor_label(label: str) -> str:
    return f"floor/{label}" if label else "floor"


def _object_parts(b: Box, outdoor: bool, seed: int) -> tuple[list[Part], str | None]:
    """Local parts of an object box and a shared mesh key (outdoor variants) or ``None``."""
    size = (float(b.size[0]), float(b.size[1]), float(b.size[2]))
    label = b.label or "object"
    if outdoor:
        from navbench.visual.outdoor_objects import OUTDOOR_BUILDERS

        if label in OUTDOOR_BUILDERS:
            q = (round(size[0], 2), round(size[1], 2), round(size[2], 2))
            var = int(derive(seed, "variant", b.ref or b.id).integers(OUTDOOR_VARIANTS))
            rng = derive(seed, "outdoor-object", label, q, var)
            return merge(OUTDOOR_BUILDERS[label](q, rng)), f"{label}|{q}|{var}"
    return merge(build_indoor(label, size, derive(seed, "object", b.ref or b.id))), None


def build_visuals(scene: Scene, *, seed: int = 0, cache: str | Path | None = None,
                  texture_size: int = 128, ceilings: bool = True, shadow_maps: bool = False,
                  use_cache: bool = True) -> SceneVisuals:
    """Build the appearance of ``scene`` (see :func:`_build`), or load it from the cache folder
    (``visual.textures.cache_dir``; keyed by the scene's content, ``seed`` and the options)."""
    if not use_cache:
        return _build(scene, seed=seed, cache=None, texture_size=texture_size, ceilings=ceilings,
                      shadow_maps=shadow_maps, use_cache=False)
    from navbench.io import max_pixels
    from navbench.scene.io import dumps
    from navbench.visual.store import load_visuals, save_visuals, visuals_key
    from navbench.visual.textures import TEXTURE_VERSION, cache_dir

    # the pixel budget decides whether an imported mesh's large texture is drawn (see visual.imported)
    budget = max_pixels() if any(m.file for m in scene.meshes) else None
    key = visuals_key(dumps(scene), seed, texture_size, ceilings, shadow_maps, VISUAL_VERSION, TEXTURE_VERSION,
                      *(() if budget is None else (budget,)))
    path = cache_dir(cache) / f"scene-{key}.npz"
    vis = load_visuals(path, SceneVisuals, VisualGeom, Light)
    if vis is None:
        vis = _build(scene, seed=seed, cache=cache, texture_size=texture_size, ceilings=ceilings,
                     shadow_maps=shadow_maps)
        save_visuals(path, vis)
    return vis


def _build(scene: Scene, *, seed: int, cache: str | Path | None, texture_size: int, ceilings: bool,
           shadow_maps: bool, use_cache: bool = True) -> SceneVisuals:
    """Build the appearance of ``scene`` (deterministic for ``seed``; textures cached on disk).

    Objects (boxes of kind ``furniture``/``object``) get category meshes; walls are painted
    per room on each face; room floors get a room-type material; rooms get ceilings and one
    ceiling light each; surfaces, ground slabs, roads and buildings get ground/facade meshes.
    Outdoors the sun's shadows are baked onto the ground (``visual.shadows``), or, with
    ``shadow_maps``, left to the renderer's shadow maps (several times slower on a CPU).
    Outdoor objects also get a one-mesh far version (layer ``"far"``) that the renderer swaps
    in for the detailed parts (layer ``"near"``) beyond its level-of-detail distance.
    """
    vis = SceneVisuals(outdoor=scene.kind != "indoor")
    table = material_table()

    def tile_of(mat: str) -> float:
        tex = table.get(split_key(mat)[0], table["generic"]).texture
        return TILE_M.get(tex, 1.0) if tex else 1.0

    object_room = {o.id: o.room_id for o in scene.objects}
    place_ids = {p.id for p in scene.places if len(p.footprint) >= 2}
    rooms = {r.id: r for r in scene.rooms}
    locate = arch.RoomLocator(scene.rooms)
    paint: dict[str | None, str] = {}

    def paint_of(room_id: str | None) -> str:
        if room_id not in paint:
            r = rooms.get(room_id) if room_id else None
            paint[room_id] = (wall_material(r.label, derive(seed, "paint", r.id)) if r
                              else "paint@e6e1d8")
        return paint[room_id]

    surfaces = {s.id: s for s in scene.surfaces}
    colours = scene.meta.get("building_colours", {}) if isinstance(scene.meta, dict) else {}
    refs_with_geometry = {b.ref for b in scene.boxes} | {m.ref for m in scene.meshes}
    walls: dict[tuple[str | None, str, tuple[int, int]], list[Part]] = {}
    palette = Palette()

    def shade(key: str) -> Material:
        return _opaque(resolve(key, table))

    for b in scene.boxes:
        if b.kind in OBJECT_KINDS:
            parts, key = _object_parts(b, vis.outdoor and object_room.get(b.ref or "") is None, seed)
            bottom = (float(b.center[0]), float(b.center[1]) - b.size[1] / 2, float(b.center[2]))
            far = _far_version(parts) if key and len(parts) > 1 else None
            parts = palette.merge(parts, {p.material: shade(p.material) for p in parts})
            for i, p in enumerate(parts):
                vis.add(p, ref=b.ref, label=b.label or b.kind, kind=b.kind, layer="near" if far else "object",
                        pos=bottom, yaw=b.yaw + math.pi, mesh_key=f"{key}#{i}" if key else None)
            if far is not None:
                vis.add(far, ref=b.ref, label=b.label or b.kind, kind=b.kind, layer="far", pos=bottom,
                        yaw=b.yaw + math.pi, mesh_key=f"{key}#far")
        elif b.kind == "wall":
            by_mat: dict[str, list[Part]] = {}
            for part, n, c in arch.box_faces(b):
                if n[1] > 0.5:
                    mat = "paint@f0eee8"
                elif n[1] < -0.5:
                    continue
                else:
                    probe = c + 0.08 * n
                    r = locate.room_at(float(probe[0]), float(probe[1]), float(probe[2]))
                    mat = paint_of(r.id if r else None)
                by_mat.setdefault(mat, []).append(arch.with_material(part, mat))
            tile = ((math.floor(b.center[0] / WALL_TILE_M), math.floor(b.center[2] / WALL_TILE_M))
                    if vis.outdoor else (0, 0))
            walls.setdefault((b.ref, b.label or "wall", tile), []).extend(q for v in by_mat.values() for q in v)
        elif b.kind == "floor" and b.ref in rooms and b.ref not in surfaces:
            r = rooms[b.ref]
            mat = floor_material(r.label, derive(seed, "floor", r.id))
            for p in merge([arch.with_material(f, mat) for f, _, _ in arch.box_faces(b, lift=arch.LIFT["floor"])]):
                vis.add(p, ref=b.ref, label=_room_floor_label(r.label), kind="floor", layer="structure")
        elif b.kind == "building":
            vis.box_materials[b.id] = _facade(b, colours, seed)
        elif b.kind == "road":
            from navbench.visual.outdoor_textures import ROAD_TILE_M

            top = arch.road_box(Box(b.id, b.kind, (b.center[0], b.center[1] + arch.LIFT["road"], b.center[2]),
                                    b.size, b.yaw), "road", ROAD_TILE_M)
            sides = [arch.with_material(f, "asphalt") for f, n, _ in arch.box_faces(b, lift=arch.LIFT["road"])
                     if abs(n[1]) < 0.5]
            for p in [top, *merge(sides)]:
                vis.add(p, ref=b.ref, label=b.label or b.kind, kind=b.kind, layer="structure")
        elif b.kind == "door":  # a closed door leaf (a house's entrance): wooden planks
            faces = [arch.with_material(f, "door_wood") for f, n, _ in arch.box_faces(b) if n[1] > -0.5]
            for p in merge(faces):
                vis.add(p, ref=b.ref, label=b.label or b.kind, kind=b.kind, layer="structure")
        elif b.kind == "sign" and b.ref in place_ids:
            continue  # drawn by the place's storefront (below), exactly over this box
        elif b.kind in SELF_DRAWN:  # drawn as the collision box itself, with a material
            cls = surfaces[b.ref].cls if b.ref in surfaces else b.kind
            vis.box_materials[b.id] = arch.GROUND_MATERIAL.get(cls, "concrete" if b.kind != "sign" else "shop_frame")
        else:  # crosswalk, stairs, ... : textured box lifted off what it lies on
            cls = surfaces[b.ref].cls if b.ref in surfaces else b.kind
            mat = arch.GROUND_MATERIAL.get(cls, "concrete" if b.kind != "sign" else "shop_frame")
            faces = [arch.with_material(f, mat) for f, n, _ in
                     arch.box_faces(b, uv_scale=tile_of(mat), lift=arch.LIFT.get(cls, 0.0)) if n[1] > -0.5]
            label = b.label
            if b.kind == "floor" and b.ref in rooms:
                label = _room_floor_label(rooms[b.ref].label)
            for p in merge(faces):
                vis.add(p, ref=b.ref, label=label or b.kind, kind=b.kind, layer="structure")

    for (ref, label, _), faces in walls.items():  # one geom per entity, paint and tile: fewer draws
        for p in merge(faces):
            vis.add(p, ref=ref, label=label, kind="wall", layer="structure")

    has_floor = any(b.kind == "floor" for b in scene.boxes) or bool(scene.meshes)
    for s in scene.surfaces:
        if s.id in refs_with_geometry or (s.cls == "floor" and has_floor):
            continue
        mat = arch.GROUND_MATERIAL.get(s.cls, "paving")
        prism = arch.polygon_prism(s, mat, thickness=0.1, tile=tile_of(mat), lift=arch.LIFT.get(s.cls, 0.0))
        if prism is not None:
            vis.add(prism, ref=s.id, label=s.cls, kind=s.cls, layer="structure")
        has_floor = has_floor or s.cls == "floor"
    if not has_floor:
        for r in scene.rooms:
            floor = arch.room_slab(r, floor_material(r.label, derive(seed, "floor", r.id)),
                                   r.floor_y + arch.LIFT["floor"], facing_down=False)
            if floor is not None:
                vis.add(floor, ref=r.id, label=_room_floor_label(r.label), kind="floor", layer="structure")

    sign_mats: dict[str, Material] = {}
    for place, parts, images in scene_storefronts(scene, seed):
        for p in merge(parts):
            vis.add(p, ref=place.id, label=place.category, kind="sign", layer="structure")
        vis.textures.update(images)
        sign_mats.update(sign_materials(images))
    for r in scene.rooms:
        top_y = r.floor_y + r.height
        if ceilings:
            ceiling = arch.room_slab(r, "ceiling", top_y - 0.002, facing_down=True)
            if ceiling is not None:
                vis.add(ceiling, ref=r.id, label="ceiling", kind="ceiling", layer="ceiling")
        cx, cz = np.asarray(r.floor_polygon, float).mean(axis=0)
        vis.lights.append(Light("point", (float(cx), top_y - 0.3, float(cz)), (0.0, -1.0, 0.0), 0.35))
    if vis.outdoor:
        vis.lights.append(Light("sun", (0.0, 200.0, 0.0), SUN_DIR, 0.6, castshadow=shadow_maps))
        if not shadow_maps:
            for p in shadow_parts(scene, SUN_DIR):  # last: the renderer leaves them out of segmentation
                vis.add(p, ref=None, label="shadow", kind="shadow", layer="shadow")
    else:
        vis.lights.append(Light("sun", (0.0, 50.0, 0.0), (0.3, -1.0, 0.2), 0.25))

    if any(m.file for m in scene.meshes):  # imported meshes drawn with their own materials
        from navbench.visual.imported import add_imported

        sign_mats.update(add_imported(vis, scene.meshes))
    vis.materials.update(sign_mats)
    vis.materials.update(palette.materials)
    atlas = palette.finish(vis.meshes)
    if atlas is not None:
        vis.textures[PALETTE] = atlas
    for g in vis.geoms:
        if g.material not in vis.materials:
            vis.materials[g.material] = _opaque(resolve(g.material, table))
    for key in set(vis.box_materials.values()):
        vis.materials[f"{key}:u"] = _opaque(resolve(key, table))
        vis.uniform[f"{key}:u"] = tile_of(key)
    for key in sorted({m.texture for m in vis.materials.values() if m.texture} - set(sign_mats) - {PALETTE}):
        vis.textures[key] = texture(key, seed, texture_size, cache=cache, use_cache=use_cache)
        vis.tiles[key] = TILE_M.get(key, 1.0)
    return vis


__all__ = ["Light", "SceneVisuals", "VisualGeom", "build_visuals", "split_key"]
