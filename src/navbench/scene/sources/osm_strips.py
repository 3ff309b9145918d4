"""Curb strips of an imported map's terrain (:mod:`navbench.scene.sources.osm_terrain`): a yawed
box of raised ground along every straight edge of the low ground's outline (roads, parking
lots), as deep as the sidewalk there (then a grass verge to :data:`~navbench.scene.sources.osm_terrain.COVER_MARGIN`
past a block cell's diagonal), cut where it would enter a road.

At a corner where the outline turns away from the raised side (the outside of a bend, a
street's end) both strips are lengthened by ``depth · tan(φ/2)`` (φ the turn), so they meet on
the bisector and cover the wedge between them; where it turns towards it by more than a right
angle (an acute street corner) the strips are cut short by the other road and the corner is a
*filler seed* (:mod:`navbench.scene.sources.osm_cells`), as is every point where a road cut a
strip. Outline edges on the tile's border are the tile's, not curbs: no strip, no lengthening.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from navbench.geometry import interval_minus
from navbench.scene.sources.osm_geometry import polygons_of
from navbench.scene.sources.osm_index import GroundIndex
from navbench.scene.sources.osm_terrain import COVER_MARGIN, MIN_STRIP, Strip, frame_rect

if TYPE_CHECKING:
    from shapely.geometry.base import BaseGeometry

#: Deepest sidewalk (m) a strip measures.
MAX_SIDEWALK = 12.0
#: Turns sharper than this (rad) are not lengthened past a wedge of this angle.
_MAX_TURN = math.radians(160.0)


def sidewalk_depth(side: BaseGeometry, M: np.ndarray, N: np.ndarray) -> np.ndarray:
    """Depth (m) of the sidewalk-class ground ``side`` straight out of each edge midpoint ``M``
    along ``N`` (0 where none): 0.25 m samples, then bisection to 1.6 cm."""
    import shapely

    if not len(M) or side.is_empty:
        return np.zeros(len(M))
    shapely.prepare(side)
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


def _on_border(a: np.ndarray, b: np.ndarray, tile: tuple[float, float, float, float]) -> np.ndarray:
    """Whether each edge a→b lies along the tile's border."""
    x0, z0, x1, z1 = tile
    e = 1e-6
    out = np.zeros(len(a), bool)
    for k, v in ((0, x0), (0, x1), (1, z0), (1, z1)):
        out |= (np.abs(a[:, k] - v) < e) & (np.abs(b[:, k] - v) < e)
    return out


