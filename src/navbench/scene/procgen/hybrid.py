"""Indoor-to-outdoor scenes (NavVerse App. 7.6): a house embedded behind a road-facing facade.

``generate_hybrid(seed)`` plans a city (:mod:`navbench.scene.procgen.outdoor`), picks a
street-facing building whose lot can hold the house, rotates and translates the house so that
its exit portal sits on the facade line facing the street (the portal's yaw becomes the
facade's outward normal), sets the exit room's floor to sidewalk height, removes the buildings
the house overlaps, adds a facade shell (exterior walls along the house outline with an
opening at the exit; any house wall or door box across the opening is cut) and upper storeys
above the rooms, then places cars and sidewalk objects within ``radius`` metres of the exit
(the indoor anchor). The exit stays a ``Portal(kind="exit", regions=(room, "outdoor"))``.
House ids are prefixed with ``h_``. Frame: Habitat, metres, yaw 0 faces -Z.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from navbench.errors import ConfigError, NavbenchError
from navbench.geometry import heading_vector, rotate_xz, yaw_of_direction
from navbench.rng import child_seed, derive
from navbench.scene.model import OUTDOOR, Box, Mesh, Portal, Scene, SceneObject
from navbench.scene.procgen.outdoor import CityPlan, OutdoorSettings, assemble, plan_city, populate
from navbench.scene.procgen.urban import SIDEWALK_Y, Rect

if TYPE_CHECKING:
    from shapely import Polygon

    from navbench.scene.procgen.buildings import Building
    from navbench.scene.procgen.streets import Block

PREFIX = "h_"


#: Bumped whenever the same seed would give a different scene.
GENERATOR_VERSION = "hybrid/2"  # 2: the site is chosen for shops near the exit

@dataclass(frozen=True)
class HybridSettings:
    """Parameters of :func:`generate_hybrid` (metres).

    Attributes:
        city: settings of the surrounding city (a 300 m x 300 m district by default).
        n_rooms: rooms of the generated house (passed to ``generate_house``).
        radius: cars and sidewalk objects are sampled within this distance of the exit (m).
        wall_thickness: thickness of the facade shell walls.
        storeys: building height above the house = storeys x 3 m (upper floors, solid box).
    """

    city: OutdoorSettings = field(default_factory=lambda: OutdoorSettings(
        size=(300.0, 300.0), cars=60, sidewalk_objects=250, places_per_category=2))
    n_rooms: int = 5
    radius: float = 50.0
    wall_thickness: float = 0.2
    storeys: int = 3


def _house(seed: int, n_rooms: int) -> Scene:
    try:
        from navbench.scene.procgen.indoor import generate_house
    except ImportError as e:  # pragma: no cover - depends on the indoor generator being installed
        raise NavbenchError(
            f"navbench.scene.procgen.indoor.generate_house is not available ({e}); pass house=<Scene>"
        ) from e
    return generate_house(child_seed(seed, "hybrid", "house"), n_rooms=n_rooms)


@dataclass(frozen=True)
class HouseTransform:
    """Rigid XZ transform: rotate by ``dyaw`` about ``pivot``, then move ``pivot`` to ``to``."""

    dyaw: float
    pivot: tuple[float, float]
    to: tuple[float, float]
    dy: float

    def xz(self, pts: np.ndarray) -> np.ndarray:
        p = np.asarray(pts, dtype=float).reshape(-1, 2) - np.array(self.pivot)
        out: np.ndarray = rotate_xz(p, self.dyaw) + np.array(self.to)
        return out

    def p3(self, c: tuple[float, float, float]) -> tuple[float, float, float]:
        x, z = self.xz(np.array([[c[0], c[2]]]))[0]
        return (float(x), float(c[1] + self.dy), float(z))

    def poly(self, poly: Sequence[Sequence[float]]) -> tuple[tuple[float, float], ...]:
        return tuple((float(x), float(z)) for x, z in self.xz(np.asarray(poly)))


def _pid(s: str | None) -> str | None:
    return None if s is None or s == OUTDOOR else PREFIX + s


def transform_house(house: Scene, tf: HouseTransform) -> Scene:
    """``house`` moved by ``tf`` with ids prefixed (pure function of its inputs)."""
    def obj(o: SceneObject) -> SceneObject:
        aabb = None
        if o.aabb is not None:
            (x0, y0, z0), (x1, y1, z1) = o.aabb
            c = tf.xz(np.array([[x0, z0], [x1, z0], [x1, z1], [x0, z1]]))
            lo, hi = c.min(axis=0), c.max(axis=0)
            aabb = ((float(lo[0]), y0 + tf.dy, float(lo[1])), (float(hi[0]), y1 + tf.dy, float(hi[1])))
        return dataclasses.replace(o, id=PREFIX + o.id, room_id=_pid(o.room_id), center=tf.p3(o.center),
                                   aabb=aabb, yaw=o.yaw + tf.dyaw, parent_id=_pid(o.parent_id))

    def mesh(m: Mesh) -> Mesh:
        v = np.asarray(m.vertices, dtype=float).copy()
        v[:, [0, 2]] = tf.xz(v[:, [0, 2]])
        v[:, 1] += tf.dy
        return Mesh(PREFIX + m.id, m.kind, v, np.asarray(m.faces), m.label, _pid(m.ref))

    return dataclasses.replace(
        house,
        rooms=tuple(dataclasses.replace(r, id=PREFIX + r.id, floor_polygon=tf.poly(r.floor_polygon),
                                        floor_y=r.floor_y + tf.dy) for r in house.rooms),
        objects=tuple(obj(o) for o in house.objects),
        places=tuple(dataclasses.replace(p, id=PREFIX + p.id, entrance=tf.p3(p.entrance),
                                         footprint=tf.poly(p.footprint) if p.footprint else (),
                                         yaw=p.yaw + tf.dyaw) for p in house.places),
        surfaces=tuple(dataclasses.replace(s, id=PREFIX + s.id, polygon=tf.poly(s.polygon), y=s.y + tf.dy,
                                           holes=tuple(tf.poly(h) for h in s.holes)) for s in house.surfaces),
        portals=tuple(dataclasses.replace(p, id=PREFIX + p.id, regions=(_pid(p.regions[0]) or OUTDOOR,
                                                                        _pid(p.regions[1]) or OUTDOOR),
                                          center=tf.p3(p.center), yaw=p.yaw + tf.dyaw) for p in house.portals),
        boxes=tuple(dataclasses.replace(b, id=PREFIX + b.id, center=tf.p3(b.center), yaw=b.yaw + tf.dyaw,
                                        ref=_pid(b.ref)) for b in house.boxes),
        meshes=tuple(mesh(m) for m in house.meshes),
    )


def _wall(bid: str, a: np.ndarray, b: np.ndarray, y0: float, h: float, t: float, ref: str) -> Box:
    """A wall box of thickness ``t`` from XZ point ``a`` to ``b`` (ends extended by t/2)."""
    d = b - a
    n = float(np.hypot(*d))
    yaw = math.atan2(-d[1], d[0])  # local +X maps to (cos yaw, -sin yaw)
    c = (a + b) / 2
    return Box(bid, "wall", (float(c[0]), y0 + h / 2, float(c[1])), (n + t, h, t), yaw, "wall", ref)


def cut_opening(boxes: tuple[Box, ...], portal: Portal, depth: float = 0.8) -> list[Box]:
    """Remove the part of wall / door boxes lying in the portal's opening.

    The opening is ``portal.width`` wide across the passage direction and ``depth`` deep along
    it, centred on the portal; walls parallel to the opening are split around it, doors and
    any other wall whose centre lies in it are removed.
    """
    f = heading_vector(portal.yaw)  # passage direction (XZ)
    u = np.array([f[1], -f[0]])  # along the wall
    pc = np.array([portal.center[0], portal.center[2]])
    half = portal.width / 2
    out: list[Box] = []
    for b in boxes:
        if b.kind not in ("wall", "door"):
            out.append(b)
            continue
        c = np.array([b.center[0], b.center[2]]) - pc
        ax = np.array([math.cos(b.yaw), -math.sin(b.yaw)])  # box local +X in world XZ
        long_x = b.size[0] >= b.size[2]
        along = ax if long_x else np.array([ax[1], -ax[0]])
        length, thick = (b.size[0], b.size[2]) if long_x else (b.size[2], b.size[0])
        if abs(float(c @ f)) > depth / 2 + thick / 2:
            out.append(b)  # not in the opening's depth band
            continue
        m = float(c @ u)
        if b.kind == "door":
            if abs(m) > half:
                out.append(b)
            continue
        if abs(abs(float(along @ u)) - 1.0) > 1e-3:  # a jamb across the opening
            if abs(m) >= half - thick / 2:
                out.append(b)
            continue
        lo, hi = m - length / 2, m + length / 2
        split = lo < -half and hi > half
        for k, (a0, a1) in enumerate(((lo, min(hi, -half)), (max(lo, half), hi))):
            if a1 - a0 <= 0.01:
                continue
            shift = ((a0 + a1) / 2 - m) * u
            cen = (b.center[0] + float(shift[0]), b.center[1], b.center[2] + float(shift[1]))
            size = (a1 - a0, b.size[1], b.size[2]) if long_x else (b.size[0], b.size[1], a1 - a0)
            out.append(dataclasses.replace(b, id=f"{b.id}_{k}" if split else b.id, center=cen, size=size))
    return out

def house_shell(inner: Scene, moved: Polygon, exit_p: Portal, t: float, storeys: int) -> list[Box]:
    """The moved house's boxes with a facade shell along its outline (walls ``t`` m thick,
    open at the exit: any wall or door box across the opening is cut) and ``storeys`` x 3 m of
    upper floors above its rooms (solid boxes)."""
    import shapely

    height = max(r.height for r in inner.rooms)
    ring = np.asarray(moved.exterior.coords)
    shell = tuple(_wall(f"house_shell_{k}", ring[k], ring[k + 1], SIDEWALK_Y, height, t, "house")
                  for k in range(len(ring) - 1) if np.hypot(*(ring[k + 1] - ring[k])) > 1e-6)
    boxes = cut_opening(inner.boxes + shell, exit_p)
    top = SIDEWALK_Y + height
    up = storeys * 3.0
    for k, r in enumerate(inner.rooms):
        rx0, rz0, rx1, rz1 = shapely.Polygon(r.floor_polygon).bounds
        boxes.append(Box(f"house_upper_{k}", "building", ((rx0 + rx1) / 2, top + 0.1 + up / 2, (rz0 + rz1) / 2),
                         (rx1 - rx0 + t, up, rz1 - rz0 + t), 0.0, "building", "house"))
    return boxes


def load_house(seed: int, n_rooms: int, house: Scene | None) -> tuple[Scene, Portal, Polygon, float]:
    """The house to embed (``house`` or a generated one), its exit portal, its footprint (the
    union of its room polygons) and the floor height of the exit's room (m)."""
    import shapely

    house = house if house is not None else _house(seed, n_rooms)
    exits = sorted((p for p in house.portals if p.kind == "exit"), key=lambda p: p.id)
    if not exits or not house.rooms:
        raise ConfigError(f"house {house.id!r}: expected rooms and a Portal(kind='exit'), found none")
    ex = exits[0]
    room0 = house.room_index.get(ex.regions[0]) or house.rooms[0]
    foot = shapely.union_all([shapely.Polygon(r.floor_polygon).buffer(0) for r in house.rooms])
    return house, ex, foot, room0.floor_y


