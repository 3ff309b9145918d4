"""Street furniture and parked vehicles of an imported map, with the procedural city's
machinery (:func:`navbench.scene.procgen.props.furnish`, :func:`~navbench.scene.procgen.parking.park_curb`).

- Mapped furniture first: nodes the map tags as benches, trees, hydrants, street lamps, ...
  (:data:`~navbench.scene.sources.osm_tags.FURNITURE`) become objects of the outdoor vocabulary
  where they stand (on free raised ground, else moved onto the nearest such ground within
  :data:`SNAP` m, e.g. a traffic signal mapped on the road's centreline; else dropped and counted).
- Runs: every curb strip along a road (:class:`~navbench.scene.sources.osm_terrain.Strip`)
  whose sidewalk is at least :data:`MIN_RUN_SIDEWALK` m deep (or a grass verge) is a straight
  :class:`~navbench.scene.procgen.props.LineRun`; stretches whose furniture zone (0.1-1.6 m
  from the curb) is not free raised ground, lies in front of a storefront, next to a crosswalk
  or by a mapped object are taken. Region of a run (as the procedural city): ``commercial``
  when a storefront is on that side within :data:`SHOP_SIDE` m, else the region type of the
  area behind it (construction, plaza, park, commercial landuse), else ``residential``.
- Lots: park, plaza and construction areas (their free raised interior, 1 m in from its edge).
- Contextual groups, corner signs at junction ends of runs, singles: ``furnish``; members of
  different groups are ≥ ``group_spacing`` m apart (NavVerse App. 7.4).
- Parked vehicles in the curb lane of each road segment where ``parking`` allows (right-hand
  traffic), 4 m clear of the segment ends, never within a junction (half the widest road + 5 m),
  on or next to a crosswalk, at a mapped bus stop (:data:`BUS_STOP_CLEAR`), overlapping another
  road or crosswalk, or at a contextual group's no-parking stretch.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from navbench.geometry import box_corners_xz, yaw_of_direction
from navbench.scene.procgen.outdoor_groups import CATALOG
from navbench.scene.procgen.parking import NoParking, ParkingSettings, park_curb
from navbench.scene.procgen.props import (
    CornerSite,
    LineRun,
    Placed,
    _add,
    _Lot,
    add_vehicles,
    furnish,
)
from navbench.scene.procgen.urban import SIDEWALK_Y
from navbench.scene.sources import osm_tags as T
from navbench.scene.sources.osm_features import Area, Point, Road
from navbench.scene.sources.osm_geometry import polygons_of
from navbench.scene.sources.osm_streets import Junction
from navbench.scene.sources.osm_terrain import Crosswalk, Strip

if TYPE_CHECKING:
    from shapely.geometry import Polygon
    from shapely.geometry.base import BaseGeometry

SNAP = 8.0
MIN_RUN_SIDEWALK = 2.6
SHOP_SIDE = 20.0
BUS_STOP_CLEAR = 12.0
_REGION_ORDER = ("construction", "plaza", "park", "commercial", "residential")


@dataclass
class Streetscape:
    """What furnishing reads: free raised ground (outside buildings), the low ground, road
    polygons by way id, crosswalks, junctions, curb strips, storefront clear zones and entrances."""

    free: BaseGeometry
    low: BaseGeometry
    roads: list[tuple[Road, Polygon]]
    crosswalks: list[Crosswalk]
    junctions: list[Junction]
    strips: list[Strip]
    clear: list[Polygon]
    entrances: list[tuple[float, float]]
    areas: list[Area]
    points: list[Point]
    counts: Counter[str] = field(default_factory=Counter)


def _runs(st: Streetscape) -> list[LineRun]:
    import shapely

    runs = []
    for s in st.strips:
        if not s.roadside or s.b0 > 0 or (s.cls == "sidewalk" and s.b1 < MIN_RUN_SIDEWALK):
            continue
        runs.append(LineRun("residential", s.a0, s.a1, [], s.p.copy(), s.u.copy(), s.n.copy()))
    if not runs:
        return []
    # taken: furniture zone not free ground (0.5 m steps)
    for r in runs:
        ts = np.arange(r.lo, r.hi, 0.5)
        pts = np.concatenate([r.origin + ts[:, None] * r.along + r.inward * v for v in (0.1, 0.8, 1.6)])
        ok = shapely.contains_xy(st.free, pts[:, 0], pts[:, 1]).reshape(3, -1).all(axis=0)
        for t, good in zip(ts, ok, strict=True):
            if not good:
                r.taken.append((float(t) - 0.25, float(t) + 0.75))
    blockers = list(st.clear) + [cw.polygon().buffer(1.0) for cw in st.crosswalks]
    if blockers:
        zone = shapely.polygons(np.stack([np.array([r.origin + r.lo * r.along, r.origin + r.hi * r.along,
                                                    r.origin + r.hi * r.along + 1.7 * r.inward,
                                                    r.origin + r.lo * r.along + 1.7 * r.inward]) for r in runs]))
        tree = shapely.STRtree(blockers)
        a, b = tree.query(zone, predicate="intersects")
        for ri, bi in zip(a, b, strict=True):
            r = runs[int(ri)]
            c = shapely.get_coordinates(shapely.intersection(zone[ri], blockers[int(bi)]))
            if len(c):
                along = (c - r.origin) @ r.along
                r.taken.append((float(along.min()), float(along.max())))
    return runs


def _region_of(st: Streetscape, runs: list[LineRun]) -> None:
    """Region of each run (module docstring)."""
    import shapely

    ranked = [a for a in st.areas if a.region is not None]
    tree = shapely.STRtree([a.poly for a in ranked]) if ranked else None
    ent = np.asarray(st.entrances, float).reshape(-1, 2)
    for r in runs:
        mid = r.origin + (r.lo + r.hi) / 2 * r.along
        behind = mid + r.inward * 6.0
        if len(ent):
            rel = ent - mid
            d = np.hypot(rel[:, 0], rel[:, 1])
            if ((d <= SHOP_SIDE) & (rel @ r.inward > 0)).any():
                r.region = "commercial"
                continue
        found = set()
        if tree is not None:
            for i in tree.query(shapely.Point(behind), predicate="intersects"):
                reg = ranked[int(i)].region
                if reg is not None:
                    found.add(reg)
        r.region = next((x for x in _REGION_ORDER if x in found), "residential")


def _lots(st: Streetscape) -> list[_Lot]:
    out = []
    for a in st.areas:
        if a.region not in ("park", "plaza", "construction"):
            continue
        shape = a.poly.intersection(st.free).buffer(-1.0)
        for g in polygons_of(shape):
            if g.area >= 60.0:
                out.append(_Lot(g.bounds, a.region, None, g))
    return out


def _sites(st: Streetscape, runs: list[LineRun]) -> list[CornerSite]:
    out: list[CornerSite] = []
    if not st.junctions:
        return out
    jx = np.array([j.xz for j in st.junctions])
    reach = np.array([j.max_width / 2 + 8.0 for j in st.junctions])
    for r in runs:
        if r.hi - r.lo < 8.0:
            continue
        a, b = r.origin + r.lo * r.along, r.origin + r.hi * r.along
        ends = tuple(bool((np.hypot(*(jx - e).T) <= reach).any()) for e in (a, b))
        if any(ends):
            out.append(CornerSite((float(a[0]), float(a[1])), (float(b[0]), float(b[1])),
                                  (float(-r.inward[0]), float(-r.inward[1])), r.region, ends))  # type: ignore[arg-type]
    return out


def mapped_furniture(st: Streetscape, out: Placed) -> list[tuple[float, float]]:
    """Objects for the map's street furniture nodes; returns their XZ positions."""
    import shapely

    shapely.prepare(st.free)
    got: list[tuple[float, float]] = []
    for p in st.points:
        label = T.furniture_label(p.tags)
        if label is None:
            continue
        size = CATALOG[label]
        pt = shapely.Point(p.xz)
        q = np.asarray(p.xz, float)
        if not st.free.contains(pt):
            if st.free.is_empty or st.free.distance(pt) > SNAP:
                st.counts["furniture_dropped"] += 1
                continue
            e = np.asarray(shapely.shortest_line(pt, st.free).coords[-1])
            d = e - q
            ln = float(np.hypot(*d))
            q = e + (d / ln if ln > 1e-9 else 0.0) * (0.4 + max(size[0], size[2]) / 2)
        fp = shapely.Polygon(box_corners_xz((q[0], 0.0, q[1]), size, 0.0))
        if not st.free.contains(fp) or any(math.hypot(q[0] - x, q[1] - z) < 1.0 for x, z in got):
            st.counts["furniture_dropped"] += 1
            continue
        to = np.asarray(shapely.shortest_line(shapely.Point(q), st.low).coords[-1]) - q if not st.low.is_empty \
            else np.array([0.0, -1.0])
        yaw = yaw_of_direction(float(to[0]), float(to[1])) if float(np.hypot(*to)) > 1e-9 else 0.0
        _add(out, f"osm_{p.id}", label, (float(q[0]), SIDEWALK_Y + size[1] / 2, float(q[1])), size, yaw)
        got.append((float(q[0]), float(q[1])))
        st.counts["furniture_mapped"] += 1
    return got


