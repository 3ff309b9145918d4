"""Build the terrain of an imported map (:mod:`navbench.scene.sources.osm_terrain` describes
the levels, boxes and surfaces): :func:`build_terrain`."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from navbench.scene.model import Box
from navbench.scene.procgen.urban import ROAD_Y, SIDEWALK_Y, WATER_Y
from navbench.scene.sources.osm_geometry import polygons_of
from navbench.scene.sources.osm_terrain import (
    _LOWER,
    COVER_MARGIN,
    FILL_CELL,
    MIN_STRIP,
    Strip,
    Terrain,
    TerrainInput,
    _surface,
    _union,
    dominant_angle,
    frame_box,
    frame_rect,
    merge_cells,
)

if TYPE_CHECKING:
    from shapely.geometry import Polygon
    from shapely.geometry.base import BaseGeometry

_CLS = {1: "sidewalk", 2: "green"}
#: Deepest sidewalk (m) a strip measures.
MAX_SIDEWALK = 12.0


def build_terrain(inp: TerrainInput) -> Terrain:
    """Surfaces and boxes of the ground of ``inp`` (see the module docstring)."""
    import shapely

    area = inp.area
    road_polys = [p for _, p, _, _ in inp.roads]
    low = _union(road_polys + inp.parking).intersection(area)
    water = _union(inp.water).difference(low).intersection(area)
    raised = area.difference(low).difference(water)
    side = _union(inp.side).intersection(raised)
    bld = _union([p for _, p in inp.buildings]).intersection(raised)
    t = Terrain(low=low, water=water, raised=raised, side=side, buildings=bld)
    for g in (low, water, raised, side):
        shapely.prepare(g)

    # ---- surfaces
    refs: dict[str, list[tuple[str, Polygon]]] = {"sidewalk": [], "green": [], "water": [], "parking": []}

    def add(prefix: str, cls: str, geom: BaseGeometry, y: float, bucket: str | None = None) -> list[str]:
        ids = []
        for k, g in enumerate(polygons_of(geom)):
            if g.area < 0.01:
                continue
            sid = prefix if k == 0 else f"{prefix}_{k}"
            t.surfaces.append(_surface(sid, cls, g, y))  # type: ignore[arg-type]
            ids.append(sid)
            if bucket:
                refs[bucket].append((sid, g))
        return ids

    road_ref: dict[int, list[tuple[str, Polygon]]] = {}
    for wid, poly, _, _ in inp.roads:
        pieces = [g for g in polygons_of(poly.intersection(area)) if g.area >= 0.01]
        road_ref[wid] = [(f"road_{wid}" if k == 0 else f"road_{wid}_{k}", g) for k, g in enumerate(pieces)]
        for sid, g in road_ref[wid]:
            t.surfaces.append(_surface(sid, "road", g, ROAD_Y))
    add("parking", "road", _union(inp.parking).intersection(area).difference(_union(road_polys)), ROAD_Y, "parking")
    for cw in inp.crosswalks:
        t.surfaces.append(_surface(cw.id, "crosswalk", cw.polygon(), SIDEWALK_Y))
    add("water", "water", water, WATER_Y, "water")
    add("sidewalk", "sidewalk", side.difference(bld), SIDEWALK_Y, "sidewalk")
    add("green", "green", raised.difference(side).difference(bld), SIDEWALK_Y, "green")

    # ---- road and crosswalk boxes
    for wid, _poly, lines, width in inp.roads:
        pieces = road_ref.get(wid, [])
        for k, (a, b) in enumerate((ln_[i], ln_[i + 1]) for ln_ in lines for i in range(len(ln_) - 1)):
            ln = float(np.hypot(*(b - a)))
            if ln < 1e-3:
                continue
            u = (b - a) / ln
            v = np.array([-u[1], u[0]])
            mid = (a + b) / 2
            ref = next((sid for sid, g in pieces if g.contains(shapely.Point(mid))), pieces[0][0] if pieces else None)
            top = ROAD_Y - 0.001 * (1 + k % 3)
            t.boxes.append(frame_box(f"road_{wid}_{k}", "road", a, u, v, -width / 2, ln + width / 2,
                                     -width / 2, width / 2, top, ref, "road"))
    for cw in inp.crosswalks:
        across = np.array(cw.across)
        along = np.array([-across[1], across[0]])
        t.boxes.append(frame_box(cw.id, "crosswalk", np.array(cw.centre), across, along, -cw.length / 2,
                                 cw.length / 2, -cw.width / 2, cw.width / 2, SIDEWALK_Y, cw.id, "crosswalk"))

    # ---- strips along the straight edges of the low ground, coarse block cells, filler
    t.strips = _strips(inp, low, side, road_polys)
    for k, s in enumerate(t.strips):
        t.boxes.append(frame_box(f"strip_{k}", s.cls, s.p, s.u, s.n, s.a0, s.a1, s.b0, s.b1,
                                 SIDEWALK_Y - _LOWER["strip"], None, s.cls))
    blocks = [b for b in polygons_of(raised) if b.area >= 0.25]
    cells = _block_cells(blocks, low, side, area, inp.cell, road_polys + inp.parking)
    t.boxes += cells
    t.boxes += _filler(blocks, low, side, t.strips, cells, inp.cell)
    t.boxes += _low_cells(water, "water", WATER_Y, inp.cell)
    t.boxes += _low_cells(_union(inp.parking).intersection(area), "ground", ROAD_Y - 0.004, inp.cell)
    x0, z0, x1, z1 = area.bounds
    t.boxes.append(Box("ground_base", "ground", ((x0 + x1) / 2, WATER_Y - 0.01 - 0.1, (z0 + z1) / 2),
                       (x1 - x0 + 2 * inp.cell, 0.2, z1 - z0 + 2 * inp.cell), 0.0, "ground", None))
    _assign_refs(t.boxes, refs)
    return t


def _assign_refs(boxes: list[Box], refs: dict[str, list[tuple[str, Polygon]]]) -> None:
    """Point every raised / water / parking box without a ref at the surface under its centre
    (else the nearest surface of its class)."""
    import dataclasses

    import shapely

    bucket_of = {"sidewalk": "sidewalk", "green": "green", "water": "water", "ground": "parking"}
    for cls, bucket in bucket_of.items():
        idx = [i for i, b in enumerate(boxes) if b.ref is None and b.kind == cls and b.id != "ground_base"]
        items = refs[bucket]
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


def _strips(inp: TerrainInput, low: BaseGeometry, side: BaseGeometry, road_polys: list[Polygon]) -> list[Strip]:
    """Strips on the raised side of every straight edge (≥ 0.5 m) of the low ground's outline."""
    import shapely

    p_list, q_list = [], []
    for poly in polygons_of(low):
        for ring in (poly.exterior, *poly.interiors):
            c = np.asarray(ring.coords)
            p_list.append(c[:-1])
            q_list.append(c[1:])
    if not p_list:
        return []
    P, Q = np.concatenate(p_list), np.concatenate(q_list)
    d = Q - P
    ln = np.hypot(d[:, 0], d[:, 1])
    keep = ln >= 0.5
    P, Q, d, ln = P[keep], Q[keep], d[keep], ln[keep]
    U = d / ln[:, None]
    N = np.c_[U[:, 1], -U[:, 0]]
    M = (P + Q) / 2
    inside = shapely.contains_xy(low, M[:, 0] + 0.05 * N[:, 0], M[:, 1] + 0.05 * N[:, 1])
    N[inside] *= -1  # N points out of the low ground
    roads_u = _union(road_polys)
    shapely.prepare(roads_u)
    roadside = shapely.contains_xy(roads_u, M[:, 0] - 0.05 * N[:, 0], M[:, 1] - 0.05 * N[:, 1])
    depth = _sidewalk_depth(side, M, N)
    cover = inp.cell * math.sqrt(2.0) + COVER_MARGIN
    # candidate pieces: (edge, class, b0, b1)
    cand = []
    for i in range(len(P)):
        if depth[i] > 0:
            cand.append((i, "sidewalk", 0.0, float(depth[i])))
        if depth[i] < cover:
            cand.append((i, "green", float(depth[i]), cover))
    if not cand:
        return []
    ci = np.array([c[0] for c in cand])
    rects = shapely.polygons(np.stack([frame_rect(P[i], U[i], 0.0, float(ln[i]), max(b0, 0.02), b1, N[i])
                                       for i, _, b0, b1 in cand]))
    obstacles = road_polys + inp.parking
    blocked: list[list[tuple[float, float]]] = [[] for _ in cand]
    if obstacles:
        tree = shapely.STRtree(obstacles)
        a, o = tree.query(rects, predicate="intersects")
        if len(a):
            pieces = shapely.intersection(rects[a], np.asarray(obstacles, dtype=object)[o])
            coords, owner = shapely.get_coordinates(pieces, return_index=True)
            e = ci[a[owner]]
            s = np.einsum("ij,ij->i", coords - P[e], U[e])
            lo = np.full(len(a), np.inf)
            hi = np.full(len(a), -np.inf)
            np.minimum.at(lo, owner, s)
            np.maximum.at(hi, owner, s)
            for k, lo_k, hi_k in zip(a, lo, hi, strict=True):
                if np.isfinite(lo_k):
                    blocked[int(k)].append((float(lo_k) - 0.01, float(hi_k) + 0.01))
    out = []
    for (i, cls, b0, b1), bl in zip(cand, blocked, strict=True):
        for a0, a1 in _free(0.0, float(ln[i]), bl):
            if a1 - a0 >= MIN_STRIP:
                out.append(Strip(P[i], U[i], N[i], a0, a1, b0, b1, cls, bool(roadside[i])))
    return out


