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
- Contextual groups (``group_fraction`` of the object budget whatever the map already has:
  mapped furniture counts against the singles), corner signs at junction ends of runs, singles:
  ``furnish``; members of different groups are ≥ ``group_spacing`` m apart (NavVerse App. 7.4).
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
from scipy.spatial import cKDTree

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
from navbench.scene.sources.osm_index import GroundIndex
from navbench.scene.sources.osm_streets import Junction
from navbench.scene.sources.osm_terrain import Crosswalk, Strip

if TYPE_CHECKING:
    from shapely.geometry import Polygon

SNAP = 8.0
#: Candidate offsets (m) of a mapped node's object: its own spot, then rings of
#: :data:`RING_STEPS` points every 0.5 m out to :data:`SNAP`.
RING_STEPS = 24
RINGS = np.array([(0.0, 0.0)] + [(r * math.cos(a), r * math.sin(a)) for r in np.arange(0.5, SNAP + 0.01, 0.5)
                                 for a in np.linspace(0, 2 * math.pi, RING_STEPS, endpoint=False)])
MIN_RUN_SIDEWALK = 2.6
SHOP_SIDE = 20.0
BUS_STOP_CLEAR = 12.0
_REGION_ORDER = ("construction", "plaza", "park", "commercial", "residential")


@dataclass
class Streetscape:
    """What furnishing reads: the ground index (free raised ground, roads, ...), road polygons,
    crosswalks, junctions, curb strips, storefront clear zones and entrances, areas, points."""

    index: GroundIndex
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
    # taken: furniture zone not free ground (0.5 m steps), tested for every run at once
    steps = [np.arange(r.lo, r.hi, 0.5) for r in runs]
    owner = np.repeat(np.arange(len(runs)), [len(t) for t in steps])
    ts = np.concatenate(steps)
    org = np.array([r.origin for r in runs])[owner]
    alo = np.array([r.along for r in runs])[owner]
    inw = np.array([r.inward for r in runs])[owner]
    ok = np.ones(len(ts), bool)
    for v in (0.1, 0.8, 1.6):
        p = org + ts[:, None] * alo + inw * v
        ok &= st.index.free(p[:, 0], p[:, 1])
    for i in np.flatnonzero(~ok):
        runs[int(owner[i])].taken.append((float(ts[i]) - 0.25, float(ts[i]) + 0.75))
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
    etree = shapely.STRtree(shapely.points(ent)) if len(ent) else None
    for r in runs:
        mid = r.origin + (r.lo + r.hi) / 2 * r.along
        behind = mid + r.inward * 6.0
        if etree is not None:
            near = etree.query(shapely.Point(mid), predicate="dwithin", distance=SHOP_SIDE)
            if len(near) and ((ent[near] - mid) @ r.inward > 0).any():
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
    """Park, plaza and construction areas: their free ground, 1 m in from its edge."""
    import shapely

    idx = st.index
    out = []
    for a in st.areas:
        if a.region not in ("park", "plaza", "construction"):
            continue
        shape = a.poly.intersection(shapely.box(*idx.area))
        for tree in (idx.low, idx.water, idx.buildings, idx.blocked):
            near = tree.near(shape)
            if near:
                shape = shape.difference(shapely.union_all(near))
        for g in polygons_of(shape.buffer(-1.0)):
            if g.area >= 60.0:
                out.append(_Lot(g.bounds, a.region, None, g))
    return out


def _sites(st: Streetscape, runs: list[LineRun]) -> list[CornerSite]:
    out: list[CornerSite] = []
    if not st.junctions:
        return out
    jx = np.array([j.xz for j in st.junctions])
    reach = np.array([j.max_width / 2 + 8.0 for j in st.junctions])
    tree, rmax = cKDTree(jx), float(reach.max()) * (1 + 1e-9) + 1e-6

    def at_junction(e: np.ndarray) -> bool:
        c = np.asarray(tree.query_ball_point(e, rmax), int)  # candidates, then the exact test
        return bool((np.hypot(*(jx[c] - e).T) <= reach[c]).any())

    for r in runs:
        if r.hi - r.lo < 8.0:
            continue
        a, b = r.origin + r.lo * r.along, r.origin + r.hi * r.along
        ends = (at_junction(a), at_junction(b))
        if any(ends):
            out.append(CornerSite((float(a[0]), float(a[1])), (float(b[0]), float(b[1])),
                                  (float(-r.inward[0]), float(-r.inward[1])), r.region, ends))
    return out


