"""Sun shadows baked into the scene: translucent dark sheets on the ground and on building
walls where boxes (buildings, objects) block the sun, and the list of objects standing in
another's shadow (drawn with darkened materials). A CPU renderer pays several extra passes
per frame for shadow maps; the sheets cost one transparent draw per 100 m tile and are drawn
in RGB only (never segmented).

Ground: the shadow of a box of height ``h`` standing on ground level ``y0`` is the convex hull
of its footprint and the footprint translated by ``h · (dx, dz) / -dy`` for a sun direction
``(dx, dy, dz)`` (dy < 0); each ground piece gets the part of the union of shadows not
covered by a higher ground piece (no stacked sheets). Walls: every sun-facing vertical face of
a building or wall box receives the projection along the sun direction of each other box (its
part on the sun's side of the face plane), clipped to the face.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import shapely

from navbench.scene.model import Box, Scene
from navbench.visual.mesh import Part

#: Height of the shadow sheets over their ground piece / off their wall (m): above every LIFT.
SHADOW_LIFT = 0.013
TILE_M = 100.0
#: Share of an object's footprint in shadow above which it is drawn shaded.
SHADED_SHARE = 0.5
GROUND_BOXES = frozenset({"ground", "road", "sidewalk", "crosswalk", "green", "water", "curb", "terrain"})
RECEIVERS = frozenset({"building", "wall"})


def _footprint(b: Box) -> np.ndarray:
    hx, hz = b.size[0] / 2, b.size[2] / 2
    c, s = math.cos(b.yaw), math.sin(b.yaw)
    loc = np.array([(-hx, -hz), (hx, -hz), (hx, hz), (-hx, hz)])
    # yaw about +Y: x' = c x + s z, z' = -s x + c z
    rot = np.stack([c * loc[:, 0] + s * loc[:, 1], -s * loc[:, 0] + c * loc[:, 1]], axis=1)
    return rot + np.array([b.center[0], b.center[2]])


def _corners(b: Box) -> np.ndarray:
    """(8, 3) world corners of a box."""
    fp = _footprint(b)
    y0, y1 = b.center[1] - b.size[1] / 2, b.center[1] + b.size[1] / 2
    return np.vstack([np.column_stack([fp[:, 0], np.full(4, y), fp[:, 1]]) for y in (y0, y1)])


def _casts(b: Box) -> bool:
    return not (b.kind in GROUND_BOXES or b.kind in ("floor", "sign") or b.size[1] < 0.3)


def ground_shadows(scene: Scene, sun_dir: tuple[float, float, float]) -> tuple[list[shapely.Geometry], list[Box]]:
    """(ground shadow polygon of every caster, the casters) in the XZ plane."""
    d = np.asarray(sun_dir, float)
    shift = d[[0, 2]] / -d[1]
    casters = [b for b in scene.boxes if _casts(b) and b.kind != "wall"]
    polys = []
    for b in casters:
        fp = _footprint(b)
        polys.append(shapely.MultiPoint(np.vstack([fp, fp + b.size[1] * shift])).convex_hull)
    return polys, casters


def shaded_objects(scene: Scene, sun_dir: tuple[float, float, float]) -> set[str]:
    """Ids of the object boxes (outdoors) whose footprint lies at least :data:`SHADED_SHARE` in
    the ground shadow of other boxes (a building's, a tree's ...)."""
    d = np.asarray(sun_dir, float)
    if d[1] >= -1e-6:
        return set()
    polys, casters = ground_shadows(scene, sun_dir)
    if not polys:
        return set()
    tree = shapely.STRtree(polys)
    rooms = [shapely.Polygon(r.floor_polygon) for r in scene.rooms]
    out = set()
    for b in scene.boxes:
        if b.kind not in ("furniture", "object"):
            continue
        fp = shapely.Polygon(_footprint(b))
        if any(r.intersects(fp) for r in rooms):
            continue
        hits = [int(i) for i in tree.query(fp, predicate="intersects") if casters[int(i)].id != b.id
                and casters[int(i)].size[1] > b.size[1] * 0.8]
        if hits and fp.intersection(shapely.union_all([polys[i] for i in hits])).area >= SHADED_SHARE * fp.area:
            out.add(b.id)
    return out


def _tri_sheet(poly: shapely.Geometry, lift3: Callable[[np.ndarray], np.ndarray]) -> list[np.ndarray]:
    """Triangles (each (3, 3)) of a planar polygon mapped to 3-D by ``lift3``, facing +normal."""
    out = []
    for g in getattr(poly, "geoms", [poly]):
        if g.geom_type != "Polygon" or g.area < 1e-4:
            continue
        for t in shapely.constrained_delaunay_triangles(g).geoms:
            c = np.asarray(t.exterior.coords)[:3]
            a2 = (c[1, 0] - c[0, 0]) * (c[2, 1] - c[0, 1]) - (c[2, 0] - c[0, 0]) * (c[1, 1] - c[0, 1])
            if abs(a2) < 1e-10:
                continue
            out.append(lift3(c if a2 < 0 else c[::-1]))
    return out


def _wall_shadows(scene: Scene, d: np.ndarray, casters: list[Box]) -> list[np.ndarray]:
    """Triangles of the shadows other boxes cast on sun-facing building / wall faces."""
    from navbench.visual.architecture import box_faces

    cast_boxes = [b for b in scene.boxes if _casts(b)]
    corners = [_corners(b) for b in cast_boxes]
    reach = float(max((b.center[1] + b.size[1] / 2 for b in cast_boxes), default=0.0)) / -d[1] * math.hypot(d[0], d[2])
    tree = shapely.STRtree([shapely.Polygon(_footprint(b)) for b in cast_boxes]) if cast_boxes else None
    sun_xz = -d[[0, 2]] / max(math.hypot(d[0], d[2]), 1e-9)
    out: list[np.ndarray] = []
    for b in scene.boxes:
        if b.kind not in RECEIVERS or tree is None:
            continue
        for part, n, c in box_faces(b):
            if abs(n[1]) > 0.5 or n @ d > -1e-3:
                continue  # not vertical or facing away from the sun
            t = np.array([n[2], 0.0, -n[0]])
            s = part.vertices @ t
            y = part.vertices[:, 1]
            face = shapely.box(float(s.min()), float(y.min()), float(s.max()), float(y.max()))
            off = float(n @ c)
            ends = np.array([part.vertices[int(np.argmin(s))], part.vertices[int(np.argmax(s))]])[:, [0, 2]]
            sweep = shapely.MultiPoint(np.vstack([ends, ends + sun_xz * reach])).convex_hull.buffer(0.01)
            shapes = []
            for i in tree.query(sweep, predicate="intersects"):
                k = int(i)
                if cast_boxes[k].id == b.id:
                    continue
                pts = _clip_front(corners[k], n, off)
                if len(pts) < 3:
                    continue
                tt = (off - pts @ n) / (n @ d)  # along the sun direction onto the face plane
                proj = pts + tt[:, None] * d
                hull = shapely.MultiPoint(np.column_stack([proj @ t, proj[:, 1]])).convex_hull
                if hull.geom_type == "Polygon":
                    shapes.append(hull)
            if not shapes:
                continue
            shade = face.intersection(shapely.union_all(shapes))
            base = c + (SHADOW_LIFT - 0.0) * n - (float(c @ t)) * t

            def lift(uv: np.ndarray, base: np.ndarray = base, t: np.ndarray = t) -> np.ndarray:
                p = base + uv[:, :1] * t
                p[:, 1] = uv[:, 1]
                return p

            for tri in _tri_sheet(shade, lift):
                e = np.cross(tri[1] - tri[0], tri[2] - tri[0])
                out.append(tri if e @ n > 0 else tri[::-1])
    return out


#: The 12 edges of a box by the corner order of :func:`_corners` (bottom ring, top ring, posts).
_EDGES = ((0, 1), (1, 2), (2, 3), (3, 0), (4, 5), (5, 6), (6, 7), (7, 4), (0, 4), (1, 5), (2, 6), (3, 7))


def _clip_front(corners: np.ndarray, n: np.ndarray, off: float) -> np.ndarray:
    """The corners of a box on the plane's front side (n·p ≥ off) plus where its edges cross it."""
    side = corners @ n - off
    pts = [corners[i] for i in range(8) if side[i] >= -1e-6]
    for i, j in _EDGES:
        if (side[i] > 1e-6) != (side[j] > 1e-6) and abs(side[i] - side[j]) > 1e-9:
            f = side[i] / (side[i] - side[j])
            pts.append(corners[i] + f * (corners[j] - corners[i]))
    return np.array(pts) if pts else np.zeros((0, 3))


