"""Room decor: rugs under the furniture group of living rooms, bedrooms, dining rooms and
offices (a runner in hallways), framed pictures on free walls above the furniture, and a mirror
over each bathroom sink. Visual only (see ``visual.interior``): rugs are 8 mm sheets on the
floor, pictures and mirrors hang 2–3 cm off the wall.
"""

from __future__ import annotations

import math

import numpy as np
import shapely

from navbench.rng import derive
from navbench.scene.model import Room, Scene, SceneObject
from navbench.visual import finishes as fin
from navbench.visual.compose import decal, lay_flat, slab
from navbench.visual.interior import Fitting, Occupancy, WallFace
from navbench.visual.materials import tinted
from navbench.visual.mesh import Part

#: Rug top above the collision floor (m): over the room floor's visual lift (10 mm).
RUG_TOP = 0.018
RUG_T = 0.006
#: The furniture a rug lies under, per room type, and its margin around it (m).
RUG_ANCHORS: dict[str, tuple[tuple[str, ...], float]] = {
    "living room": (("coffee table", "sofa"), 0.55),
    "bedroom": (("bed",), 0.55),
    "dining room": (("dining table",), 0.6),
    "office": (("desk", "office chair"), 0.4),
}
RUGS = ("rug_persian", "rug_modern", "rug_stripes")
#: Furniture a picture hangs over (centred above it), by preference.
ART_OVER = ("sofa", "bed", "sideboard", "console table", "dresser", "desk", "tv stand", "bench", "piano")
ART = ("art_landscape", "art_abstract", "art_geometric", "photo")


def _box_poly(o: SceneObject, grow: float = 0.0) -> shapely.Polygon:
    assert o.size is not None
    c, s = math.cos(o.yaw), math.sin(o.yaw)
    hx, hz = o.size[0] / 2 + grow, o.size[2] / 2 + grow
    return shapely.Polygon([(o.center[0] + c * x + s * z, o.center[2] - s * x + c * z)
                            for x, z in ((-hx, -hz), (hx, -hz), (hx, hz), (-hx, hz))])


def rugs(scene: Scene, seed: int) -> list[Fitting]:
    """One rug per room under its anchor furniture (70 % of rooms that have it) or a runner
    along a hallway, aligned with the anchor, kept 0.25 m inside the room."""
    out = []
    by_room: dict[str, list[SceneObject]] = {}
    for o in scene.objects:
        if o.room_id and o.size is not None:
            by_room.setdefault(o.room_id, []).append(o)
    for room in scene.rooms:
        rng = derive(seed, "rug", room.id)
        if rng.random() > 0.7:
            continue
        inner = shapely.Polygon(room.floor_polygon).buffer(-0.35)
        if inner.is_empty:
            continue
        objs = by_room.get(room.id, [])
        if room.label == "hallway":
            rect, yaw = _runner(room)
        else:
            anchors, margin = RUG_ANCHORS.get(room.label, ((), 0.0))
            anchor = next((o for a in anchors for o in objs if o.label == a), None)
            if anchor is None:
                continue
            assert anchor.size is not None
            w, d = anchor.size[0] + 2 * margin, anchor.size[2] + 2 * margin
            if room.label == "bedroom":  # under the lower two thirds of the bed, out to its sides
                d = 0.7 * anchor.size[2] + margin
            rect, yaw = (float(anchor.center[0]), float(anchor.center[2]), min(w, 3.0), min(d, 4.0)), anchor.yaw
            if room.label == "bedroom":
                fwd = np.array([-math.sin(yaw), -math.cos(yaw)])
                shift = 0.5 * anchor.size[2] - d / 2 + margin
                rect = (rect[0] + fwd[0] * shift, rect[1] + fwd[1] * shift, rect[2], rect[3])
        poly = _rect(rect, yaw)
        clipped = poly.intersection(inner)
        if clipped.area < 0.6 * poly.area or clipped.area < 1.0:
            continue
        rug = _rug_part(rect, yaw, room.floor_y, RUGS[int(rng.integers(len(RUGS)))], rng)
        out.append(Fitting(f"{room.id}/rug", "rug", (rug,)))
    return out


