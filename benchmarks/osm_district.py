"""Synthetic OpenStreetMap districts, tagged as real extracts are, for robustness checks and the
import scale benchmark (``bench_osm.py``). Not a navbench feature: a test-data generator.

A rotated, jittered street grid (ways split between junctions as mappers split them, with
intermediate nodes every ~25 m; residential / secondary / primary with ``lanes`` / ``width`` /
``sidewalk`` variants, ``sidewalk=separate`` with its own ``footway=sidewalk`` ways), blocks of
several zone types — commercial (``landuse=retail``, shops as nodes inside buildings and as
building tags, some kinds outside the 17 PlaceNav categories, named), residential (houses and
apartments, driveways), park (``leisure=park`` with paths, a playground and a pond drawn as a
multipolygon with an island), plaza (``highway=pedestrian`` + ``area=yes``), parking lots
(``amenity=parking``) and construction sites — buildings with ``building:levels`` / ``height`` /
``building:colour`` / ``building:material``, courtyard multipolygons, detailed facades and round
towers; crossings as ``highway=crossing`` nodes and ``footway=crossing`` ways, bus stops,
traffic signals at junctions, street lamps, trees, hydrants, benches. ``edge_cases`` adds the
geometry real maps contain: a shop 40 m from any building, a bow-tie and a zero-area building, a
building sharing a node with a road, open ways tagged as areas and an unclosed multipolygon.

Usage: python benchmarks/osm_district.py OUT.osm [--blocks 6] [--seed 0] [--no-shops] [--dense]
"""

from __future__ import annotations

import argparse
import math
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import IO

import numpy as np

LON0, LAT0 = 16.37, 48.20
R = 6_371_008.8
KX = R * math.radians(1) * math.cos(math.radians(LAT0))
KZ = R * math.radians(1)
SHOPS: list[dict[str, str]] = [
    {"amenity": "restaurant"}, {"amenity": "cafe"}, {"shop": "bakery"}, {"shop": "convenience"},
    {"amenity": "pharmacy"}, {"shop": "clothes"}, {"amenity": "bank"}, {"amenity": "fast_food"},
    {"shop": "hairdresser"}, {"amenity": "bar"}, {"shop": "books"}, {"shop": "florist"},
    {"amenity": "ice_cream"}, {"tourism": "hotel"}, {"amenity": "post_office"}, {"leisure": "fitness_centre"},
    {"shop": "supermarket"}, {"shop": "hardware"}, {"office": "company"}, {"shop": "mobile_phone"},
    {"amenity": "dentist"}, {"shop": "optician"},
]
NAMES = ("Linden", "Mozart", "Donau", "Rosen", "Kaiser", "Sonnen", "Markt", "Garten", "Berg", "Stern")
COLOURS = ("red", "white", "#d2b48c", "yellow", "grey", "#8b4513", "blue", "pink", "beige", "#ffffff")
MATERIALS = ("brick", "concrete", "plaster", "glass", "stone")


class Writer:
    """Streams an OSM XML file: nodes first, then ways, then relations (temporary files)."""

    def __init__(self) -> None:
        self._tmp = tempfile.mkdtemp(prefix="osmgen_")
        # three streams open across calls (nodes, ways, relations), closed by close()
        self._f: list[IO[str]] = [open(Path(self._tmp) / f"{k}.xml", "w") for k in ("n", "w", "r")]  # noqa: SIM115
        self.next_id = 1
        self.nodes = self.ways = self.relations = 0

    @staticmethod
    def _tags(tags: dict[str, str] | None) -> str:
        esc = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}
        return "".join(f'<tag k="{k}" v="{"".join(esc.get(c, c) for c in v)}"/>' for k, v in (tags or {}).items())

    def node(self, x: float, z: float, tags: dict[str, str] | None = None) -> int:
        i = self.next_id
        self.next_id += 1
        self.nodes += 1
        lon, lat = LON0 + x / KX, LAT0 - z / KZ
        t = self._tags(tags)
        self._f[0].write(f'<node id="{i}" version="1" lat="{lat:.7f}" lon="{lon:.7f}"'
                         + (f">{t}</node>\n" if t else "/>\n"))
        return i

    def way(self, refs: Sequence[int], tags: dict[str, str] | None = None) -> int:
        i = self.next_id
        self.next_id += 1
        self.ways += 1
        nd = "".join(f'<nd ref="{r}"/>' for r in refs)
        self._f[1].write(f'<way id="{i}" version="1">{nd}{self._tags(tags)}</way>\n')
        return i

    def relation(self, members: Sequence[tuple[str, int, str]], tags: dict[str, str]) -> int:
        i = self.next_id
        self.next_id += 1
        self.relations += 1
        m = "".join(f'<member type="{t}" ref="{r}" role="{ro}"/>' for t, r, ro in members)
        self._f[2].write(f'<relation id="{i}" version="1">{m}{self._tags(tags)}</relation>\n')
        return i

    def close(self, path: Path) -> None:
        for f in self._f:
            f.close()
        with open(path, "w") as out:
            out.write('<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6" generator="navbench osm_district">\n')
            for k in ("n", "w", "r"):
                with open(Path(self._tmp) / f"{k}.xml") as f:
                    shutil.copyfileobj(f, out)
            out.write("</osm>\n")
        shutil.rmtree(self._tmp, ignore_errors=True)


