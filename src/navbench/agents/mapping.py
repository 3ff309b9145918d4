"""The agent's own maps, built only from its perception frames (``agents.perception``):

- :class:`OccupancyMap` — XZ grid (cell m): *free* where floor was seen, *occupied* where points
  between ``min_height`` and ``max_height`` above the ground were seen, else *unknown*;
  frontiers (free cells next to unknown ones) and shortest paths on free cells kept
  ``clearance`` away from obstacles (Dijkstra, 8-connected, with a small cost near walls).
- :class:`RoomMap` — room regions: floor patches (one per floor segment per frame) that overlap
  an existing region with the same reported room type join it, others start a new region
  (floors of different rooms only touch); a region's type is the majority of its patches'
  reported types. :meth:`RoomMap.coverage` says how much of a room's floor has been seen.
- :class:`ObjectMap` — object tracks: per-frame detections merged by label and 3D AABB overlap.

Frame: Habitat world (m, +Y up); grid cell (i, j) covers x ∈ [x0 + j·cell, …), z ∈ [z0 + i·cell, …).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from scipy import ndimage
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import dijkstra

UNKNOWN, FREE, OCCUPIED = -1, 0, 1


class Grid:
    """A square XZ grid of ``n × n`` cells of ``cell`` m centred on ``center`` (x, z)."""

    def __init__(self, center: Sequence[float], size: float = 48.0, cell: float = 0.1) -> None:
        self.cell = float(cell)
        self.n = math.ceil(size / cell)
        self.x0 = float(center[0]) - 0.5 * self.n * self.cell
        self.z0 = float(center[1]) - 0.5 * self.n * self.cell

    def cells(self, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(rows, cols) of world points (N, 3) inside the grid (others dropped)."""
        p = np.asarray(points, float).reshape(-1, 3)
        j = np.floor((p[:, 0] - self.x0) / self.cell).astype(np.int64)
        i = np.floor((p[:, 2] - self.z0) / self.cell).astype(np.int64)
        ok = (i >= 0) & (i < self.n) & (j >= 0) & (j < self.n)
        return i[ok], j[ok]

    def cell_of(self, x: float, z: float) -> tuple[int, int]:
        """(row, col) of a world XZ position (clipped into the grid)."""
        i = int(np.clip(math.floor((z - self.z0) / self.cell), 0, self.n - 1))
        j = int(np.clip(math.floor((x - self.x0) / self.cell), 0, self.n - 1))
        return i, j

    def center_of(self, i: np.ndarray | int, j: np.ndarray | int) -> tuple[np.ndarray, np.ndarray]:
        """World (x, z) of cell centres."""
        return self.x0 + (np.asarray(j) + 0.5) * self.cell, self.z0 + (np.asarray(i) + 0.5) * self.cell