def furnish_map(st: Streetscape, n_objects: int, n_cars: int, rng_objects: np.random.Generator,
                rng_cars: np.random.Generator, out: Placed, group_fraction: float = 0.4,
                group_spacing: float = 8.0) -> None:
    """Mapped furniture, contextual groups, corner signs, singles and parked vehicles into ``out``."""
    import shapely

    runs = _runs(st)
    got = mapped_furniture(st, out)
    for r in runs:
        for x, z in got:
            rel = np.array([x, z]) - r.origin
            t, v = float(rel @ r.along), float(rel @ r.inward)
            if r.lo - 1 <= t <= r.hi + 1 and -0.5 <= v <= 2.0:
                r.taken.append((t - 1.0, t + 1.0))
    _region_of(st, runs)
    for k, r in enumerate(runs):
        out.regions[f"run_{k}"] = r.region
    lots = _lots(st)
    for k, lt in enumerate(lots):
        out.regions[f"lot_{k}"] = lt.region
    free = st.free

    def spot_ok(x: float, z: float) -> bool:
        return bool(shapely.contains_xy(free, x, z))

    furnish(runs, lots, _sites(st, runs), max(0, n_objects - len(got)), rng_objects, out,
            group_fraction=group_fraction, group_spacing=group_spacing, spot_ok=spot_ok)
    park(st, n_cars, rng_cars, out)