#: A hybrid's site is chosen for up to this many shop categories whose entrance lies within
#: :data:`SHOP_REACH` m (straight line) of the exit, so PlaceNav has goals to choose from
#: (PlaceNav keeps goals 5–50 m of path away; before, 4 of 8 scenes had one shop or none).
SHOP_CATEGORIES = 4
SHOP_REACH = 40.0


def _recess(foot: Polygon, ex: Portal) -> float:
    """How far (m) the house outline reaches beyond its exit along the exit's outward normal."""
    ring = np.asarray(foot.exterior.coords)
    return max(0.0, float(((ring - [ex.center[0], ex.center[2]]) @ heading_vector(ex.yaw)).max()))


def _placement(bd: Building, blk: Block, ex: Portal, foot: Polygon, t: float,
               dy: float) -> tuple[HouseTransform, Polygon] | None:
    """The transform that puts the house's exit on ``bd``'s street facade (slid along it to fit
    between the lot ends with a 1 m margin) and the moved footprint, or ``None`` when the lot
    cannot hold it. An exit in a recess of the house outline (part of the house lies beyond
    the exit along its outward normal) is set back by that much, so the house's front is on the
    facade line and the exit opens onto a recessed forecourt (before, such houses fitted no lot:
    3 of 30 seeds failed)."""
    import shapely

    nx, nz = bd.side.normal
    side = bd.side.side
    dyaw = yaw_of_direction(nx, nz) - ex.yaw
    x0, z0, x1, z1 = blk.lot
    ring = np.asarray(foot.exterior.coords)
    fixed = {"n": z0, "s": z1, "w": x0, "e": x1}[side] - \
        (nz if side in "ns" else nx) * (2 * t + _recess(foot, ex))
    mid = (bd.front[0] + bd.front[1]) / 2
    to = (mid, fixed) if side in "ns" else (fixed, mid)
    tf = HouseTransform(dyaw, (ex.center[0], ex.center[2]), to, dy)
    bx0, bz0, bx1, bz1 = shapely.Polygon(tf.xz(ring)).bounds
    lo_a, hi_a = (x0, x1) if side in "ns" else (z0, z1)
    ext = (bx0, bx1) if side in "ns" else (bz0, bz1)
    shift = 0.0
    if ext[0] + shift < lo_a + 1:
        shift = lo_a + 1 - ext[0]
    if ext[1] + shift > hi_a - 1:
        shift = hi_a - 1 - ext[1]
    to = (to[0] + shift, to[1]) if side in "ns" else (to[0], to[1] + shift)
    tf = dataclasses.replace(tf, to=to)
    moved = shapely.Polygon(tf.xz(ring))
    if not shapely.box(x0, z0, x1, z1).buffer(1e-6).contains(moved.buffer(t)):
        return None
    return tf, moved


