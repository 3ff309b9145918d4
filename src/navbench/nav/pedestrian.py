"""Pedestrian routes: what a person would walk (sidewalks and crosswalks, never the roadway).

Two navmeshes of one scene (Habitat world, metres):

- the *pedestrian* navmesh (:func:`pedestrian_navmesh`): a roadway cost taken to its exact
  limit — road boxes' tops and ``road`` surfaces are not walkable, so the road becomes a hole
  and streets are crossed only on the crosswalks (raised tables at sidewalk height that join
  the sidewalk rings; :mod:`navbench.scene.procgen.streets`);
- the *preferred* navmesh (:func:`preferred_settings`): the pedestrian one without the
  scene's other non-preferred walkable surfaces (``Surface.preferred`` false: lot yards and
  park lawns, class ``green``).

:class:`PedestrianPlanner` makes non-preferred ground costly, not forbidden: a metre on it
costs ``off_cost`` metres (:data:`OFF_PREFERRED_COST`). Candidates: the pedestrian navmesh's
shortest path, and the preferred navmesh's when the start and a goal share one of its islands,
else a path through the best *entry point* of the preferred area (a pedestrian leg to a point
of the preferred navmesh's boundary, then a preferred leg; the reverse for goals off it): a
hybrid house's exit onto its lawn, an object on a yard. The cheapest by ``length +
(off_cost − 1) × length on non-preferred surfaces`` wins. Each leg is an exact shortest path of
its navmesh (visibility graph) and keeps the agent radius from obstacles; entry points are the
preferred navmesh's boundary cells, one per ``entry_spacing`` bin within ``entry_radius`` of
the start (goal side: of the goals), chosen by the legs' exact lengths (the leg off the
preferred area weighted ``off_cost`` whole). Scenes without roads give the same navmesh as
:meth:`NavMesh.build`.
"""

from __future__ import annotations

import math

import numpy as np
import shapely
from scipy import ndimage

from navbench.geometry import path_length
from navbench.nav.navmesh import NavMesh
from navbench.nav.query import Goals, Point, ShortestPath
from navbench.nav.settings import NavSettings
from navbench.scene.model import Scene

#: Ground classes / box kinds a pedestrian route never uses.
ROADWAY: tuple[str, ...] = ("road",)
#: Cost of a metre on a non-preferred surface (yard, lawn), in metres of preferred ground.
OFF_PREFERRED_COST = 10.0
#: Spacing (m) of the entry points kept on the preferred navmesh's boundary.
ENTRY_SPACING = 1.0
#: Entry points farther than this (m, XZ) from the start (or the goals) are not tried.
ENTRY_RADIUS = 60.0


def pedestrian_settings(settings: NavSettings) -> NavSettings:
    """``settings`` with the roadway removed from the walkable box kinds and surface classes."""
    return settings.replace(
        walkable_box_kinds=tuple(k for k in settings.walkable_box_kinds if k not in ROADWAY),
        walkable_surface_classes=tuple(c for c in settings.walkable_surface_classes if c not in ROADWAY),
    )


def non_preferred_classes(scene: Scene) -> tuple[str, ...]:
    """Surface classes of ``scene`` flagged ``preferred: false`` (sorted)."""
    return tuple(sorted({s.cls for s in scene.surfaces if not s.preferred}))


def preferred_settings(scene: Scene, settings: NavSettings) -> NavSettings:
    """:func:`pedestrian_settings` without the scene's non-preferred surface classes (as
    surfaces and as box kinds: a park's ``green`` slabs)."""
    off = set(non_preferred_classes(scene)) | set(ROADWAY)
    return settings.replace(
        walkable_box_kinds=tuple(k for k in settings.walkable_box_kinds if k not in off),
        walkable_surface_classes=tuple(c for c in settings.walkable_surface_classes
                                       if c not in off),
    )


def has_roadway(scene: Scene) -> bool:
    """True if the scene has a road surface or road box."""
    return any(s.cls in ROADWAY for s in scene.surfaces) or any(b.kind in ROADWAY for b in scene.boxes)


def pedestrian_navmesh(scene: Scene, settings: NavSettings) -> NavMesh:
    """Navmesh of ``scene`` without the roadway (see the module docstring)."""
    return NavMesh.build(scene, pedestrian_settings(settings))


