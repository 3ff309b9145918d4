"""Streets of an imported map: road polygons, junctions, sidewalk bands and crosswalks
(XZ metres, Habitat frame; north = -Z).

- Road polygon: the centreline buffered by half the carriageway width with square caps and
  mitred joins (limit 2), so ways meeting end to end at an angle leave no gap.
- Junction: a node shared by three or more road arms (a node where two ways only continue one
  another is not one). ``max_width`` is the widest road meeting there.
- Sidewalk bands: the carriageway buffered by the sidewalk width on each side that has one
  (OSM's left and right are seen on the map, north up: the left of a way heading east is north,
  -Z); foot ways are buffered by their width.
- Crosswalks (raised tables :data:`CROSSWALK_WIDTH` m wide along the road, across the full
  carriageway plus :data:`CURB_OVERLAP` m onto each sidewalk): at nodes of a road tagged
  ``highway=crossing`` (or ``crossing=*`` other than ``no``), where a ``footway=crossing`` way
  meets a road, and — only near junctions the map gives no crossing within
  :data:`OSM_CROSSING_REACH` m of — *derived* on every arm of a junction whose road has
  sidewalks on both sides, just past where both its curbs leave the other roads (as the
  procedural city puts them at both ends of every street segment). A crossing node *at* a
  junction gives the derived set.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from navbench.scene.sources.osm_features import Features, Road
from navbench.scene.sources.osm_terrain import Crosswalk

if TYPE_CHECKING:
    from shapely.geometry import Polygon

CROSSWALK_WIDTH = 3.0
CURB_OVERLAP = 0.3
#: A junction with an OSM crossing this close (m) gets no derived crosswalks.
OSM_CROSSING_REACH = 25.0
#: Highway types that never get derived crosswalks.
NO_DERIVED = frozenset({"motorway", "trunk", "motorway_link", "trunk_link", "service"})


@dataclass(frozen=True)
class Junction:
    """A junction node: XZ, node id, widest road width (m), arms ``(road index, unit
    direction, polyline distance available along the arm)``."""

    node: int
    xz: tuple[float, float]
    max_width: float
    arms: tuple[tuple[int, tuple[float, float], float], ...]


def road_polygon(r: Road) -> Polygon:
    """The carriageway polygon of a road (square caps, mitred joins)."""
    import shapely

    return shapely.LineString(r.pts).buffer(r.width / 2, cap_style="square", join_style="mitre", mitre_limit=2.0)


def sidewalk_bands(r: Road) -> list[Polygon]:
    """Sidewalk bands (road half included; the terrain cuts the roadway) on each side that has one."""
    import shapely

    line = shapely.LineString(r.pts)
    out = []
    left, right = r.sidewalk
    if left > 0:
        out.append(line.buffer(-(r.width / 2 + left), single_sided=True, join_style="mitre", mitre_limit=2.0))
    if right > 0:
        out.append(line.buffer(r.width / 2 + right, single_sided=True, join_style="mitre", mitre_limit=2.0))
    return [p for p in out if not p.is_empty]


def _along(pts: np.ndarray, i: int, step: int, dist: float) -> tuple[np.ndarray, np.ndarray, float]:
    """Point ``dist`` m along the polyline from vertex ``i`` in direction ``step`` (±1), the
    unit direction there and the length available from ``i`` that way."""
    avail = 0.0
    k = i
    p = pts[i]
    d = np.array([1.0, 0.0])
    while 0 <= k + step < len(pts):
        q = pts[k + step]
        seg = float(np.hypot(*(q - pts[k])))
        if seg > 1e-9:
            d = (q - pts[k]) / seg
            if avail + seg >= dist:
                p = pts[k] + d * (dist - avail)
                rest = avail + seg
                kk = k + step
                while 0 <= kk + step < len(pts):
                    rest += float(np.hypot(*(pts[kk + step] - pts[kk])))
                    kk += step
                return p, d, rest
        avail += seg
        k += step
        p = pts[k]
    return p, d, avail


def junctions(roads: list[Road]) -> tuple[list[Junction], dict[int, list[tuple[int, int]]]]:
    """Junctions of ``roads`` and the index ``node id -> [(road index, vertex index)]``."""
    where: dict[int, list[tuple[int, int]]] = {}
    for ri, r in enumerate(roads):
        for vi, nid in enumerate(r.nodes.tolist()):
            where.setdefault(nid, []).append((ri, vi))
    out = []
    for nid, occ in where.items():
        if len(occ) < 2:
            continue
        arms = []
        for ri, vi in occ:
            pts = roads[ri].pts
            for step in (-1, 1):
                if 0 <= vi + step < len(pts):
                    _, d, avail = _along(pts, vi, step, 0.0)
                    arms.append((ri, (float(d[0]), float(d[1])), avail))
        if len(arms) < 3:
            continue
        ri0, vi0 = occ[0]
        p = roads[ri0].pts[vi0]
        out.append(Junction(nid, (float(p[0]), float(p[1])), max(roads[ri].width for ri, _ in occ), tuple(arms)))
    out.sort(key=lambda j: j.node)
    return out, where


def _is_crossing(tags: dict[str, str]) -> bool:
    return tags.get("highway") == "crossing" or (tags.get("crossing") not in (None, "no")
                                                 and tags.get("highway") != "traffic_signals") or \
        tags.get("crossing") in ("traffic_signals", "marked", "zebra", "uncontrolled")


def _clear_of(j: Junction, ri: int, d: tuple[float, float], roads: list[Road]) -> float:
    """Distance (m) along an arm (road ``ri``, direction ``d``) at which both its curbs have
    left every other road meeting at the junction: for another arm at angle θ and width w_k,
    ``w_k/2 / sin θ + (w/2) / tan θ`` when θ < 90° (the acute corner), else ``w_k/2``; arms
    within 10° of straight on (the same street continuing) are not crossed."""
    w = roads[ri].width
    out = 0.0
    for rk, (ex, ez), _ in j.arms:
        cos = max(-1.0, min(1.0, d[0] * ex + d[1] * ez))
        theta = math.acos(cos)
        if theta < math.radians(1.0) or theta > math.radians(170.0):
            continue  # this arm itself, or the street going straight on
        wk = roads[rk].width
        out = max(out, wk / 2 / math.sin(theta) + w / 2 / math.tan(theta) if theta < math.pi / 2 else wk / 2)
    return min(out, 25.0)


def crosswalks(f: Features, juncs: list[Junction], where: dict[int, list[tuple[int, int]]]) -> list[Crosswalk]:
    """Crosswalks of the map (module docstring): OSM crossing nodes and crossing foot ways
    first, then derived ones at junctions without an OSM crossing nearby."""
    import shapely

    roads = f.roads
    out: list[Crosswalk] = []
    jnodes = {j.node for j in juncs}
    at_junction: set[int] = set()

    gap = CROSSWALK_WIDTH + 1.0  # centres closer than this are one crosswalk: the first one stays
    cells: dict[tuple[int, int], list[tuple[float, float]]] = {}  # centres by gap-sized cell

    def add(centre: np.ndarray, d: np.ndarray, ri: int, source: str) -> None:
        r = roads[ri]
        c = (float(centre[0]), float(centre[1]))
        i, k = math.floor(c[0] / gap), math.floor(c[1] / gap)
        if any(math.hypot(c[0] - x, c[1] - z) < gap
               for a in (-1, 0, 1) for b in (-1, 0, 1) for x, z in cells.get((i + a, k + b), ())):
            return
        cells.setdefault((i, k), []).append(c)
        across = (float(-d[1]), float(d[0]))
        out.append(Crosswalk(f"crosswalk_{len(out)}", c, across, r.width + 2 * CURB_OVERLAP, CROSSWALK_WIDTH,
                             r.id, source))

    tagged = sorted(p.node for p in f.points if p.node is not None and _is_crossing(p.tags))
    for nid in tagged:
        if nid in jnodes:
            at_junction.add(nid)
            continue
        occ = where.get(nid)
        if not occ:
            continue
        ri, vi = occ[0]
        pts = roads[ri].pts
        _, d, _ = _along(pts, vi, 1 if vi + 1 < len(pts) else -1, 0.0)
        add(pts[vi], d, ri, "osm")
    if roads:
        tree = shapely.STRtree([shapely.LineString(r.pts) for r in roads])
        for fw in f.foot:
            if not fw.crossing:
                continue
            line = shapely.LineString(fw.pts)
            for ri in sorted(int(i) for i in tree.query(line, predicate="intersects")):
                if set(fw.nodes.tolist()) & set(roads[ri].nodes.tolist()):
                    shared = [int(n) for n in fw.nodes if int(n) in set(roads[ri].nodes.tolist())]
                    if any(n in jnodes for n in shared):
                        at_junction.update(n for n in shared if n in jnodes)
                        continue
                hit = line.intersection(shapely.LineString(roads[ri].pts))
                for g in getattr(hit, "geoms", [hit]):
                    if g.geom_type != "Point":
                        continue
                    rl = shapely.LineString(roads[ri].pts)
                    s = rl.project(g)
                    a = np.asarray(rl.interpolate(max(s - 0.5, 0.0)).coords[0])
                    b = np.asarray(rl.interpolate(min(s + 0.5, rl.length)).coords[0])
                    d = (b - a) / max(float(np.hypot(*(b - a))), 1e-9)
                    add(np.array([g.x, g.y]), d, ri, "osm")
    osm_pts = [o.centre for o in out]
    for j in juncs:
        near = any(math.hypot(j.xz[0] - x, j.xz[1] - z) <= OSM_CROSSING_REACH for x, z in osm_pts)
        if near and j.node not in at_junction:
            continue
        for ri, (dx, dz), avail in j.arms:
            r = roads[ri]
            if r.highway in NO_DERIVED or min(r.sidewalk) <= 0:
                continue
            off = _clear_of(j, ri, (dx, dz), roads) + CURB_OVERLAP + CROSSWALK_WIDTH / 2 + 0.5
            if avail < off + CROSSWALK_WIDTH:
                continue
            vi = next(v for rr, v in where[j.node] if rr == ri)
            pts = r.pts
            step = 1 if (vi + 1 < len(pts) and np.dot(pts[vi + 1] - pts[vi], (dx, dz)) > 0) else -1
            c, d, _ = _along(pts, vi, step, off)
            add(c, d, ri, "derived")
    return out


__all__ = ["CROSSWALK_WIDTH", "Junction", "crosswalks", "junctions", "road_polygon", "sidewalk_bands"]
