"""OpenStreetMap import: ``load_osm(path) -> Scene`` — a real map as a full outdoor scene.

Steps (each its own module):

1. read (:mod:`~navbench.scene.sources.osm_parse`): streaming ``.osm`` XML (no dependency;
   hostile XML refused) or ``.pbf`` (pyosmium); element limits; ``bbox`` keeps a window;
2. features (:mod:`~navbench.scene.sources.osm_features`): roads, foot ways, buildings
   (multipolygons with holes), areas and tagged points in local metres, every polygon valid
   (repaired or skipped and counted in ``meta["osm_issues"]``, never a crash);
3. streets (:mod:`~navbench.scene.sources.osm_streets`): road polygons at the tagged or
   lane-derived width, junctions, sidewalk bands (tagged or derived), crosswalks at the map's
   crossings (derived at junctions without any);
4. terrain (:mod:`~navbench.scene.sources.osm_ground`): roads 0.2 m below the sidewalks (the
   curb), raised crosswalk tables, surfaces by landuse / leisure / natural, static boxes;
5. buildings (:mod:`~navbench.scene.sources.osm_buildings`): boxes up to ``height`` /
   ``building:levels``; facade colours from ``building:colour`` / ``building:material`` in the
   procedural city's colour words (``meta["building_colours"]``, drawn in that colour);
6. places (:mod:`~navbench.scene.sources.osm_places`): storefronts of the 17 PlaceNav
   categories on the nearest road-facing facade, with the map's names;
7. furnishing (:mod:`~navbench.scene.sources.osm_props`): mapped street furniture,
   region-conditioned contextual groups, singles and parked cars (procedural city machinery).

:func:`plan_osm` / :func:`populate_osm` / :func:`assemble_osm` are the steps
:mod:`navbench.scene.sources.osm_hybrid` embeds a house between.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from navbench.jsontypes import JSONMapping, JSONObject
from navbench.rng import derive
from navbench.scene.model import Box, Place, Portal, Room, Scene, SceneKind, SceneObject, Surface
from navbench.scene.procgen.props import Placed
from navbench.scene.procgen.urban import FRICTION, PLACE_CATEGORIES, PREFERRED, SIDEWALK_Y
from navbench.scene.sources._common import validated_text
from navbench.scene.sources.osm_buildings import building_boxes
from navbench.scene.sources.osm_features import (
    MAX_EXTENT_M,
    Building,
    Features,
    Road,
    check_bbox,
    extract,
)
from navbench.scene.sources.osm_geometry import polygons_of, ring_xz
from navbench.scene.sources.osm_ground import build_terrain
from navbench.scene.sources.osm_parse import read_osm
from navbench.scene.sources.osm_places import PlaceResult, place_storefronts
from navbench.scene.sources.osm_props import Streetscape, furnish_map
from navbench.scene.sources.osm_streets import (
    Junction,
    crosswalks,
    junctions,
    road_polygon,
    sidewalk_bands,
)
from navbench.scene.sources.osm_tags import PLACE_TABLE, parse_length, place_category
from navbench.scene.sources.osm_terrain import Crosswalk, Terrain, TerrainInput

if TYPE_CHECKING:
    from shapely.geometry import Polygon

#: Bumped whenever the same file and settings would give a different scene.
CONVERTER_VERSION = "osm/2"
#: Former names (the mapping table lives in :mod:`~navbench.scene.sources.osm_tags`).
CATEGORY_MAP = PLACE_TABLE
_check_bbox = check_bbox
#: Furnishing's point tests of more points than this share the work with a forked child
#: (the curb runs of a 10^6-node district: 3 x 1.5 M points).
FORK_POINTS = 200_000


@dataclass(frozen=True)
class OsmSettings:
    """Options of :func:`load_osm` (metres; densities per km² of the imported area).

    Attributes:
        sidewalk_width: derived sidewalk width where the map gives none.
        slab_resolution: cell of the raised-ground boxes inside blocks (curbs are exact).
        default_height: building height without tags or a type default.
        max_vertices: vertex cap of one building / area outline (simplified beyond it).
        cars_per_km2, objects_per_km2: parked vehicles and sidewalk objects per km² (NavVerse's
            1 km² scenes: up to 200 and 1,000).
        group_fraction, group_spacing: share of sidewalk objects in contextual groups and the
            least distance between members of different groups (NavVerse App. 7.4: 8 m).
        seed: seed of the furnishing draws.
    """

    sidewalk_width: float = 3.0
    slab_resolution: float = 1.0
    default_height: float = 9.0
    max_vertices: int = 256
    cars_per_km2: float = 200.0
    objects_per_km2: float = 1000.0
    group_fraction: float = 0.4
    group_spacing: float = 8.0
    seed: int = 0


@dataclass
class OsmPlan:
    """An imported map under construction (consumed by :func:`assemble_osm`)."""

    path: Path
    settings: OsmSettings
    features: Features
    area: Polygon
    roads: list[tuple[Road, Polygon]]
    buildings: list[Building]
    junctions: list[Junction]
    crosswalks: list[Crosswalk]
    terrain: Terrain
    places: PlaceResult
    placed: Placed = field(default_factory=lambda: Placed([], [], {}))
    extra_boxes: list[Box] = field(default_factory=list)
    extra_surfaces: list[Surface] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)

    @property
    def all_buildings(self) -> list[Building]:
        """Mapped buildings and the kiosks built for shops without one."""
        return self.buildings + self.places.kiosks


def _clip_lines(pts: np.ndarray, clip: Polygon) -> list[np.ndarray]:
    import shapely

    g = shapely.LineString(pts).intersection(clip)
    return [np.asarray(p.coords) for p in getattr(g, "geoms", [g]) if p.geom_type == "LineString" and p.length > 0.01]


def plan_osm(path: str | Path, bbox: tuple[float, float, float, float] | None = None,
             settings: OsmSettings | None = None, workers: int | None = None) -> OsmPlan:
    """Read, project and lay out a map: streets, terrain, buildings and storefronts (terrain
    tiles by ``workers`` forked processes, see :func:`~navbench.scene.sources.osm_ground.build_terrain`)."""
    import shapely

    s = settings or OsmSettings()
    path = Path(path)
    if bbox is not None:
        bbox = check_bbox(path, bbox)
    data = read_osm(path, bbox)
    f = extract(data, path, bbox, sidewalk_width=s.sidewalk_width, default_height=s.default_height,
                max_vertices=s.max_vertices)
    del data  # the parsed elements: the features hold all that is used from here on
    iss = f.issues
    area = shapely.box(*f.extent)
    shapely.prepare(area)
    juncs, where = junctions(f.roads)
    cws = [c for c in crosswalks(f, juncs, where) if area.contains(shapely.Point(c.centre))]
    roads: list[tuple[Road, Polygon]] = []
    t_roads = []
    for r in f.roads:
        poly = road_polygon(r).intersection(area)
        if poly.is_empty or poly.area < 0.01:
            continue
        roads.append((r, poly))
        t_roads.append((r.id, poly, _clip_lines(r.pts, area.buffer(r.width)), r.width))
    # a road through a building passage or under a roof runs under the building: it cuts nothing
    open_air = [p for r, p in roads if not (r.tags.get("tunnel") or r.tags.get("covered") in ("yes", "arcade"))]
    road_u = shapely.union_all(open_air) if open_air else shapely.Polygon()
    clipped = [b.poly.intersection(area) for b in f.buildings]
    # the buildings a road crosses: by an index of the roads (as fast as ~10^5 tests against their union)
    crossed = set(shapely.STRtree(open_air).query(clipped, predicate="intersects")[0].tolist()
                  ) if open_air and clipped else set()
    buildings: list[Building] = []
    for k, (b, poly) in enumerate(zip(f.buildings, clipped, strict=True)):
        if k in crossed:
            cut = poly.difference(road_u)
            if cut.area < poly.area - 0.5:
                iss.warn("building_cut_by_road")
            poly = cut
        parts = [g for g in polygons_of(poly) if g.area >= 2.0]
        for k, g in enumerate(parts):
            buildings.append(dataclasses.replace(b, id=b.id if k == 0 else f"{b.id}_{k}", poly=g))
    side = [p for r, _ in roads for p in sidewalk_bands(r)]
    side += [shapely.LineString(fw.pts).buffer(fw.width / 2, cap_style="flat") for fw in f.foot]
    side += [a.poly for a in f.areas if a.cls == "plaza"]
    inp = TerrainInput(area, t_roads, [a.poly for a in f.areas if a.cls == "parking"],
                       [a.poly for a in f.areas if a.cls == "water"], side,
                       [(b.id, b.poly) for b in buildings], cws, s.slab_resolution)
    placed: list[PlaceResult] = []  # storefronts need only the ground index: placed while tiles build
    terrain = build_terrain(inp, workers, meanwhile=lambda idx: placed.append(place_storefronts(f.points, buildings, idx, iss)))
    places = placed[0]
    return OsmPlan(path, s, f, area, roads, buildings, juncs, cws, terrain, places)


def populate_osm(plan: OsmPlan, exclude: list[Polygon] | None = None) -> None:
    """Street furniture and parked vehicles; ``exclude`` polygons stay free of both."""

    s = plan.settings
    t = plan.terrain
    idx = t.index.with_blocked([k.poly for k in plan.places.kiosks] + list(exclude or []), FORK_POINTS)
    km2 = plan.area.area / 1e6
    st = Streetscape(idx, plan.roads, plan.crosswalks, plan.junctions, t.strips,
                     plan.places.clear + list(exclude or []), [(p.entrance[0], p.entrance[2]) for p in plan.places.places],
                     plan.features.areas, plan.features.points)
    furnish_map(st, round(s.objects_per_km2 * km2), round(s.cars_per_km2 * km2),
                derive(s.seed, "osm", "props"), derive(s.seed, "osm", "cars"), plan.placed,
                s.group_fraction, s.group_spacing)
    plan.counts.update(st.counts)


def _building_surface(b: Building) -> Surface:
    return Surface(b.id, "building", ring_xz(b.poly.exterior.coords), SIDEWALK_Y, FRICTION["building"],
                   PREFERRED["building"], tuple(ring_xz(h.coords, hole=True) for h in b.poly.interiors))


def assemble_osm(plan: OsmPlan, scene_id: str, kind: SceneKind = "outdoor", rooms: tuple[Room, ...] = (),
                 portals: tuple[Portal, ...] = (), indoor_objects: tuple[SceneObject, ...] = (),
                 meta: JSONMapping | None = None, extra_places: tuple[Place, ...] = (),
                 removed: frozenset[str] = frozenset()) -> Scene:
    """The :class:`Scene` of a plan; ``removed`` building ids (and their places) are left out."""
    f, t = plan.features, plan.terrain
    surfaces = list(t.surfaces)
    boxes = list(t.boxes)
    colours: JSONObject = {}
    for b in plan.all_buildings:
        if b.id in removed:
            continue
        surfaces.append(_building_surface(b))
        boxes += building_boxes(b.id, b.poly, b.height)
        if b.colour:
            colours[b.id] = b.colour
    places = [p for p in plan.places.places if p.building_id not in removed]
    keep = {p.id for p in places}
    boxes += [s for s in plan.places.signs if s.ref in keep]
    boxes += plan.placed.boxes + plan.extra_boxes
    surfaces += plan.extra_surfaces
    cw = Counter(c.source for c in plan.crosswalks)
    m: JSONObject = {
        "generator": "navbench.scene.sources.osm", "converter_version": CONVERTER_VERSION,
        "file": plan.path.name, "bbox": list(f.bbox), "origin_lonlat": [f.proj.lon0, f.proj.lat0],
        "projection": "local equirectangular", "bounds": list(f.extent),
        "settings": dataclasses.asdict(plan.settings),
        "roads": [{"osm_id": r.id, "highway": r.highway, "width": round(r.width, 3), "lanes": r.lanes,
                   "name": r.tags.get("name"), "sidewalk": [r.sidewalk[0], r.sidewalk[1]]} for r, _ in plan.roads],
        "crosswalks": {"osm": cw.get("osm", 0), "derived": cw.get("derived", 0)},
        "osm_issues": dict(sorted(f.issues.items())),
        "osm_places": {"mapped": dict(sorted(plan.places.mapped.items())),
                       "unknown": dict(sorted(plan.places.unknown.items()))},
        "furniture": dict(sorted(plan.counts.items())),
        "groups": plan.placed.groups, "group_types": plan.placed.group_types, "regions": plan.placed.regions,
        "no_parking": [[round(z.x, 3), round(z.z, 3), round(z.half, 3), z.reason] for z in plan.placed.no_parking],
        "building_colours": colours, "place_categories": list(PLACE_CATEGORIES),
    }
    m.update(meta or {})
    return Scene(scene_id, kind, "osm", rooms=rooms, objects=tuple(indoor_objects) + tuple(plan.placed.objects),
                 places=tuple(places) + tuple(extra_places), surfaces=tuple(surfaces), portals=portals,
                 boxes=tuple(boxes), meta=m)


def load_osm(path: str | Path, bbox: tuple[float, float, float, float] | None = None, *,
             scene_id: str | None = None, sidewalk_width: float = 3.0, slab_resolution: float = 1.0,
             default_height: float = 9.0, seed: int = 0, settings: OsmSettings | None = None) -> Scene:
    """Import an OSM file as an outdoor :class:`Scene` (kind ``"outdoor"``, source ``"osm"``).

    Args:
        path: ``.osm`` / ``.osm.xml`` / ``.osm.gz`` / ``.osm.bz2`` (no dependency) or ``.pbf``
            (needs ``navbench[osm]``).
        bbox: ``(min_lon, min_lat, max_lon, max_lat)`` in degrees; default: the data extent.
        sidewalk_width, slab_resolution, default_height, seed: see :class:`OsmSettings`
            (``settings`` overrides them all).
    """
    s = settings or OsmSettings(sidewalk_width=sidewalk_width, slab_resolution=slab_resolution,
                                default_height=default_height, seed=seed)
    return import_osm(path, bbox, scene_id=scene_id, settings=s)[0]


def import_osm(path: str | Path, bbox: tuple[float, float, float, float] | None = None, *,
               scene_id: str | None = None, settings: OsmSettings | None = None,
               workers: int | None = None) -> tuple[Scene, str]:
    """:func:`load_osm` and the scene's validated ``scene.json`` text (what
    :func:`navbench.scene.save` writes for it: an imported map has no mesh files), encoded once;
    ``workers``: forked terrain-tile processes (same scene for any number; forking is skipped
    in a process that runs other threads)."""
    path = Path(path)
    plan = plan_osm(path, bbox, settings or OsmSettings(), workers)
    populate_osm(plan)
    plan.features.issues.report(path.name)
    scene = assemble_osm(plan, scene_id or path.name.split(".")[0])
    del plan
    return scene, validated_text(scene, path)


__all__ = ["CATEGORY_MAP", "CONVERTER_VERSION", "MAX_EXTENT_M", "OsmPlan", "OsmSettings", "assemble_osm",
           "import_osm", "load_osm", "parse_length", "place_category", "plan_osm", "populate_osm"]
