"""A MuJoCo world built with ``MjSpec`` from any :class:`~navbench.scene.Scene`.

Everything is in the Habitat frame (gravity −Y, metres). Static geometry goes directly in
``worldbody``: scene boxes (floors, walls, furniture, curbs, stairs, roads ...) as box geoms;
surfaces (sidewalk, road, ... polygons) as thin prisms (convex pieces of a constrained
triangulation when the polygon is concave or has holes); room floors from room polygons when
the scene has no floor geometry; triangle meshes as visual-only mesh geoms plus one collision
heightfield rasterised from them (MuJoCo collides mesh geoms as convex hulls, which would
fill rooms). Every geom is named and mapped back to its scene id and label (:class:`GeomInfo`)
for segmentation, contacts and surface classes; friction comes from the surface class.
The floor of a room (a floor box whose ``ref`` is a room id, or a room-polygon floor) is
labelled ``"floor/<room label>"`` (e.g. ``"floor/kitchen"``) for segmentation.
"""

from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

import mujoco
import numpy as np
import shapely

from navbench.scene.model import Scene, Surface
from navbench.sim.embodiments import (
    COLLIDE_BOX,
    COLLIDE_CONVEX,
    COLLIDE_HFIELD,
    GROUP_HFIELD,
    GROUP_STATIC,
    GROUP_VISUAL,
    ROBOT_PREFIX,
    Embodiment,
)
from navbench.sim.robot import INNER_GEOMS, add_robot

if TYPE_CHECKING:
    from navbench.visual.build import SceneVisuals

#: Default sliding friction per surface class (a Surface's own ``friction`` wins).
SURFACE_FRICTION: dict[str, float] = {
    "floor": 0.8, "sidewalk": 0.9, "road": 0.8, "crosswalk": 0.8, "green": 0.5,
    "water": 0.05, "building": 0.8, "stairs": 0.9, "curb": 0.9, "terrain": 0.7,
}
#: Classes a robot may stand on (NSR "preferred" default when no Surface says otherwise).
PREFERRED_CLASSES = frozenset({"floor", "sidewalk", "crosswalk", "stairs"})
#: Geometry kinds that are ground, not obstacles (contacts with them are not collisions).
GROUND_KINDS = frozenset(
    {"floor", "surface", "sidewalk", "road", "crosswalk", "green", "water", "stairs", "curb",
     "terrain", "ground", "ramp"}
)
_COLOURS: dict[str, tuple[float, float, float]] = {
    "floor": (0.72, 0.62, 0.5), "wall": (0.9, 0.88, 0.84), "furniture": (0.45, 0.3, 0.2),
    "object": (0.3, 0.5, 0.7), "road": (0.3, 0.3, 0.32), "sidewalk": (0.7, 0.7, 0.68),
    "crosswalk": (0.9, 0.9, 0.9), "green": (0.35, 0.6, 0.3), "water": (0.2, 0.4, 0.8),
    "curb": (0.6, 0.6, 0.6), "building": (0.75, 0.55, 0.45), "stairs": (0.6, 0.55, 0.5),
}


@dataclass(frozen=True)
class GeomInfo:
    """What one MuJoCo geom stands for.

    Attributes:
        name: geom name (``box:<id>``, ``surface:<id>:<k>``, ``room:<id>``, ``mesh:<id>``,
            ``hfield``, ``robot/...``).
        ref: scene object / surface / room id, or ``None``.
        label: semantic label (``"table"``, ``"wall"``, ``"sidewalk"``...).
        kind: geometry kind (``"wall"``, ``"floor"``, ``"robot"``...).
        surface: surface class when stood on (``"floor"``, ``"road"``..., else the kind).
        preferred: whether standing on it counts as a preferred surface (NSR).
        ground: True for ground geometry (contacts are support, not collisions).
        friction: sliding friction coefficient.
        visual: a non-colliding visual-layer geom (``sim.appearance``), never an obstacle.
        layer: its visual layer (``visual.build.VisualGeom.layer``), ``""`` for collision geoms.
        daylight: drawn lit by daylight rather than room light (``sim.exposure``).
    """

    name: str
    ref: str | None
    label: str
    kind: str
    surface: str
    preferred: bool
    ground: bool
    friction: float
    visual: bool = False
    layer: str = ""
    daylight: bool = False


