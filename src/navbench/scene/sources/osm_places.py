"""Storefront places of an imported map (NavVerse App. 7.5): every shop / amenity / office the
map has (a node, an area, or a building's own tags) whose kind maps onto one of the 17 PlaceNav
categories (:data:`~navbench.scene.sources.osm_tags.PLACE_TABLE`) becomes a place with its OSM
``name`` on the *nearest road-facing facade* of its building; kinds that map to no category are
counted (``meta["osm_places"]["unknown"]``), never invented or renamed.

Host building: the building whose tags carry the shop, else the nearest building within
:data:`HOST_REACH` m of the node, else a :data:`KIOSK` m kiosk built at the node (on free raised
ground, facing the nearest road; the map has the shop but not its building). Facade: the
building's outline edges at least :data:`MIN_FACADE` m long whose outward normal reaches a road,
crosswalk or sidewalk within :data:`FACE_REACH` m before any other building ("road-facing");
of those the one nearest the node. The shop front is up to 8 m wide, centred on the node's
projection and slid along the facade to stay clear of the edge ends and of other shops; the
entrance is 1 m out from the facade, the sign box hangs in
:data:`~navbench.scene.storefront_geometry.SIGN_BAND` (as in the procedural city).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from navbench.geometry import yaw_of_direction
from navbench.scene.model import Box, Place
from navbench.scene.procgen.urban import SIDEWALK_Y
from navbench.scene.sources import osm_tags as T
from navbench.scene.sources.osm_features import Building, Point
from navbench.scene.sources.osm_geometry import Issues
from navbench.scene.sources.osm_index import GroundIndex
from navbench.scene.storefront_geometry import sign_box_geometry

if TYPE_CHECKING:
    from shapely.geometry import Polygon

HOST_REACH = 20.0
MIN_FACADE = 3.0
FACE_REACH = 30.0
KIOSK = 3.0
SHOP_WIDTH = 8.0


@dataclass
class PlaceResult:
    """Places, their sign boxes, the kiosks built for them, the clear zones in front of them
    (kept free of street furniture) and the counts ``meta["osm_places"]`` reports."""

    places: list[Place] = field(default_factory=list)
    signs: list[Box] = field(default_factory=list)
    kiosks: list[Building] = field(default_factory=list)
    clear: list[Polygon] = field(default_factory=list)
    mapped: Counter[str] = field(default_factory=Counter)
    unknown: Counter[str] = field(default_factory=Counter)


def _edges(poly: Polygon) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Exterior edges: start points, unit directions, lengths and outward normals."""
    c = np.asarray(poly.exterior.coords)
    p, d = c[:-1], np.diff(c, axis=0)
    ln = np.hypot(d[:, 0], d[:, 1])
    ok = ln > 1e-6
    p, d, ln = p[ok], d[ok], ln[ok]
    u = d / ln[:, None]
    n = np.c_[u[:, 1], -u[:, 0]]
    import shapely

    mid = p + d / 2
    inside = shapely.contains_xy(poly, mid[:, 0] + 0.05 * n[:, 0], mid[:, 1] + 0.05 * n[:, 1])
    n[inside] *= -1
    return p, u, ln, n


def _facing(p: np.ndarray, u: np.ndarray, ln: np.ndarray, n: np.ndarray, idx: GroundIndex) -> np.ndarray:
    """Distance (m) from each edge's midpoint straight out to the street (inf: a building is in
    the way, or no street within :data:`FACE_REACH` m)."""
    start = p + u * (ln / 2)[:, None] + n * 0.3
    street = idx.street.first_hit(start, n, FACE_REACH)
    block = idx.buildings.first_hit(start, n, FACE_REACH)
    return np.where(np.isfinite(street) & (street < block), street + 0.3, np.inf)


def place_storefronts(points: list[Point], buildings: list[Building], idx: GroundIndex, issues: Issues
                      ) -> PlaceResult:
    """Places for the storefront-like ``points`` and buildings (module docstring); ``idx``
    answers where the street, the buildings and the free ground are."""
    import shapely

    res = PlaceResult()
    bl_polys = [b.poly for b in buildings]
    tree = shapely.STRtree(bl_polys) if bl_polys else None
    used: dict[tuple[str, int], list[tuple[float, float]]] = {}
    items: list[tuple[str, dict[str, str], tuple[float, float], int | None]] = []
    for k, b in enumerate(buildings):
        if T.place_kind(b.tags) is not None:
            rp = b.poly.representative_point()
            items.append((f"place_{b.id}", b.tags, (float(rp.x), float(rp.y)), k))
    for p in points:
        if T.place_kind(p.tags) is not None:
            items.append((f"place_{p.id}", p.tags, p.xz, None))
    todo: list[tuple[str, str, dict[str, str], tuple[float, float], Building]] = []
    for pid, tags, xz, host in items:
        kind = T.place_kind(tags) or ""
        cat = T.place_category(tags)
        if cat is None:
            res.unknown[kind] += 1
            continue
        pt = shapely.Point(xz)
        if host is None and tree is not None:
            near = tree.query_nearest(pt, max_distance=HOST_REACH)
            if len(near):
                host = int(min(near, key=lambda i: (bl_polys[int(i)].distance(pt), int(i))))
        if host is None:
            kiosk = _kiosk(pid, xz, idx)
            if kiosk is None:
                issues.warn("place_no_site")
                continue
            res.kiosks.append(kiosk)
            todo.append((pid, cat, tags, xz, kiosk))
        else:
            todo.append((pid, cat, tags, xz, buildings[host]))
    facades = _facades({b.id: b for *_, b in todo}, idx)
    for pid, cat, tags, xz, bld in todo:
        made = _storefront(pid, cat, tags.get("name") or cat.title(), xz, bld, facades[bld.id], used)
        if made is None:
            issues.warn("place_no_room")
            continue
        place, sign, clear = made
        res.places.append(place)
        res.signs.append(sign)
        res.clear.append(clear)
        res.mapped[cat] += 1
    return res