def _footprints(xz: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Unrotated box footprints (shapely polygons) at XZ centres ``xz`` (N, 2) of XZ sizes
    ``sizes`` (N, 2): the corners of :func:`~navbench.geometry.box_corners_xz` at yaw 0."""
    import shapely

    hx, hz = sizes[:, 0] / 2.0, sizes[:, 1] / 2.0
    local = np.stack([np.stack([-hx, hz], 1), np.stack([hx, hz], 1), np.stack([hx, -hz], 1),
                      np.stack([-hx, -hz], 1)], 1)
    out: np.ndarray = shapely.polygons(local + xz[:, None, :])
    return out


def _snapped(idx: GroundIndex, xz: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Where each node's object stands (N, 2; NaN where nowhere): its own spot where the
    footprint is on free ground, else the first candidate of :data:`RINGS` (in order) whose
    point and footprint are free. Candidates are tested ring by ring for all the nodes still
    unplaced."""
    out = np.full(xz.shape, np.nan)
    ok = idx.shapes_free(_footprints(xz, sizes)) if len(xz) else np.zeros(0, bool)
    out[ok] = xz[ok]
    todo = np.flatnonzero(~ok)
    for k in range(1, len(RINGS), RING_STEPS):
        if not len(todo):
            break
        off = RINGS[k:k + RING_STEPS]
        cand = (xz[todo][:, None, :] + off[None, :, :]).reshape(-1, 2)
        owner = np.repeat(todo, len(off))
        free = np.flatnonzero(idx.free(cand[:, 0], cand[:, 1]))
        good = free[idx.shapes_free(_footprints(cand[free], sizes[owner[free]]))]
        first = good[np.unique(owner[good], return_index=True)[1]]  # per node, its first good candidate
        out[owner[first]] = cand[first]
        todo = todo[np.isnan(out[todo, 0])]
    return out


def mapped_furniture(st: Streetscape, out: Placed) -> list[tuple[float, float]]:
    """Objects for the map's street furniture nodes (in map order, at least 1 m apart, facing
    the nearest road); returns their XZ positions."""
    import shapely

    nodes = [(p, label) for p in st.points if (label := T.furniture_label(p.tags)) is not None]
    if not nodes:
        return []
    xz = np.array([p.xz for p, _ in nodes], float)
    sizes = np.array([(CATALOG[label][0], CATALOG[label][2]) for _, label in nodes], float)
    spot = _snapped(st.index, xz, sizes)
    placed = np.flatnonzero(~np.isnan(spot[:, 0]))
    yaw = np.zeros(len(nodes))
    road_polys = [p for _, p in st.roads]
    if road_polys and len(placed):  # face the nearest road
        pts = shapely.points(spot[placed])
        near = shapely.STRtree(road_polys).nearest(pts)
        ends = shapely.get_coordinates(shapely.get_point(
            shapely.shortest_line(pts, np.asarray(road_polys, dtype=object)[near]), 1))
        for k, (dx, dz) in zip(placed.tolist(), ends - spot[placed], strict=True):
            if math.hypot(dx, dz) > 1e-9:
                yaw[k] = yaw_of_direction(float(dx), float(dz))
    got: list[tuple[float, float]] = []
    cells: dict[tuple[int, int], list[tuple[float, float]]] = {}  # objects by 1 m cell
    for i, (p, label) in enumerate(nodes):
        q = spot[i]
        if np.isnan(q[0]):
            st.counts["furniture_dropped"] += 1
            continue
        cell = (math.floor(q[0]), math.floor(q[1]))
        near_xz = [xz for a in (-1, 0, 1) for b in (-1, 0, 1) for xz in cells.get((cell[0] + a, cell[1] + b), ())]
        if any(math.hypot(q[0] - x, q[1] - z) < 1.0 for x, z in near_xz):
            st.counts["furniture_dropped"] += 1
            continue
        size = CATALOG[label]
        _add(out, f"osm_{p.id}", label, (float(q[0]), SIDEWALK_Y + size[1] / 2, float(q[1])), size, float(yaw[i]))
        got.append((float(q[0]), float(q[1])))
        cells.setdefault(cell, []).append((float(q[0]), float(q[1])))
        st.counts["furniture_mapped"] += 1
    return got


def furnish_map(st: Streetscape, n_objects: int, n_cars: int, rng_objects: np.random.Generator,
                rng_cars: np.random.Generator, out: Placed, group_fraction: float = 0.4,
                group_spacing: float = 8.0) -> None:
    """Mapped furniture, contextual groups, corner signs, singles and parked vehicles into ``out``."""
    import shapely

    runs = _runs(st)
    got = mapped_furniture(st, out)
    if got and runs:
        g = np.asarray(got)
        tree = shapely.STRtree(shapely.points(g))
        zones = shapely.polygons(np.stack([np.array([r.origin + (r.lo - 1) * r.along - 0.5 * r.inward,
                                                     r.origin + (r.hi + 1) * r.along - 0.5 * r.inward,
                                                     r.origin + (r.hi + 1) * r.along + 2.0 * r.inward,
                                                     r.origin + (r.lo - 1) * r.along + 2.0 * r.inward])
                                           for r in runs]))
        a, b = tree.query(zones, predicate="intersects")
        for ri, gi in zip(a, b, strict=True):
            r = runs[int(ri)]
            t = float((g[gi] - r.origin) @ r.along)
            r.taken.append((t - 1.0, t + 1.0))
    _region_of(st, runs)
    for k, r in enumerate(runs):
        out.regions[f"run_{k}"] = r.region
    lots = _lots(st)
    for k, lt in enumerate(lots):
        out.regions[f"lot_{k}"] = lt.region
    def spot_ok(x: float, z: float) -> bool:
        return bool(st.index.free(np.array([x]), np.array([z]))[0])

    # mapped furniture stands in for singles, never for the contextual groups: a densely mapped
    # street (trees, lamps) keeps its round(group_fraction * n_objects) group members
    groups = round(group_fraction * n_objects)
    rest = max(n_objects - len(got), groups)
    furnish(runs, lots, _sites(st, runs), rest, rng_objects, out,
            group_fraction=groups / rest if rest else 0.0, group_spacing=group_spacing, spot_ok=spot_ok)
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
    zxy = np.array([[z.x, z.z, z.half, i] for i, z in enumerate(zones)]).reshape(-1, 4)
    ztree = cKDTree(zxy[:, :2]) if len(zxy) else None
    zmax = float(zxy[:, 2].max()) if len(zxy) else 0.0
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
            near = zxy
            if ztree is not None:  # zones within 10 m of the segment: candidates by the largest zone, then exact
                mid = (a + b) / 2
                c = zxy[sorted(ztree.query_ball_point(mid, (ln / 2 + zmax + 10.0) * (1 + 1e-9) + 1e-6))]
                near = c[np.hypot(*(c[:, :2] - mid).T) <= ln / 2 + c[:, 2] + 10.0]
            seg_zones = [zones[int(i)] for i in near[:, 3]]
            v = np.array([-u[1], u[0]])
            for side in (1.0, -1.0):
                origin = a + side * (road.width / 2) * v
                n_in = -side * v

                def at(c: float, off: float, origin: np.ndarray = origin, u: np.ndarray = u,
                       n_in: np.ndarray = n_in) -> tuple[float, float]:
                    q = origin + c * u + n_in * off
                    return float(q[0]), float(q[1])

                park_curb(at, (float(u[0]), float(u[1])), (float(-n_in[1]), float(n_in[0])), 0.0, ln, seg_zones,
                          rng, cfg, spots, ok)
    add_vehicles(spots, n, rng, out)


__all__ = ["Streetscape", "furnish_map", "mapped_furniture", "park"]