@dataclass
class World:
    """A compiled world: the model and per-geom metadata (index = MuJoCo geom id).

    ``robot_geoms`` are the robot's outer collision geoms (sole mesh, hull: its extent, for
    obstacle distances); ``robot_inner_geoms`` lie inside them (capsule feet, lifted sole;
    :mod:`navbench.sim.robot`) and only carry the contacts with static boxes.
    """

    model: mujoco.MjModel
    geoms: tuple[GeomInfo, ...]
    robot_body: int
    robot_geoms: np.ndarray
    static_geoms: np.ndarray
    obstacle_geoms: np.ndarray
    aabb_lo: np.ndarray  # (ngeom, 3) world AABB of static geoms (robot rows unused)
    aabb_hi: np.ndarray
    appearance: bool = False  # visual layer present: renderers draw it instead of collision geoms
    robot_inner_geoms: np.ndarray = field(default_factory=lambda: np.zeros(0, int))
    sky: bool = False  # a daylight sky behind everything (outdoor / hybrid appearance): hazy distance

    def geom_id(self, name: str) -> int:
        """MuJoCo id of a named geom (−1 if absent)."""
        return mujoco.mj_name2id(self.model, mujoco.mjtObj.mjOBJ_GEOM, name)


def room_floor_label(room_label: str) -> str:
    """Segmentation label of a room's floor: ``"floor/<room label>"`` (region annotation, as
    habitat's semantic regions); the surface class stays ``"floor"``."""
    return f"floor/{room_label}" if room_label else "floor"


def _yaw_quat(yaw: float) -> list[float]:
    """MuJoCo quaternion [w, x, y, z] of a rotation ``yaw`` about +Y."""
    return [math.cos(yaw / 2.0), 0.0, math.sin(yaw / 2.0), 0.0]


def _friction(cls: str, surfaces: dict[str, Surface], ref: str | None) -> float:
    if ref is not None and ref in surfaces:
        return surfaces[ref].friction
    return SURFACE_FRICTION.get(cls, 0.8)


def _info(name: str, kind: str, label: str, ref: str | None,
          surfaces: dict[str, Surface]) -> GeomInfo:
    surf = surfaces.get(ref) if ref is not None else None
    cls = surf.cls if surf is not None else kind
    preferred = surf.preferred if surf is not None else cls in PREFERRED_CLASSES
    return GeomInfo(name, ref, label or kind, kind, cls, preferred,
                    kind in GROUND_KINDS or surf is not None, _friction(cls, surfaces, ref))


def _convex_pieces(poly: shapely.Polygon) -> list[np.ndarray]:
    """Convex XZ pieces of a polygon: itself when convex without holes, else CDT triangles."""
    poly = shapely.make_valid(poly)
    polys = [g for g in getattr(poly, "geoms", [poly]) if g.geom_type == "Polygon" and g.area > 0]
    out: list[np.ndarray] = []
    for p in polys:
        if not p.interiors and abs(p.convex_hull.area - p.area) < 1e-9 * max(p.area, 1.0):
            out.append(np.asarray(p.exterior.coords)[:-1])
            continue
        tris = shapely.constrained_delaunay_triangles(p)
        # slivers (near-collinear vertices) have no convex hull for MuJoCo; they carry no area
        out.extend(np.asarray(t.exterior.coords)[:-1] for t in tris.geoms if _solid(t))
    return out


def _solid(tri: shapely.Polygon, min_height: float = 1e-3) -> bool:
    """Whether a triangle is thicker than ``min_height`` m (area / longest edge)."""
    c = np.asarray(tri.exterior.coords)[:-1]
    longest = max(float(np.linalg.norm(c[i] - c[i - 1])) for i in range(len(c)))
    return longest > 0 and 2.0 * tri.area / longest > min_height


def _prism(spec: mujoco.MjSpec, name: str, xz: np.ndarray, y_top: float, thick: float) -> None:
    """Add a mesh asset: the convex XZ polygon extruded from ``y_top - thick`` to ``y_top``."""
    n = len(xz)
    verts = np.zeros((2 * n, 3))
    verts[:n, 0], verts[:n, 1], verts[:n, 2] = xz[:, 0], y_top, xz[:, 1]
    verts[n:, 0], verts[n:, 1], verts[n:, 2] = xz[:, 0], y_top - thick, xz[:, 1]
    mesh = spec.add_mesh()
    mesh.name = name
    mesh.uservert = verts.ravel().tolist()


