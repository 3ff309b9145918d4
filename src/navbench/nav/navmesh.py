"""The :class:`NavMesh`: navigable-area queries and exact geodesic shortest paths.

Query names follow habitat-sim's ``PathFinder``. Points are ``(x, y, z)`` in the Habitat
world frame (metres, +Y up); ``y`` selects the floor layer. Unreachable goals give
``math.inf`` and a path of ``None``; nothing raises deep inside a query.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from navbench.nav import visibility as vis
from navbench.nav.grid import Layer, build_layers
from navbench.nav.polygons import Nodes, boundary_rings, reflex_nodes
from navbench.nav.settings import NavSettings
from navbench.scene.model import Scene

if TYPE_CHECKING:
    from navbench.nav.fields import DistanceField

#: Largest vertical offset (m) between a query point and the surface it is on.
MAX_Y_DELTA = 0.5


@dataclass(frozen=True)
class ShortestPath:
    """Result of :meth:`NavMesh.find_path`.

    Attributes:
        points: polyline (x, y, z) from the snapped start to the snapped goal, or ``None``.
        geodesic_distance: 3D length of ``points`` (m); ``math.inf`` when unreachable.
        goal_index: index of the goal reached (multi-goal queries), or ``None``.
    """

    points: list[np.ndarray] | None
    geodesic_distance: float
    goal_index: int | None


@dataclass
class LayerGraph:
    """Reduced visibility graph of one layer: nodes plus CSR adjacency (weights in m)."""

    nodes: Nodes
    indptr: np.ndarray
    indices: np.ndarray
    weights: np.ndarray


def build_graph(layer: Layer, s: NavSettings) -> LayerGraph:
    """Polygonise a layer and connect its reflex vertices by bitangent free segments."""
    rings = boundary_rings(layer, s.agent_radius, s.simplify_tolerance * s.cell_size)
    nodes = reflex_nodes(layer, rings)
    thr = s.agent_radius - s.los_tolerance * s.cell_size
    pairs = vis.build_edges(nodes.pos, nodes.prv, nodes.nxt, nodes.island, layer.clear,
                            layer.x0, layer.z0, layer.cs, thr)
    n = len(nodes.pos)
    src = np.concatenate([pairs[:, 0], pairs[:, 1]])
    dst = np.concatenate([pairs[:, 1], pairs[:, 0]])
    order = np.lexsort((dst, src))
    src, dst = src[order], dst[order]
    indptr = np.zeros(n + 1, np.int64)
    np.add.at(indptr, src + 1, 1)
    indptr = np.cumsum(indptr)
    w = np.hypot(*(nodes.pos[dst] - nodes.pos[src]).T) if len(src) else np.zeros(0)
    return LayerGraph(nodes, indptr, dst.astype(np.int64), w.astype(np.float64))


class NavMesh:
    """A navigation mesh built from a scene's static geometry (see ``navbench.nav``).

    Attributes:
        settings: the :class:`NavSettings` it was built with.
        scene_id: id of the scene it was built from.
        layers: floor slices (grids); ``graphs``: one visibility graph per layer.
    """

    def __init__(self, settings: NavSettings, scene_id: str, layers: list[Layer],
                 island_areas: np.ndarray, graphs: list[LayerGraph]) -> None:
        self.settings = settings
        self.scene_id = scene_id
        self.layers = layers
        self.graphs = graphs
        self._areas = np.asarray(island_areas, dtype=np.float64)
        self._island_layer = np.full(len(self._areas), -1, np.int64)
        for li, layer in enumerate(layers):
            ids = np.unique(layer.labels)
            self._island_layer[ids[ids >= 0]] = li
        self._cells: dict[int | None, np.ndarray] = {}
        self._thr = settings.agent_radius - settings.los_tolerance * settings.cell_size
        self._tile_cache: dict[int, np.ndarray] = {}

    # ------------------------------------------------------------------ construction
    @classmethod
    def build(cls, scene: Scene, settings: NavSettings | None = None) -> NavMesh:
        """Build from ``scene`` (boxes, surfaces, meshes); ``settings`` defaults to ``indoor``."""
        s = settings if settings is not None else NavSettings.preset("indoor")
        layers, areas = build_layers(scene, s)
        graphs = [build_graph(layer, s) for layer in layers]
        return cls(s, scene.id, layers, areas, graphs)

    def save(self, path: str | Path) -> Path:
        """Write a reproducible ``.npz`` (atomic); see :func:`navbench.nav.store.save`."""
        from navbench.nav.store import save

        return save(self, path)

    @classmethod
    def load(cls, path: str | Path) -> NavMesh:
        """Read a file written by :meth:`save`; raises ``FormatError`` on a bad file."""
        from navbench.nav.store import load_parts

        settings, scene_id, layers, areas, parts = load_parts(path)
        return cls(settings, scene_id, layers, areas, [LayerGraph(*p) for p in parts])

    # ------------------------------------------------------------------ islands
    @property
    def islands(self) -> list[int]:
        """Island ids, sorted by area (largest first): ``0 .. n-1``."""
        return list(range(len(self._areas)))

    def island_area(self, island: int) -> float:
        """Navigable area (m²) of an island."""
        return float(self._areas[island])

    # ------------------------------------------------------------------ point queries
    def _locate(self, x: float, y: float, z: float) -> tuple[int, int, int] | None:
        """(layer, row, col) of the surface under (x, y, z), or None."""
        best: tuple[int, int, int] | None = None
        best_d = math.inf
        for li, L in enumerate(self.layers):
            r = int((z - L.z0) // L.cs)
            c = int((x - L.x0) // L.cs)
            nr, nc = L.height.shape
            if not (0 <= r < nr and 0 <= c < nc):
                continue
            h = float(L.height[r, c])
            d = abs(y - h) if h == h else abs(y - min(max(y, L.y_lo), L.y_hi)) + MAX_Y_DELTA
            if d < best_d:
                best, best_d = (li, r, c), d
        return best

    def is_navigable(self, p: Sequence[float] | np.ndarray) -> bool:
        """True if (x, y, z) lies on the navigable area (within 0.5 m above/below the surface)."""
        x, y, z = float(p[0]), float(p[1]), float(p[2])
        loc = self._locate(x, y, z)
        if loc is None:
            return False
        L = self.layers[loc[0]]
        h = float(L.height[loc[1], loc[2]])
        if not (h == h and abs(y - h) <= MAX_Y_DELTA):
            return False
        return bool(vis.bilinear(L.clear, L.x0, L.z0, L.cs, x, z) >= self.settings.agent_radius - 1e-6)

    def distance_to_obstacle(self, p: Sequence[float] | np.ndarray) -> float:
        """Distance (m) from p to the nearest obstacle or edge of the walkable surface (0 off it)."""
        x, y, z = float(p[0]), float(p[1]), float(p[2])
        loc = self._locate(x, y, z)
        if loc is None:
            return 0.0
        L = self.layers[loc[0]]
        return max(0.0, float(vis.bilinear(L.clear, L.x0, L.z0, L.cs, x, z)))

    def island_of(self, p: Sequence[float] | np.ndarray) -> int | None:
        """Island id of a navigable point, else None."""
        if not self.is_navigable(p):
            return None
        x, y, z = float(p[0]), float(p[1]), float(p[2])
        li, r, c = self._locate(x, y, z)  # type: ignore[misc]
        lab = self.layers[li].labels
        best, best_d = None, math.inf
        for dr in (0, -1, 1):
            for dc in (0, -1, 1):
                rr, cc = r + dr, c + dc
                if 0 <= rr < lab.shape[0] and 0 <= cc < lab.shape[1] and lab[rr, cc] >= 0:
                    d = dr * dr + dc * dc
                    if d < best_d:
                        best, best_d = int(lab[rr, cc]), d
        return best

    def snap_point(self, p: Sequence[float] | np.ndarray, island: int | None = None
                   ) -> np.ndarray | None:
        """Nearest navigable point (x, y, z) within ``settings.snap_radius`` (XZ), y on the surface.

        Candidates lie within ``agent_height`` of ``y`` vertically; with ``island``, only that
        island counts. Returns None if nothing is close enough.
        """
        x, y, z = float(p[0]), float(p[1]), float(p[2])
        if island is None or 0 <= island < len(self._areas):
            own = self.island_of((x, y, z))
            if own is not None and (island is None or own == island):
                li, r, c = self._locate(x, y, z)  # type: ignore[misc]
                return np.array([x, float(self.layers[li].height[r, c]), z])
        if island is not None:
            if not 0 <= island < len(self._areas):
                return None
            li = int(self._island_layer[island])
        else:
            loc = self._locate(x, y, z)
            if loc is None:
                return None
            li = loc[0]
        L = self.layers[li]
        k = math.ceil(self.settings.snap_radius / L.cs)
        r = int((z - L.z0) // L.cs)
        c = int((x - L.x0) // L.cs)
        nr, nc = L.labels.shape
        r0, r1, c0, c1 = max(0, r - k), min(nr, r + k + 1), max(0, c - k), min(nc, c + k + 1)
        if r0 >= r1 or c0 >= c1:
            return None
        lab = L.labels[r0:r1, c0:c1]
        ok = lab >= 0 if island is None else lab == island
        ok &= np.abs(L.height[r0:r1, c0:c1] - y) <= self.settings.agent_height
        if not ok.any():
            return None
        zs = L.z0 + (np.arange(r0, r1) + 0.5) * L.cs - z
        xs = L.x0 + (np.arange(c0, c1) + 0.5) * L.cs - x
        d2 = np.where(ok, zs[:, None] ** 2 + xs[None, :] ** 2, np.inf)
        i = int(np.argmin(d2))
        if d2.flat[i] > self.settings.snap_radius ** 2:
            return None
        rr, cc = divmod(i, c1 - c0)
        rr += r0
        cc += c0
        return np.array([L.x0 + (cc + 0.5) * L.cs, float(L.height[rr, cc]), L.z0 + (rr + 0.5) * L.cs])

    def sample_point(self, rng: np.random.Generator, island: int | str | None = "largest"
                     ) -> np.ndarray:
        """Area-uniform random navigable point (x, y, z) on ``island`` (``"largest"``, an id, or None = any)."""
        from navbench.errors import ConfigError

        isl = 0 if island == "largest" else island
        if isl is not None and not (isinstance(isl, (int, np.integer)) and 0 <= isl < len(self._areas)):
            raise ConfigError(f"sample_point: island: expected 'largest', None or an id in "
                              f"[0, {len(self._areas)}), got {island!r}")
        key = None if isl is None else int(isl)
        if key not in self._cells:
            parts: list[np.ndarray] = []
            for li, L in enumerate(self.layers):
                flat = np.flatnonzero(L.labels >= 0 if key is None else L.labels == key)
                parts.append(np.column_stack([np.full(len(flat), li), flat]))
            self._cells[key] = np.concatenate(parts) if parts else np.zeros((0, 2), np.int64)
        cells = self._cells[key]
        if len(cells) == 0:
            raise ConfigError(f"sample_point: navmesh of scene {self.scene_id!r} has no navigable area")
        for _ in range(32):
            li, flat = cells[int(rng.integers(len(cells)))]
            L = self.layers[int(li)]
            r, c = divmod(int(flat), L.labels.shape[1])
            jx, jz = rng.random(2)
            x = L.x0 + (c + jx) * L.cs
            z = L.z0 + (r + jz) * L.cs
            if vis.bilinear(L.clear, L.x0, L.z0, L.cs, x, z) >= self.settings.agent_radius:
                return np.array([x, float(L.height[r, c]), z])
        return np.array([L.x0 + (c + 0.5) * L.cs, float(L.height[r, c]), L.z0 + (r + 0.5) * L.cs])

    # ------------------------------------------------------------------ paths
    def find_path(self, a: Sequence[float] | np.ndarray, b_or_many: Any) -> ShortestPath:
        """Shortest path from ``a`` to ``b`` (a point) or to the nearest of many goal points."""
        none = ShortestPath(None, math.inf, None)
        goals = np.asarray(b_or_many, dtype=np.float64)
        if goals.ndim == 1:
            goals = goals.reshape(1, -1)
        if goals.ndim != 2 or goals.shape[1] != 3 or len(goals) == 0:
            return none
        ia = self.island_of(a)
        if ia is None:
            for g in goals:
                ia = self.island_of(g)
                if ia is not None:
                    break
        sa = self.snap_point(a, ia) if ia is not None else None
        if sa is None:
            sa = self.snap_point(a)
        if sa is None:
            return none
        isl = self.island_of(sa)
        if isl is None:
            return none
        keep, snapped = [], []
        for k, g in enumerate(goals):
            sg = self.snap_point(g, isl)
            if sg is not None:
                keep.append(k)
                snapped.append(sg)
        if not keep:
            return none
        li = int(self._island_layer[isl])
        L, G = self.layers[li], self.graphs[li]
        n = G.nodes
        gxz = np.array([[p[0], p[2]] for p in snapped])
        length, gk, nodes = vis.astar(n.pos, n.prv, n.nxt, n.island, G.indptr, G.indices,
                                      G.weights, L.clear, L.x0, L.z0, L.cs, self._thr,
                                      float(sa[0]), float(sa[2]), isl, gxz,
                                      self._tiles(li), vis.TILE)
        if not math.isfinite(length):
            return self._grid_path(L, isl, sa, snapped, keep)
        pts = []
        for v in nodes:
            if v == -1:
                pts.append(sa)
            elif v <= -2:
                pts.append(snapped[-2 - int(v)])
            else:
                pts.append(np.array([n.pos[v, 0], n.y[v], n.pos[v, 1]]))
        d = float(sum(np.linalg.norm(pts[i + 1] - pts[i]) for i in range(len(pts) - 1)))
        return ShortestPath(pts, d, keep[int(gk)])

    def _tiles(self, li: int) -> np.ndarray:
        """Blocked-tile mask of layer ``li`` (:func:`visibility.blocked_tiles`), cached."""
        if li not in self._tile_cache:
            self._tile_cache[li] = vis.blocked_tiles(self.layers[li].clear, self._thr)
        return self._tile_cache[li]

    def _grid_path(self, L: Layer, isl: int, sa: np.ndarray, snapped: list[np.ndarray],
                   keep: list[int]) -> ShortestPath:
        """Fallback when the visibility graph finds no path between points of one island:
        8-connected grid A* (:mod:`navbench.nav.gridpath`) shortened by line of sight."""
        from navbench.nav.gridpath import grid_astar, string_pull

        def cell(p: np.ndarray) -> tuple[int, int]:
            return int((p[2] - L.z0) // L.cs), int((p[0] - L.x0) // L.cs)

        sr, sc = cell(sa)
        goal_rc = np.array([cell(g) for g in snapped], dtype=np.int64)
        cells, gk = grid_astar(L.labels, isl, sr, sc, goal_rc)
        if gk < 0:
            return ShortestPath(None, math.inf, None)
        mid = [np.array([L.x0 + (c + 0.5) * L.cs, float(L.height[r, c]), L.z0 + (r + 0.5) * L.cs])
               for r, c in cells[1:-1]]
        pts = [sa, *mid, snapped[int(gk)]]
        xz = np.array([[p[0], p[2]] for p in pts])
        pts = [pts[i] for i in string_pull(xz, L.clear, L.x0, L.z0, L.cs, self._thr)]
        d = float(sum(np.linalg.norm(pts[i + 1] - pts[i]) for i in range(len(pts) - 1)))
        return ShortestPath(pts, d, keep[int(gk)])

    def geodesic_distance(self, a: Sequence[float] | np.ndarray, b_or_many: Any) -> float:
        """Geodesic distance (m) from ``a`` to ``b`` or to the nearest of many goals; inf if unreachable."""
        return self.find_path(a, b_or_many).geodesic_distance

    def distance_field(self, goal_or_goals: Any) -> DistanceField:
        """Per-goal geodesic distance field (scikit-fmm) over the goals' island; see ``fields``."""
        from navbench.nav.fields import distance_field

        return distance_field(self, goal_or_goals)
