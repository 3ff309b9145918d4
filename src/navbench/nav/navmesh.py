"""The :class:`NavMesh`: navigable-area queries and exact geodesic shortest paths.

Query names follow habitat-sim's ``PathFinder``. Points are ``(x, y, z)`` in the Habitat
world frame (metres, +Y up); ``y`` selects the floor layer. Unreachable goals give
``math.inf`` and a path of ``None``; nothing raises deep inside a query.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from navbench.nav import prep, query
from navbench.nav import visibility as vis
from navbench.nav.grid import Layer, build_layers
from navbench.nav.oneoff import Scratch
from navbench.nav.polygons import Nodes, boundary_rings, reflex_nodes
from navbench.nav.prep import Prep
from navbench.nav.query import MAX_Y_DELTA, Goals, Point, Points, ShortestPath
from navbench.nav.settings import NavSettings
from navbench.scene.model import Scene

if TYPE_CHECKING:
    from navbench.nav.fields import DistanceField


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


_PREP_LOCK = threading.Lock()  # guards the parallel build of nav.prep tables

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
        self._prep_cache: dict[int, Prep] = {}
        self._scratch: dict[int, Scratch] = {}  # query.find_path's per-layer scratch
        self._goal_trees: OrderedDict[bytes, tuple[np.ndarray, np.ndarray]] = OrderedDict()
        self._same_grid = all((L.x0, L.z0, L.cs, L.height.shape) == (layers[0].x0, layers[0].z0,
                              layers[0].cs, layers[0].height.shape) for L in layers)
        self._grid: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None

    def __getstate__(self) -> dict[str, object]:
        """Pickle without the query caches (stacked views, goal tables, scratch): rebuilt on
        demand."""
        state = dict(self.__dict__)
        state["_grid"] = None
        state["_goal_trees"] = OrderedDict()
        state["_scratch"] = {}
        return state

    def __setstate__(self, state: dict[str, object]) -> None:
        """Unpickle (also navmeshes pickled before the one-off scratch existed)."""
        self.__dict__.update(state)
        self.__dict__.setdefault("_scratch", {})

    # ------------------------------------------------------------------ construction
    @classmethod
    def build(cls, scene: Scene, settings: NavSettings | None = None) -> NavMesh:
        """Build the navmesh of ``scene`` (boxes, surfaces, meshes).

        Parameters
        ----------
        scene : Scene
            Walkable surfaces, obstacle boxes and meshes (Habitat frame, metres).
        settings : NavSettings, optional
            Agent radius and height, step, slope, cell size, snap radius; default
            ``NavSettings.preset("indoor")`` (radius 0.1 m, cells 0.05 m).

        Returns
        -------
        NavMesh
            One walkable grid per floor level, eroded by the agent radius, split into islands
            (connected components, largest first) with their visibility graphs.

        Examples
        --------
        A 6 m × 4 m floor with a 3 m wall from the north edge, leaving a 1 m gap in the south:

        >>> from navbench.nav import NavMesh
        >>> from navbench.scene import Box, Scene, Surface
        >>> floor = Surface("f", "floor", ((0, 0), (6, 0), (6, -4), (0, -4)))
        >>> wall = Box("w", "wall", (3.0, 1.0, -1.5), (0.2, 2.0, 3.0), label="wall")
        >>> nm = NavMesh.build(Scene("demo", "indoor", "handmade", surfaces=(floor,), boxes=(wall,)))
        >>> nm.islands, nm.settings.agent_radius
        ([0], 0.1)
        >>> nm.is_navigable((1.0, 0.0, -1.0)), nm.is_navigable((3.0, 0.0, -1.0))  # on the wall: no
        (True, False)
        """
        s = settings if settings is not None else NavSettings.preset("indoor")
        layers, areas = build_layers(scene, s)
        graphs = [build_graph(layer, s) for layer in layers]
        return cls(s, scene.id, layers, areas, graphs)

    def save(self, path: str | Path, queries: bool = False) -> Path:
        """Write a reproducible ``.npz`` (atomic); ``queries``: with the one-off query
        precomputation (:meth:`prepare_queries`, built if needed), so that the loaded navmesh
        answers :meth:`find_path` fast at once; see :func:`navbench.nav.store.save`."""
        from navbench.nav.store import save

        return save(self, path, queries)

    @classmethod
    def load(cls, path: str | Path) -> NavMesh:
        """Read a file written by :meth:`save` (with its precomputation, if saved); raises
        ``FormatError`` on a bad file."""
        from navbench.nav.store import load_parts

        settings, scene_id, layers, areas, parts, preps = load_parts(path)
        nm = cls(settings, scene_id, layers, areas, [LayerGraph(*p) for p in parts])
        nm._prep_cache.update(preps)
        return nm

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

    def _stacked(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Layers' (height, clear, labels) stacked (views for one layer) and (y_lo, y_hi)."""
        if self._grid is None:
            def stack(name: str) -> np.ndarray:
                arrs = [getattr(L, name) for L in self.layers]
                return arrs[0][None] if len(arrs) == 1 else np.stack(arrs)

            self._grid = (stack("height"), stack("clear"), stack("labels"),
                          np.array([L.y_lo for L in self.layers], np.float64),
                          np.array([L.y_hi for L in self.layers], np.float64))
        return self._grid

    def _info(self, x: float, y: float, z: float) -> tuple[int, int, int, int]:
        """(layer, row, col, island) of (x, y, z): layer ``-1`` where :meth:`_locate` finds
        nothing, island ``-1`` where :meth:`island_of` is None (one numba call)."""
        if not self.layers or not self._same_grid:
            loc = self._locate(x, y, z)
            isl = self._island_of_slow(x, y, z)
            return (*(loc if loc is not None else (-1, 0, 0)), -1 if isl is None else isl)
        H, C, lab, ylo, yhi = self._stacked()
        L = self.layers[0]
        out = vis.point_info(H, C, lab, ylo, yhi, L.x0, L.z0, L.cs, self.settings.agent_radius,
                             MAX_Y_DELTA, x, y, z)
        return int(out[0]), int(out[1]), int(out[2]), int(out[3])

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
        isl = self._info(float(p[0]), float(p[1]), float(p[2]))[3]
        return None if isl < 0 else isl

    def _island_of_slow(self, x: float, y: float, z: float) -> int | None:
        """:meth:`island_of` in Python (layers on different grids)."""
        if not self.is_navigable((x, y, z)):
            return None
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
            li, r, c, own = self._info(x, y, z)
            if own >= 0 and (island is None or own == island):
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
    def find_path(self, a: Point, b_or_many: Goals) -> ShortestPath:
        """Shortest path from ``a`` to ``b`` (a point) or to the nearest of many goal points.

        Parameters
        ----------
        a : array_like
            Start ``(x, y, z)`` (m, Habitat frame).
        b_or_many : array_like
            One goal ``(x, y, z)`` or ``(G, 3)`` goals; the path ends at the nearest one.

        Returns
        -------
        ShortestPath
            ``points`` (the polyline from the snapped start to the snapped goal), its 3D length
            ``geodesic_distance`` (m) and ``goal_index`` (index into ``b_or_many``). When no
            goal can be reached: ``ShortestPath(None, inf, None)`` — no exception.

        Notes
        -----
        The branches, in order:

        1. *Snapping.* The start is snapped with :meth:`snap_point` (nearest navigable point
           within ``settings.snap_radius`` in XZ, height within ``agent_height``): on its own
           island if it is navigable, else on the island of the first navigable goal, else on
           any island. Goals are snapped onto the start's island only; goals that do not snap
           there are dropped (they are on another island or off the mesh). The returned polyline
           starts and ends at the *snapped* points, not at ``a`` and ``b``.
        2. *Unreachable.* No snapped start, a malformed goal array, or no goal on the start's
           island: ``points is None`` and ``geodesic_distance == inf``.
        3. *Visibility graph.* A* over the exact reduced visibility graph (bitangent edges
           between reflex corners, kept ``agent_radius`` away from obstacles) with lazy start
           and goal edges. On a layer prepared by :meth:`prepare_queries` (or loaded from a
           file saved with ``queries=True``) it is guided by landmark bounds and takes the
           start and goal edges from per-bucket candidate lists (:mod:`navbench.nav.prep`,
           :mod:`navbench.nav.oneoff`); the lengths are the same either way.
        4. *Grid fallback.* In passages a cell or two wide, contour simplification can hide
           every corner a point could see, so the graph misses a connection the grid has:
           then 8-connected grid A* over the island's cells, shortened by line of sight,
           answers (:mod:`navbench.nav.gridpath`; finite, slightly longer than the true
           shortest path); if it fails too, branch 2 applies.

        Examples
        --------
        Around the end of a wall (as in :meth:`build`): two tangents of length
        √(2.7586² − 0.1²) to the 0.1 m clearance circles at the wall's corners, 0.2 m along its
        end, two 0.081 m arcs: 5.876 m.

        >>> from navbench.nav import NavMesh
        >>> from navbench.scene import Box, Scene, Surface
        >>> floor = Surface("f", "floor", ((0, 0), (6, 0), (6, -4), (0, -4)))
        >>> wall = Box("w", "wall", (3.0, 1.0, -1.5), (0.2, 2.0, 3.0), label="wall")
        >>> nm = NavMesh.build(Scene("demo", "indoor", "handmade", surfaces=(floor,), boxes=(wall,)))
        >>> p = nm.find_path((1.0, 0.0, -1.0), (5.0, 0.0, -1.0))
        >>> round(p.geodesic_distance, 2), p.goal_index, len(p.points) > 2
        (5.88, 0, True)

        Several goals: the nearest one wins (2.5 m straight south, not 5.88 m round the wall).

        >>> p = nm.find_path((1.0, 0.0, -1.0), [(5.0, 0.0, -1.0), (1.0, 0.0, -3.5)])
        >>> p.goal_index, p.geodesic_distance
        (1, 2.5)

        A start 0.1 m off the floor's west edge is snapped onto the mesh (cell centres 0.05 m
        apart, kept 0.1 m from the edge); a goal far off the mesh is unreachable:

        >>> [float(v) for v in nm.find_path((-0.1, 0.0, -1.0), (5.0, 0.0, -1.0)).points[0]]
        [0.125, 0.0, -1.025]
        >>> nm.find_path((1.0, 0.0, -1.0), (20.0, 0.0, -1.0))
        ShortestPath(points=None, geodesic_distance=inf, goal_index=None)
        """
        return query.find_path(self, a, b_or_many)

    def _tiles(self, li: int) -> np.ndarray:
        """Blocked-tile mask of layer ``li`` (:func:`visibility.blocked_tiles`), cached."""
        if li not in self._tile_cache:
            self._tile_cache[li] = vis.blocked_tiles(self.layers[li].clear, self._thr)
        return self._tile_cache[li]

    def prepare_queries(self) -> None:
        """Precompute, for every layer with at least ``query.PREP_MIN_CORNERS`` corners, the
        static tables that make later :meth:`find_path` calls faster with the same lengths
        (:mod:`navbench.nav.prep`: per-4 m-bucket candidate corners for start and goal edges, 64
        landmark distance rows for an A* heuristic). Worth it for many one-off queries on a
        large scene: on a generated 500 m city it takes 4–9 s and 11 MB and brings
        ``find_path`` from 1.1–1.3 to 0.37–0.43 ms median (2.9–3.3 → 1.0–1.2 ms p95); a dataset build's ~200
        queries per scene do not repay it, unless the tables are saved once with the navmesh
        (``save(path, queries=True)``, restored by :meth:`load`). Pickled with the navmesh."""
        for li, G in enumerate(self.graphs):
            if len(G.nodes.pos) >= query.PREP_MIN_CORNERS:
                self._prep(li)

    def _prep(self, li: int) -> Prep:
        """Layer ``li``'s precomputation for one-off queries (:mod:`navbench.nav.prep`:
        candidate lists and landmarks), built on the first call and kept."""
        with _PREP_LOCK:  # numba's default threading layer runs one parallel kernel at a time
            return self._prep_locked(li)

    def _prep_locked(self, li: int) -> Prep:
        if li not in self._prep_cache:
            G, L = self.graphs[li], self.layers[li]
            n = G.nodes
            self._prep_cache[li] = prep.build(n.pos, n.prv, n.nxt, n.island, G.indptr, G.indices,
                                              G.weights, self._tiles(li), L.x0, L.z0, vis.TILE * L.cs)
        return self._prep_cache[li]

    def geodesic_distance(self, a: Point, b_or_many: Goals) -> float:
        """Geodesic distance (m) from ``a`` to ``b`` or to the nearest of many goals.

        ``find_path(a, b_or_many).geodesic_distance``: the same snapping and fallback (see
        :meth:`find_path`), ``math.inf`` when no goal is reachable from ``a``.

        Parameters
        ----------
        a : array_like
            Start ``(x, y, z)`` (m).
        b_or_many : array_like
            One goal ``(x, y, z)`` or ``(G, 3)`` goals.

        Returns
        -------
        float
            Length of the shortest path (m), or ``inf``.

        Examples
        --------
        >>> from navbench.nav import NavMesh
        >>> from navbench.scene import Scene, Surface
        >>> left = Surface("l", "floor", ((0, 0), (2, 0), (2, -2), (0, -2)))
        >>> right = Surface("r", "floor", ((3, 0), (5, 0), (5, -2), (3, -2)))  # 1 m gap
        >>> nm = NavMesh.build(Scene("two", "indoor", "handmade", surfaces=(left, right)))
        >>> nm.geodesic_distance((0.5, 0.0, -1.0), (1.5, 0.0, -1.0))
        1.0
        >>> nm.geodesic_distance((0.5, 0.0, -1.0), (4.0, 0.0, -1.0))  # another island
        inf
        """
        return self.find_path(a, b_or_many).geodesic_distance

    def geodesic_distances(self, points: Points, b_or_many: Goals) -> np.ndarray:
        """(N,) geodesic distances (m) from each of ``points`` (N, 3) to ``b`` or the nearest of
        many goals; exact like :meth:`geodesic_distance`, built for many starts to the same
        goals (the goal set's distance table is cached: :mod:`navbench.nav.query`)."""
        return query.geodesic_distances(self, points, b_or_many)

    def distance_field(self, goal_or_goals: Goals) -> DistanceField:
        """Per-goal geodesic distance field (scikit-fmm) over the goals' island; see ``fields``."""
        from navbench.nav.fields import distance_field

        return distance_field(self, goal_or_goals)
