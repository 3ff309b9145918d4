"""Street grid layout of a procedural city: irregular grid, merged blocks, roads, crosswalks.

The area ``[-size_x/2, size_x/2] x [-size_z/2, size_z/2]`` (XZ, metres) is cut into
alternating block and street intervals along each axis (jittered block sizes, street widths
from lane counts). Grid cells are blocks, street segments or intersections; a few street
segments are dropped, merging the two blocks beside them into one rectangle (T-junctions,
long blocks). Crosswalks are raised tables (top at sidewalk height) across each street segment
at both ends, so wheeled robots cross streets without climbing a curb.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from navbench.scene.procgen.urban import LANE_WIDTH, Rect


@dataclass(frozen=True)
class Interval:
    """A 1D interval of the grid along one axis: a block row/column or a street."""

    lo: float
    hi: float
    street: bool
    lanes: int = 0


@dataclass
class BlockSide:
    """One side of a block's sidewalk ring.

    Attributes:
        side: ``"n"``, ``"s"``, ``"e"`` or ``"w"`` (north = -Z).
        curb: the outer edge of the sidewalk as a segment ``((x0, z0), (x1, z1))``.
        normal: unit XZ vector pointing from the block towards the street.
        on_road: whether a street lies beyond the curb (False at the map edge).
    """

    side: str
    curb: tuple[tuple[float, float], tuple[float, float]]
    normal: tuple[float, float]
    on_road: bool


@dataclass
class Block:
    """A city block: outer rectangle (incl. the sidewalk ring) and the inner lot."""

    id: str
    outer: Rect
    sidewalk: float
    kind: str = "built"  # "built" | "park" | "plaza"
    sides: list[BlockSide] = field(default_factory=list)

    @property
    def lot(self) -> Rect:
        """The lot inside the sidewalk ring."""
        x0, z0, x1, z1 = self.outer
        s = self.sidewalk
        return (x0 + s, z0 + s, x1 - s, z1 - s)


@dataclass
class StreetLayout:
    """Blocks, road pieces and crosswalks of a city (all axis-aligned rectangles).

    Attributes:
        blocks: city blocks.
        roads: road rectangles with the number of lanes and the travel axis
            (``"x"`` = cars drive along X, ``"z"`` = along Z, ``""`` = intersection).
        crosswalks: raised crosswalk rectangles.
    """

    bounds: Rect
    blocks: list[Block]
    roads: list[tuple[Rect, int, str]]
    crosswalks: list[Rect]


def _intervals(
    rng: np.random.Generator, lo: float, hi: float, block: tuple[float, float],
    lanes: tuple[int, ...], lane_width: float,
) -> list[Interval]:
    """Alternate block / street intervals covering ``[lo, hi]``, starting and ending with a block."""
    out: list[Interval] = []
    x = lo
    while True:
        b = float(rng.uniform(*block))
        n = int(rng.choice(lanes))
        w = n * lane_width
        if x + b + w + block[0] > hi:  # no room for another street and a full block
            out.append(Interval(x, hi, False))
            return out
        out.append(Interval(x, x + b, False))
        out.append(Interval(x + b, x + b + w, True, n))
        x += b + w


def layout_streets(
    rng: np.random.Generator,
    size: tuple[float, float],
    block: tuple[float, float],
    lanes: tuple[int, ...],
    sidewalk: tuple[float, float],
    merge_prob: float,
    crosswalk_width: float = 3.0,
    lane_width: float = LANE_WIDTH,
) -> StreetLayout:
    """Lay out an irregular street grid over ``size = (size_x, size_z)`` metres centred on 0."""
    sx, sz = size
    bounds = (-sx / 2, -sz / 2, sx / 2, sz / 2)
    xs = _intervals(rng, bounds[0], bounds[2], block, lanes, lane_width)
    zs = _intervals(rng, bounds[1], bounds[3], block, lanes, lane_width)
    nx, nz = len(xs), len(zs)
    # Merging: drop a street segment between two plain blocks; each block merges at most once.
    merged: dict[tuple[int, int], tuple[int, int]] = {}
    dropped: set[tuple[int, int]] = set()
    cand = [(i, j) for i in range(nx) for j in range(nz) if xs[i].street != zs[j].street]
    for k in rng.permutation(len(cand)):
        i, j = cand[int(k)]
        if rng.random() >= merge_prob:
            continue
        a, b = ((i - 1, j), (i + 1, j)) if xs[i].street else ((i, j - 1), (i, j + 1))
        if a in merged or b in merged:
            continue
        merged[a] = b
        merged[b] = a
        dropped.add((i, j))

    blocks: list[Block] = []
    seen: set[tuple[int, int]] = set()
    for j in range(0, nz, 2):
        for i in range(0, nx, 2):
            if (i, j) in seen:
                continue
            cells = [(i, j)] + ([merged[(i, j)]] if (i, j) in merged else [])
            seen.update(cells)
            i0, j0 = min(c[0] for c in cells), min(c[1] for c in cells)
            i1, j1 = max(c[0] for c in cells), max(c[1] for c in cells)
            outer = (xs[i0].lo, zs[j0].lo, xs[i1].hi, zs[j1].hi)
            s = float(rng.uniform(*sidewalk))
            blk = Block(f"block_{len(blocks)}", outer, s)
            x0, z0, x1, z1 = outer
            blk.sides = [
                BlockSide("n", ((x0, z0), (x1, z0)), (0.0, -1.0), j0 > 0),
                BlockSide("s", ((x0, z1), (x1, z1)), (0.0, 1.0), j1 < nz - 1),
                BlockSide("w", ((x0, z0), (x0, z1)), (-1.0, 0.0), i0 > 0),
                BlockSide("e", ((x1, z0), (x1, z1)), (1.0, 0.0), i1 < nx - 1),
            ]
            blocks.append(blk)

    roads: list[tuple[Rect, int, str]] = []
    crosswalks: list[Rect] = []
    for i, xi in enumerate(xs):
        for j, zj in enumerate(zs):
            if not (xi.street or zj.street) or (i, j) in dropped:
                continue
            r = (xi.lo, zj.lo, xi.hi, zj.hi)
            if xi.street and zj.street:
                roads.append((r, max(xi.lanes, zj.lanes), ""))
                continue
            # A street segment: cars drive along "z" on an X-street column and vice versa.
            axis, lanes_n = ("z", xi.lanes) if xi.street else ("x", zj.lanes)
            lo, hi = (zj.lo, zj.hi) if axis == "z" else (xi.lo, xi.hi)
            cw = min(crosswalk_width, (hi - lo) / 4)
            cuts = [lo, lo + cw, hi - cw, hi]
            for c0, c1, is_cw in ((cuts[0], cuts[1], True), (cuts[1], cuts[2], False),
                                  (cuts[2], cuts[3], True)):
                piece = (xi.lo, c0, xi.hi, c1) if axis == "z" else (c0, zj.lo, c1, zj.hi)
                if is_cw:
                    crosswalks.append(piece)
                else:
                    roads.append((piece, lanes_n, axis))
    return StreetLayout(bounds, blocks, roads, crosswalks)


def _centrelines(layout: StreetLayout) -> list[tuple[float, float, float, float]]:
    """Road centreline segments ``(x0, z0, x1, z1)``: street segments and crosswalks along
    their travel axis (a crosswalk along its short side), an intersection along both axes."""
    out = []
    for (x0, z0, x1, z1), _lanes, axis in layout.roads:
        cx, cz = (x0 + x1) / 2, (z0 + z1) / 2
        if axis != "z":
            out.append((x0, cz, x1, cz))
        if axis != "x":
            out.append((cx, z0, cx, z1))
    for x0, z0, x1, z1 in layout.crosswalks:
        cx, cz = (x0 + x1) / 2, (z0 + z1) / 2
        out.append((x0, cz, x1, cz) if x1 - x0 <= z1 - z0 else (cx, z0, cx, z1))
    return out


def road_length(layout: StreetLayout, focus: tuple[float, float, float] | None = None) -> float:
    """Road centreline length (m) of a layout (:func:`road_density`'s measure), or the part
    of it within ``focus = (x, z, r)``: the disc of radius r around (x, z)."""
    length = 0.0
    for x0, z0, x1, z1 in _centrelines(layout):
        if focus is None:
            length += (x1 - x0) + (z1 - z0)
            continue
        fx, fz, r = focus
        if z0 == z1:  # along x at z0: the chord |x − fx| ≤ √(r² − (z0 − fz)²)
            c, lo, hi, f = z0 - fz, x0, x1, fx
        else:
            c, lo, hi, f = x0 - fx, z0, z1, fz
        if abs(c) < r:
            h = (r * r - c * c) ** 0.5
            length += max(0.0, min(hi, f + h) - max(lo, f - h))
    return length


def road_density(layout: StreetLayout) -> float:
    """Road centreline length per area (km per km²) of a layout.

    Street segments and crosswalks count their length along the travel axis; an
    intersection counts both of its sides (the two centrelines crossing it).
    """
    bx0, bz0, bx1, bz1 = layout.bounds
    return road_length(layout) / 1000.0 / ((bx1 - bx0) * (bz1 - bz0) / 1e6)
