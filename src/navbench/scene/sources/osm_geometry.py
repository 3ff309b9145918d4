"""Geometry of OpenStreetMap elements in local metres: projection, polygons that are always
valid (repaired or skipped, never a crash), multipolygon rings and a per-polygon vertex cap.

Projection: local equirectangular around ``(lon0, lat0)``: ``x = R·Δλ·cos φ0`` (east),
``z = -R·Δφ`` (north = -Z), R = 6,371,008.8 m; over 1 km the scale error is below 1e-4.

Polygons: consecutive duplicate points are dropped; fewer than 3 distinct points or an area
under :data:`MIN_AREA` m² is skipped (``zero_area``); an invalid ring (a bow-tie, a
self-touching ring) is repaired with ``shapely.make_valid`` and its polygonal parts kept
(``repaired``); more than ``max_vertices`` vertices are simplified (Douglas-Peucker with a
growing tolerance, topology preserved) until under the cap (``simplified``). Every such event
is counted in an :class:`Issues` counter (``Scene.meta["osm_issues"]``) and logged once.
"""

from __future__ import annotations

import logging
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from navbench.geometry import polygon_area

if TYPE_CHECKING:
    from shapely.geometry import Polygon
    from shapely.geometry.base import BaseGeometry  # shapely ships no annotations: mypy sees Any

EARTH_RADIUS = 6_371_008.8
#: Polygons smaller than this (m²) are dropped.
MIN_AREA = 0.5
#: Default vertex cap of one building or area ring.
MAX_VERTICES = 256

log = logging.getLogger(__name__)


class Issues(Counter[str]):
    """Counts of repaired / skipped geometry by reason (``repaired``, ``zero_area``, ...)."""

    def warn(self, reason: str, n: int = 1) -> None:
        """Count ``n`` events of ``reason``."""
        self[reason] += n

    def report(self, name: str) -> None:
        """Log one warning line with every count (nothing when empty)."""
        if self:
            log.warning("%s: %s", name, ", ".join(f"{k} {v}" for k, v in sorted(self.items())))


class Projection:
    """Local equirectangular projection around ``(lon0, lat0)`` (degrees) to XZ metres."""

    def __init__(self, lon0: float, lat0: float) -> None:
        self.lon0, self.lat0 = lon0, lat0
        self.kx = EARTH_RADIUS * math.radians(1.0) * math.cos(math.radians(lat0))
        self.kz = EARTH_RADIUS * math.radians(1.0)

    def xz(self, lonlat: np.ndarray) -> np.ndarray:
        """``(N, 2)`` lon/lat (degrees) → ``(N, 2)`` XZ (m)."""
        ll = np.asarray(lonlat, dtype=float).reshape(-1, 2)
        out: np.ndarray = np.c_[(ll[:, 0] - self.lon0) * self.kx, -(ll[:, 1] - self.lat0) * self.kz]
        return out

    def lonlat(self, xz: np.ndarray) -> np.ndarray:
        """Inverse of :meth:`xz`."""
        p = np.asarray(xz, dtype=float).reshape(-1, 2)
        out: np.ndarray = np.c_[p[:, 0] / self.kx + self.lon0, -p[:, 1] / self.kz + self.lat0]
        return out


def dedupe(pts: np.ndarray) -> np.ndarray:
    """Points without consecutive duplicates (within 1 mm)."""
    if len(pts) < 2:
        return pts
    keep = np.r_[True, np.hypot(*(np.diff(pts, axis=0).T)) > 1e-3]
    return pts[keep]


def polygons_of(geom: BaseGeometry) -> list[Polygon]:
    """The non-empty polygonal parts of any geometry."""
    out: list[Polygon] = []
    for g in getattr(geom, "geoms", [geom]):
        if g.is_empty:
            continue
        if g.geom_type == "Polygon":
            out.append(g)
        elif g.geom_type in ("MultiPolygon", "GeometryCollection"):
            out += polygons_of(g)
    return out


def _cap(poly: Polygon, max_vertices: int) -> Polygon:
    """``poly`` simplified until its rings hold at most ``max_vertices`` points in all."""
    import shapely

    def count(p: Polygon) -> int:
        return len(p.exterior.coords) + sum(len(r.coords) for r in p.interiors)

    if count(poly) <= max_vertices:
        return poly
    tol = 0.05
    out = poly
    while count(out) > max_vertices and tol < 1e4:
        cand = shapely.simplify(poly, tol, preserve_topology=True)
        cand = max(polygons_of(shapely.make_valid(cand)), key=lambda g: g.area, default=None)
        if cand is not None:
            out = cand
        tol *= 2.0
    if count(out) > max_vertices:  # a pathological ring: its convex hull is a faithful outline
        out = shapely.convex_hull(poly)
    return out


