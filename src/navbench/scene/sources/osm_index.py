"""Point, footprint and ray tests against an imported map's pieces, through spatial indexes
(shapely ``STRtree``) instead of map-wide unions, so that tests stay fast on a city district
(a union of a hundred thousand outlines is slow to build and slow to test against).

Classes (XZ metres): *low* ground = roads and parking lots; *water* = water not under a road;
*raised* = inside the map, not low, not water; *free* = raised and outside every building
(and every extra blocked outline, e.g. an embedded house); *street* = roads, sidewalk-class
ground and crosswalks (what a storefront or a house exit faces).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from shapely.geometry import Polygon
    from shapely.geometry.base import BaseGeometry


class _Tree:
    """An STRtree over polygons with vectorised point and shape tests."""

    def __init__(self, polys: Sequence[BaseGeometry]) -> None:
        import shapely

        self.polys = list(polys)
        self.tree = shapely.STRtree(self.polys) if self.polys else None

    def points(self, x: np.ndarray, z: np.ndarray) -> np.ndarray:
        """Whether each point (x, z) lies inside some polygon (boundary excluded)."""
        import shapely

        x, z = np.asarray(x, float), np.asarray(z, float)
        out = np.zeros(x.shape, bool)
        if self.tree is None or not x.size:
            return out
        pts = shapely.points(x.ravel(), z.ravel())
        hit = self.tree.query(pts, predicate="within")[0]
        flat = out.ravel()
        flat[hit] = True
        return flat.reshape(x.shape)

    def hits(self, shapes: np.ndarray) -> np.ndarray:
        """Whether each shape intersects some polygon's interior or boundary."""
        out = np.zeros(len(shapes), bool)
        if self.tree is not None and len(shapes):
            out[self.tree.query(shapes, predicate="intersects")[0]] = True
        return out

    def near(self, geom: BaseGeometry) -> list[BaseGeometry]:
        """Polygons whose bounding boxes meet ``geom``'s."""
        return [] if self.tree is None else [self.polys[int(i)] for i in self.tree.query(geom)]

    def first_hit(self, starts: np.ndarray, dirs: np.ndarray, reach: float) -> np.ndarray:
        """Distance (m) along each ray (start, unit direction) to its first polygon within
        ``reach`` (inf where none)."""
        import shapely

        out = np.full(len(starts), np.inf)
        if self.tree is None or not len(starts):
            return out
        lines = shapely.linestrings(np.stack([starts, starts + dirs * reach], axis=1))
        a, b = self.tree.query(lines, predicate="intersects")
        if not len(a):
            return out
        inter = shapely.intersection(lines[a], np.asarray(self.polys, dtype=object)[b])
        coords, owner = shapely.get_coordinates(inter, return_index=True)
        if not len(coords):
            return out
        ray = a[owner]
        d = np.einsum("ij,ij->i", coords - starts[ray], dirs[ray])
        np.minimum.at(out, ray, d)
        return out


