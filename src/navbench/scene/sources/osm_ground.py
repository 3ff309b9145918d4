"""Build the terrain of an imported map (:mod:`navbench.scene.sources.osm_terrain` describes the
levels, boxes and surfaces): :func:`build_terrain`.

Roads, crosswalks and their boxes are built for the whole map at once; everything else tile by
tile (:data:`TILE` m squares), each from the pieces its spatial index returns near it, so the
work grows with the map's area and no map-wide union of outlines is ever built. Surfaces are
cut at the tiles' borders (ids ``sidewalk_t<k>``, ``green_t<k>_<j>``, ...).
"""

from __future__ import annotations

import dataclasses
import math
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from navbench.forking import may_fork
from navbench.scene.model import Box, Surface
from navbench.scene.procgen.urban import ROAD_Y, SIDEWALK_Y, WATER_Y
from navbench.scene.sources.osm_cells import block_cells, filler, low_cells
from navbench.scene.sources.osm_geometry import polygons_of
from navbench.scene.sources.osm_index import GroundIndex, _Tree
from navbench.scene.sources.osm_strips import curb_strips
from navbench.scene.sources.osm_terrain import (
    _LOWER,
    Strip,
    Terrain,
    TerrainInput,
    _surface,
    frame_box,
)

if TYPE_CHECKING:
    from shapely.geometry import Polygon
    from shapely.geometry.base import BaseGeometry

#: Side (m) of the terrain tiles.
TILE = 400.0
#: Surface outlines are snapped to this grid (m) with valid output: a sliver left by the
#: differences of roads, sidewalks and buildings could otherwise cross itself once the scene
#: is saved (coordinates rounded to 1 µm) and break every later union of the surfaces.
SURFACE_GRID = 1e-3
#: Most processes that build terrain tiles at once (the import's target machine has 2 cores;
#: each worker is a fork of the importer, so more would cost memory before time).
MAX_WORKERS = 2


def tiles(bounds: tuple[float, float, float, float], size: float, cell: float) -> list[tuple[float, float, float, float]]:
    """Row-major tiles of ``size`` m (a multiple of ``cell``, anchored at multiples of it)
    covering ``bounds``, each clipped to it."""
    size = max(cell, round(size / cell) * cell)
    x0, z0, x1, z1 = bounds
    xs = np.arange(math.floor(x0 / size) * size, x1, size)
    zs = np.arange(math.floor(z0 / size) * size, z1, size)
    return [(max(float(a), x0), max(float(b), z0), min(float(a) + size, x1), min(float(b) + size, z1))
            for b in zs for a in xs if min(float(a) + size, x1) > max(float(a), x0)
            and min(float(b) + size, z1) > max(float(b), z0)]


def _straight(line: np.ndarray, tol: float = 0.05) -> list[tuple[np.ndarray, np.ndarray]]:
    """Segments of a polyline with runs of (nearly) collinear vertices merged: an interior
    vertex is dropped when it lies within ``tol`` m of the chord of its run."""
    if len(line) < 2:
        return []
    out = []
    a = 0
    for k in range(2, len(line) + 1):
        if k == len(line):
            out.append((line[a], line[k - 1]))
            break
        p, q = line[a], line[k]
        d = q - p
        ln = float(np.hypot(*d))
        mids = line[a + 1:k]
        off = np.abs((mids[:, 0] - p[0]) * d[1] - (mids[:, 1] - p[1]) * d[0]) / max(ln, 1e-12)
        if ln < 1e-9 or (off > tol).any() or ((mids - p) @ d < 0).any() or ((mids - q) @ d > 0).any():
            out.append((line[a], line[k - 1]))
            a = k - 1
    return out