def heightfield_from_meshes(
    meshes: list[tuple[np.ndarray, np.ndarray]], cell: float = 0.05, headroom: float = 2.0
) -> tuple[np.ndarray, tuple[float, float, float, float], float]:
    """Rasterise triangle meshes into a 2.5D height grid (max height per cell).

    Points are sampled on every triangle (vertical walls included) at ≤ ``cell / 2`` spacing;
    in each cell, points higher than ``headroom`` above the cell's lowest point (ceilings,
    upper storeys) are ignored. The headroom is per cell, not above the scene's lowest point:
    with a global cut, ground more than ``headroom`` above the lowest point (the plateau of a
    2.1 m ramp) was missing and a robot driving onto it fell through. Cells without points lie
    at the lowest point. Returns ``(heights, (x0, z0, x1, z1), base_y)`` with ``heights[r, c]``
    the top at ``x = x0 + c·cell``, ``z = z0 + r·cell`` (row index grows with +Z).
    """
    pts = []
    for v, f in meshes:
        tri = np.asarray(v, float)[np.asarray(f, int)]
        if len(tri) == 0:
            continue
        # samples per edge from each triangle's own size (one global k made big scans
        # with a few long triangles cost k^2 points on every small one)
        e = np.maximum(np.linalg.norm(tri[:, 1] - tri[:, 0], axis=1),
                       np.linalg.norm(tri[:, 2] - tri[:, 0], axis=1))
        ks = np.maximum(2, np.ceil(e / (cell / 2.0)).astype(int) + 1)
        for k in np.unique(ks):
            sel = tri[ks == k]
            a, b = np.meshgrid(np.linspace(0, 1, k), np.linspace(0, 1, k))
            keep = (a + b) <= 1.0
            a, b = a[keep], b[keep]
            p = sel[:, None, 0] + a[None, :, None] * (sel[:, None, 1] - sel[:, None, 0]) \
                + b[None, :, None] * (sel[:, None, 2] - sel[:, None, 0])
            pts.append(p.reshape(-1, 3))
    if not pts:
        raise ValueError("no triangles to rasterise")
    p = np.concatenate(pts)
    base = float(p[:, 1].min())
    x0, z0 = p[:, 0].min(), p[:, 2].min()
    nc = math.floor((p[:, 0].max() - x0) / cell) + 1
    nr = math.floor((p[:, 2].max() - z0) / cell) + 1
    h = np.full((max(nr, 2), max(nc, 2)), base)
    ci = np.rint((p[:, 0] - x0) / cell).astype(int).clip(0, h.shape[1] - 1)
    ri = np.rint((p[:, 2] - z0) / cell).astype(int).clip(0, h.shape[0] - 1)
    low = np.full(h.shape, np.inf)
    np.minimum.at(low, (ri, ci), p[:, 1])
    keep = p[:, 1] <= low[ri, ci] + headroom
    np.maximum.at(h, (ri[keep], ci[keep]), p[keep, 1])
    x1, z1 = x0 + (h.shape[1] - 1) * cell, z0 + (h.shape[0] - 1) * cell
    return h, (float(x0), float(z0), float(x1), float(z1)), base