def _kiosk(pid: str, xz: tuple[float, float], idx: GroundIndex) -> Building | None:
    """A :data:`KIOSK` m kiosk at ``xz``, else at the nearest point within 10 m (1 m rings, 16
    directions) where it stands on free ground, turned to face the nearest street; None when
    there is no room."""
    import shapely

    rings = [(0.0, 0.0)] + [(r * math.cos(a), r * math.sin(a)) for r in range(1, 11)
                            for a in np.linspace(0, 2 * math.pi, 16, endpoint=False)]
    cands = np.asarray(xz) + np.asarray(rings)
    h = KIOSK / 2
    for c in cands:
        if idx.street.tree is None:
            n = np.array([0.0, -1.0])
        else:
            pt = shapely.Point(c)
            near = idx.street.polys[int(idx.street.tree.nearest(pt))]
            to = np.asarray(shapely.shortest_line(pt, near).coords[-1]) - c
            ln = float(np.hypot(*to))
            n = to / ln if ln > 1e-9 else np.array([0.0, -1.0])
        u = np.array([-n[1], n[0]])
        poly = shapely.Polygon([c + a * u + b * n for a, b in ((-h, -h), (h, -h), (h, h), (-h, h))])
        if idx.shapes_free(np.array([poly]))[0]:
            return Building(f"kiosk_{pid.removeprefix('place_')}", shapely.normalize(poly), 3.0, None,
                            {"building": "kiosk"})
    return None


_Facade = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _facades(hosts: dict[str, Building], idx: GroundIndex) -> dict[str, _Facade]:
    """Edges (start, unit, length, outward normal) and distance out to the street of every
    host building, tested together."""
    edges = {bid: _edges(b.poly) for bid, b in hosts.items()}
    if not edges:
        return {}
    cat = [np.concatenate([e[k] for e in edges.values()]) for k in range(4)]
    face = _facing(cat[0], cat[1], cat[2], cat[3], idx)
    out: dict[str, _Facade] = {}
    k = 0
    for bid, (p, u, ln, n) in edges.items():
        out[bid] = (p, u, ln, n, face[k:k + len(p)])
        k += len(p)
    return out


def _storefront(pid: str, cat: str, name: str, xz: tuple[float, float], bld: Building, facade: _Facade,
                used: dict[tuple[str, int], list[tuple[float, float]]]) -> tuple[Place, Box, Polygon] | None:
    p, u, ln, n, face = facade
    q = np.asarray(xz)
    rel = q[None, :] - p
    t = np.clip(np.einsum("ij,ij->i", rel, u), 0.0, ln)
    dist = np.hypot(*(p + u * t[:, None] - q).T)
    order = sorted(range(len(p)), key=lambda i: (not np.isfinite(face[i]), ln[i] < MIN_FACADE, dist[i], i))
    for i in order:
        if ln[i] < 2.0 + 1.0:
            continue
        width = min(SHOP_WIDTH, float(ln[i]) - 1.0)
        taken = used.setdefault((bld.id, i), [])
        lo, hi = width / 2 + 0.5, float(ln[i]) - width / 2 - 0.5
        if hi < lo:
            lo = hi = float(ln[i]) / 2
        cands = sorted(np.r_[np.clip(t[i], lo, hi), np.linspace(lo, hi, 9)], key=lambda s: abs(s - t[i]))
        for s in cands:
            if all(s + width / 2 <= a or s - width / 2 >= b for a, b in taken):
                taken.append((s - width / 2, s + width / 2))
                return _front(pid, cat, name, p[i] + u[i] * s, u[i], n[i], width, bld.id,
                              float(face[i]) if np.isfinite(face[i]) else 3.0)
    return None


def _front(pid: str, cat: str, name: str, mid: np.ndarray, u: np.ndarray, n: np.ndarray, width: float,
           bid: str, to_street: float) -> tuple[Place, Box, Polygon]:
    import shapely

    half = width / 2
    fp = [mid - u * half, mid + u * half, mid + u * half + n * 0.3, mid - u * half + n * 0.3]
    ring = [(float(x), float(z)) for x, z in fp]
    from navbench.geometry import polygon_area

    if polygon_area(ring) < 0:
        ring = ring[::-1]
    yaw = yaw_of_direction(float(n[0]), float(n[1]))
    e = mid + n * 1.0
    place = Place(pid, cat, name, (float(e[0]), SIDEWALK_Y, float(e[1])), tuple(ring), yaw, bid)
    sy, sz, sh, sd = sign_box_geometry(SIDEWALK_Y)
    s = mid + n * sz
    sign = Box(f"{pid}_sign", "sign", (float(s[0]), sy, float(s[1])), (2 * half - 0.5, sh, sd), yaw, cat, pid)
    clear = shapely.Polygon([mid - u * half, mid + u * half, mid + u * half + n * (to_street + 2.0),
                             mid - u * half + n * (to_street + 2.0)])
    return place, sign, clear


__all__ = ["HOST_REACH", "KIOSK", "PlaceResult", "place_storefronts"]