class OccupancyMap:
    """Free / occupied / unknown cells (see module docs)."""

    def __init__(self, grid: Grid, min_height: float = 0.12, max_height: float = 1.2) -> None:
        self.grid = grid
        self.min_height, self.max_height = float(min_height), float(max_height)
        self.free = np.zeros((grid.n, grid.n), np.int32)
        self.occ = np.zeros((grid.n, grid.n), np.int32)

    def integrate(self, floor_points: np.ndarray, points: np.ndarray, ground_y: float) -> None:
        """Add one frame: floor points (free) and all points (obstacles by height band)."""
        i, j = self.grid.cells(floor_points)
        self.free[i, j] += 1
        rel = points[:, 1] - ground_y
        i, j = self.grid.cells(points[(rel > self.min_height) & (rel < self.max_height)])
        self.occ[i, j] += 1

    def mark_free(self, xz: Sequence[float], radius: float) -> None:
        """Mark the cells within ``radius`` m of ``xz`` free (where the robot stands)."""
        g = self.grid
        i0, j0 = g.cell_of(xz[0] - radius, xz[1] - radius)
        i1, j1 = g.cell_of(xz[0] + radius, xz[1] + radius)
        ii, jj = np.mgrid[i0:i1 + 1, j0:j1 + 1]
        x, z = g.center_of(ii, jj)
        inside = np.hypot(x - xz[0], z - xz[1]) <= radius
        self.free[ii[inside], jj[inside]] += 1

    def state(self, fill_holes: bool = True) -> np.ndarray:
        """(n, n) int8: :data:`UNKNOWN`, :data:`FREE` or :data:`OCCUPIED`. With ``fill_holes``
        unknown cells enclosed by seen floor and obstacles (the camera's blind spot around the
        robot, floor behind furniture in a closed room) count as free: the *known floor*."""
        s = np.full(self.free.shape, UNKNOWN, np.int8)
        free = self.free > 0
        occ = (self.occ > 0) & (self.free < 10 * self.occ)
        s[free] = FREE
        if fill_holes:
            known = free | occ
            s[ndimage.binary_fill_holes(known) & ~known] = FREE
        s[occ] = OCCUPIED
        return s

    def frontiers(self, min_cells: int = 3) -> list[np.ndarray]:
        """Frontier clusters: (K, 2) cell arrays of free cells 4-adjacent to unknown cells."""
        s = self.state()
        unk = s == UNKNOWN
        near_unknown = ndimage.binary_dilation(unk, structure=ndimage.generate_binary_structure(2, 1))
        front = (s == FREE) & near_unknown
        lab, n = ndimage.label(front, structure=np.ones((3, 3), bool))
        out = []
        for k in range(1, n + 1):
            cells = np.argwhere(lab == k)
            if len(cells) >= min_cells:
                out.append(cells)
        return out

    def traversable(self, clearance: float) -> tuple[np.ndarray, np.ndarray]:
        """Bool mask of known-floor cells (:meth:`state`) at least ``clearance`` m from any
        occupied cell (the robot never plans through unknown space outside the known floor),
        and the clearance (m) of every cell."""
        s = self.state()
        dist = ndimage.distance_transform_edt(s != OCCUPIED) * self.grid.cell
        return (s == FREE) & (dist >= clearance), dist

    def plan(self, start_xz: Sequence[float], clearance: float,
             comfort: float = 0.8) -> PlanField:
        """Dijkstra from the traversable cell nearest ``start_xz`` over traversable cells
        (:meth:`traversable`); step cost = length × (1 + 2·max(0, comfort − clearance)/comfort)."""
        trav, dist = self.traversable(clearance)
        si, sj = self.grid.cell_of(*start_xz)
        if not trav.any():
            return PlanField(self.grid, np.full(trav.shape, np.inf), {}, (si, sj), np.zeros(0, int))
        if not trav[si, sj]:
            _, idx = ndimage.distance_transform_edt(~trav, return_indices=True)
            si, sj = int(idx[0, si, sj]), int(idx[1, si, sj])
        rows, cols = np.nonzero(trav)
        r0, r1, c0, c1 = rows.min(), rows.max() + 1, cols.min(), cols.max() + 1
        sub = trav[r0:r1, c0:c1]
        h, w = sub.shape
        index = -np.ones(sub.shape, np.int64)
        index[sub] = np.arange(int(sub.sum()))
        pen = 1.0 + 2.0 * np.clip(comfort - dist[r0:r1, c0:c1], 0, None) / comfort
        src, dst, wt = [], [], []
        for di, dj in ((0, 1), (1, 0), (1, 1), (1, -1)):  # di >= 0
            ra, rb = slice(0, h - di), slice(di, h)
            ca, cb = slice(max(0, -dj), w - max(0, dj)), slice(max(0, dj), w - max(0, -dj))
            a, b = index[ra, ca], index[rb, cb]
            pa, pb = pen[ra, ca], pen[rb, cb]
            ok = (a >= 0) & (b >= 0)
            ln = math.hypot(di, dj) * self.grid.cell
            src.append(a[ok])
            dst.append(b[ok])
            wt.append(ln * 0.5 * (pa[ok] + pb[ok]))
        n = int(sub.sum())
        g = coo_matrix((np.concatenate(wt), (np.concatenate(src), np.concatenate(dst))), shape=(n, n))
        s_idx = int(index[si - r0, sj - c0])
        # scipy-stubs type `indices` as an array, though scipy takes one int (one source row)
        d, pred = dijkstra(g.tocsr(), directed=False, indices=s_idx,  # type: ignore[call-overload]
                           return_predecessors=True)
        full = np.full(trav.shape, np.inf)
        full[r0:r1, c0:c1][sub] = d
        cells = np.argwhere(sub) + np.array([r0, c0])
        return PlanField(self.grid, full, {"pred": pred, "index": index, "offset": (r0, c0)},
                         (si, sj), cells)