def curb_strips(low: BaseGeometry, side: BaseGeometry, idx: GroundIndex, cell: float,
                tile: tuple[float, float, float, float]) -> tuple[list[Strip], np.ndarray]:
    """Strips along the low ground ``low`` (clipped to ``tile``; ``side`` its sidewalk-class
    ground) and the filler seeds (module docstring); roads that cut strips come from ``idx``
    (the whole map)."""
    import shapely

    Ps, Us, Ls, seeds, t_lo, t_hi, bd, bd_prev, bd_next = [], [], [], [], [], [], [], [], []
    for poly in polygons_of(low):
        for ring in (poly.exterior, *poly.interiors):
            c = np.asarray(ring.coords)
            d = np.diff(c, axis=0)
            ln = np.hypot(d[:, 0], d[:, 1])
            ok = ln > 1e-9
            c0, c1, d, ln = c[:-1][ok], c[1:][ok], d[ok], ln[ok]
            if len(d) < 2:
                continue
            u = d / ln[:, None]
            nxt = np.roll(u, -1, axis=0)
            turn = np.c_[np.arccos(np.clip((u * nxt).sum(axis=1), -1.0, 1.0)),
                         u[:, 0] * nxt[:, 1] - u[:, 1] * nxt[:, 0]]  # at each edge's end
            border = _on_border(c0, c1, tile)
            Ps.append(c0)
            Us.append(u)
            Ls.append(ln)
            t_hi.append(turn)
            t_lo.append(np.roll(turn, 1, axis=0))
            bd.append(border)
            bd_next.append(np.roll(border, -1))
            bd_prev.append(np.roll(border, 1))
            seeds.append(c0[(ln < 0.5) & ~border])
    if not Ps:
        return [], np.zeros((0, 2))
    P, U, ln = np.concatenate(Ps), np.concatenate(Us), np.concatenate(Ls)
    lo_turn, hi_turn = np.concatenate(t_lo), np.concatenate(t_hi)
    border, prev_b, next_b = np.concatenate(bd), np.concatenate(bd_prev), np.concatenate(bd_next)
    N = np.c_[U[:, 1], -U[:, 0]]
    M = P + U * (ln / 2)[:, None]
    inside = shapely.contains_xy(low, M[:, 0] + 0.05 * N[:, 0], M[:, 1] + 0.05 * N[:, 1])
    N[inside] *= -1  # N points out of the low ground
    sgn = np.where(inside, -1.0, 1.0)
    # with N to the right of U, a left turn (cross > 0) heads away from N: the outline turns
    # away from the raised side when cross * sgn > 0
    away_hi = (hi_turn[:, 1] * sgn > 0) & ~next_b
    away_lo = (lo_turn[:, 1] * sgn > 0) & ~prev_b
    acute = ~away_hi & (hi_turn[:, 0] > math.radians(92.0)) & ~next_b & ~border
    seeds.append((P + U * ln[:, None])[acute])
    keep = (ln >= 0.5) & ~border
    roadside = idx.roads.points(M[:, 0] - 0.05 * N[:, 0], M[:, 1] - 0.05 * N[:, 1])
    depth = sidewalk_depth(side, M, N)
    cover = cell * math.sqrt(2.0) + COVER_MARGIN
    cand: list[tuple[int, str, float, float, float, float]] = []  # (edge, class, b0, b1, a0, a1)
    for i in np.flatnonzero(keep):
        pieces = ([("sidewalk", 0.0, float(depth[i]))] if depth[i] > 0 else []) + (
            [("green", float(depth[i]), cover)] if depth[i] < cover else [])
        for cls, b0, b1 in pieces:
            e0 = b1 * math.tan(min(lo_turn[i, 0], _MAX_TURN) / 2) if away_lo[i] else 0.0
            e1 = b1 * math.tan(min(hi_turn[i, 0], _MAX_TURN) / 2) if away_hi[i] else 0.0
            cand.append((int(i), cls, b0, b1, -min(e0, 2 * b1), float(ln[i]) + min(e1, 2 * b1)))
    if not cand:
        return [], np.concatenate(seeds)
    ci = np.array([c[0] for c in cand])
    rects = shapely.polygons(np.stack([frame_rect(P[i], U[i], a0, a1, max(b0, 0.02), b1, N[i])
                                       for i, _, b0, b1, a0, a1 in cand]))
    blocked: list[list[tuple[float, float]]] = [[] for _ in cand]
    tree = idx.low.tree
    if tree is not None:
        a, o = tree.query(rects, predicate="intersects")
        if len(a):
            pieces_g = shapely.intersection(rects[a], np.asarray(idx.low.polys, dtype=object)[o])
            coords, owner = shapely.get_coordinates(pieces_g, return_index=True)
            e = ci[a[owner]]
            sv = np.einsum("ij,ij->i", coords - P[e], U[e])
            lo = np.full(len(a), np.inf)
            hi = np.full(len(a), -np.inf)
            np.minimum.at(lo, owner, sv)
            np.maximum.at(hi, owner, sv)
            for k, lo_k, hi_k in zip(a, lo, hi, strict=True):
                if np.isfinite(lo_k):
                    blocked[int(k)].append((float(lo_k) - 0.01, float(hi_k) + 0.01))
    out, cuts = [], []
    for (ei, cls, b0, b1, a0_, a1_), bl in zip(cand, blocked, strict=True):
        for a0, a1 in interval_minus(a0_, a1_, bl):
            if a1 - a0 >= MIN_STRIP:
                out.append(Strip(P[ei], U[ei], N[ei], a0, a1, b0, b1, cls, bool(roadside[ei])))
            for a_ in (a0, a1):
                if a_ not in (a0_, a1_):
                    cuts.append(P[ei] + U[ei] * a_ + N[ei] * (b0 + b1) / 2)
    seeds.append(np.asarray(cuts).reshape(-1, 2))
    return out, np.concatenate(seeds)


__all__ = ["MAX_SIDEWALK", "curb_strips", "sidewalk_depth"]