def ring(w: Writer, pts: np.ndarray, tags: dict[str, str] | None = None) -> tuple[int, list[int]]:
    """A closed way through ``pts``; returns (way id, node ids)."""
    ids = [w.node(float(x), float(z)) for x, z in pts]
    return w.way(ids + ids[:1], tags), ids


def _rect(c: np.ndarray, u: np.ndarray, v: np.ndarray, a0: float, a1: float, b0: float, b1: float) -> np.ndarray:
    return np.array([c + a * u + b * v for a, b in ((a0, b0), (a1, b0), (a1, b1), (a0, b1))])


def district(path: str | Path, blocks: int = 6, seed: int = 0, shops: bool = True, edge_cases: bool = True,
             block: tuple[float, float] = (80.0, 120.0), dense: bool = False) -> dict[str, int]:
    """Write a ``blocks`` x ``blocks`` district to ``path``; returns element counts. ``dense``
    maps as a dense city centre is mapped (narrow row buildings with detailed outlines, an
    address node each, sheds and trees in the yards): about 1,000 nodes a block, so a
    ``--blocks 32`` district holds ≥ 10⁶ nodes on about 10 km²."""
    rng = np.random.default_rng(seed)
    w = Writer()
    if dense:
        block = (70.0, 100.0)
    theta = 0.35
    u = np.array([math.cos(theta), math.sin(theta)])
    v = np.array([-u[1], u[0]])
    xs = np.r_[0.0, np.cumsum(rng.uniform(*block, size=blocks))]
    zs = np.r_[0.0, np.cumsum(rng.uniform(*block, size=blocks))]
    xs -= xs[-1] / 2
    zs -= zs[-1] / 2
    n = blocks + 1
    P = np.array([[xs[i] * u + zs[j] * v + rng.uniform(-1.5, 1.5, 2) for j in range(n)] for i in range(n)])
    signals = rng.random((n, n)) < 0.25  # traffic signals tagged on the junction node itself
    J = [[w.node(*P[i, j], {"highway": "traffic_signals"} if signals[i, j] else None) for j in range(n)]
         for i in range(n)]
    kinds_x = ["residential"] * n
    kinds_z = ["residential"] * n
    for k in range(0, n, 3):
        kinds_x[k] = "secondary"
    kinds_z[n // 2] = "primary"
    road_nodes: list[tuple[int, np.ndarray, float]] = []  # intermediate street nodes, their XZ, half width

    def street(a: tuple[int, int], b: tuple[int, int], kind: str, name: str) -> None:
        pa, pb = P[a], P[b]
        ln = float(np.hypot(*(pb - pa)))
        k = max(1, round(ln / 25.0))
        ids = [J[a[0]][a[1]]]
        tags: dict[str, str] = {"highway": kind, "name": name}
        lanes = {"primary": 4, "secondary": 2}.get(kind, 2)
        r = rng.random()
        if r < 0.3:
            tags["lanes"] = str(lanes)
        elif r < 0.45:
            tags["width"] = f"{lanes * 3.3:.1f}"
        s = rng.random()
        tags.update({"sidewalk": "both"} if s < 0.45 else {} if s < 0.7 else {"sidewalk": "separate"} if s < 0.8
                    else {"sidewalk": "left"} if s < 0.88 else {"sidewalk": "no"} if s < 0.92 else {"sidewalk:both": "yes"})
        if rng.random() < 0.1:
            tags["parking:both"] = "no"
        half = (float(tags.get("width", lanes * 3.25))) / 2
        for t in range(1, k):
            q = pa + (pb - pa) * t / k
            crossing = rng.random() < 0.08
            nid = w.node(*q, {"highway": "crossing", "crossing": "marked"} if crossing else None)
            ids.append(nid)
            road_nodes.append((nid, q, half))
        ids.append(J[b[0]][b[1]])
        w.way(ids, tags)
        if tags.get("sidewalk") == "separate":
            d = (pb - pa) / ln
            nrm = np.array([-d[1], d[0]])
            for side in (1, -1):
                off = nrm * side * (half + 1.5)
                w.way([w.node(*(pa + d * 8 + off)), w.node(*(pb - d * 8 + off))],
                      {"highway": "footway", "footway": "sidewalk"})
        for t in np.arange(15.0, ln - 10.0, 30.0):
            q = pa + (pb - pa) * t / ln
            d = (pb - pa) / ln
            nrm = np.array([-d[1], d[0]])
            if rng.random() < 0.7:
                w.node(*(q + nrm * (half + 1.0)), {"highway": "street_lamp"})
            if kind == "residential" and rng.random() < 0.5:
                w.node(*(q + d * 7 - nrm * (half + 1.2)), {"natural": "tree"})
            if rng.random() < 0.1:
                w.node(*(q - d * 5 + nrm * (half + 0.8)), {"emergency": "fire_hydrant"})
        if kind != "residential" and ln > 60 and rng.random() < 0.6:
            d = (pb - pa) / ln
            nrm = np.array([-d[1], d[0]])
            w.node(*((pa + pb) / 2 + nrm * (half + 1.2)),
                   {"highway": "bus_stop", "public_transport": "platform", "name": "Haltestelle"})

    for j in range(n):
        for i in range(n - 1):
            street((i, j), (i + 1, j), kinds_x[j], f"{NAMES[j % len(NAMES)]}gasse")
    for i in range(n):
        for j in range(n - 1):
            if 0 < i < n - 1 and rng.random() < 0.08:
                continue  # a merged block (a T-junction)
            street((i, j), (i, j + 1), kinds_z[i], f"{NAMES[i % len(NAMES)]}strasse")
    zones = rng.choice(["commercial", "residential", "park", "plaza", "parking", "construction"],
                       size=(blocks, blocks), p=[0.32, 0.42, 0.1, 0.05, 0.06, 0.05])
    if shops:
        zones[0, 0] = "commercial"
    else:
        zones[zones == "commercial"] = "residential"
    for i in range(blocks):
        for j in range(blocks):
            _block(w, rng, P, i, j, str(zones[i, j]), u, v, shops, dense)
    if edge_cases:
        _edge_cases(w, P, road_nodes, u, v)
    w.close(Path(path))
    return {"nodes": w.nodes, "ways": w.ways, "relations": w.relations}


def _block(w: Writer, rng: np.random.Generator, P: np.ndarray, i: int, j: int, zone: str, u: np.ndarray,
           v: np.ndarray, shops: bool, dense: bool = False) -> None:
    c = (P[i, j] + P[i + 1, j] + P[i, j + 1] + P[i + 1, j + 1]) / 4
    a = float(np.hypot(*(P[i + 1, j] - P[i, j]))) / 2 - 11.0
    b = float(np.hypot(*(P[i, j + 1] - P[i, j]))) / 2 - 11.0
    if a < 12 or b < 12:
        return
    lot = _rect(c, u, v, -a, a, -b, b)
    if zone == "park":
        ring(w, lot, {"leisure": "park", "name": "Stadtpark"})
        w.way([w.node(*(c - u * a)), w.node(*c), w.node(*(c + u * a))], {"highway": "footway"})
        ring(w, _rect(c, u, v, a * 0.3, a * 0.8, -b * 0.8, -b * 0.3), {"leisure": "playground"})
        outer, _ = ring(w, _rect(c, u, v, -a * 0.8, -a * 0.2, b * 0.2, b * 0.8))
        inner, _ = ring(w, _rect(c, u, v, -a * 0.55, -a * 0.45, b * 0.45, b * 0.55))
        w.relation([("way", outer, "outer"), ("way", inner, "inner")], {"type": "multipolygon", "natural": "water"})
        for _ in range(6):
            q = c + u * rng.uniform(-a, a) + v * rng.uniform(-b, 0)
            w.node(*q, {"natural": "tree"} if rng.random() < 0.7 else {"amenity": "bench"})
        return
    if zone == "plaza":
        ring(w, lot, {"highway": "pedestrian", "area": "yes", "name": "Marktplatz"})
        w.node(*c, {"amenity": "fountain"})
        for k in range(4):
            w.node(*(c + u * (k - 1.5) * 6 + v * 8), {"amenity": "bench"})
        return
    if zone == "parking":
        ring(w, lot, {"amenity": "parking", "parking": "surface"})
        return
    if zone == "construction":
        ring(w, lot, {"landuse": "construction"})
        ring(w, _rect(c, u, v, -a * 0.4, a * 0.4, -b * 0.4, b * 0.4), {"building": "construction"})
        return
    ring(w, lot, {"landuse": "retail" if zone == "commercial" else "residential"})
    for side in range(4):
        ax, bx = (u, v) if side % 2 == 0 else (v, u)
        sgn = 1 if side < 2 else -1
        half, depth_lim = (a, b) if side % 2 == 0 else (b, a)
        front = c + bx * sgn * depth_lim  # the lot edge on this side
        inward = -bx * sgn
        t = -half + 2.0
        widths = (6.0, 14.0) if dense else (10.0, 24.0)
        while t < half - widths[0] - 2.0:
            wd = float(rng.uniform(*widths))
            wd = min(wd, half - 2.0 - t)
            dp = float(rng.uniform(9.0, min(16.0, depth_lim - 1.0)))
            inset = 0.0 if dense else float(rng.uniform(0.0, 2.5))
            bc = front + ax * (t + wd / 2) + inward * (inset + dp / 2)
            _building(w, rng, bc, ax, inward, wd, dp, zone, shops, dense)
            if dense:
                w.node(*bc, {"addr:housenumber": str(int(rng.integers(1, 200))), "addr:street": "Gasse"})
                if rng.random() < 0.3:
                    q = bc + inward * (dp / 2 + 4.0)
                    ring(w, _rect(q, ax, inward, -1.5, 1.5, 0.0, 3.0), {"building": "shed"})
                if rng.random() < 0.4:
                    w.node(*(bc + inward * (dp / 2 + 9.0)), {"natural": "tree"})
            gap = float(rng.uniform(0.0, 3.0))
            if zone == "residential" and rng.random() < 0.2:  # a driveway in a 4.5 m gap
                q = front + ax * (t + wd + 2.25)
                w.way([w.node(*(q - inward * 7.0)), w.node(*(q + inward * 4.0))],
                      {"highway": "service", "service": "driveway"})
                gap = 4.5
            t += wd + gap


def _building(w: Writer, rng: np.random.Generator, c: np.ndarray, ax: np.ndarray, inward: np.ndarray, wd: float,
              dp: float, zone: str, shops: bool, dense: bool = False) -> None:
    tags: dict[str, str] = {"building": rng.choice(["apartments", "yes", "house", "residential", "retail", "commercial"])}
    r = rng.random()
    if r < 0.7:
        tags["building:levels"] = str(int(rng.integers(1, 8)))
    elif r < 0.8:
        tags["height"] = f"{rng.uniform(5, 30):.1f}"
    if rng.random() < 0.15:
        tags["building:colour"] = str(rng.choice(COLOURS))
    elif rng.random() < 0.1:
        tags["building:material"] = str(rng.choice(MATERIALS))
    hw, hd = wd / 2, dp / 2
    shape = rng.random() if not dense else 0.8 + 0.16 * rng.random()  # dense: detailed outlines
    if shape < 0.6:
        pts = _rect(c, ax, inward, -hw, hw, -hd, hd)
    elif shape < 0.8:  # L-shape
        pts = np.array([c + a * ax + b * inward for a, b in
                        ((-hw, -hd), (hw, -hd), (hw, 0.0), (0.0, 0.0), (0.0, hd), (-hw, hd))])
    elif shape < 0.96:  # a detailed facade (steps every few metres)
        k = max(2, int(wd / (1.2 if dense else 4.0)))
        front, back = [], []
        for q in range(k):
            a0, a1 = -hw + q * wd / k, -hw + (q + 1) * wd / k
            off = -hd + (0.4 if q % 2 else 0.0)
            front += [(a0, off), (a1, off)]
            if dense:
                back += [(-a0, hd - (0.6 if q % 2 else 0.0)), (-a1, hd - (0.6 if q % 2 else 0.0))]
        back = [(a, b) for a, b in sorted(back, key=lambda p: -p[0])] if dense else [(hw, hd), (-hw, hd)]
        pts = _dedupe_pts(np.array([c + a * ax + b * inward for a, b in [*front, *back]]))
    elif shape < 0.99 and wd > 14 and dp > 12:  # a courtyard (multipolygon)
        outer, _ = ring(w, _rect(c, ax, inward, -hw, hw, -hd, hd))
        inner, _ = ring(w, _rect(c, ax, inward, -hw * 0.5, hw * 0.5, -hd * 0.4, hd * 0.5))
        w.relation([("way", outer, "outer"), ("way", inner, "inner")], {"type": "multipolygon", **tags})
        return
    else:  # a round tower
        rr = min(hw, hd)
        pts = np.array([c + rr * (math.cos(t) * ax + math.sin(t) * inward) for t in np.linspace(0, 2 * math.pi, 17)[:-1]])
    if shops and zone == "commercial" and rng.random() < 0.55:
        shop = dict(SHOPS[int(rng.integers(len(SHOPS)))])
        shop["name"] = f"{NAMES[int(rng.integers(len(NAMES)))]} {next(iter(shop.values())).replace('_', ' ').title()}"
        if rng.random() < 0.15:
            tags.update(shop)  # the shop tagged on the building itself
        else:
            w.node(*(c - inward * (hd - 1.5) + ax * rng.uniform(-hw * 0.6, hw * 0.6)), shop)
    ring(w, pts, tags)


def _dedupe_pts(pts: np.ndarray) -> np.ndarray:
    keep = np.r_[True, np.hypot(*np.diff(pts, axis=0).T) > 1e-6]
    return pts[keep]


def _edge_cases(w: Writer, P: np.ndarray, road_nodes: list[tuple[int, np.ndarray, float]], u: np.ndarray,
                v: np.ndarray) -> None:
    c = (P[0, 0] + P[1, 1]) / 2
    far = P[0, 0] - u * 60 - v * 60  # outside the grid: 40+ m from any building
    w.way([w.node(*(far - u * 50)), w.node(*(far + u * 50))], {"highway": "residential", "name": "Randweg"})
    w.node(*(far + v * 8), {"amenity": "cafe", "name": "Kiosk am Rand"})
    q = far + v * 30
    ids = [w.node(*(q + d)) for d in (np.zeros(2), u * 10 + v * 10, u * 10, v * 10)]
    w.way(ids + ids[:1], {"building": "yes"})  # a bow-tie
    q = far + u * 30 + v * 30
    ids = [w.node(*(q + d)) for d in (np.zeros(2), u * 5, u * 10)]
    w.way(ids + ids[:1], {"building": "yes"})  # zero area
    nid, q, half = road_nodes[len(road_nodes) // 3]
    off = np.array([-1.0, 0.0])
    ids = [w.node(*(q + off * 0 + u * d1 + v * d2)) for d1, d2 in ((0, half + 6), (8, half + 6), (8, half + 14))]
    w.way([nid, *ids, nid], {"building": "yes"})  # shares a node with a road
    ids = [w.node(*(c + u * d)) for d in (0, 5, 9)]
    w.way(ids, {"building": "yes"})  # an open way tagged as an area
    w.way([w.node(*(c + v * d)) for d in (0, 5, 9)], {"landuse": "grass"})
    outer = w.way([w.node(*(far + u * d + v * 50)) for d in (0, 10, 20)])
    w.relation([("way", outer, "outer")], {"type": "multipolygon", "landuse": "grass"})  # never closes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--blocks", type=int, default=6)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-shops", action="store_true")
    ap.add_argument("--no-edge-cases", action="store_true")
    ap.add_argument("--dense", action="store_true", help="map as a dense city centre (about 1,000 nodes a block)")
    a = ap.parse_args()
    c = district(a.out, a.blocks, a.seed, shops=not a.no_shops, edge_cases=not a.no_edge_cases, dense=a.dense)
    print(f"wrote {a.out}: {c['nodes']} nodes, {c['ways']} ways, {c['relations']} relations")


if __name__ == "__main__":
    main()
