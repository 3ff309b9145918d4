"""Terrain of an imported map: road, crosswalk, sidewalk, green and water surfaces and the
static boxes physics and the navmesh stand on (Habitat frame, metres, +Y up).

Levels (as the procedural city, :mod:`navbench.scene.procgen.urban`): roads and parking lots
(the *low* ground L) have their top at ``ROAD_Y`` (0.2 m below the sidewalks: the step is the
curb), water at ``WATER_Y``, everything else (the *raised* ground R = area − L − water:
sidewalks, plazas, yards, parks, building plots) at ``SIDEWALK_Y``; crosswalks are raised
tables across the roadway at sidewalk height.

Boxes, chosen so that curbs are exact along every straight road edge and the box count stays
near that of a procedural city:

- a yawed road box per way segment (extended by half the width at both ends, which covers the
  square caps and mitred joins of the road polygon); overlapping boxes are lowered by 1-3 mm
  in turn so their pictures do not fight (far below any robot's step);
- a *strip* along every straight edge of L's boundary, on its raised side: a yawed box whose
  inner face is the curb (``sidewalk`` as deep as the sidewalk there, else a ``green`` verge),
  cut where it would enter L (junctions) ;
- per raised *block* (connected piece of R), square cells in the block's own frame (its
  dominant edge direction) whose squares stay out of L, merged into rectangles by class;
- fine filler cells (:data:`FILL_CELL`) near the corners of L, where strips end;
- water cells, parking cells at road level, and one base box under everything at
  ``WATER_Y`` - 0.01 so that no sliver is a hole to the void.

Surfaces (semantics, BEV pictures, route landmarks) are the exact polygons; every box refers
to the surface under its centre, so the simulator reads the class from the box the robot
stands on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from navbench.scene.model import Box, Surface, SurfaceClass
from navbench.scene.procgen.urban import (
    FRICTION,
    PREFERRED,
    SLAB_BOTTOM,
)
from navbench.scene.sources.osm_geometry import ring_xz
from navbench.scene.sources.osm_index import GroundIndex

if TYPE_CHECKING:
    from shapely.geometry import Polygon
    from shapely.geometry.base import BaseGeometry

#: Cell (m) of the filler raster near road corners.
FILL_CELL = 0.25
#: Strips shorter than this (m) are dropped (the filler covers them).
MIN_STRIP = 0.3
#: Extra cover (m) beyond the coarse cell diagonal that strips guarantee behind a curb.
COVER_MARGIN = 0.2
#: Visual drawing order of coplanar raised pieces: strips on top, then sidewalk, then green cells.
_LOWER = {"strip": 0.0, "sidewalk": 0.001, "green": 0.002, "fill": 0.0005}


@dataclass(frozen=True)
class Crosswalk:
    """A raised crossing table: centre (x, z), unit direction ``across`` the road, its length
    across (m, the road width plus the curbs), width along the road (m) and the road id."""

    id: str
    centre: tuple[float, float]
    across: tuple[float, float]
    length: float
    width: float
    road: int
    source: str  # "osm" or "derived"

    def polygon(self) -> Polygon:
        import shapely

        return shapely.Polygon(frame_rect(np.array(self.centre), np.array(self.across), -self.length / 2,
                                          self.length / 2, -self.width / 2, self.width / 2))


@dataclass
class Strip:
    """A straight stretch of raised ground along a curb: origin ``p`` on the curb, unit ``u``
    along it, unit ``n`` into the raised side, ``[a0, a1]`` along, ``[b0, b1]`` out of the
    curb (m), class (``sidewalk`` or ``green``), whether the curb is a road's (not a lot's)."""

    p: np.ndarray
    u: np.ndarray
    n: np.ndarray
    a0: float
    a1: float
    b0: float
    b1: float
    cls: str
    roadside: bool

    def polygon(self) -> Polygon:
        import shapely

        return shapely.Polygon(frame_rect(self.p, self.u, self.a0, self.a1, self.b0, self.b1, self.n))


@dataclass
class TerrainInput:
    """What the terrain is built from (XZ metres, clipped to ``area``)."""

    area: Polygon
    roads: list[tuple[int, Polygon, list[np.ndarray], float]]  # (way id, polygon, polylines, width)
    parking: list[Polygon]
    water: list[Polygon]
    side: list[Polygon]  # sidewalk-class ground (sidewalk bands, foot ways, plazas)
    buildings: list[tuple[str, Polygon]]
    crosswalks: list[Crosswalk]
    cell: float = 1.0


@dataclass
class Terrain:
    """Surfaces and boxes, the curb strips, and the index the later steps test ground with."""

    index: GroundIndex
    surfaces: list[Surface] = field(default_factory=list)
    boxes: list[Box] = field(default_factory=list)
    strips: list[Strip] = field(default_factory=list)


def frame_rect(p: np.ndarray, u: np.ndarray, a0: float, a1: float, b0: float, b1: float,
               v: np.ndarray | None = None) -> np.ndarray:
    """Corners (4, 2) of the rectangle ``[a0, a1] x [b0, b1]`` in the frame (origin ``p``, axes
    ``u`` and ``v``; ``v`` defaults to ``u`` turned a quarter)."""
    v = np.array([-u[1], u[0]]) if v is None else v
    return np.array([p + a * u + b * v for a, b in ((a0, b0), (a1, b0), (a1, b1), (a0, b1))])


def frame_box(bid: str, kind: str, p: np.ndarray, u: np.ndarray, v: np.ndarray, a0: float, a1: float,
              b0: float, b1: float, top: float, ref: str | None, label: str = "",
              bottom: float = SLAB_BOTTOM) -> Box:
    """A yawed box over the frame rectangle ``[a0, a1] x [b0, b1]`` from ``bottom`` to ``top``."""
    c = p + (a0 + a1) / 2 * u + (b0 + b1) / 2 * v
    yaw = math.atan2(-float(u[1]), float(u[0]))  # local +X along u
    return Box(bid, kind, (float(c[0]), (top + bottom) / 2, float(c[1])),
               (float(a1 - a0), top - bottom, float(b1 - b0)), yaw, label or kind, ref)


def _surface(sid: str, cls: SurfaceClass, poly: Polygon, y: float) -> Surface:
    return Surface(sid, cls, ring_xz(poly.exterior.coords), y, FRICTION[cls], PREFERRED[cls],
                   tuple(ring_xz(h.coords, hole=True) for h in poly.interiors))


def _union(polys: list[Polygon]) -> BaseGeometry:
    import shapely

    return shapely.union_all(polys) if polys else shapely.Polygon()


def dominant_angle(poly: Polygon) -> float:
    """Direction (rad, in [0, π/2)) of a polygon's edges, weighted by length (mod 90°)."""
    c = np.asarray(poly.exterior.coords)
    d = np.diff(c, axis=0)
    ln = np.hypot(d[:, 0], d[:, 1])
    if not len(ln) or ln.sum() <= 0:
        return 0.0
    a = np.mod(np.arctan2(d[:, 1], d[:, 0]), math.pi / 2)
    bins = np.round(a / math.radians(1.0)).astype(int) % 90
    w = np.bincount(bins, weights=ln, minlength=90)
    w = w + 0.5 * (np.roll(w, 1) + np.roll(w, -1))
    return math.radians(float(np.argmax(w)))


