"""Meshes of the built environment: walls (painted per room, face by face), room floors by
room type, ceilings, ground surfaces (roads, sidewalks, crosswalks, grass, water) and building
facades. Everything here is in the *world* frame (Habitat: metres, Y up).

No coplanar surfaces: ground-like geometry is lifted by a small per-class amount
(:data:`LIFT`, millimetres) so that overlapping horizontal faces never share a height
(e.g. a hybrid house's room floors over the outdoor lot slab, crosswalks over roads).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import shapely

from navbench.scene.model import Box, Room, Surface
from navbench.visual.mesh import Part, box

#: Upward offset (m) of the visual of each ground class over its collision top.
LIFT: dict[str, float] = {
    "ground": 0.0, "terrain": 0.0, "green": 0.003, "water": 0.002, "road": 0.004, "curb": 0.006,
    "sidewalk": 0.006, "crosswalk": 0.008, "stairs": 0.006, "ramp": 0.006, "floor": 0.01,
    "building": 0.0, "surface": 0.005,
}
#: Material key per ground class.
GROUND_MATERIAL: dict[str, str] = {
    "road": "asphalt", "sidewalk": "paving", "crosswalk": "crosswalk", "green": "grass",
    "water": "water", "curb": "curb", "ground": "concrete", "terrain": "grass", "stairs": "stone",
    "building": "concrete", "floor": "parquet", "ramp": "paving", "surface": "paving",
}
STOREY_M = 3.0


def yaw_matrix(yaw: float) -> np.ndarray:
    """3×3 rotation about +Y by ``yaw`` (rad), as ``mesh.transform`` and MuJoCo's box quats."""
    c, s = math.cos(yaw), math.sin(yaw)
    return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])


def box_faces(b: Box, *, uv_scale: float = 1.0, lift: float = 0.0) -> list[tuple[Part, np.ndarray, np.ndarray]]:
    """The six faces of a scene box in the world frame: ``(part, outward normal, centre)``."""
    p = box(b.size, "x", uv_scale=uv_scale)
    rot = yaw_matrix(b.yaw)
    v = p.vertices @ rot.T + np.asarray(b.center, float) + np.array([0.0, lift, 0.0])
    out = []
    for k in range(6):
        vs = v[4 * k: 4 * k + 4]
        n = np.cross(vs[1] - vs[0], vs[2] - vs[0])
        n /= max(float(np.linalg.norm(n)), 1e-12)
        out.append((Part(vs.copy(), np.array([[0, 1, 2], [0, 2, 3]], np.int32), p.uv[4 * k: 4 * k + 4].copy(), "x"),
                    n, vs.mean(axis=0)))
    return out


def with_material(p: Part, material: str) -> Part:
    """The same mesh with another material key."""
    return Part(p.vertices, p.faces, p.uv, material)


class RoomLocator:
    """Which room contains an XZ point (rooms by polygon; the first match wins)."""

    def __init__(self, rooms: tuple[Room, ...]):
        self.rooms = rooms
        self.polys = [shapely.Polygon(r.floor_polygon) for r in rooms]
        for p in self.polys:
            shapely.prepare(p)

    def room_at(self, x: float, y: float, z: float) -> Room | None:
        """The room whose polygon contains (x, z) and whose height span contains y."""
        pt = shapely.Point(x, z)
        for r, p in zip(self.rooms, self.polys, strict=True):
            if r.floor_y - 0.5 <= y <= r.floor_y + r.height + 0.5 and p.contains(pt):
                return r
        return None


def facade_box(b: Box, material: str, roof: str, tile: float = STOREY_M) -> list[Part]:
    """A building box with facade UVs: ``u`` along each wall, ``v`` up from the box bottom, in
    units of ``tile`` metres (one window row per storey); the roof gets ``roof``."""
    out = []
    _sx, sy, _sz = b.size
    bottom = b.center[1] - sy / 2
    for part, n, c in box_faces(b):
        if abs(n[1]) > 0.5:
            if n[1] > 0:
                uv = np.stack([part.vertices[:, 0], part.vertices[:, 2]], axis=1) / tile
                out.append(Part(part.vertices, part.faces, uv, roof))
            continue
        t = np.array([-n[2], 0.0, n[0]])  # horizontal tangent, right-handed seen from outside
        u = (part.vertices - c) @ t
        u = u - u.min()
        v = part.vertices[:, 1] - bottom
        out.append(Part(part.vertices, part.faces, np.stack([u, v], axis=1) / tile, material))
    return out