def build_world(
    scene: Scene,
    embodiment: Embodiment | None = None,
    *,
    surface_thickness: float = 0.1,
    hfield_cell: float = 0.05,
    offscreen: tuple[int, int] = (640, 480),
    visuals: bool | SceneVisuals = False,
    seed: int = 0,
    cache: str | Path | None = None,
) -> World:
    """Build and compile the MuJoCo model of ``scene`` (plus the robot when given).

    Physics: 200 Hz (``timestep = 0.005``), gravity −Y, elliptic cones. Depth clip planes are
    set so that rendered depth covers [0.05, 1000] m. ``visuals``: add the visual layer
    (``True``: :func:`navbench.visual.build.build_visuals` with ``seed`` and texture ``cache``,
    or a prebuilt :class:`SceneVisuals`); collision geometry is the same either way.
    """
    spec = mujoco.MjSpec()
    spec.modelname = scene.id or "scene"
    spec.option.timestep = 0.005
    spec.option.gravity = [0.0, -9.81, 0.0]
    spec.option.integrator = mujoco.mjtIntegrator.mjINT_IMPLICITFAST
    spec.visual.global_.offwidth = max(offscreen[0], 64)
    spec.visual.global_.offheight = max(offscreen[1], 64)
    spec.visual.headlight.ambient = [0.35, 0.35, 0.35]
    spec.visual.headlight.diffuse = [0.5, 0.5, 0.5]
    if visuals is False:
        light = spec.worldbody.add_light()
        light.type = mujoco.mjtLightType.mjLIGHT_DIRECTIONAL
        light.dir = [0.3, -1.0, 0.2]
        light.diffuse = [0.5, 0.5, 0.5]
        light.castshadow = False

    surfaces = {s.id: s for s in scene.surfaces}
    room_labels = {r.id: r.label for r in scene.rooms}
    infos: dict[str, GeomInfo] = {}
    made: dict[str, mujoco.MjsGeom] = {}

    def add(name: str, info_kind: str, label: str, ref: str | None) -> mujoco.MjsGeom:
        g = spec.worldbody.add_geom()
        g.name = name
        info = _info(name, info_kind, label, ref, surfaces)
        infos[name] = info
        g.friction = [info.friction, 0.005, 0.0001]
        g.rgba = [*_COLOURS.get(info.surface if info.ground else info_kind, (0.6, 0.6, 0.6)), 1]
        g.group = GROUP_STATIC
        g.contype, g.conaffinity = 1, 1
        made[name] = g
        return g

    for b in scene.boxes:
        label = b.label
        if b.kind == "floor" and b.ref in room_labels and b.ref not in surfaces:
            label = room_floor_label(room_labels[b.ref])
        g = add(f"box:{b.id}", b.kind, label, b.ref)
        g.type = mujoco.mjtGeom.mjGEOM_BOX
        g.size = [max(s / 2.0, 1e-4) for s in b.size]
        g.pos = list(b.center)
        g.quat = _yaw_quat(b.yaw)

    refs_with_geometry = {b.ref for b in scene.boxes} | {m.ref for m in scene.meshes}
    has_floor = any(b.kind == "floor" for b in scene.boxes) or bool(scene.meshes)
    for s in scene.surfaces:
        if s.id in refs_with_geometry or (s.cls == "floor" and has_floor):
            continue
        poly = shapely.Polygon(s.polygon, [list(h) for h in s.holes])
        for k, piece in enumerate(_convex_pieces(poly)):
            mname = f"surface:{s.id}:{k}"
            _prism(spec, mname, piece, s.y, surface_thickness)
            g = add(mname, s.cls, s.cls, s.id)
            g.type = mujoco.mjtGeom.mjGEOM_MESH
            g.meshname = mname
        has_floor = has_floor or s.cls == "floor"
    if not has_floor:
        for r in scene.rooms:
            poly = shapely.Polygon(r.floor_polygon)
            for k, piece in enumerate(_convex_pieces(poly)):
                mname = f"room:{r.id}:{k}"
                _prism(spec, mname, piece, r.floor_y, surface_thickness)
                g = add(mname, "floor", room_floor_label(r.label), r.id)
                g.type = mujoco.mjtGeom.mjGEOM_MESH
                g.meshname = mname

    hfield = None
    if scene.meshes:
        for m in scene.meshes:
            if visuals is not False and m.file:  # drawn by the visual layer (file materials)
                continue
            mname = f"mesh:{m.id}"
            mesh = spec.add_mesh()
            mesh.name = mname
            mesh.uservert = np.asarray(m.vertices, float).ravel().tolist()
            mesh.userface = np.asarray(m.faces, int).ravel().tolist()
            g = add(mname, m.kind, m.label, m.ref)
            g.type = mujoco.mjtGeom.mjGEOM_MESH
            g.meshname = mname
            g.contype, g.conaffinity = 0, 0
            g.group = GROUP_VISUAL
        hfield = heightfield_from_meshes(
            [(m.vertices, m.faces) for m in scene.meshes], cell=hfield_cell)
        h, (x0, z0, x1, z1), base = hfield
        top = max(float(h.max() - base), 1e-3)
        hf = spec.add_hfield()
        hf.name = "terrain"
        hf.nrow, hf.ncol = h.shape
        hf.size = [(x1 - x0) / 2.0, (z1 - z0) / 2.0, top, 0.1]
        # MuJoCo row r lies at local y = -sy + 2 sy r/(nr-1) = world -z: flip our +z rows.
        hf.userdata = ((h[::-1] - base) / top).ravel().tolist()
        g = add("hfield", "terrain", "terrain", None)
        g.type = mujoco.mjtGeom.mjGEOM_HFIELD
        g.hfieldname = "terrain"
        g.pos = [(x0 + x1) / 2.0, base, (z0 + z1) / 2.0]
        g.quat = [math.cos(-math.pi / 4), math.sin(-math.pi / 4), 0.0, 0.0]  # local z -> +Y
        g.group = GROUP_HFIELD if visuals is False else GROUP_STATIC  # with visuals: never drawn

    convex = False  # any colliding static geom that is not a box (sim.robot: the full sole)
    for g in made.values():  # collision bits by type (the robot's feet touch boxes only)
        if g.contype:
            g.contype = COLLIDE_BOX if g.type == mujoco.mjtGeom.mjGEOM_BOX else \
                COLLIDE_HFIELD if g.type == mujoco.mjtGeom.mjGEOM_HFIELD else COLLIDE_CONVEX
            convex = convex or g.contype == COLLIDE_CONVEX
    quiet: contextlib.AbstractContextManager[None] = contextlib.nullcontext()
    if visuals is not False:
        from navbench.sim.appearance import add_appearance, quiet_attach
        from navbench.visual.build import build_visuals

        vis = build_visuals(scene, seed=seed, cache=cache) if visuals is True else visuals
        for name, ref, label, kind, layer, day in add_appearance(spec, vis, made, seed=seed):
            infos[name] = replace(_info(name, kind, label, ref, surfaces), visual=True, layer=layer, daylight=day)
        for box_id in vis.box_materials:  # drawn as themselves (buildings, ground, sidewalks ...)
            if f"box:{box_id}" in infos:
                infos[f"box:{box_id}"] = replace(infos[f"box:{box_id}"], daylight=vis.outdoor)
        quiet = quiet_attach()
    if embodiment is not None:
        add_robot(spec, embodiment, convex_ground=convex)
    with quiet:
        model = spec.compile()
    sky = visuals is not False and scene.kind != "indoor"
    return _finish(model, infos, embodiment, appearance=visuals is not False, sky=sky)