def _removed_buildings(plan: CityPlan, moved: Polygon) -> set[str]:
    """Ids of the buildings the moved house footprint and its shell (1.5 m) overlap."""
    import shapely

    keep_out = moved.buffer(1.5)
    return {b.id for b in plan.buildings if any(keep_out.intersects(shapely.box(*r)) for r in b.parts)}


def _shops_near(plan: CityPlan, exit_xyz: tuple[float, float, float], moved: Polygon) -> int:
    """Distinct shop categories (capped at :data:`SHOP_CATEGORIES`) with an entrance 5 m to
    :data:`SHOP_REACH` m from the exit, not counting shops of buildings the house removes."""
    gone = _removed_buildings(plan, moved)
    cats = {sf.place.category for sf in plan.storefronts
            if sf.place.building_id not in gone
            and 5.0 <= math.hypot(sf.place.entrance[0] - exit_xyz[0],
                                  sf.place.entrance[2] - exit_xyz[2]) <= SHOP_REACH}
    return min(len(cats), SHOP_CATEGORIES)


def generate_hybrid(seed: int, settings: HybridSettings | None = None, scene_id: str | None = None,
                    house: Scene | None = None) -> Scene:
    """An indoor-to-outdoor scene (kind ``"hybrid"``); episodes start inside the house.

    ``house`` defaults to ``generate_house(child_seed, n_rooms)``; any indoor scene with one
    ``exit`` portal whose floors are flat works (e.g. a loaded ProcTHOR house).
    """
    cfg = settings or HybridSettings()
    if cfg.radius <= 0:
        raise ConfigError(f"HybridSettings.radius: expected > 0 m, got {cfg.radius}")
    house, ex, foot, floor_y = load_house(seed, cfg.n_rooms, house)
    plan = plan_city(seed, cfg.city)
    rng = derive(seed, "hybrid", "site")
    t = cfg.wall_thickness
    lots = {b.id: b for b in plan.layout.blocks}
    cands = [bd for bd in plan.buildings if bd.side.on_road]
    fits = []  # every road-facing lot that holds the house, in the seed's order
    for k in rng.permutation(len(cands)):
        bd = cands[int(k)]
        placed = _placement(bd, lots[bd.block_id], ex, foot, t, SIDEWALK_Y - floor_y)
        if placed is not None:
            fits.append((bd, lots[bd.block_id], *placed))
    if not fits:
        raise ConfigError("no road-facing lot can hold the house; enlarge HybridSettings.city.size or the blocks")
    # the first lot with the most shop categories near the exit (PlaceNav needs a choice of goals)
    site = max(fits, key=lambda f: _shops_near(plan, f[2].p3(ex.center), f[3]))
    bd, blk, tf, moved = site
    inner = transform_house(house, tf)
    exit_p = next(p for p in inner.portals if p.id == PREFIX + ex.id)
    # Clear the buildings (and their storefronts) the house and its shell overlap.
    gone = _removed_buildings(plan, moved)
    plan.buildings = [b for b in plan.buildings if b.id not in gone]
    plan.storefronts = [s for s in plan.storefronts if s.place.building_id not in gone]
    plan.extra_boxes += house_shell(inner, moved, exit_p, t, cfg.storeys)
    plan.extra_surfaces += list(inner.surfaces)
    plan.lot_cutouts.append(moved)
    # Keep the sidewalk in front of the exit free, then populate around the anchor.
    ax, az = exit_p.center[0], exit_p.center[2]
    f = heading_vector(exit_p.yaw)
    far = np.array([ax, az]) + f * (blk.sidewalk + 2 * t + 0.5 + _recess(foot, ex))
    w = exit_p.width / 2 + 1.0
    exclude: list[Rect] = [(min(ax, far[0]) - w, min(az, far[1]) - w, max(ax, far[0]) + w, max(az, far[1]) + w)]
    populate(plan, focus=(ax, az, cfg.radius), exclude=exclude)
    meta = {
        "generator": "navbench.scene.procgen.hybrid",
        "hybrid_version": GENERATOR_VERSION,
        "house_id": house.id,
        # the inner house's generator (procedural) or converter (loaded) version
        "house_version": house.meta.get("version") or house.meta.get("converter_version"),
        "exit_portal": exit_p.id,
        "indoor_anchor": [float(v) for v in exit_p.center],
        "neighbourhood_radius": cfg.radius,
        "start_region": "indoor",
    }
    return assemble(plan, scene_id or f"hybrid_{seed}", "hybrid", rooms=inner.rooms, portals=inner.portals,
                    indoor_objects=inner.objects, meta=meta, extra_places=inner.places)


__all__ = ["HouseTransform", "HybridSettings", "cut_opening", "generate_hybrid", "house_shell", "load_house",
           "transform_house"]