def road_box(b: Box, material: str, tile_along: float) -> Part:
    """The top of a road box with ``u`` along its long axis (``/ tile_along``), ``v`` 0..1 across."""
    faces = box_faces(b)
    part, _, c = next(f for f in faces if f[1][1] > 0.5)
    rot = yaw_matrix(b.yaw)
    ax = rot @ np.array([1.0, 0, 0]) if b.size[0] >= b.size[2] else rot @ np.array([0, 0, 1.0])
    across = np.array([-ax[2], 0.0, ax[0]])
    width = min(b.size[0], b.size[2])
    d = part.vertices - c
    uv = np.stack([(d @ ax) / tile_along, (d @ across) / width + 0.5], axis=1)
    return Part(part.vertices, part.faces, uv, material)


def polygon_prism(surface: Surface, material: str, *, thickness: float, tile: float,
                  lift: float = 0.0) -> Part | None:
    """A surface polygon (with holes) as a triangulated top at ``y + lift`` plus side walls
    down ``thickness``; UVs = world XZ / ``tile``. ``None`` when the polygon is empty."""
    poly = shapely.make_valid(shapely.Polygon(surface.polygon, [list(h) for h in surface.holes]))
    polys = [g for g in getattr(poly, "geoms", [poly]) if g.geom_type == "Polygon" and g.area > 1e-9]
    if not polys:
        return None
    y = surface.y + lift
    verts: list[tuple[float, float, float]] = []
    faces: list[tuple[int, int, int]] = []
    for p in polys:
        tris = shapely.constrained_delaunay_triangles(p)
        for t in tris.geoms:
            c = np.asarray(t.exterior.coords)[:3]
            area2 = (c[1, 0] - c[0, 0]) * (c[2, 1] - c[0, 1]) - (c[2, 0] - c[0, 0]) * (c[1, 1] - c[0, 1])
            if abs(area2) < 1e-12:
                continue
            if area2 > 0:  # XZ counter-clockwise (x right, z down on the map) faces -Y: flip
                c = c[::-1]
            n = len(verts)
            verts += [(x, y, z) for x, z in c]
            faces.append((n, n + 1, n + 2))
        if thickness <= 0:
            continue
        for k, ring in enumerate([p.exterior, *p.interiors]):
            pts = np.asarray(ring.coords)
            out_ccw = (k == 0) == ring.is_ccw  # outward normal = the edge's right-hand side
            for a, b in itertools.pairwise(pts):
                n = len(verts)
                verts += [(a[0], y, a[1]), (b[0], y, b[1]), (b[0], y - thickness, b[1]), (a[0], y - thickness, a[1])]
                faces += [(n, n + 1, n + 2), (n, n + 2, n + 3)] if out_ccw else [(n, n + 2, n + 1), (n, n + 3, n + 2)]
    if not faces:
        return None
    v = np.array(verts, float)
    uv = np.stack([v[:, 0], v[:, 2] + (v[:, 1] - y)], axis=1) / tile
    return Part(v, np.array(faces, np.int32), uv, material)


def room_slab(room: Room, material: str, y: float, facing_down: bool, tile: float = 1.0) -> Part | None:
    """A room polygon as a flat triangulated sheet at height ``y`` (ceilings face down); UVs =
    world XZ / ``tile`` (m)."""
    p = polygon_prism(Surface("slab", "floor", room.floor_polygon, y), material, thickness=0.0, tile=tile)
    if p is None or not facing_down:
        return p
    return Part(p.vertices, p.faces[:, ::-1].copy(), p.uv, material)