def clean_polygon(shell: np.ndarray, holes: Sequence[np.ndarray] = (), issues: Issues | None = None,
                  max_vertices: int = MAX_VERTICES) -> list[Polygon]:
    """Valid polygons (possibly several after a repair) of a ring in XZ metres, capped at
    ``max_vertices`` vertices each; empty when the ring encloses no area."""
    import shapely

    iss = issues if issues is not None else Issues()
    shell = dedupe(np.asarray(shell, dtype=float))
    if len(shell) >= 2 and np.hypot(*(shell[0] - shell[-1])) <= 1e-3:
        shell = shell[:-1]
    if len(shell) < 3:
        iss.warn("zero_area")
        return []
    rings = [dedupe(np.asarray(h, dtype=float)) for h in holes]
    rings = [h for h in rings if len(h) >= 3]
    poly = shapely.Polygon(shell, rings)
    repaired = not poly.is_valid
    parts = polygons_of(shapely.make_valid(poly)) if repaired else [poly]
    parts = [p for p in parts if p.area >= MIN_AREA]
    if not parts:
        iss.warn("zero_area")
        return []
    if repaired:
        iss.warn("repaired")
    out = []
    for p in parts:
        q = _cap(p, max_vertices)
        if q is not p:
            iss.warn("simplified")
        out.append(shapely.normalize(q))
    return out


def join_rings(lines: Iterable[tuple[np.ndarray, np.ndarray]], issues: Issues) -> list[np.ndarray]:
    """Closed rings (XZ arrays) from way pieces ``(node ids, XZ points)`` joined end to end
    by shared end nodes (how multipolygon members form rings); pieces that never close are
    counted as ``unclosed_ring`` and dropped."""
    open_: list[tuple[list[int], list[np.ndarray]]] = []
    rings: list[np.ndarray] = []
    for ids, pts in lines:
        if len(ids) < 2:
            continue
        if ids[0] == ids[-1] and len(ids) >= 4:
            rings.append(pts)
            continue
        open_.append(([int(ids[0]), int(ids[-1])], [pts]))
    while open_:
        ends, parts = open_.pop()
        changed = True
        while changed and ends[0] != ends[1]:
            changed = False
            for k, (e2, p2) in enumerate(open_):
                if e2[0] == ends[1]:
                    parts += p2
                    ends[1] = e2[1]
                elif e2[1] == ends[1]:
                    parts += [q[::-1] for q in reversed(p2)]
                    ends[1] = e2[0]
                elif e2[1] == ends[0]:
                    parts = p2 + parts
                    ends[0] = e2[0]
                elif e2[0] == ends[0]:
                    parts = [q[::-1] for q in reversed(p2)] + parts
                    ends[0] = e2[1]
                else:
                    continue
                open_.pop(k)
                changed = True
                break
        if ends[0] == ends[1]:
            rings.append(np.concatenate(parts))
        else:
            issues.warn("unclosed_ring")
    return rings


def multipolygon(outers: list[np.ndarray], inners: list[np.ndarray], issues: Issues,
                 max_vertices: int = MAX_VERTICES) -> list[Polygon]:
    """Polygons of a multipolygon relation: the union of its outer rings minus its inner rings
    (roles as tagged; an inner ring outside every outer ring removes nothing)."""
    import shapely

    outer = [p for r in outers for p in clean_polygon(r, (), issues, 4 * max_vertices)]
    inner = [p for r in inners for p in clean_polygon(r, (), issues, 4 * max_vertices)]
    if not outer:
        return []
    geom = shapely.union_all(outer)
    if inner:
        geom = geom.difference(shapely.union_all(inner))
    out = []
    for p in polygons_of(geom):
        if p.area >= MIN_AREA:
            q = _cap(p, max_vertices)
            if q is not p:
                issues.warn("simplified")
            out.append(q)
    return out


def ring_xz(coords: Iterable[Sequence[float]], hole: bool = False) -> tuple[tuple[float, float], ...]:
    """A shapely ring as an XZ tuple without the closing point, CCW seen from above (+Y) for
    shells and clockwise for holes (the navbench convention)."""
    r = tuple((float(x), float(z)) for x, z in list(coords)[:-1])
    return r if (polygon_area(r) >= 0) != hole else r[::-1]


__all__ = ["EARTH_RADIUS", "MAX_VERTICES", "MIN_AREA", "Issues", "Projection", "clean_polygon", "dedupe",
           "join_rings", "multipolygon", "polygons_of", "ring_xz"]