def _road_boxes(inp: TerrainInput, t: Terrain, area: Polygon) -> None:
    """Road surfaces (one per way, overlapping at junctions) and boxes (one per straight run,
    lengthened by half the width at both ends), crosswalk surfaces and tables."""
    import shapely

    for wid, poly, lines, width in inp.roads:
        pieces = [g for g in polygons_of(on_grid(poly.intersection(area))) if g.area >= 0.01]
        ids = [(f"road_{wid}" if k == 0 else f"road_{wid}_{k}", g) for k, g in enumerate(pieces)]
        for sid, g in ids:
            t.surfaces.append(_surface(sid, "road", g, ROAD_Y))
        for k, (a, b) in enumerate(seg for ln_ in lines for seg in _straight(ln_)):
            ln = float(np.hypot(*(b - a)))
            if ln < 1e-3:
                continue
            u = (b - a) / ln
            v = np.array([-u[1], u[0]])
            mid = shapely.Point((a + b) / 2)
            ref = next((sid for sid, g in ids if g.contains(mid)), ids[0][0] if ids else None)
            top = ROAD_Y - 0.001 * (1 + k % 3)  # neighbours differ by 1 mm: no coplanar pictures
            t.boxes.append(frame_box(f"road_{wid}_{k}", "road", a, u, v, -width / 2, ln + width / 2,
                                     -width / 2, width / 2, top, ref, "road"))
    for cw in inp.crosswalks:
        t.surfaces.append(_surface(cw.id, "crosswalk", cw.polygon(), SIDEWALK_Y))
        across = np.array(cw.across)
        along = np.array([-across[1], across[0]])
        t.boxes.append(frame_box(cw.id, "crosswalk", np.array(cw.centre), across, along, -cw.length / 2,
                                 cw.length / 2, -cw.width / 2, cw.width / 2, SIDEWALK_Y, cw.id, "crosswalk"))


def on_grid(geom: BaseGeometry) -> BaseGeometry:
    """``geom`` snapped to :data:`SURFACE_GRID`, valid (collapsed spikes and slivers dropped)."""
    import shapely

    return shapely.set_precision(geom, SURFACE_GRID)


def _union_near(tree: _Tree, box: BaseGeometry) -> BaseGeometry:
    import shapely

    near = tree.near(box)
    return shapely.union_all(near).intersection(box) if near else shapely.Polygon()


@dataclass
class _TileOut:
    surfaces: list[tuple[Surface, str, Polygon]] = field(default_factory=list)  # (surface, ref bucket, polygon)
    boxes: list[Box] = field(default_factory=list)
    strips: list[Strip] = field(default_factory=list)


#: (index, parking-only tree, cell) of the terrain being built: set before the worker processes
#: fork, so that they inherit it instead of receiving it pickled.
_JOB: tuple[GroundIndex, _Tree, float] | None = None


def tile_workers() -> int:
    """Processes that build terrain tiles: the CPUs this process may use, at most
    :data:`MAX_WORKERS` (``NAVBENCH_WORKERS`` overrides)."""
    env = os.environ.get("NAVBENCH_WORKERS", "")
    n = int(env) if env.isdigit() else len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1
    return max(1, min(n, MAX_WORKERS))


def _map_tiles(jobs: list[tuple[int, tuple[float, float, float, float]]], workers: int | None,
               meanwhile: Callable[[], None]) -> Iterator[_TileOut]:
    """:func:`_tile` of every job, in job order (forked workers where there are several tiles,
    while this process runs ``meanwhile``)."""
    import multiprocessing as mp

    n = min(workers or 1, len(jobs))
    if n <= 1 or "fork" not in mp.get_all_start_methods() or not may_fork():
        meanwhile()
        yield from map(_tile, jobs)
        return
    with mp.get_context("fork").Pool(n) as pool:
        parts = pool.imap(_tile, jobs, chunksize=1)
        meanwhile()
        yield from parts


def _tile(job: tuple[int, tuple[float, float, float, float]]) -> _TileOut:
    """Surfaces, boxes and strips of one tile (the raised blocks, curbs, water and parking)."""
    import shapely

    assert _JOB is not None
    idx, parking_only, cell = _JOB
    ti, tb = job
    out = _TileOut()

    def add(prefix: str, cls: str, geom: BaseGeometry, y: float, bucket: str) -> None:
        for k, g in enumerate(g for g in polygons_of(on_grid(geom)) if g.area >= 0.01):
            sid = prefix if k == 0 else f"{prefix}_{k}"
            out.surfaces.append((_surface(sid, cls, g, y), bucket, g))  # type: ignore[arg-type]

    box = shapely.box(*tb)
    low = _union_near(idx.low, box)
    water = _union_near(idx.water, box).difference(low)
    raised = box.difference(low).difference(water)
    if raised.is_empty and water.is_empty and low.is_empty:
        return out
    side = _union_near(idx.side, box).intersection(raised)
    bld = _union_near(idx.buildings, box).intersection(raised)
    add(f"parking_t{ti}", "road", _union_near(parking_only, box), ROAD_Y, "ground")
    add(f"water_t{ti}", "water", water, WATER_Y, "water")
    add(f"sidewalk_t{ti}", "sidewalk", side.difference(bld), SIDEWALK_Y, "sidewalk")
    add(f"green_t{ti}", "green", raised.difference(side).difference(bld), SIDEWALK_Y, "green")
    strips, seeds = curb_strips(low, side, idx, cell, tb) if not low.is_empty else ([], np.zeros((0, 2)))
    for k, s in enumerate(strips):
        out.boxes.append(frame_box(f"strip_t{ti}_{k}", s.cls, s.p, s.u, s.n, s.a0, s.a1, s.b0, s.b1,
                                   SIDEWALK_Y - _LOWER["strip"], None, s.cls))
    out.strips += strips
    # block cells are sidewalk only where no strip lays the sidewalk (plazas, foot ways)
    laid = [s.polygon() for s in strips if s.cls == "sidewalk"]
    open_side = side.difference(shapely.union_all(laid).buffer(cell)) if laid else side
    shapely.prepare(open_side)
    blocks = [b for b in polygons_of(raised) if b.area >= 0.25]
    cells = block_cells(blocks, tb, idx, cell, open_side, f"cell_t{ti}")
    out.boxes += cells
    out.boxes += filler(blocks, strips, cells, cell, seeds, open_side, f"fill_t{ti}")
    out.boxes += low_cells(tb, idx.water, "water", WATER_Y, cell, f"water_t{ti}")
    out.boxes += low_cells(tb, idx.parking, "ground", ROAD_Y - 0.004, cell, f"parking_t{ti}")
    return out