class GroundIndex:
    """Tests against the map's pieces (module docstring); ``area`` is the map's extent."""

    def __init__(self, area: tuple[float, float, float, float], roads: Sequence[Polygon],
                 parking: Sequence[Polygon], water: Sequence[Polygon], side: Sequence[Polygon],
                 buildings: Sequence[Polygon], crosswalks: Sequence[Polygon]) -> None:
        self.area = area
        self.roads = _Tree(roads)
        self.low = _Tree(list(roads) + list(parking))
        self.parking = _Tree(parking)
        self.water = _Tree(water)
        self.side = _Tree(side)
        self.buildings = _Tree(buildings)
        self.crosswalks = _Tree(crosswalks)
        self.street = _Tree(list(roads) + list(side) + list(crosswalks))
        self.blocked = _Tree([])
        self.fork_above = 0

    def with_blocked(self, extra: Sequence[Polygon], fork_above: int = 0) -> GroundIndex:
        """A copy whose *free* ground also excludes ``extra`` outlines; its point tests of more
        than ``fork_above`` points (0: never) test half of them in a forked child
        (:class:`navbench.forking.Forked`: the same answers, in about half the time on two cores)."""
        import copy

        out = copy.copy(self)
        out.blocked = _Tree(list(self.blocked.polys) + list(extra))
        out.fork_above = fork_above
        return out

    def in_area(self, x: np.ndarray, z: np.ndarray) -> np.ndarray:
        x0, z0, x1, z1 = self.area
        x, z = np.asarray(x, float), np.asarray(z, float)
        out: np.ndarray = (x > x0) & (x < x1) & (z > z0) & (z < z1)
        return out

    def _outside(self, x: np.ndarray, z: np.ndarray, trees: Sequence[_Tree]) -> np.ndarray:
        """Inside the map and inside no polygon of ``trees`` (boundary excluded): the points are
        made once, and each tree tests only those no earlier one excluded."""
        x, z = np.asarray(x, float), np.asarray(z, float)
        if self.fork_above and x.size > self.fork_above:
            from navbench.forking import Forked

            xr, zr, h = x.ravel(), z.ravel(), x.size // 2
            rest = Forked(lambda: self._outside_flat(xr[h:], zr[h:], trees))
            first = self._outside_flat(xr[:h], zr[:h], trees)
            return np.concatenate([first, rest.result()]).reshape(x.shape)
        return self._outside_flat(x.ravel(), z.ravel(), trees).reshape(x.shape)

    def _outside_flat(self, x: np.ndarray, z: np.ndarray, trees: Sequence[_Tree]) -> np.ndarray:
        """:meth:`_outside` of flat coordinate arrays, in this process."""
        import shapely

        out = self.in_area(x, z)
        keep = np.flatnonzero(out)
        pts = shapely.points(x[keep], z[keep]) if len(keep) else None
        for t in trees:
            if t.tree is None or pts is None or not len(keep):
                continue
            hit = t.tree.query(pts, predicate="within")[0]
            if len(hit):
                out[keep[hit]] = False
                left = np.ones(len(keep), bool)
                left[hit] = False
                keep, pts = keep[left], pts[left]
        return out

    def raised(self, x: np.ndarray, z: np.ndarray) -> np.ndarray:
        """Inside the map, not on a road or parking lot, not in water."""
        return self._outside(x, z, (self.low, self.water))

    def free(self, x: np.ndarray, z: np.ndarray) -> np.ndarray:
        """Raised and outside every building (and blocked outline)."""
        return self._outside(x, z, (self.low, self.water, self.buildings, self.blocked))

    def sidewalk(self, x: np.ndarray, z: np.ndarray) -> np.ndarray:
        """Raised sidewalk-class ground (sidewalks, foot ways, plazas)."""
        out: np.ndarray = self.side.points(x, z) & self.raised(x, z)
        return out

    def shapes_free(self, shapes: np.ndarray, buildings: bool = True) -> np.ndarray:
        """Whether each shape lies inside the map and touches no road, parking lot or water
        (nor, with ``buildings``, any building or blocked outline)."""
        import shapely

        x0, z0, x1, z1 = self.area
        b = shapely.bounds(shapes).reshape(-1, 4)
        ok: np.ndarray = (b[:, 0] > x0) & (b[:, 1] > z0) & (b[:, 2] < x1) & (b[:, 3] < z1)
        ok &= ~self.low.hits(shapes) & ~self.water.hits(shapes)
        if buildings:
            ok &= ~self.buildings.hits(shapes) & ~self.blocked.hits(shapes)
        return ok


def local_union(tree: _Tree, geom: BaseGeometry) -> BaseGeometry:
    """The union of the indexed polygons near ``geom`` (empty polygon when none)."""
    import shapely

    near = tree.near(geom)
    return shapely.union_all(near) if near else shapely.Polygon()


__all__ = ["GroundIndex", "local_union"]
