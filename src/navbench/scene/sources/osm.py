"""OpenStreetMap import (``.osm`` XML or ``.pbf``, via pyosmium): ``load_osm(path) -> Scene``.

Projection: local equirectangular around the bbox centre (lon0, lat0):
``x = R·Δλ·cos φ0`` (east), ``z = -R·Δφ`` (north = -Z), R = 6,371,008.8 m; over 1 km the
scale error is below 1e-4. Mapping (same classes as :mod:`navbench.scene.procgen.outdoor`):

- ``highway=*`` vehicle ways → ``road`` surfaces at y = -0.2, width from ``width`` (m), else
  ``lanes`` x 3.25 m, else a default lane count per highway type; each road gets sidewalks
  (``sidewalk_width``) at y = 0; ``footway``/``pedestrian``/``path`` ways → ``sidewalk``.
- ``building=*`` closed ways → ``building`` surfaces and a box (rectangles) or prism mesh,
  height from ``height`` or ``building:levels`` x 3 m (default 9 m).
- ``natural=water`` → ``water`` (y = -0.6); ``leisure=park``/``landuse=grass`` and everything
  else → ``green``.
- ``shop=*`` / ``amenity=*`` / ``tourism=hotel`` / ``leisure=fitness_centre`` nodes or ways →
  places, mapped to the 17 storefront categories where possible (else the tag value), put on
  the facade of the nearest building that faces the nearest road, with a sign box in
  :data:`~navbench.scene.storefront_geometry.SIGN_BAND` above the sidewalk.

Static slabs for physics / navmesh come from a class raster at ``slab_resolution`` merged into
axis-aligned rectangles (tops: road -0.2, water -0.6, others 0).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from navbench.errors import MissingDependencyError, SceneFormatError
from navbench.geometry import polygon_area, yaw_of_direction
from navbench.scene.model import Box, Mesh, Place, Scene, Surface
from navbench.scene.procgen.urban import (
    FRICTION,
    LANE_WIDTH,
    PREFERRED,
    ROAD_Y,
    SIDEWALK_Y,
    WATER_Y,
    slab,
)
from navbench.scene.sources._common import validated
from navbench.scene.storefront_geometry import sign_box_geometry

if TYPE_CHECKING:
    from shapely.geometry import Polygon
    from shapely.geometry.base import BaseGeometry  # shapely ships no annotations: mypy sees Any

EARTH_RADIUS = 6_371_008.8
#: Largest side (m) of an imported bbox: 10 km at the default 1 m slab raster is 10⁸ cells.
MAX_EXTENT_M = 10_000.0
#: Default lane counts per ``highway`` type (both directions).
DEFAULT_LANES: dict[str, int] = {
    "motorway": 4, "trunk": 4, "primary": 4, "secondary": 2, "tertiary": 2, "residential": 2,
    "unclassified": 2, "living_street": 1, "service": 1, "motorway_link": 1, "trunk_link": 1,
    "primary_link": 1, "secondary_link": 1, "tertiary_link": 1, "road": 2,
}
FOOT_WAYS = ("footway", "pedestrian", "path", "steps", "cycleway")
#: (key, value) → storefront category.
CATEGORY_MAP: dict[tuple[str, str], str] = {
    ("amenity", "restaurant"): "restaurant", ("amenity", "cafe"): "cafe", ("amenity", "bank"): "bank",
    ("shop", "convenience"): "convenience store", ("amenity", "pharmacy"): "pharmacy",
    ("shop", "chemist"): "pharmacy", ("shop", "bakery"): "bakery", ("shop", "books"): "bookstore",
    ("shop", "clothes"): "clothing store", ("shop", "boutique"): "clothing store",
    ("shop", "fashion"): "clothing store", ("shop", "supermarket"): "supermarket",
    ("amenity", "bar"): "bar", ("amenity", "pub"): "bar", ("tourism", "hotel"): "hotel",
    ("amenity", "post_office"): "post office", ("shop", "hairdresser"): "hair salon",
    ("leisure", "fitness_centre"): "gym", ("amenity", "gym"): "gym", ("amenity", "fast_food"): "fast food",
    ("amenity", "ice_cream"): "ice cream shop", ("shop", "ice_cream"): "ice cream shop",
    ("shop", "florist"): "florist",
}
_PLACE_KEYS = ("shop", "amenity", "tourism", "leisure")
_PLACE_AMENITIES = {v for (k, v) in CATEGORY_MAP if k == "amenity"}


def place_category(tags: dict[str, str]) -> str | None:
    """Storefront category of an OSM element's tags (mapped where possible), or ``None``."""
    for k in _PLACE_KEYS:
        v = tags.get(k)
        if v is None:
            continue
        if (k, v) in CATEGORY_MAP:
            return CATEGORY_MAP[(k, v)]
        if k == "shop":
            return v.replace("_", " ").lower()
    return None