def _runner(room: Room) -> tuple[tuple[float, float, float, float], float]:
    """A runner 0.8 m wide down the middle of a (long) room, 1.2 m short of its ends."""
    pts = np.asarray(room.floor_polygon, float)
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    cx, cz = (lo + hi) / 2
    sx, sz = hi - lo
    if sx >= sz:
        return (float(cx), float(cz), float(max(sx - 2.4, 1.2)), 0.8), 0.0
    return (float(cx), float(cz), 0.8, float(max(sz - 2.4, 1.2))), 0.0


def _rect(rect: tuple[float, float, float, float], yaw: float) -> shapely.Polygon:
    cx, cz, w, d = rect
    c, s = math.cos(yaw), math.sin(yaw)
    return shapely.Polygon([(cx + c * x + s * z, cz - s * x + c * z)
                            for x, z in ((-w / 2, -d / 2), (w / 2, -d / 2), (w / 2, d / 2), (-w / 2, d / 2))])


def _rug_part(rect: tuple[float, float, float, float], yaw: float, floor_y: float, pattern: str,
              rng: np.random.Generator) -> Part:
    """The rug's picture laid flat (its length along the anchor's x), at :data:`RUG_TOP`."""
    cx, cz, w, d = rect
    tint = tinted(pattern, rng.uniform(0.85, 1.0, 3))
    flat = lay_flat(decal(-w / 2, w / 2, -d / 2, d / 2, 0.0, tint, t=RUG_T))
    c, s = math.cos(yaw), math.sin(yaw)
    rot = np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])
    v = flat.vertices @ rot.T + np.array([cx, floor_y + RUG_TOP, cz])
    return Part(v, flat.faces, flat.uv, flat.material)


def wall_art(scene: Scene, faces: list[WallFace], occ: Occupancy, seed: int) -> list[Fitting]:
    """Framed pictures (one or two per living room, bedroom, dining room, office and hallway):
    centred over furniture of :data:`ART_OVER` standing against a wall, else on the longest free
    wall; the picture's bottom 0.3 m above what stands below and its centre near 1.55 m."""
    out: list[Fitting] = []
    objs = [o for o in scene.objects if o.size is not None and o.room_id]
    for room in scene.rooms:
        if room.label not in ("living room", "bedroom", "dining room", "office", "hallway"):
            continue
        rng = derive(seed, "art", room.id)
        mine = [f for f in faces if f.room is not None and f.room.id == room.id and f.length > 1.0]
        cands: list[tuple[WallFace, float, float]] = []  # (face, centre x, furniture top)
        for o in sorted((o for o in objs if o.room_id == room.id and o.label in ART_OVER),
                        key=lambda o: ART_OVER.index(o.label)):
            f, x = _facing_wall(o, mine)
            if f is not None:
                cands.append((f, x, float(o.center[1] + o.size[1] / 2 - room.floor_y)))  # type: ignore[index]
        for f in sorted(mine, key=lambda f: -f.length):
            cands.append((f, f.length / 2, 0.0))
        n = 1 + int(rng.random() < 0.4)
        for f, x, below in cands:
            if n == 0:
                break
            w = float(min(rng.uniform(0.5, 1.1), 0.7 * f.length))
            h = w * float(rng.choice([0.7, 1.0, 1.3])) if w < 0.9 else w * 0.7
            y0 = max(below + 0.3, 1.55 - h / 2)
            if y0 + h > room.height - 0.25 or x - w / 2 < 0.15 or x + w / 2 > f.length - 0.15:
                continue
            if not occ.free(f, x - w / 2 - 0.1, x + w / 2 + 0.1, 0.25, above=y0):
                continue
            occ.take(f, x - w / 2 - 0.1, x + w / 2 + 0.1, 0.1)
            art = ART[int(rng.integers(len(ART)))]
            out.append(Fitting(f"{room.id}/art{len(out)}", "wall art",
                               tuple(f.to_world(p) for p in framed(x, y0, w, h, art, rng))))
            n -= 1
    return out


