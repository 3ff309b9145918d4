"""Procedural outdoor city blocks (NavVerse App. 7.1–7.5): ``generate_city(seed) -> Scene``.

Layout (Habitat frame, metres, +Y up, north = -Z): an irregular street grid over
``size_x x size_z`` centred on the origin; roads (width = lanes x 3.25 m) with their top at
y = -0.2, sidewalk rings, raised crosswalks and lots at y = 0 (the 0.2 m sidewalk/road step is
the curb); buildings (6–40 m) of box and L shapes on the lots; parks (green) with ponds
(water basins at y = -0.6); storefronts of 17 categories on street-facing facades; cars on
lanes and sidewalk objects in contextual groups. Every terrain piece is both a
:class:`~navbench.scene.model.Surface` (class, friction, ``preferred``) and a static slab box
(``kind`` = class, ``ref`` = surface id) so physics and the navmesh rasteriser see it.
A 1 km² city has about 3,000 boxes.

The generation is split into :func:`plan_city` (layout, buildings, storefronts),
:func:`populate` (cars and sidewalk objects, optionally within a focus disc) and
:func:`assemble` (the :class:`Scene`) so that :mod:`navbench.scene.procgen.hybrid` can embed
a house between the steps.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from navbench.errors import ConfigError
from navbench.jsontypes import JSONMapping
from navbench.rng import derive
from navbench.scene.model import (
    Box,
    Place,
    Portal,
    Room,
    Scene,
    SceneKind,
    SceneObject,
    Surface,
    SurfaceClass,
)
from navbench.scene.procgen.buildings import (
    Building,
    BuildingSettings,
    Storefront,
    building_boxes,
    paint_buildings,
    place_buildings,
    place_storefronts,
)
from navbench.scene.procgen.props import (
    Placed,
    _Lot,
    driveway_zones,
    place_cars,
    place_sidewalk_objects,
    side_regions,
)
from navbench.scene.procgen.streets import StreetLayout, layout_streets, road_density, road_length
from navbench.scene.procgen.urban import (
    LANE_WIDTH,
    PLACE_CATEGORIES,
    ROAD_Y,
    SIDEWALK_Y,
    WATER_Y,
    Rect,
    rect_surface,
    ring_rects,
    slab,
)

#: Share of an ideal grid's road length kept after edge blocks and merges (calibrated).

if TYPE_CHECKING:
    from shapely.geometry import Polygon  # shapely ships no annotations: mypy sees Any
DENSITY_FACTOR = 0.85

#: Bumped whenever the same seed would give a different city.
GENERATOR_VERSION = "outdoor/3"  # 3: clutter per 100 m of road

@dataclass(frozen=True)
class OutdoorSettings:
    """Parameters of :func:`generate_city` (lengths in metres).

    Attributes:
        size: extent (x, z) of the city, at most 1000 x 1000 m.
        road_density: target road centreline length per area (km/km²) from which the block
            sizes are derived when ``block`` is None (NavVerse's scenes: 36.4).
        block: range of block side lengths (sidewalk included); None = from ``road_density``.
        lanes: lane counts streets draw from (width = lanes x 3.25 m).
        sidewalk: range of sidewalk widths (≥ 4 m keeps a 2.4 m walking zone).
        merge_prob: probability to drop a street segment and merge the two blocks beside it.
        park_prob: probability that a block is a park (green lot, no buildings).
        plaza_prob: probability that a block is a plaza (paved lot, no buildings).
        construction_prob: probability that a street side without storefronts is a
            construction region (road works, site fences).
        driveway_prob: probability that a residential building has a driveway (no parking,
            no sidewalk objects in front of it).
        pond_prob: probability that a park has a pond (water).
        buildings: building parameters.
        places_per_category: storefronts per category on average (17 categories); categories
            follow :data:`~navbench.scene.procgen.buildings.STOREFRONT_FREQUENCY` with at least
            ``min_per_category`` of each.
        cars: maximum number of cars on lanes (≤ 200).
        sidewalk_objects: maximum number of sidewalk objects (≤ 1,000).
        objects_per_100m: sidewalk objects per 100 m of road centreline (within the focus
            disc of a hybrid scene), so that clutter is as dense in a 200 m district as in a
            1 km² city (before, the counts were only capped: 100 objects per 100 m of road at
            200 m, 4 at 1 km). Default 2.75 = NavVerse's 1,000 objects on 36.4 km of road per
            1 km² city (App. 7); capped by ``sidewalk_objects``. ``None``: ``sidewalk_objects``.
        cars_per_100m: parked cars per 100 m of road the same way (default 0.55 = NavVerse's
            200 per 36.4 km), capped by ``cars``; ``None``: ``cars``.
        group_fraction: share of sidewalk objects that belong to contextual groups.
        group_spacing: minimum distance between members of different contextual groups.
    """

    size: tuple[float, float] = (1000.0, 1000.0)
    road_density: float = 30.0
    block: tuple[float, float] | None = None
    lanes: tuple[int, ...] = (2, 2, 2, 4)
    sidewalk: tuple[float, float] = (4.5, 6.0)
    merge_prob: float = 0.12
    park_prob: float = 0.1
    plaza_prob: float = 0.06
    construction_prob: float = 0.08
    driveway_prob: float = 0.5
    pond_prob: float = 0.5
    buildings: BuildingSettings = field(default_factory=BuildingSettings)
    places_per_category: int = 3
    min_per_category: int = 1
    cars: int = 200
    sidewalk_objects: int = 1000
    objects_per_100m: float | None = 2.75
    cars_per_100m: float | None = 0.55
    group_fraction: float = 0.4
    group_spacing: float = 8.0

    def validate(self) -> None:
        """Raise :class:`ConfigError` naming the first invalid field."""
        sx, sz = self.size
        if not (60.0 <= sx <= 1000.0 and 60.0 <= sz <= 1000.0):
            raise ConfigError(f"OutdoorSettings.size: expected 60..1000 m per axis, got {self.size}")
        if not (5.0 <= self.road_density <= 37.0):
            raise ConfigError(f"OutdoorSettings.road_density: expected 5..37 km/km² (blocks of at least 30 m), got {self.road_density}")
        lo, hi = self.block_range()
        if not (30.0 <= lo <= hi):
            raise ConfigError(f"OutdoorSettings.block: expected 30 <= min <= max, got {(lo, hi)}"
                              + ("" if self.block is not None else f" (from road_density {self.road_density})"))
        if not self.lanes or min(self.lanes) < 1:
            raise ConfigError(f"OutdoorSettings.lanes: expected lane counts >= 1, got {self.lanes}")
        if not (4.0 <= self.sidewalk[0] <= self.sidewalk[1] <= 10.0):
            raise ConfigError(f"OutdoorSettings.sidewalk: expected 4 <= min <= max <= 10 m, got {self.sidewalk}")
        if not (0 <= self.cars <= 200):
            raise ConfigError(f"OutdoorSettings.cars: expected 0..200, got {self.cars}")
        if not (0 <= self.sidewalk_objects <= 1000):
            raise ConfigError(f"OutdoorSettings.sidewalk_objects: expected 0..1000, got {self.sidewalk_objects}")
        for name in ("merge_prob", "park_prob", "pond_prob", "group_fraction", "plaza_prob",
                     "construction_prob", "driveway_prob"):
            v = getattr(self, name)
            if not 0.0 <= v <= 1.0:
                raise ConfigError(f"OutdoorSettings.{name}: expected a probability in [0, 1], got {v}")
        for name in ("objects_per_100m", "cars_per_100m"):
            v = getattr(self, name)
            if v is not None and not 0.0 <= v <= 100.0:
                raise ConfigError(f"OutdoorSettings.{name}: expected 0..100 per 100 m of road "
                                  f"(or None), got {v}")
        if self.places_per_category < 0 or self.group_spacing < 0 or self.min_per_category < 0:
            raise ConfigError("OutdoorSettings.places_per_category/min_per_category/group_spacing: expected >= 0")

    def block_range(self) -> tuple[float, float]:
        """Block side range (m): ``block``, or sizes giving ≈ ``road_density`` km/km².

        A grid of spacing S (block + street) has 2/S m of road per m², i.e. 2000/S km/km²;
        edge blocks and merged segments remove some of it, hence S = 0.85 · 2000 / density and
        block = S − mean street width ± 20% (measured on 1 km², seeds 0–5: targets 24 / 30 /
        36 give 23.8 / 30.0 / 36.9 km/km² on average; 14 gives 12.5).
        """
        if self.block is not None:
            return self.block
        street = float(np.mean(self.lanes)) * LANE_WIDTH
        mean = DENSITY_FACTOR * 2000.0 / self.road_density - street
        return (round(0.8 * mean, 3), round(1.2 * mean, 3))


@dataclass
class CityPlan:
    """A city under construction (mutable; consumed by :func:`assemble`)."""

    seed: int
    settings: OutdoorSettings
    layout: StreetLayout
    buildings: list[Building]
    storefronts: list[Storefront]
    parks: dict[str, Rect | None]  # park block id -> pond rectangle (or None)
    placed: Placed = field(default_factory=lambda: Placed([], [], {}))
    extra_surfaces: list[Surface] = field(default_factory=list)
    extra_boxes: list[Box] = field(default_factory=list)
    lot_cutouts: list[Polygon] = field(default_factory=list)  # shapely polygons kept out of yards
    focus: tuple[float, float, float] | None = None  # the populated disc (x, z, r), if any


def plan_city(seed: int, settings: OutdoorSettings | None = None) -> CityPlan:
    """Street layout, parks, buildings and storefronts (no cars or sidewalk objects yet)."""
    cfg = settings or OutdoorSettings()
    cfg.validate()
    layout = layout_streets(derive(seed, "outdoor", "streets"), cfg.size, cfg.block_range(), cfg.lanes,
                            cfg.sidewalk, cfg.merge_prob)
    rng = derive(seed, "outdoor", "buildings")
    buildings: list[Building] = []
    parks: dict[str, Rect | None] = {}
    for b in layout.blocks:
        u = rng.random()
        if cfg.park_prob <= u < cfg.park_prob + cfg.plaza_prob:
            b.kind = "plaza"
            continue
        if u < cfg.park_prob:
            b.kind = "park"
            x0, z0, x1, z1 = b.lot
            pond = None
            if rng.random() < cfg.pond_prob and min(x1 - x0, z1 - z0) > 30:
                w, d = (x1 - x0) * rng.uniform(0.2, 0.45), (z1 - z0) * rng.uniform(0.2, 0.45)
                cx, cz = (x0 + x1) / 2, (z0 + z1) / 2
                pond = (cx - w / 2, cz - d / 2, cx + w / 2, cz + d / 2)
            parks[b.id] = pond
            continue
        buildings += place_buildings(b, rng, cfg.buildings, len(buildings))
    paint_buildings(buildings, derive(seed, "outdoor", "colours"))
    sidewalk_of = {b.id: b.sidewalk for b in layout.blocks}
    fronts = place_storefronts(buildings, sidewalk_of, cfg.places_per_category,
                               derive(seed, "outdoor", "storefronts"), PLACE_CATEGORIES, cfg.min_per_category)
    return CityPlan(seed, cfg, layout, buildings, fronts, parks)


def populate(plan: CityPlan, focus: tuple[float, float, float] | None = None,
             exclude: list[Rect] | None = None) -> None:
    """Add sidewalk objects, then parked cars; ``focus = (x, z, r)`` keeps them within r metres
    of (x, z). ``exclude`` rectangles (e.g. the sidewalk in front of an embedded house's exit)
    stay free of sidewalk objects. Their numbers: :func:`clutter_counts`.
    """
    cfg = plan.settings
    plan.focus = focus
    n_objects, n_cars = clutter_counts(cfg, road_length(plan.layout, focus))
    by_id = {bd.id: bd for bd in plan.buildings}
    shop_sides = {f"{by_id[s.place.building_id].block_id}:{by_id[s.place.building_id].side.side}"
                  for s in plan.storefronts if s.place.building_id in by_id}
    regions = side_regions(plan.layout.blocks, shop_sides, cfg.construction_prob,
                           derive(plan.seed, "outdoor", "regions"))
    homes = [(bd.side, bd.front) for bd in plan.buildings if bd.side.on_road
             and regions.get(f"{bd.block_id}:{bd.side.side}") == "residential"]
    zones, drive = driveway_zones(homes, cfg.driveway_prob, derive(plan.seed, "outdoor", "driveways"))
    plan.placed.no_parking += zones
    lots = [_Lot(b.lot, b.kind, plan.parks.get(b.id)) for b in plan.layout.blocks if b.kind in ("park", "plaza")]
    clear = [s.clear_zone for s in plan.storefronts] + list(exclude or []) + drive
    place_sidewalk_objects(plan.layout.blocks, regions, clear, lots, n_objects,
                           derive(plan.seed, "outdoor", "props"), plan.placed, focus,
                           cfg.group_fraction, cfg.group_spacing)
    place_cars(plan.layout.roads, n_cars, derive(plan.seed, "outdoor", "cars"), plan.placed, focus)


def clutter_counts(cfg: OutdoorSettings, road_m: float) -> tuple[int, int]:
    """Sidewalk objects and cars to place along ``road_m`` metres of road centreline:
    ``round(per_100m · road_m / 100)`` capped by ``sidewalk_objects`` / ``cars`` (the caps
    alone when a density is ``None``).

    >>> clutter_counts(OutdoorSettings(), 1000.0), clutter_counts(OutdoorSettings(), 1e5)
    ((28, 6), (1000, 200))
    """
    def n(per: float | None, cap: int) -> int:
        return cap if per is None else min(cap, round(per * road_m / 100.0))

    return n(cfg.objects_per_100m, cfg.sidewalk_objects), n(cfg.cars_per_100m, cfg.cars)


def _terrain(plan: CityPlan) -> tuple[list[Surface], list[Box]]:
    """Surfaces and slabs of roads, crosswalks, sidewalks, lots, parks and ponds."""
    surfaces: list[Surface] = []
    boxes: list[Box] = []

    def add(sid: str, cls: SurfaceClass, r: Rect, y: float, kind: str | None = None) -> None:
        surfaces.append(rect_surface(sid, cls, r, y))
        boxes.append(slab(f"{sid}_slab", kind or cls, r, y, sid))

    for k, (r, _lanes, _axis) in enumerate(plan.layout.roads):
        add(f"road_{k}", "road", r, ROAD_Y)
    for k, r in enumerate(plan.layout.crosswalks):
        add(f"crosswalk_{k}", "crosswalk", r, SIDEWALK_Y)
    for b in plan.layout.blocks:
        lot = b.lot
        sid = f"{b.id}_sidewalk"
        surfaces.append(rect_surface(sid, "sidewalk", b.outer, SIDEWALK_Y, holes=(lot,)))
        boxes += [slab(f"{sid}_{k}", "sidewalk", r, SIDEWALK_Y, sid)
                  for k, r in enumerate(ring_rects(b.outer, lot))]
        if b.kind == "plaza":
            add(f"{b.id}_plaza", "sidewalk", lot, SIDEWALK_Y)
        elif b.kind == "park":
            pond = plan.parks.get(b.id)
            gid = f"{b.id}_green"
            surfaces.append(rect_surface(gid, "green", lot, SIDEWALK_Y, holes=(pond,) if pond else ()))
            pieces = ring_rects(lot, pond) if pond else [lot]
            boxes += [slab(f"{gid}_{k}", "green", r, SIDEWALK_Y, gid) for k, r in enumerate(pieces)]
            if pond:
                add(f"{b.id}_water", "water", pond, WATER_Y)
        else:
            # Built lot: one ground slab; the yards between buildings are green surfaces.
            gid = f"{b.id}_lot"
            boxes.append(slab(f"{gid}_slab", "ground", lot, SIDEWALK_Y, gid))
            surfaces += _yards(gid, lot, [bd for bd in plan.buildings if bd.block_id == b.id],
                              plan.lot_cutouts)
    return surfaces, boxes


def _yards(gid: str, lot: Rect, buildings: list[Building], cutouts: list[Polygon]) -> list[Surface]:
    """Building footprints (class ``building``) and the rest of the lot as ``green`` yards."""
    import shapely
    from shapely.geometry import box as sbox

    out: list[Surface] = []
    fps = []
    for bd in buildings:
        fp = shapely.union_all([sbox(*r) for r in bd.parts]).normalize()
        fps.append(fp)
        ext = fp.exterior if fp.geom_type == "Polygon" else shapely.convex_hull(fp).exterior
        out.append(Surface(f"{bd.id}_fp", "building", _ccw(list(ext.coords)[:-1]), SIDEWALK_Y,
                           1.0, False))
    rest = sbox(*lot)
    if fps or cutouts:
        rest = rest.difference(shapely.union_all(fps + list(cutouts)))
    polys = [g for g in getattr(rest, "geoms", [rest]) if g.geom_type == "Polygon" and g.area > 1.0]
    for k, g in enumerate(polys):
        g = shapely.simplify(g, 1e-6)
        holes = tuple(_ccw(list(h.coords)[:-1]) for h in g.interiors)
        out.append(Surface(f"{gid}_yard_{k}", "green", _ccw(list(g.exterior.coords)[:-1]), SIDEWALK_Y,
                           0.6, False, holes))
    return out


def _ccw(pts: list[tuple[float, ...]]) -> tuple[tuple[float, float], ...]:
    """Orient an XZ ring counter-clockwise seen from above (+Y)."""
    from navbench.geometry import polygon_area

    ring = tuple((float(p[0]), float(p[1])) for p in pts)
    return ring if polygon_area(ring) >= 0 else ring[::-1]


def assemble(plan: CityPlan, scene_id: str, kind: SceneKind = "outdoor",
             rooms: Sequence[Room] = (), portals: Sequence[Portal] = (),
             indoor_objects: Sequence[SceneObject] = (), meta: JSONMapping | None = None,
             extra_places: Sequence[Place] = ()) -> Scene:
    """The :class:`Scene` of a plan (plus any embedded indoor content for hybrid scenes)."""
    surfaces, boxes = _terrain(plan)
    for bd in plan.buildings:
        boxes += building_boxes(bd)
    places: list[Place] = [s.place for s in plan.storefronts] + list(extra_places)
    boxes += [s.sign for s in plan.storefronts]
    boxes += plan.placed.boxes + plan.extra_boxes
    surfaces += plan.extra_surfaces
    m = {
        "generator": "navbench.scene.procgen.outdoor",
        "version": GENERATOR_VERSION,
        "seed": plan.seed,
        "settings": _jsonable(dataclasses.asdict(plan.settings)),
        "bounds": list(plan.layout.bounds),
        "groups": plan.placed.groups,
        "group_types": plan.placed.group_types,
        "regions": plan.placed.regions,
        "no_parking": [[round(z.x, 3), round(z.z, 3), round(z.half, 3), z.reason] for z in plan.placed.no_parking],
        "road_density": round(road_density(plan.layout), 3),
        # measured back: sidewalk objects (cars apart) and cars per 100 m of road centreline
        "clutter_per_100m": _clutter(plan),
        "building_colours": {bd.id: bd.colour for bd in plan.buildings},
        "place_categories": list(PLACE_CATEGORIES),
    }
    m.update(meta or {})
    return Scene(
        id=scene_id, kind=kind, source="procgen",
        rooms=tuple(rooms), objects=tuple(indoor_objects) + tuple(plan.placed.objects),
        places=tuple(places), surfaces=tuple(surfaces), portals=tuple(portals),
        boxes=tuple(boxes), meta=m,
    )


def _clutter(plan: CityPlan) -> dict[str, float]:
    """Sidewalk objects and cars placed per 100 m of road centreline (the focus disc's road
    for a populated hybrid neighbourhood: ``plan.focus``)."""
    road = road_length(plan.layout, plan.focus)
    cars = sum(o.id.startswith("car_") for o in plan.placed.objects)
    per = 100.0 / road if road > 0 else 0.0
    return {"objects": round((len(plan.placed.objects) - cars) * per, 3),
            "cars": round(cars * per, 3)}


def _jsonable(v: object) -> object:
    if isinstance(v, dict):
        return {k: _jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    return v


def generate_city(seed: int, settings: OutdoorSettings | None = None, scene_id: str | None = None) -> Scene:
    """A procedural city block area (kind ``"outdoor"``); same seed and settings → same scene."""
    plan = plan_city(seed, settings)
    populate(plan)
    return assemble(plan, scene_id or f"city_{seed}")


__all__ = ["CityPlan", "OutdoorSettings", "assemble", "clutter_counts", "generate_city", "plan_city",
           "populate"]