@dataclass
class PlanField:
    """Dijkstra result: travel cost (m, weighted) to every cell and path extraction."""

    grid: Grid
    cost: np.ndarray
    tree: dict
    start: tuple[int, int]
    cells: np.ndarray

    def path_to(self, i: int, j: int) -> np.ndarray:
        """World (x, z) cell centres from the start cell to cell (i, j); empty if unreachable."""
        if not np.isfinite(self.cost[i, j]):
            return np.zeros((0, 2))
        index, pred, (r0, c0) = self.tree["index"], self.tree["pred"], self.tree["offset"]
        k = int(index[i - r0, j - c0])
        seq = []
        while k >= 0:
            ci, cj = self.cells[k]
            seq.append((ci, cj))
            k = int(pred[k])
        seq.reverse()
        a = np.array(seq)
        x, z = self.grid.center_of(a[:, 0], a[:, 1])
        return np.stack([x, z], axis=1)

    def best(self, mask: np.ndarray, extra: np.ndarray | None = None) -> tuple[int, int] | None:
        """The reachable cell of ``mask`` with the least cost (+ ``extra`` per cell)."""
        c = np.where(mask, self.cost, np.inf)
        if extra is not None:
            c = c + extra
        k = int(np.argmin(c))
        if not np.isfinite(c.flat[k]):
            return None
        return divmod(k, c.shape[1])