def _finish(model: mujoco.MjModel, infos: dict[str, GeomInfo],
            embodiment: Embodiment | None, appearance: bool = False, sky: bool = False) -> World:
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    robot_info = GeomInfo("robot", None, "robot", "robot", "robot", False, False, 0.0)
    geoms: list[GeomInfo] = []
    robot: list[int] = []
    inner: list[int] = []
    static: list[int] = []
    obstacles: list[int] = []
    lo = np.zeros((model.ngeom, 3))
    hi = np.zeros((model.ngeom, 3))
    for gid in range(model.ngeom):
        name = model.geom(gid).name
        if name.startswith(ROBOT_PREFIX):
            geoms.append(replace(robot_info, name=name))
            (inner if name[len(ROBOT_PREFIX):] in INNER_GEOMS else robot).append(gid)
            continue
        info = infos[name]
        geoms.append(info)
        static.append(gid)
        if not info.ground and not info.visual:
            obstacles.append(gid)
        # World AABB from the geom's local AABB (model.geom_aabb: centre, half sizes).
        c, hs = model.geom_aabb[gid, :3], model.geom_aabb[gid, 3:]
        rot = data.geom_xmat[gid].reshape(3, 3)
        centre = data.geom_xpos[gid] + rot @ c
        ext = np.abs(rot) @ hs
        lo[gid], hi[gid] = centre - ext, centre + ext
    body = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_BODY, ROBOT_PREFIX + "base")
    return World(model, tuple(geoms), body, np.array(robot, int), np.array(static, int),
                 np.array(obstacles, int), lo, hi, appearance, np.array(inner, int), sky)


def level_box_tops(model: mujoco.MjModel) -> list[bool]:
    """Per geom: a world-body box with a world-vertical axis (its top face is level), so a
    contact normal on it that is not vertical lies on one of its edges or corners."""
    rot = np.zeros(9)
    out = []
    for g in range(model.ngeom):
        mujoco.mju_quat2Mat(rot, model.geom_quat[g])
        out.append(bool(model.geom_type[g] == mujoco.mjtGeom.mjGEOM_BOX
                        and model.geom_bodyid[g] == 0 and np.abs(rot[3:6]).max() > 1.0 - 1e-9))
    return out