def build_terrain(inp: TerrainInput, workers: int | None = None,
                  meanwhile: Callable[[GroundIndex], None] | None = None) -> Terrain:
    """Surfaces and boxes of the ground of ``inp`` (module docstrings); the tiles are built by
    ``workers`` forked processes (default 1: none; the CLI passes :func:`tile_workers`), merged
    in tile order: the result does not depend on their number. ``meanwhile`` (work that needs only the index, such as placing
    storefronts) runs in this process while the workers build the tiles."""
    import shapely

    area = inp.area
    road_polys = [p for _, p, _, _ in inp.roads]
    idx = GroundIndex(area.bounds, road_polys, inp.parking, inp.water, inp.side, [p for _, p in inp.buildings],
                      [c.polygon() for c in inp.crosswalks])
    t = Terrain(idx)
    _road_boxes(inp, t, area)
    refs: dict[str, list[tuple[str, Polygon]]] = {"sidewalk": [], "green": [], "water": [], "ground": []}
    parking_only = _Tree([g for p in inp.parking for g in polygons_of(p.difference(shapely.union_all(
        [r for r in idx.roads.near(p)]))) if g.area > 0.01] if inp.parking else [])

    global _JOB
    jobs = list(enumerate(tiles(area.bounds, TILE, inp.cell)))
    _JOB = (idx, parking_only, inp.cell)
    try:
        for part in _map_tiles(jobs, workers, lambda: meanwhile(idx) if meanwhile is not None else None):
            for surf, bucket, g in part.surfaces:
                t.surfaces.append(surf)
                refs[bucket].append((surf.id, g))
            t.boxes += part.boxes
            t.strips += part.strips
    finally:
        _JOB = None
    x0, z0, x1, z1 = area.bounds
    t.boxes.append(Box("ground_base", "ground", ((x0 + x1) / 2, WATER_Y - 0.01 - 0.1, (z0 + z1) / 2),
                       (x1 - x0 + 2 * inp.cell, 0.2, z1 - z0 + 2 * inp.cell), 0.0, "ground", None))
    _assign_refs(t.boxes, refs)
    return t


def _assign_refs(boxes: list[Box], refs: dict[str, list[tuple[str, Polygon]]]) -> None:
    """Point every raised / water / parking box without a ref at the surface under its centre
    (else the nearest surface of its class)."""
    import shapely

    for kind, items in refs.items():
        idx = [i for i, b in enumerate(boxes) if b.ref is None and b.kind == kind and b.id != "ground_base"]
        if not idx or not items:
            continue
        tree = shapely.STRtree([g for _, g in items])
        pts = shapely.points(np.array([[boxes[i].center[0], boxes[i].center[2]] for i in idx]))
        hit = np.full(len(idx), -1)
        q = tree.query(pts, predicate="within")
        hit[q[0]] = q[1]
        miss = np.flatnonzero(hit < 0)
        if len(miss):
            hit[miss] = tree.nearest(pts[miss])
        for i, h in zip(idx, hit, strict=True):
            boxes[i] = dataclasses.replace(boxes[i], ref=items[int(h)][0])


__all__ = ["MAX_WORKERS", "SURFACE_GRID", "TILE", "build_terrain", "on_grid", "tile_workers", "tiles"]