class PedestrianPlanner:
    """Route planner with roads removed and non-preferred ground costly (module docstring).

    Attributes:
        full: the pedestrian navmesh (roads removed); ``preferred``: also without the
            non-preferred surfaces; ``off_cost``: cost factor of non-preferred ground.
    """

    def __init__(self, scene: Scene, settings: NavSettings, off_cost: float = OFF_PREFERRED_COST,
                 entry_spacing: float = ENTRY_SPACING, entry_radius: float = ENTRY_RADIUS) -> None:
        self.full = pedestrian_navmesh(scene, settings)
        self.off_cost = float(off_cost)
        self.entry_radius = float(entry_radius)
        polys = [shapely.Polygon(s.polygon, s.holes or None) for s in scene.surfaces
                 if not s.preferred and s.cls not in ROADWAY
                 and s.cls in settings.walkable_surface_classes]
        self._off = shapely.union_all(polys) if polys else None
        if self._off is None:
            self.preferred = self.full
            self._entries = np.zeros((0, 3))
            return
        self.preferred = NavMesh.build(scene, preferred_settings(scene, settings))
        self._entries = self._entry_points(entry_spacing)

    def _entry_points(self, spacing: float) -> np.ndarray:
        """Navigable cells of the preferred navmesh with a non-navigable 8-neighbour, one per
        ``spacing`` × ``spacing`` bin (the lowest cell index), (N, 3)."""
        out = []
        for L in self.preferred.layers:
            nav = L.labels >= 0
            edge = nav & ~ndimage.binary_erosion(nav, np.ones((3, 3), bool), border_value=0)
            rr, cc = np.nonzero(edge)
            if not len(rr):
                continue
            x, z = L.x0 + (cc + 0.5) * L.cs, L.z0 + (rr + 0.5) * L.cs
            bins = np.column_stack([np.floor(x / spacing), np.floor(z / spacing)])
            _, first = np.unique(bins, axis=0, return_index=True)
            first = np.sort(first)
            out.append(np.column_stack([x[first], L.height[rr[first], cc[first]], z[first]]))
        return np.concatenate(out).astype(np.float64) if out else np.zeros((0, 3))

    def off_length(self, points: np.ndarray) -> float:
        """XZ length (m) of a polyline (N, 3) on non-preferred surfaces."""
        p = np.asarray(points, float)
        if self._off is None or len(p) < 2:
            return 0.0
        return float(shapely.LineString(p[:, [0, 2]]).intersection(self._off).length)

    def cost(self, points: np.ndarray) -> float:
        """``length + (off_cost − 1) × off_length`` of a polyline (N, 3), m."""
        p = np.asarray(points, float)
        return path_length(p) + (self.off_cost - 1.0) * self.off_length(p)

    def find_path(self, a: Point, b_or_many: Goals, max_length: float = math.inf) -> ShortestPath:
        """Cheapest route from ``a`` to the nearest-by-cost of ``b_or_many`` (module docstring);
        ``geodesic_distance`` is its 3D length (m), ``goal_index`` the goal reached. No route
        is shorter than the pedestrian navmesh's shortest path, which is returned as it is when
        it is longer than ``max_length`` (m) (a caller's length limit: no other search)."""
        goals = np.asarray(b_or_many, float).reshape(-1, 3)
        start = np.asarray(a, float)
        found = [self.full.find_path(start, goals)]
        if self.preferred is not self.full and found[0].geodesic_distance <= max_length:
            direct = (self.preferred.find_path(start, goals)
                      if self.preferred.island_of(start) is not None else None)
            found.append(direct if direct is not None and direct.points is not None
                         else self._via(start, goals, self.cost(np.asarray(found[0].points))))
        best: ShortestPath | None = None
        best_cost = math.inf
        for sp in found:
            if sp.points is None:
                continue
            c = self.cost(np.asarray(sp.points, float))
            if c < best_cost - 1e-9:
                best, best_cost = sp, c
        return best if best is not None else found[0]

    def _via(self, start: np.ndarray, goals: np.ndarray, bound: float) -> ShortestPath:
        """Pedestrian leg to an entry point, then a preferred leg to the goals — or, when the
        goals are off the preferred area, a preferred leg to an entry point, then a pedestrian
        leg; the entry point minimising the weighted sum of the two legs' exact lengths. Entry
        points whose weighted straight-line distances exceed ``bound`` (the cost to beat) are
        not searched."""
        P, F = self.preferred, self.full
        goals_on = [k for k, g in enumerate(goals) if P.island_of(g) is not None]
        start_on = P.island_of(start) is not None
        if goals_on:  # start off the goals' preferred island: off-leg first
            first, second, w1, w2, tgt = F, P, self.off_cost, 1.0, goals[goals_on]
            near = start
        elif start_on:  # goals off the preferred area: off-leg last
            first, second, w1, w2, tgt = P, F, 1.0, self.off_cost, goals
            near = goals.mean(axis=0)
        else:
            return ShortestPath(None, math.inf, None)
        E = self._entries
        E = E[np.hypot(E[:, 0] - near[0], E[:, 2] - near[2]) <= self.entry_radius]
        lb1 = np.hypot(E[:, 0] - start[0], E[:, 2] - start[2])
        lb2 = np.hypot(E[:, None, 0] - tgt[None, :, 0], E[:, None, 2] - tgt[None, :, 2]).min(axis=1)
        E = E[w1 * lb1 + w2 * lb2 <= bound]
        if not len(E):
            return ShortestPath(None, math.inf, None)
        d1 = first.geodesic_distances(E, start)
        d2 = second.geodesic_distances(E, tgt)
        total = w1 * d1 + w2 * d2
        if not np.isfinite(total).any():
            return ShortestPath(None, math.inf, None)
        e = E[int(np.argmin(total))]
        leg1, leg2 = first.find_path(start, e), second.find_path(e, tgt)
        if leg1.points is None or leg2.points is None or leg2.goal_index is None:
            return ShortestPath(None, math.inf, None)
        pts = [np.asarray(p, float) for p in leg1.points]
        for p in leg2.points:
            if np.linalg.norm(np.asarray(p, float) - pts[-1]) > 1e-9:
                pts.append(np.asarray(p, float))
        k = leg2.goal_index
        gi = goals_on[k] if goals_on else k
        return ShortestPath(pts, path_length(np.asarray(pts)), int(gi))