def shadow_parts(scene: Scene, sun_dir: tuple[float, float, float], material: str = "shadow") -> list[Part]:
    """Translucent shadow sheets (world frame) on the ground and on walls, one :class:`Part`
    per 100 m tile."""
    d = np.asarray(sun_dir, float)
    if d[1] >= -1e-6:
        return []
    polys, casters = ground_shadows(scene, sun_dir)
    if not polys:
        return []
    tree = shapely.STRtree(polys)
    pieces: list[tuple[shapely.Geometry, float]] = []
    for s in scene.surfaces:
        if s.cls in ("building", "floor"):
            continue
        pieces.append((shapely.Polygon(s.polygon, [list(h) for h in s.holes]), s.y))
    for b in scene.boxes:
        if b.kind in GROUND_BOXES:
            pieces.append((shapely.Polygon(_footprint(b)), b.center[1] + b.size[1] / 2))
    tris: dict[tuple[int, int], list[np.ndarray]] = {}

    def put(tri: np.ndarray) -> None:
        key = (int(tri[0, 0] // TILE_M), int(tri[0, 2] // TILE_M))
        tris.setdefault(key, []).append(tri)

    pieces = [(p if p.is_valid else shapely.make_valid(p), y) for p, y in sorted(pieces, key=lambda q: -q[1])]
    ptree = shapely.STRtree([p for p, _ in pieces])
    for k, (poly, y) in enumerate(pieces):  # highest first: each place shaded once, on its top piece
        hits = tree.query(poly, predicate="intersects")
        if len(hits) == 0:
            continue
        inter = poly.intersection(shapely.union_all([polys[i] for i in hits]))
        if inter.is_empty:
            continue
        above = [pieces[int(j)][0] for j in ptree.query(inter, predicate="intersects") if int(j) < k]
        if above:
            inter = inter.difference(shapely.union_all(above))
        level = y + SHADOW_LIFT

        def flat(c: np.ndarray, level: float = level) -> np.ndarray:
            return np.column_stack([c[:, 0], np.full(3, level), c[:, 1]])

        for tri in _tri_sheet(inter, flat):
            put(tri)
    for tri in _wall_shadows(scene, d, casters):
        put(tri)
    out = []
    for key in sorted(tris):
        v = np.concatenate(tris[key])
        f = np.arange(len(v), dtype=np.int32).reshape(-1, 3)
        out.append(Part(v, f, v[:, [0, 2]] * 0.0, material))
    return out
