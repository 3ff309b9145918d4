"""Raised-ground cells of an imported map's terrain (:mod:`navbench.scene.sources.osm_terrain`).

- Block cells: each raised *block* (a connected piece of raised ground within a tile) is cut
  into squares of ``cell`` m in the block's own frame (its dominant edge direction, with grid
  lines on every long edge that runs along the frame, so rectangular blocks come out exact);
  a square is kept where its centre is in the block and the square touches no road or parking
  lot (curb strips lay the ground up to the curb), or where it straddles the tile's border and
  overlaps the block (so neighbouring tiles overlap instead of leaving a seam); squares are
  merged into rectangles by class (``sidewalk`` only where no curb strip lays the sidewalk:
  plazas and foot ways; else ``green``).
- Filler: fine cells (:data:`FILL_CELL`, world axes) over what strips and block cells leave near
  the filler seeds (acute street corners, strip cuts), merged likewise.
- Low cells: world-axis cells whose squares touch water or a parking lot (all of them, so the
  curb strips around them always stand on something), top at the water / road level.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from navbench.geometry import box_corners_xz
from navbench.scene.model import Box
from navbench.scene.procgen.urban import SIDEWALK_Y
from navbench.scene.sources.osm_index import GroundIndex, _Tree
from navbench.scene.sources.osm_terrain import (
    _LOWER,
    COVER_MARGIN,
    FILL_CELL,
    Strip,
    dominant_angle,
    frame_box,
    merge_cells,
)

if TYPE_CHECKING:
    from shapely.geometry import Polygon
    from shapely.geometry.base import BaseGeometry

_CLS = {1: "sidewalk", 2: "green"}
_X, _Z = np.array([1.0, 0.0]), np.array([0.0, 1.0])


def rot(theta: float) -> tuple[np.ndarray, np.ndarray]:
    """Unit axes (u, v) of a frame turned by ``theta`` (rad) in XZ."""
    return np.array([math.cos(theta), math.sin(theta)]), np.array([-math.sin(theta), math.cos(theta)])


def aligned(poly: Polygon, u: np.ndarray, v: np.ndarray, axis: int) -> list[float]:
    """Frame coordinates (along ``axis``) of the polygon's long edges (≥ 2 m) running along the
    other axis (to within 0.5°)."""
    out = []
    for ring in (poly.exterior, *poly.interiors):
        c = np.asarray(ring.coords)
        q = np.c_[c @ u, c @ v]
        d = np.diff(q, axis=0)
        ln = np.hypot(d[:, 0], d[:, 1])
        along = np.abs(d[:, 1 - axis]) >= ln * math.cos(math.radians(0.5))
        sel = (ln >= 2.0) & along
        out += list(((q[:-1, axis] + q[1:, axis]) / 2)[sel])
    return out


def grid_lines(lo: float, hi: float, cell: float, extra: list[float]) -> np.ndarray:
    """Grid lines over ``[lo, hi]``: every ``cell`` (anchored at multiples) plus ``extra``
    (edge coordinates, which win over a uniform line closer than 5 cm)."""
    uni = np.arange(math.floor(lo / cell) * cell, math.ceil(hi / cell) * cell + cell / 2, cell)
    ex = np.unique(np.round(np.asarray(extra, float), 6))
    if len(ex):
        near = np.abs(uni[:, None] - ex[None, :]).min(axis=1) < 0.05
        uni = uni[~near]
    out = np.unique(np.r_[uni, ex])
    return out[(out >= lo - cell) & (out <= hi + cell)]


def _sidewalk_class(open_side: BaseGeometry, x: np.ndarray, z: np.ndarray) -> np.ndarray:
    """1 (sidewalk) where the point is in ``open_side`` (sidewalk-class ground no sidewalk strip
    covers; prepared), else 2."""
    import shapely

    side = shapely.contains_xy(open_side, x, z) if not open_side.is_empty else np.zeros(np.shape(x), bool)
    return np.where(side, 1, 2).astype(np.int8)


def block_cells(blocks: list[Polygon], tile: tuple[float, float, float, float], idx: GroundIndex, cell: float,
                open_side: BaseGeometry, prefix: str) -> list[Box]:
    """Cells of every block of one tile (module docstring)."""
    import shapely

    tx0, tz0, tx1, tz1 = tile
    out: list[Box] = []
    for blk in blocks:
        u, v = rot(dominant_angle(blk))
        c = np.asarray(blk.exterior.coords)
        q = np.c_[c @ u, c @ v]
        xs = grid_lines(q[:, 0].min(), q[:, 0].max(), cell, aligned(blk, u, v, 0))
        zs = grid_lines(q[:, 1].min(), q[:, 1].max(), cell, aligned(blk, u, v, 1))
        if len(xs) < 2 or len(zs) < 2:
            continue
        cx, cz = np.meshgrid((xs[:-1] + xs[1:]) / 2, (zs[:-1] + zs[1:]) / 2)
        hx = np.broadcast_to(((xs[1:] - xs[:-1]) / 2)[None, :], cx.shape)
        hz = np.broadcast_to(((zs[1:] - zs[:-1]) / 2)[:, None], cx.shape)
        X = cx * u[0] + cz * v[0]
        Z = cx * u[1] + cz * v[1]
        shapely.prepare(blk)
        inb = shapely.contains_xy(blk, X, Z)
        outside = ~inb & ((tx0 >= X) | (tx1 <= X) | (tz0 >= Z) | (tz1 <= Z))  # past the tile's border
        inner = blk.buffer(-float(np.hypot(hx.max(), hz.max())) - 1e-6, join_style="mitre", mitre_limit=4.0)
        safe = shapely.contains_xy(inner, X, Z) if not inner.is_empty else np.zeros_like(inb)
        keep = inb & safe
        r, k = np.nonzero((inb & ~safe) | outside)
        if len(r):
            corners = np.stack([np.stack([(cx[r, k] + sx * hx[r, k]) * u[j] + (cz[r, k] + sz * hz[r, k]) * v[j]
                                          for j in (0, 1)], axis=-1)
                                for sx, sz in ((-1, -1), (1, -1), (1, 1), (-1, 1))], axis=1)
            sq = shapely.polygons(corners)
            ok = ~idx.low.hits(sq)
            edge = outside[r, k]
            if edge.any():
                ok[edge] &= shapely.intersects(sq[edge], blk)
            keep[r[ok], k[ok]] = True
        grid = np.zeros(cx.shape, np.int8)
        rr, kk = np.nonzero(keep)
        grid[rr, kk] = _sidewalk_class(open_side, X[rr, kk], Z[rr, kk])
        for cls, a0, b0, a1, b1 in merge_cells(grid, xs, zs):
            name = _CLS[cls]
            out.append(frame_box(f"{prefix}_{len(out)}", name, np.zeros(2), u, v, a0, a1, b0, b1,
                                 SIDEWALK_Y - _LOWER[name], None, name))
    return out


def filler(blocks: list[Polygon], strips: list[Strip], cells: list[Box], cell: float, seeds: np.ndarray,
           open_side: BaseGeometry, prefix: str) -> list[Box]:
    """Fine cells over what ``strips`` and ``cells`` leave of the ``blocks`` near ``seeds``."""
    import shapely

    if not blocks or not len(seeds):
        return []
    cover = [s.polygon() for s in strips] + [shapely.Polygon(box_corners_xz(b.center, b.size, b.yaw)) for b in cells]
    ctree = shapely.STRtree(cover) if cover else None
    btree = shapely.STRtree(blocks)
    reach = cell * math.sqrt(2.0) + COVER_MARGIN + 3.0
    seeds = np.unique(np.round(seeds / FILL_CELL).astype(np.int64), axis=0) * FILL_CELL
    discs = shapely.buffer(shapely.points(seeds), reach, quad_segs=2)
    keys: set[tuple[int, int]] = set()
    a, b = btree.query(discs, predicate="intersects")
    for di, bi in zip(a, b, strict=True):
        gap = shapely.intersection(discs[di], blocks[bi])
        if ctree is not None:
            for j in ctree.query(gap, predicate="intersects"):
                gap = gap.difference(cover[int(j)])
                if gap.is_empty:
                    break
        if gap.is_empty or gap.area < 1e-3:
            continue
        x0, z0, x1, z1 = gap.bounds
        ii, jj = np.meshgrid(np.arange(math.floor(x0 / FILL_CELL), math.ceil(x1 / FILL_CELL)),
                             np.arange(math.floor(z0 / FILL_CELL), math.ceil(z1 / FILL_CELL)))
        hit = shapely.contains_xy(gap, (ii + 0.5) * FILL_CELL, (jj + 0.5) * FILL_CELL)
        keys.update(zip(ii[hit].tolist(), jj[hit].tolist(), strict=True))
    if not keys:
        return []
    ij = np.array(sorted(keys, key=lambda k: (k[1], k[0])))
    cls = _sidewalk_class(open_side, (ij[:, 0] + 0.5) * FILL_CELL, (ij[:, 1] + 0.5) * FILL_CELL)
    out: list[Box] = []
    for k, i0, j0, i1, j1 in merge_sparse(ij, cls):
        name = _CLS[k]
        out.append(frame_box(f"{prefix}_{len(out)}", name, np.zeros(2), _X, _Z, i0 * FILL_CELL, i1 * FILL_CELL,
                             j0 * FILL_CELL, j1 * FILL_CELL, SIDEWALK_Y - _LOWER["fill"], None, name))
    return out


def merge_sparse(ij: np.ndarray, cls: np.ndarray) -> list[tuple[int, int, int, int, int]]:
    """:func:`~navbench.scene.sources.osm_terrain.merge_cells` for sparse cells ``ij`` (col,
    row; sorted by row, then col) of classes ``cls``: rectangles ``(class, i0, j0, i1, j1)`` in
    cell units (ends exclusive)."""
    out: list[tuple[int, int, int, int, int]] = []
    open_: dict[tuple[int, int, int], int] = {}
    rows = np.split(np.arange(len(ij)), np.flatnonzero(np.diff(ij[:, 1])) + 1) if len(ij) else []
    prev: int | None = None
    for idx in [*rows, None]:
        j = int(ij[idx[0], 1]) if idx is not None else None
        runs: set[tuple[int, int, int]] = set()
        if idx is not None:
            i, c = ij[idx, 0], cls[idx]
            cut = np.flatnonzero((np.diff(i) != 1) | (np.diff(c) != 0)) + 1
            for s_, e_ in zip(np.r_[0, cut], np.r_[cut, len(i)], strict=True):
                runs.add((int(c[s_]), int(i[s_]), int(i[e_ - 1]) + 1))
        consecutive = prev is not None and j is not None and j == prev + 1
        for key in sorted(set(open_) - (runs if consecutive else set())):
            k, i0, i1 = key
            out.append((k, i0, open_.pop(key), i1, (prev if prev is not None else 0) + 1))
        if j is not None:
            for key in runs:
                open_.setdefault(key, j)
        prev = j
    return out


def low_cells(tile: tuple[float, float, float, float], tree: _Tree, kind: str, top: float, cell: float,
              prefix: str) -> list[Box]:
    """World-axis cells centred in ``tile`` whose squares touch a polygon of ``tree``, merged."""
    import shapely

    tx0, tz0, tx1, tz1 = tile
    keys: set[tuple[int, int]] = set()
    for g in tree.near(shapely.box(*tile)):
        x0, z0, x1, z1 = g.bounds
        i0, i1 = max(math.floor(x0 / cell), math.floor(tx0 / cell)), min(math.ceil(x1 / cell), math.ceil(tx1 / cell))
        j0, j1 = max(math.floor(z0 / cell), math.floor(tz0 / cell)), min(math.ceil(z1 / cell), math.ceil(tz1 / cell))
        if i1 <= i0 or j1 <= j0:
            continue
        ii, jj = np.meshgrid(np.arange(i0, i1), np.arange(j0, j1))
        cx, cz = (ii + 0.5) * cell, (jj + 0.5) * cell
        inside = (cx >= tx0) & (cx < tx1) & (cz >= tz0) & (cz < tz1)
        sq = shapely.box(cx - cell / 2, cz - cell / 2, cx + cell / 2, cz + cell / 2)
        hit = inside & shapely.intersects(g, sq)
        keys.update(zip(ii[hit].tolist(), jj[hit].tolist(), strict=True))
    if not keys:
        return []
    ij = np.array(sorted(keys, key=lambda k: (k[1], k[0])))
    out: list[Box] = []
    for _k, i0, j0, i1, j1 in merge_sparse(ij, np.ones(len(ij), np.int8)):
        out.append(frame_box(f"{prefix}_{len(out)}", kind, np.zeros(2), _X, _Z, i0 * cell, i1 * cell,
                             j0 * cell, j1 * cell, top, None, kind))
    return out


__all__ = ["aligned", "block_cells", "filler", "grid_lines", "low_cells", "merge_sparse", "rot"]
