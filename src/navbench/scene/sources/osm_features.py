"""OpenStreetMap elements → typed features in local metres (roads, foot ways, buildings,
areas, tagged points), each checked: ways with missing nodes are split (lines) or skipped
(rings), open ways tagged as areas are skipped, polygons are repaired or skipped
(:mod:`navbench.scene.sources.osm_geometry`); every skip or repair is counted in
:class:`~navbench.scene.sources.osm_geometry.Issues`.

Ids: ``bldg_<way id>`` / ``bldg_r<relation id>`` (``_<k>`` for the extra parts a repair or a
multipolygon gives), roads keep their way id.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from navbench.errors import SceneFormatError
from navbench.scene.sources import osm_tags as T
from navbench.scene.sources.osm_geometry import (
    Issues,
    Projection,
    clean_polygon,
    dedupe,
    join_rings,
    multipolygon,
)
from navbench.scene.sources.osm_parse import OsmData, Way

if TYPE_CHECKING:
    from pathlib import Path

    from shapely.geometry import Polygon

#: Largest side (m) of an imported bbox (the terrain raster and the scene grow with the area).
MAX_EXTENT_M = 10_000.0
#: ``highway`` values that are not (yet) roads.
NOT_ROADS = frozenset({"proposed", "construction", "abandoned", "disused", "razed", "platform", "elevator",
                       "bus_stop", "rest_area", "services", "raceway", "bus_guideway", "escape", "via_ferrata"})


@dataclass
class Road:
    """A vehicle way: XZ polyline ``pts`` (its node ids ``nodes``), carriageway ``width`` (m),
    sidewalk widths (left, right; 0 = none), curb parking, name and tags."""

    id: int
    highway: str
    pts: np.ndarray
    nodes: np.ndarray
    width: float
    lanes: int | None
    sidewalk: tuple[float, float]
    parking: bool
    tags: dict[str, str]


@dataclass
class FootWay:
    """A foot way (line): XZ polyline, node ids, width (m), whether it crosses a road."""

    id: int
    pts: np.ndarray
    nodes: np.ndarray
    width: float
    crossing: bool
    tags: dict[str, str]


@dataclass
class Building:
    """A building footprint (valid polygon), height (m), colour word (or None) and tags."""

    id: str
    poly: Polygon
    height: float
    colour: str | None
    tags: dict[str, str]


@dataclass
class Area:
    """A tagged area: terrain class (``water``/``parking``/``plaza``/``green`` or None) and
    region type (``commercial``/``residential``/``park``/``plaza``/``construction`` or None)."""

    id: str
    poly: Polygon
    cls: str | None
    region: str | None
    tags: dict[str, str]


@dataclass
class Point:
    """A tagged point (node, or an area's representative point): XZ, tags, node id."""

    id: str
    xz: tuple[float, float]
    tags: dict[str, str]
    node: int | None = None


@dataclass
class Features:
    """Everything the scene assembly reads, in local metres."""

    proj: Projection
    bbox: tuple[float, float, float, float]
    extent: tuple[float, float, float, float]  # XZ (x0, z0, x1, z1) of the bbox
    roads: list[Road] = field(default_factory=list)
    foot: list[FootWay] = field(default_factory=list)
    buildings: list[Building] = field(default_factory=list)
    areas: list[Area] = field(default_factory=list)
    points: list[Point] = field(default_factory=list)
    issues: Issues = field(default_factory=Issues)


def _runs(found: np.ndarray) -> list[tuple[int, int]]:
    """Index ranges [a, b) of consecutive True values."""
    out, a = [], None
    for i, f in enumerate(found):
        if f and a is None:
            a = i
        elif not f and a is not None:
            out.append((a, i))
            a = None
    if a is not None:
        out.append((a, len(found)))
    return out


def check_bbox(path: Path | str, bbox: tuple[float, ...]) -> tuple[float, float, float, float]:
    """``bbox`` as floats, checked: finite, ordered, on the globe and at most
    :data:`MAX_EXTENT_M` on a side (the terrain and scene grow with the area)."""
    b = tuple(float(v) for v in bbox)
    if (len(b) != 4 or not all(math.isfinite(v) for v in b) or not -180 <= b[0] < b[2] <= 180
            or not -85 <= b[1] < b[3] <= 85):
        raise SceneFormatError(path, "bbox", "MIN_LON < MAX_LON in [-180, 180] and MIN_LAT < MAX_LAT "
                               "in [-85, 85] (degrees)", bbox)
    p = Projection((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)
    w, h = (b[2] - b[0]) * p.kx, (b[3] - b[1]) * p.kz
    if max(w, h) > MAX_EXTENT_M:
        raise SceneFormatError(path, "bbox", f"an extent of at most {MAX_EXTENT_M:g} m on a side "
                               "(pass --bbox to import a part)", f"{w:.0f} m x {h:.0f} m")
    return b[0], b[1], b[2], b[3]


def _is_closed(w: Way) -> bool:
    return len(w.refs) >= 4 and w.refs[0] == w.refs[-1]


def _data_extent(data: OsmData, path: Path | str) -> tuple[float, float, float, float]:
    """Lon/lat extent of the roads, buildings and places (areas only when there is nothing else)."""
    main, rest = [], []
    for w in data.ways:
        t = w.tags
        if "highway" in t or "building" in t or T.place_kind(t):
            main.append(w.refs)
        elif t:
            rest.append(w.refs)
    ids = [np.asarray(list(data.node_tags), dtype=np.int64)] if data.node_tags else []
    for group in (main + ids, rest):
        if group:
            ll, found = data.lookup(np.concatenate(group))
            if found.any():
                a = ll[found]
                lo, hi = a.min(axis=0), a.max(axis=0)
                pad = 1e-6  # a single point still gets an area
                return (float(lo[0]) - pad, float(lo[1]) - pad, float(hi[0]) + pad, float(hi[1]) + pad)
    raise SceneFormatError(path, "<file>", "at least one building, highway, area or place with node locations")


def extract(data: OsmData, path: Path | str, bbox: tuple[float, float, float, float] | None = None, *,
            sidewalk_width: float = 3.0, default_height: float = 9.0, max_vertices: int = 256) -> Features:
    """Typed features of ``data`` within ``bbox`` (degrees; default: the data extent)."""
    b = check_bbox(path, bbox if bbox is not None else _data_extent(data, path))
    proj = Projection((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)
    (x0, z1), (x1, z0) = proj.xz(np.array([[b[0], b[1]], [b[2], b[3]]]))
    f = Features(proj, b, (float(x0), float(z0), float(x1), float(z1)))
    iss = f.issues
    ways = {w.id: w for w in data.ways}

    def xz_of(refs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        ll, found = data.lookup(refs)
        return proj.xz(np.nan_to_num(ll)), found

    def rings_of(w: Way) -> np.ndarray | None:
        pts, found = xz_of(w.refs)
        if not found.all():
            iss.warn("incomplete_ring")
            return None
        return pts

    def add_area(aid: str, polys: list[Polygon], tags: dict[str, str]) -> None:
        if "building" in tags and tags["building"] != "no":
            h = T.building_height(tags, default_height)
            colour = T.building_colour(tags)
            for k, p in enumerate(polys):
                f.buildings.append(Building(aid if k == 0 else f"{aid}_{k}", p, h, colour, tags))
            if T.place_kind(tags) is None:
                return
        cls, region = T.area_class(tags), T.area_region(tags)
        if cls is not None or region is not None:
            for k, p in enumerate(polys):
                f.areas.append(Area(aid if k == 0 else f"{aid}_{k}", p, cls, region, tags))
        if T.place_kind(tags) is not None and "building" not in tags and polys:
            big = max(polys, key=lambda p: p.area)
            rp = big.representative_point()
            f.points.append(Point(aid, (float(rp.x), float(rp.y)), tags))

    for w in data.ways:
        t = w.tags
        if not t:
            continue
        hw = t.get("highway")
        if hw and hw not in NOT_ROADS and not (t.get("area") == "yes" and _is_closed(w)):
            pts, found = xz_of(w.refs)
            if not found.all():
                iss.warn("incomplete_line")
            for a, c in _runs(found):
                seg, ids = pts[a:c], w.refs[a:c]
                keep = np.r_[True, np.hypot(*(np.diff(seg, axis=0).T)) > 1e-3] if len(seg) > 1 else np.ones(1, bool)
                seg, ids = seg[keep], ids[keep]
                if len(seg) < 2:
                    continue
                if hw in T.FOOT_WAYS:
                    width = T.parse_length(t.get("width")) or T.FOOT_WIDTH.get(hw, 1.5)
                    cross = t.get("footway") == "crossing" or t.get("cycleway") == "crossing"
                    f.foot.append(FootWay(w.id, seg, ids, min(width, 20.0), cross, t))
                else:
                    width, lanes = T.road_width(t)
                    f.roads.append(Road(w.id, hw, seg, ids, width, lanes, T.sidewalk_widths(t, sidewalk_width),
                                        T.parking_allowed(t), t))
            continue
        area_like = ("building" in t or T.area_class(t) is not None or T.area_region(t) is not None
                     or (T.place_kind(t) is not None))
        if not area_like:
            continue
        if not _is_closed(w):
            if "building" in t or T.area_class(t) is not None:
                iss.warn("open_area_way")
            elif T.place_kind(t) is not None:  # a shop mapped on a line: its first node is the place
                pts, found = xz_of(w.refs[:1])
                if found.all():
                    f.points.append(Point(f"w{w.id}", (float(pts[0, 0]), float(pts[0, 1])), t))
            continue
        ring = rings_of(w)
        if ring is None:
            continue
        polys = clean_polygon(ring, (), iss, max_vertices)
        add_area(f"bldg_{w.id}" if "building" in t else f"area_{w.id}", polys, t)

    for r in data.relations:
        outers: list[tuple[np.ndarray, np.ndarray]] = []
        inners: list[tuple[np.ndarray, np.ndarray]] = []
        complete = True
        for typ, ref, role in r.members:
            if typ != "way":
                continue
            mw = ways.get(ref)
            if mw is None:
                complete = False
                continue
            pts, found = xz_of(mw.refs)
            if not found.all():
                complete = False
                continue
            (inners if role == "inner" else outers).append((mw.refs, pts))
        if not complete:
            iss.warn("incomplete_relation")
        polys = multipolygon(join_rings(outers, iss), join_rings(inners, iss), iss, max_vertices)
        if not polys:
            iss.warn("empty_relation")
            continue
        add_area(f"bldg_r{r.id}" if "building" in r.tags else f"area_r{r.id}", polys, r.tags)

    for nid, tags in data.node_tags.items():
        ll, found = data.lookup(np.array([nid], dtype=np.int64))
        if found[0]:
            p = proj.xz(ll)[0]
            f.points.append(Point(f"n{nid}", (float(p[0]), float(p[1])), tags, nid))
    f.points.sort(key=lambda p: p.id)
    return f


__all__ = ["MAX_EXTENT_M", "Area", "Building", "Features", "FootWay", "Point", "Road", "check_bbox", "dedupe",
           "extract"]