def _free(lo: float, hi: float, blocked: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """``[lo, hi]`` minus the union of ``blocked`` intervals."""
    out, x = [], lo
    for a, b in sorted(blocked):
        if a > x:
            out.append((x, min(a, hi)))
        x = max(x, b)
        if x >= hi:
            break
    if x < hi:
        out.append((x, hi))
    return [(a, b) for a, b in out if b > a]


def _sidewalk_depth(side: BaseGeometry, M: np.ndarray, N: np.ndarray) -> np.ndarray:
    """Depth (m) of the sidewalk ground straight out of each edge midpoint (0 = none there):
    0.25 m samples, then bisection to 1.6 cm."""
    import shapely

    if side.is_empty or not len(M):
        return np.zeros(len(M))
    steps = np.arange(0.05, MAX_SIDEWALK, 0.25)
    X = M[:, None, 0] + N[:, None, 0] * steps[None, :]
    Z = M[:, None, 1] + N[:, None, 1] * steps[None, :]
    ins = shapely.contains_xy(side, X, Z)
    first_out = np.where(ins.all(axis=1), len(steps), np.argmin(ins, axis=1))
    has = ins[:, 0]
    lo = np.where(first_out > 0, steps[np.maximum(first_out - 1, 0)], 0.0)
    hi = np.where(first_out < len(steps), steps[np.minimum(first_out, len(steps) - 1)], MAX_SIDEWALK)
    for _ in range(4):
        mid = (lo + hi) / 2
        inside = shapely.contains_xy(side, M[:, 0] + N[:, 0] * mid, M[:, 1] + N[:, 1] * mid)
        lo = np.where(inside, mid, lo)
        hi = np.where(inside, hi, mid)
    return np.where(has, np.round(lo, 2), 0.0)


def _rot(theta: float) -> tuple[np.ndarray, np.ndarray]:
    return np.array([math.cos(theta), math.sin(theta)]), np.array([-math.sin(theta), math.cos(theta)])


def _block_cells(blocks: list[Polygon], low: BaseGeometry, side: BaseGeometry, area: Polygon, cell: float,
                 obstacles: list[Polygon]) -> list[Box]:
    """Square cells of each raised block in the block's frame, kept where their square stays out
    of the low ground (and straddling the map edge), merged into rectangles by class."""
    import shapely

    tree = shapely.STRtree(obstacles) if obstacles else None
    out: list[Box] = []
    for bi, blk in enumerate(blocks):
        u, v = _rot(dominant_angle(blk))
        c = np.asarray(blk.exterior.coords)
        q = np.c_[c @ u, c @ v]
        xs = _lines(q[:, 0].min(), q[:, 0].max(), cell, _aligned(blk, u, v, 0))
        zs = _lines(q[:, 1].min(), q[:, 1].max(), cell, _aligned(blk, u, v, 1))
        if len(xs) < 2 or len(zs) < 2:
            continue
        cx, cz = np.meshgrid((xs[:-1] + xs[1:]) / 2, (zs[:-1] + zs[1:]) / 2)
        hx = np.broadcast_to(((xs[1:] - xs[:-1]) / 2)[None, :], cx.shape)
        hz = np.broadcast_to(((zs[1:] - zs[:-1]) / 2)[:, None], cx.shape)
        X = cx * u[0] + cz * v[0]
        Z = cx * u[1] + cz * v[1]
        shapely.prepare(blk)
        inb = shapely.contains_xy(blk, X, Z)
        out_a = ~inb & ~shapely.contains_xy(area, X, Z)  # past the map edge: kept if it overlaps the block
        inner = blk.buffer(-float(np.hypot(hx.max(), hz.max())) - 1e-6, join_style="mitre", mitre_limit=4.0)
        safe = shapely.contains_xy(inner, X, Z) if not inner.is_empty else np.zeros_like(inb)
        test = (inb & ~safe) | out_a
        keep = inb & safe
        r, k = np.nonzero(test)
        if len(r):
            corners = np.stack([np.stack([(cx[r, k] + sx * hx[r, k]) * u[j] + (cz[r, k] + sz * hz[r, k]) * v[j]
                                          for j in (0, 1)], axis=-1)
                                for sx, sz in ((-1, -1), (1, -1), (1, 1), (-1, 1))], axis=1)
            sq = shapely.polygons(corners)
            ok = np.ones(len(r), bool)
            edge = out_a[r, k]
            if edge.any():
                ok[edge] = shapely.intersects(sq[edge], blk)
            if tree is not None:
                a, _ = tree.query(sq, predicate="intersects")
                ok[a] = False
            keep[r[ok], k[ok]] = True
        grid = np.zeros(cx.shape, np.int8)
        rr, kk = np.nonzero(keep)
        grid[rr, kk] = np.where(shapely.contains_xy(side, X[rr, kk], Z[rr, kk]), 1, 2)
        for cls, a0, b0, a1, b1 in merge_cells(grid, xs, zs):
            name = _CLS[cls]
            out.append(frame_box(f"cell_{bi}_{len(out)}", name, np.zeros(2), u, v, a0, a1, b0, b1,
                                 SIDEWALK_Y - _LOWER[name], None, name))
    return out


def _aligned(blk: Polygon, u: np.ndarray, v: np.ndarray, axis: int) -> list[float]:
    """Frame coordinates of the block's long edges (≥ 2 m) that run along the other axis."""
    out = []
    for ring in (blk.exterior, *blk.interiors):
        c = np.asarray(ring.coords)
        q = np.c_[c @ u, c @ v]
        d = np.diff(q, axis=0)
        ln = np.hypot(d[:, 0], d[:, 1])
        along = np.abs(d[:, 1 - axis]) >= ln * math.cos(math.radians(0.5))
        sel = (ln >= 2.0) & along
        out += list(((q[:-1, axis] + q[1:, axis]) / 2)[sel])
    return out


def _lines(lo: float, hi: float, cell: float, extra: list[float]) -> np.ndarray:
    """Grid lines over ``[lo, hi]``: every ``cell`` (anchored at multiples) plus ``extra``
    (edge coordinates, which win over a uniform line closer than 5 cm)."""
    uni = np.arange(math.floor(lo / cell) * cell, math.ceil(hi / cell) * cell + cell / 2, cell)
    ex = np.unique(np.round(np.asarray(extra, float), 6))
    if len(ex):
        near = np.abs(uni[:, None] - ex[None, :]).min(axis=1) < 0.05
        uni = uni[~near]
    out = np.unique(np.r_[uni, ex])
    return out[(out >= lo - cell) & (out <= hi + cell)]


def _filler(blocks: list[Polygon], low: BaseGeometry, side: BaseGeometry, strips: list[Strip],
            cells: list[Box], cell: float) -> list[Box]:
    """Fine cells (:data:`FILL_CELL`, world axes) over what strips and block cells leave of the
    raised ground near the corners of the low ground."""
    import shapely

    from navbench.geometry import box_corners_xz

    if not blocks or low.is_empty:
        return []
    cover = [s.polygon() for s in strips] + [shapely.Polygon(box_corners_xz(b.center, b.size, b.yaw)) for b in cells]
    ctree = shapely.STRtree(cover) if cover else None
    btree = shapely.STRtree(blocks)
    reach = cell * math.sqrt(2.0) + COVER_MARGIN + MAX_SIDEWALK / 4
    corners = []
    for poly in polygons_of(low):
        for ring in (poly.exterior, *poly.interiors):
            c = np.asarray(ring.coords)[:-1]
            if len(c) < 3:
                continue
            d1 = c - np.roll(c, 1, axis=0)
            d2 = np.roll(c, -1, axis=0) - c
            ang = np.abs(np.arctan2(d1[:, 0] * d2[:, 1] - d1[:, 1] * d2[:, 0], (d1 * d2).sum(axis=1)))
            corners.append(c[ang > math.radians(3.0)])
    if not corners:
        return []
    pts = np.concatenate(corners)
    discs = shapely.buffer(shapely.points(pts), reach, quad_segs=2)
    occupied: dict[tuple[int, int], int] = {}
    a, b = btree.query(discs, predicate="intersects")
    for di, bi in zip(a, b, strict=True):
        gap = shapely.intersection(discs[di], blocks[bi])
        if ctree is not None:
            near = ctree.query(gap, predicate="intersects")
            if len(near):
                gap = gap.difference(shapely.union_all([cover[j] for j in near]))
        if gap.is_empty or gap.area < 1e-4:
            continue
        x0, z0, x1, z1 = gap.bounds
        i0, i1 = math.floor(x0 / FILL_CELL), math.ceil(x1 / FILL_CELL)
        j0, j1 = math.floor(z0 / FILL_CELL), math.ceil(z1 / FILL_CELL)
        ii, jj = np.meshgrid(np.arange(i0, i1), np.arange(j0, j1))
        X, Z = (ii + 0.5) * FILL_CELL, (jj + 0.5) * FILL_CELL
        shapely.prepare(gap)
        hit = shapely.contains_xy(gap, X, Z)
        for i, j in zip(ii[hit], jj[hit], strict=True):
            occupied[(int(i), int(j))] = 0
    if not occupied:
        return []
    keys = np.array(list(occupied))
    X, Z = (keys[:, 0] + 0.5) * FILL_CELL, (keys[:, 1] + 0.5) * FILL_CELL
    cls = np.where(shapely.contains_xy(side, X, Z), 1, 2)
    out: list[Box] = []
    i0, j0 = keys.min(axis=0)
    i1, j1 = keys.max(axis=0)
    grid = np.zeros((j1 - j0 + 1, i1 - i0 + 1), np.int8)
    grid[keys[:, 1] - j0, keys[:, 0] - i0] = cls
    xs = (np.arange(i0, i1 + 2)) * FILL_CELL
    zs = (np.arange(j0, j1 + 2)) * FILL_CELL
    for k, x0, z0, x1, z1 in merge_cells(grid, xs, zs):
        name = _CLS[k]
        out.append(frame_box(f"fill_{len(out)}", name, np.zeros(2), np.array([1.0, 0.0]), np.array([0.0, 1.0]),
                             x0, x1, z0, z1, SIDEWALK_Y - _LOWER["fill"], None, name))
    return out


def _low_cells(geom: BaseGeometry, kind: str, top: float, cell: float) -> list[Box]:
    """World-axis cells whose squares touch ``geom`` (water, parking), merged, top ``top``."""
    import shapely

    if geom.is_empty:
        return []
    out: list[Box] = []
    for g in polygons_of(geom):
        x0, z0, x1, z1 = g.bounds
        xs = np.arange(math.floor(x0 / cell), math.ceil(x1 / cell) + 1) * cell
        zs = np.arange(math.floor(z0 / cell), math.ceil(z1 / cell) + 1) * cell
        cx, cz = np.meshgrid((xs[:-1] + xs[1:]) / 2, (zs[:-1] + zs[1:]) / 2)
        h = cell / 2
        sq = shapely.box(cx - h, cz - h, cx + h, cz + h)
        shapely.prepare(g)
        grid = shapely.intersects(g, sq).astype(np.int8)
        for _k, a0, b0, a1, b1 in merge_cells(grid, xs, zs):
            out.append(frame_box(f"{kind}_cell_{len(out)}", kind, np.zeros(2), np.array([1.0, 0.0]),
                                 np.array([0.0, 1.0]), a0, a1, b0, b1, top, None, kind))
    return out


__all__ = ["build_terrain"]