def mirrors(scene: Scene, faces: list[WallFace], occ: Occupancy, seed: int) -> list[Fitting]:
    """A mirror over every bathroom sink against a wall (0.6 m × 0.8 m, bottom 0.25 m above
    the basin)."""
    out = []
    for o in scene.objects:
        room = scene.room_index.get(o.room_id) if o.room_id else None
        if o.label != "sink" or room is None or o.size is None:
            continue
        mine = [f for f in faces if f.room is not None and f.room.id == room.id]
        f, x = _facing_wall(o, mine)
        if f is None:
            continue
        w = min(0.7, o.size[0] + 0.1)
        y0 = o.center[1] + o.size[1] / 2 - room.floor_y + 0.25
        if not occ.free(f, x - w / 2, x + w / 2, 0.05, above=y0 + 0.1):
            continue
        occ.take(f, x - w / 2, x + w / 2, 0.05)
        rng = derive(seed, "mirror", o.id)
        frame = "chrome" if rng.random() < 0.5 else fin.species(rng)
        parts = [slab(x - w / 2, x + w / 2, y0, y0 + 0.85, 0.0, 0.02, frame),
                 slab(x - w / 2 + 0.03, x + w / 2 - 0.03, y0 + 0.03, y0 + 0.82, 0.02, 0.024, "mirror")]
        out.append(Fitting(f"{o.id}/mirror", "mirror", tuple(f.to_world(p) for p in parts)))
    return out


def _facing_wall(o: SceneObject, faces: list[WallFace]) -> tuple[WallFace | None, float]:
    """The wall face ``o``'s back stands against (within 0.4 m) and ``o``'s centre along it."""
    assert o.size is not None
    back = np.array([math.sin(o.yaw), 0.0, math.cos(o.yaw)])  # objects face -Z: the back is +Z
    p = np.asarray(o.center, float) + back * (o.size[2] / 2)
    best, best_x, best_d = None, 0.0, 0.4
    for f in faces:
        if f.n @ back > -0.9:
            continue
        rel = p - f.origin
        dist, x = float(rel @ f.n), float(rel @ f.t)
        if abs(dist) < best_d and 0.0 < x < f.length:
            best, best_x, best_d = f, x, abs(dist)
    return best, best_x


def framed(x: float, y0: float, w: float, h: float, art: str, rng: np.random.Generator) -> list[Part]:
    """A picture ``w`` × ``h`` (m) with its bottom at ``y0``, centred on local x: a moulded frame
    (wood, black or gilt), for prints a white mat, the picture face 2 cm off the wall."""
    frame = fin.species(rng) if rng.random() < 0.4 else ("black_metal", "brass", "painted@f4f3ef")[int(rng.integers(3))]
    f = 0.04
    out = [slab(x - w / 2, x + w / 2, y0, y0 + f, 0.0, 0.03, frame), slab(x - w / 2, x + w / 2, y0 + h - f, y0 + h, 0.0, 0.03, frame),
           slab(x - w / 2, x - w / 2 + f, y0 + f, y0 + h - f, 0.0, 0.03, frame),
           slab(x + w / 2 - f, x + w / 2, y0 + f, y0 + h - f, 0.0, 0.03, frame)]
    m = 0.06 * min(w, h) if art in ("art_geometric", "photo") else 0.0
    if m:
        out.append(slab(x - w / 2 + f, x + w / 2 - f, y0 + f, y0 + h - f, 0.0, 0.018, "paper@fbfaf6"))
    out.append(decal(x - w / 2 + f + m, x + w / 2 - f - m, y0 + f + m, y0 + h - f - m, 0.02, art))
    return out