def parse_length(v: str | None) -> float | None:
    """Metres from an OSM length tag (``"7"``, ``"7.5 m"``, ``"24'"``); ``None`` if unparsable."""
    if not v:
        return None
    m = re.match(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*(m|ft|')?\s*$", v.replace(",", "."))
    if not m:
        return None
    x = float(m.group(1))
    return x * 0.3048 if m.group(2) in ("ft", "'") else x


@dataclass
class _Data:
    ways: list[tuple[int, dict[str, str], list[tuple[float, float]]]] = field(default_factory=list)
    nodes: list[tuple[int, dict[str, str], tuple[float, float]]] = field(default_factory=list)


def _read(path: Path) -> _Data:
    try:
        import osmium
    except ImportError as e:  # pragma: no cover - osmium is an optional extra
        raise MissingDependencyError("OSM import needs pyosmium: pip install 'navbench[osm]'") from e
    data = _Data()

    class H(osmium.SimpleHandler):
        def node(self, n: osmium.osm.Node) -> None:
            if any(k in n.tags for k in _PLACE_KEYS):
                try:
                    lonlat = (n.location.lon, n.location.lat)
                except osmium.InvalidLocationError as e:
                    raise SceneFormatError(path, f"node {n.id}", "a location with lon in [-180, 180] "
                                           "and lat in [-90, 90]") from e
                data.nodes.append((n.id, {t.k: t.v for t in n.tags}, lonlat))

        def way(self, w: osmium.osm.Way) -> None:
            tags = {t.k: t.v for t in w.tags}
            if not any(k in tags for k in ("building", "highway", "natural", "leisure", "landuse", *_PLACE_KEYS)):
                return
            try:
                pts = [(nd.lon, nd.lat) for nd in w.nodes]
            except osmium.InvalidLocationError as e:
                raise SceneFormatError(path, f"way {w.id}.nodes", "node locations present in the file") from e
            data.ways.append((w.id, tags, pts))

    try:
        H().apply_file(str(path), locations=True)
    except SceneFormatError:
        raise
    except (RuntimeError, ValueError, osmium.InvalidLocationError) as e:
        raise SceneFormatError(path, "<file>", "an OSM XML (.osm) or PBF (.pbf) file", str(e)) from e
    return data


def load_osm(
    path: str | Path, bbox: tuple[float, float, float, float] | None = None, *,
    scene_id: str | None = None, sidewalk_width: float = 3.0, slab_resolution: float = 1.0,
    default_height: float = 9.0,
) -> Scene:
    """Import an OSM file as an outdoor :class:`Scene` (kind ``"outdoor"``, source ``"osm"``).

    Args:
        path: ``.osm`` / ``.osm.xml`` / ``.pbf`` file.
        bbox: ``(min_lon, min_lat, max_lon, max_lat)`` in degrees; default: the data extent.
        sidewalk_width: sidewalk width added on both sides of vehicle roads (m).
        slab_resolution: raster cell (m) of the static slab decomposition.
        default_height: building height when no ``height`` / ``building:levels`` tag (m).
    """
    import shapely
    from shapely.geometry import LineString, Polygon
    from shapely.geometry import box as sbox

    path = Path(path)
    if not path.is_file():
        raise SceneFormatError(path, "<file>", "an existing OSM file")
    data = _read(path)
    if bbox is None:
        pts = [p for _, _, ps in data.ways for p in ps] + [p for _, _, p in data.nodes]
        if not pts:
            raise SceneFormatError(path, "<file>", "at least one building, highway or place")
        a = np.asarray(pts)
        bbox = (a[:, 0].min(), a[:, 1].min(), a[:, 0].max(), a[:, 1].max())
    bbox = _check_bbox(path, bbox)
    lon0, lat0 = (bbox[0] + bbox[2]) / 2, (bbox[1] + bbox[3]) / 2
    kx = EARTH_RADIUS * math.radians(1.0) * math.cos(math.radians(lat0))
    kz = EARTH_RADIUS * math.radians(1.0)

    def proj(ps: list[tuple[float, float]]) -> list[tuple[float, float]]:
        return [((lo - lon0) * kx, -(la - lat0) * kz) for lo, la in ps]

    (x0, z1), (x1, z0) = proj([(bbox[0], bbox[1]), (bbox[2], bbox[3])])
    area = sbox(x0, z0, x1, z1)
    roads, foot, buildings, water, placed_ways = [], [], [], [], []
    meta_roads = []
    for wid, tags, ps in data.ways:
        xy = proj(ps)
        hw = tags.get("highway")
        closed = len(xy) >= 4 and xy[0] == xy[-1]
        if hw and len(xy) >= 2:
            line = LineString(xy)
            if hw in FOOT_WAYS:
                w = parse_length(tags.get("width")) or 2.0
                foot.append(line.buffer(w / 2, cap_style="flat"))
                continue
            lanes = int(tags["lanes"]) if tags.get("lanes", "").isdigit() else None
            w = parse_length(tags.get("width")) or (lanes or DEFAULT_LANES.get(hw, 2)) * LANE_WIDTH
            roads.append((wid, line, w))
            meta_roads.append({"osm_id": wid, "highway": hw, "width": w, "lanes": lanes, "name": tags.get("name")})
        elif "building" in tags and closed:
            poly = Polygon(xy).buffer(0)
            h = parse_length(tags.get("height"))
            lv = tags.get("building:levels", "")
            h = h or (float(lv) * 3.0 if re.match(r"^[0-9]+(\.[0-9]+)?$", lv) else default_height)
            buildings.append((wid, poly, h, tags))
        elif closed and (tags.get("natural") == "water" or tags.get("landuse") == "reservoir"):
            water.append(Polygon(xy).buffer(0))
        if place_category(tags) and closed and "building" not in tags:
            placed_ways.append((wid, tags, Polygon(xy).buffer(0).centroid.coords[0]))
    road_polys = [(wid, line.buffer(w / 2, cap_style="flat", join_style="mitre").intersection(area), w)
                  for wid, line, w in roads]
    road_u = shapely.union_all([p for _, p, _ in road_polys]) if road_polys else shapely.Polygon()
    bld_u = shapely.union_all([b[1] for b in buildings]).intersection(area) if buildings else shapely.Polygon()
    water_u = shapely.union_all(water).difference(road_u).intersection(area) if water else shapely.Polygon()
    side = shapely.union_all([line.buffer(w / 2 + sidewalk_width, cap_style="flat", join_style="mitre")
                              for _, line, w in roads] + foot) if roads or foot else shapely.Polygon()
    side = side.difference(road_u).difference(bld_u).difference(water_u).intersection(area)
    green = area.difference(road_u).difference(bld_u).difference(water_u).difference(side)

    surfaces: list[Surface] = []

    def add(prefix: str, cls: str, geom: BaseGeometry, y: float) -> None:
        for k, g in enumerate(_polys(geom)):
            ext = _ring(g.exterior.coords)
            surfaces.append(Surface(f"{prefix}_{k}" if prefix[-1] != "#" else f"{prefix[:-1]}",
                                    cls, ext, y, FRICTION[cls], PREFERRED[cls],  # type: ignore[arg-type]
                                    tuple(_ring(h.coords, hole=True) for h in g.interiors)))

    seen: list[BaseGeometry] = []
    for wid, poly, _w in road_polys:
        piece = poly.difference(shapely.union_all(seen)) if seen else poly
        seen.append(poly)
        add(f"road_{wid}", "road", piece, ROAD_Y)
    add("sidewalk", "sidewalk", side, SIDEWALK_Y)
    add("water", "water", water_u, WATER_Y)
    add("green", "green", green, SIDEWALK_Y)
    boxes: list[Box] = []
    meshes: list[Mesh] = []
    for wid, poly, h, _tags in buildings:
        bid = f"bldg_{wid}"
        add(f"{bid}#", "building", poly, SIDEWALK_Y)
        _building_geometry(bid, poly, h, boxes, meshes)
    boxes += _slabs(area, road_u, water_u, side, slab_resolution)
    places: list[Place] = []
    items = [(nid, tags, proj([p])[0]) for nid, tags, p in data.nodes] + [
        (wid, tags, c) for wid, tags, c in placed_ways]
    items += [(wid, tags, poly.representative_point().coords[0]) for wid, poly, _h, tags in buildings
              if place_category(tags)]
    for oid, tags, (px, pz) in items:
        cat = place_category(tags)
        if cat is None or not area.contains(shapely.Point(px, pz)):
            continue
        pl, sign = _storefront(f"place_{oid}", cat, tags.get("name") or cat.title(), (px, pz), buildings, road_u)
        places.append(pl)
        boxes.append(sign)
    meta = {"generator": "navbench.scene.sources.osm", "file": path.name, "bbox": list(bbox),
            "origin_lonlat": [lon0, lat0], "projection": "local equirectangular", "roads": meta_roads}
    return validated(Scene(scene_id or path.name.split(".")[0], "outdoor", "osm", places=tuple(places),
                           surfaces=tuple(surfaces), boxes=tuple(boxes), meshes=tuple(meshes),
                           meta=meta), path)


def _check_bbox(path: Path, bbox: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """``bbox`` as floats, checked: finite, ordered, on the globe and at most
    :data:`MAX_EXTENT_M` on a side (the slab raster grows with the area)."""
    b = tuple(float(v) for v in bbox)
    if (len(b) != 4 or not all(math.isfinite(v) for v in b) or not -180 <= b[0] < b[2] <= 180
            or not -85 <= b[1] < b[3] <= 85):
        raise SceneFormatError(path, "bbox", "MIN_LON < MAX_LON in [-180, 180] and MIN_LAT < MAX_LAT "
                               "in [-85, 85] (degrees)", bbox)
    lat0 = (b[1] + b[3]) / 2
    w = (b[2] - b[0]) * EARTH_RADIUS * math.radians(1.0) * math.cos(math.radians(lat0))
    h = (b[3] - b[1]) * EARTH_RADIUS * math.radians(1.0)
    if max(w, h) > MAX_EXTENT_M:
        raise SceneFormatError(path, "bbox", f"an extent of at most {MAX_EXTENT_M:g} m on a side "
                               "(pass --bbox to import a part)", f"{w:.0f} m x {h:.0f} m")
    return b


def _polys(geom: BaseGeometry) -> list[Polygon]:
    out = []
    for g in getattr(geom, "geoms", [geom]):
        if g.geom_type == "Polygon" and not g.is_empty and g.area > 0.01:
            out.append(g)
        elif g.geom_type in ("MultiPolygon", "GeometryCollection"):
            out += _polys(g)
    return out


def _ring(coords: Iterable[Sequence[float]], hole: bool = False) -> tuple[tuple[float, float], ...]:
    r = tuple((float(x), float(z)) for x, z in list(coords)[:-1])
    return r if (polygon_area(r) >= 0) != hole else r[::-1]


def _building_geometry(bid: str, poly: Polygon, h: float, boxes: list[Box], meshes: list[Mesh]) -> None:
    """A yawed box when the footprint is (nearly) a rectangle, else an extruded prism mesh."""
    import shapely

    rect = poly.minimum_rotated_rectangle
    if poly.area >= 0.97 * rect.area:
        c = np.asarray(rect.exterior.coords)[:4]
        e0, e1 = c[1] - c[0], c[2] - c[1]
        yaw = math.atan2(-e0[1], e0[0])  # box local +X along e0
        ctr = c.mean(axis=0)
        boxes.append(Box(f"{bid}_0", "building", (float(ctr[0]), SIDEWALK_Y + h / 2, float(ctr[1])),
                         (float(np.hypot(*e0)), h, float(np.hypot(*e1))), yaw, "building", bid))
        return
    tris = shapely.constrained_delaunay_triangles(poly)
    ring = np.asarray(poly.exterior.coords)[:-1]
    n = len(ring)
    verts = np.vstack([np.c_[ring[:, 0], np.full(n, SIDEWALK_Y), ring[:, 1]],
                       np.c_[ring[:, 0], np.full(n, SIDEWALK_Y + h), ring[:, 1]]])
    index = {(round(float(x), 6), round(float(z), 6)): i for i, (x, z) in enumerate(ring)}
    faces = []
    for t in tris.geoms:
        got = [index.get((round(float(x), 6), round(float(z), 6))) for x, z in list(t.exterior.coords)[:3]]
        ids = [i for i in got if i is not None]
        if len(ids) < len(got):
            continue
        faces += [[ids[0] + n, ids[1] + n, ids[2] + n], [ids[0], ids[2], ids[1]]]
    for i in range(n):
        j = (i + 1) % n
        faces += [[i, j, j + n], [i, j + n, i + n]]
    meshes.append(Mesh(f"{bid}_mesh", "building", verts, np.asarray(faces, dtype=np.int64), "building", bid))


def _slabs(area: BaseGeometry, road_u: BaseGeometry, water_u: BaseGeometry, side: BaseGeometry,
           res: float) -> list[Box]:
    """Axis-aligned slabs from a class raster (ground, road, water, sidewalk), merged greedily."""
    import shapely

    x0, z0, x1, z1 = area.bounds
    nx, nz = max(1, math.ceil((x1 - x0) / res)), max(1, math.ceil((z1 - z0) / res))
    xs = x0 + (np.arange(nx) + 0.5) * res
    zs = z0 + (np.arange(nz) + 0.5) * res
    gx, gz = np.meshgrid(xs, zs)
    cls = np.zeros((nz, nx), dtype=np.int8)
    for k, geom in ((3, side), (1, road_u), (2, water_u)):
        if not geom.is_empty:
            shapely.prepare(geom)
            cls[shapely.contains_xy(geom, gx, gz)] = k
    kinds = {0: ("ground", SIDEWALK_Y), 1: ("road", ROAD_Y), 2: ("water", WATER_Y), 3: ("sidewalk", SIDEWALK_Y)}
    out: list[Box] = []
    open_: dict[tuple[int, int, int], int] = {}  # (class, c0, c1) -> start row
    for r in range(nz + 1):
        runs: set[tuple[int, int, int]] = set()
        if r < nz:
            row = cls[r]
            cuts = np.flatnonzero(np.diff(row)) + 1
            starts = np.r_[0, cuts]
            ends = np.r_[cuts, nx]
            runs = {(int(row[s]), int(s), int(e)) for s, e in zip(starts, ends, strict=True)}
        for key in sorted(set(open_) - runs):
            k, c0, c1 = key
            r0 = open_.pop(key)
            kind, top = kinds[k]
            rect = (x0 + c0 * res, z0 + r0 * res, x0 + c1 * res, z0 + r * res)
            out.append(slab(f"slab_{len(out)}", kind, rect, top, None))
        for key in runs:
            open_.setdefault(key, r)
    return out


def _storefront(pid: str, cat: str, name: str, p: tuple[float, float],
                buildings: list[tuple[int, Polygon, float, dict[str, str]]], road_u: Polygon) -> tuple[Place, Box]:
    """Place on the road-facing edge of the nearest building (within 20 m) of point ``p``."""
    import shapely

    pt = shapely.Point(p)
    best = min(buildings, key=lambda b: b[1].distance(pt), default=None)
    if best is not None and best[1].distance(pt) <= 20.0:
        ring = np.asarray(best[1].exterior.coords)
        edges = [(ring[i], ring[i + 1]) for i in range(len(ring) - 1) if np.hypot(*(ring[i + 1] - ring[i])) > 2.0]

        def road_dist(e: tuple[np.ndarray, np.ndarray]) -> float:
            return road_u.distance(shapely.Point((e[0] + e[1]) / 2)) if not road_u.is_empty else 0.0

        a, b = min(edges, key=lambda e: (round(road_dist(e), 1), shapely.LineString(e).distance(pt)))
        d = (b - a) / np.hypot(*(b - a))
        t = float(np.clip((np.asarray(p) - a) @ d, 0, np.hypot(*(b - a))))
        mid = a + d * t
        nrm = np.array([d[1], -d[0]])
        if best[1].contains(shapely.Point(mid + nrm * 0.5)):
            nrm = -nrm
        half = min(4.0, np.hypot(*(b - a)) / 2)
        mid = a + d * float(np.clip(t, half, np.hypot(*(b - a)) - half))
        fp = [mid - d * half, mid + d * half, mid + d * half + nrm * 0.3, mid - d * half + nrm * 0.3]
        bid = f"bldg_{best[0]}"
    else:
        nrm = np.array([0.0, -1.0])
        if not road_u.is_empty:
            q = np.asarray(shapely.nearest_points(pt, road_u)[1].coords[0])
            if np.hypot(*(q - p)) > 1e-6:
                nrm = (q - p) / np.hypot(*(q - p))
        mid, d, half = np.asarray(p), np.array([-nrm[1], nrm[0]]), 1.0
        fp = [mid - d, mid + d, mid + d + nrm * 0.3, mid - d + nrm * 0.3]
        bid = None
    yaw = yaw_of_direction(float(nrm[0]), float(nrm[1]))
    e = mid + nrm * 1.0
    place = Place(pid, cat, name, (float(e[0]), SIDEWALK_Y, float(e[1])), _ring([*list(map(tuple, fp)), tuple(fp[0])]),
                  yaw, bid)
    sy, sz, sh, sd = sign_box_geometry(SIDEWALK_Y)  # the band both robots see from 3-15 m
    s = mid + nrm * sz
    sign = Box(f"{pid}_sign", "sign", (float(s[0]), sy, float(s[1])), (2 * half * 0.8, sh, sd), yaw, cat, pid)
    return place, sign