def park(st: Streetscape, n: int, rng: np.random.Generator, out: Placed) -> None:
    """Parked vehicles along the curbs of roads where parking is allowed (module docstring)."""
    import shapely

    zones = list(out.no_parking)
    for j in st.junctions:
        zones.append(NoParking(j.xz[0], j.xz[1], j.max_width / 2 + 5.0, "junction"))
    for cw in st.crosswalks:
        zones.append(NoParking(cw.centre[0], cw.centre[1], cw.width / 2 + 3.0, "crossing"))
    polys = [p for _, p in st.roads]
    tree = shapely.STRtree(polys) if polys else None
    for p in st.points:
        if p.tags.get("highway") == "bus_stop" or p.tags.get("public_transport") == "platform":
            zones.append(NoParking(p.xz[0], p.xz[1], BUS_STOP_CLEAR, "bus stop"))
    out.no_parking[:] = zones
    cw_polys = [cw.polygon() for cw in st.crosswalks]
    cw_tree = shapely.STRtree(cw_polys) if cw_polys else None
    cfg = ParkingSettings()
    spots: list[tuple[str, tuple[float, float, float], float]] = []
    for ri, (road, rpoly) in enumerate(st.roads):
        if not road.parking or road.width < 5.0:
            continue

        def ok(x: float, z: float, yaw: float, length: float, width: float, ri: int = ri,
               rpoly: Polygon = rpoly) -> bool:
            fp = shapely.Polygon(box_corners_xz((x, 0.0, z), (length, 1.0, width), yaw))
            if not rpoly.contains(fp):
                return False
            if cw_tree is not None and len(cw_tree.query(fp, predicate="intersects")):
                return False
            assert tree is not None
            return not any(int(i) != ri for i in tree.query(fp, predicate="intersects"))

        pts = road.pts
        for k in range(len(pts) - 1):
            a, b = pts[k], pts[k + 1]
            ln = float(np.hypot(*(b - a)))
            if ln < 2 * cfg.crosswalk_clear + 4.5:
                continue
            u = (b - a) / ln
            v = np.array([-u[1], u[0]])
            for side in (1.0, -1.0):
                origin = a + side * (road.width / 2) * v
                n_in = -side * v

                def at(c: float, off: float, origin: np.ndarray = origin, u: np.ndarray = u,
                       n_in: np.ndarray = n_in) -> tuple[float, float]:
                    q = origin + c * u + n_in * off
                    return float(q[0]), float(q[1])

                park_curb(at, (float(u[0]), float(u[1])), (float(-n_in[1]), float(n_in[0])), 0.0, ln, zones, rng,
                          cfg, spots, ok)
    add_vehicles(spots, n, rng, out)


__all__ = ["Streetscape", "furnish_map", "mapped_furniture", "park"]