def merge_cells(grid: np.ndarray, xs: np.ndarray, zs: np.ndarray) -> list[tuple[int, float, float, float, float]]:
    """Greedy merge of a class grid (``grid[row, col]``, 0 = empty) over cell edges ``xs``
    (cols + 1) and ``zs`` (rows + 1) into rectangles ``(class, x0, z0, x1, z1)``: runs of equal
    class along each row, extended downwards while the next row has the same run."""
    nz, nx = grid.shape
    out: list[tuple[int, float, float, float, float]] = []
    open_: dict[tuple[int, int, int], int] = {}
    for r in range(nz + 1):
        runs: set[tuple[int, int, int]] = set()
        if r < nz:
            row = grid[r]
            cuts = np.flatnonzero(np.diff(row)) + 1
            starts, ends = np.r_[0, cuts], np.r_[cuts, nx]
            runs = {(int(row[s]), int(s), int(e)) for s, e in zip(starts, ends, strict=True) if row[s]}
        for key in sorted(set(open_) - runs):
            k, c0, c1 = key
            r0 = open_.pop(key)
            out.append((k, float(xs[c0]), float(zs[r0]), float(xs[c1]), float(zs[r])))
        for key in runs:
            open_.setdefault(key, r)
    return out


__all__ = ["COVER_MARGIN", "FILL_CELL", "Crosswalk", "Strip", "Terrain", "TerrainInput", "dominant_angle",
           "frame_box", "frame_rect", "merge_cells"]