class RoomMap:
    """Room regions from floor patches (see module docs)."""

    def __init__(self, grid: Grid, min_overlap: float = 0.15) -> None:
        self.grid = grid
        self.min_overlap = float(min_overlap)
        self.room = -np.ones((grid.n, grid.n), np.int32)
        self.parent: list[int] = []
        self.votes: list[dict[str, int]] = []

    def find(self, k: int) -> int:
        """Representative region of region ``k``."""
        while self.parent[k] != k:
            self.parent[k] = self.parent[self.parent[k]]
            k = self.parent[k]
        return k

    def integrate(self, patch: np.ndarray, rtype: str = "") -> int | None:
        """Add one floor patch (N, 3 world points) reported as room type ``rtype`` (``""``:
        untyped); returns its region. A typed patch joins every region of the same type it
        overlaps; an untyped one those it overlaps by ≥ ``min_overlap`` of its cells."""
        i, j = self.grid.cells(patch)
        if len(i) == 0:
            return None
        flat = np.unique(i * self.grid.n + j)
        i, j = np.divmod(flat, self.grid.n)
        have = self.room[i, j]
        roots = np.array([self.find(int(k)) for k in have[have >= 0]], np.int64)
        need = 1 if rtype else max(4, int(self.min_overlap * len(flat)))
        strong = [int(r) for r, c in zip(*np.unique(roots, return_counts=True), strict=True)
                  if c >= need and (not rtype or self.type_of(int(r)) in (rtype, None))
                  ] if len(roots) else []
        if strong:
            root = min(strong)
            for r in strong:
                if r != root:
                    self.parent[r] = root
                    for t, v in self.votes[r].items():
                        self.votes[root][t] = self.votes[root].get(t, 0) + v
        else:
            root = len(self.parent)
            self.parent.append(root)
            self.votes.append({})
        if rtype:
            self.votes[root][rtype] = self.votes[root].get(rtype, 0) + len(flat)
        self.room[i[have < 0], j[have < 0]] = root
        return root

    def type_of(self, region: int) -> str | None:
        """Majority reported room type of a region (``None`` if only untyped floor was seen)."""
        v = self.votes[self.find(region)]
        return min(v, key=lambda t: (-v[t], t)) if v else None

    def regions(self) -> list[int]:
        """Representative ids of all regions."""
        return sorted({self.find(k) for k in range(len(self.parent))})

    def region_at(self, lo: np.ndarray, hi: np.ndarray, margin: float = 0.15) -> int | None:
        """Majority region of the floor cells under an XZ box grown by ``margin`` m."""
        a = self.grid.cell_of(lo[0] - margin, lo[2] - margin)
        b = self.grid.cell_of(hi[0] + margin, hi[2] + margin)
        block = self.room[a[0]:b[0] + 1, a[1]:b[1] + 1]
        ids = [self.find(int(k)) for k in block[block >= 0]]
        if not ids:
            return None
        u, c = np.unique(ids, return_counts=True)
        return int(u[np.argmax(c)])

    def cells_of(self, region: int) -> np.ndarray:
        """(K, 2) cells of a region."""
        roots = np.array([self.find(k) for k in range(len(self.parent))] + [-1], np.int64)
        return np.argwhere(roots[self.room] == region)

    def coverage(self, region: int, state: np.ndarray, grow: float = 0.5) -> tuple[float, np.ndarray]:
        """How much of a room's floor has been seen, and the unseen pockets.

        Definition: with R the region's seen floor cells and U the *unknown* cells of the
        region's bounding box grown by ``grow`` m that are 4-connected, through unknown cells, to
        a cell 4-adjacent to R (unseen floor the room may continue into: beyond the edge of the
        view, behind furniture, past an unseen doorway), coverage = |R| / (|R| + |U|).
        Walls and furniture (occupied cells) and other rooms' floors bound U. Returns the
        coverage in [0, 1] and U as (K, 2) cells.
        """
        cells = self.cells_of(region)
        if len(cells) == 0:
            return 0.0, np.zeros((0, 2), int)
        g = max(1, round(grow / self.grid.cell))
        n = self.grid.n
        (a, b), (c, d) = np.maximum(cells.min(axis=0) - g, 0), np.minimum(cells.max(axis=0) + g + 1, n)
        r = np.zeros((c - a, d - b), bool)
        r[cells[:, 0] - a, cells[:, 1] - b] = True
        unk = state[a:c, b:d] == UNKNOWN
        lab, _ = ndimage.label(unk)
        touch = ndimage.binary_dilation(r) & unk
        pockets = np.isin(lab, np.unique(lab[touch])) & unk
        u = np.argwhere(pockets) + np.array([a, b])
        return len(cells) / (len(cells) + len(u)), u

@dataclass(eq=False)
class Track:
    """An observed object: reported label, world AABB (m), frames seen."""

    label: str
    lo: np.ndarray
    hi: np.ndarray
    seen: int = 1
    region: int | None = None
    key: int = field(default=0)

    @property
    def center(self) -> np.ndarray:
        """AABB centre (m)."""
        return 0.5 * (self.lo + self.hi)


class ObjectMap:
    """Object tracks from detections: same label and AABB gap ≤ ``gap`` m → same object."""

    def __init__(self, gap: float = 0.1) -> None:
        self.gap = float(gap)
        self.tracks: list[Track] = []
        self._next = 0

    def add(self, label: str, lo: np.ndarray, hi: np.ndarray) -> Track:
        """Merge one detection; tracks it bridges are merged too."""
        hits = [t for t in self.tracks if t.label == label and
                float(np.max(np.maximum(t.lo - hi, lo - t.hi))) <= self.gap]
        if not hits:
            t = Track(label, np.array(lo, float), np.array(hi, float), key=self._next)
            self._next += 1
            self.tracks.append(t)
            return t
        t = hits[0]
        t.lo, t.hi = np.minimum(t.lo, lo), np.maximum(t.hi, hi)
        t.seen += 1
        for o in hits[1:]:
            t.lo, t.hi = np.minimum(t.lo, o.lo), np.maximum(t.hi, o.hi)
            t.seen += o.seen
            self.tracks.remove(o)
        return t


__all__ = ["FREE", "OCCUPIED", "UNKNOWN", "Grid", "ObjectMap", "OccupancyMap", "PlanField",
           "RoomMap", "Track"]
