"""The navmesh seam: what episode generation, agents and scoring ask of a navmesh.

:class:`~navbench.nav.NavMesh` fits :class:`NavMeshLike`; so does any object with the same
five queries (a stub in tests, a wrapper that caches distances). Points are ``(x, y, z)`` in
the Habitat frame (m).
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from navbench.nav.query import Goals, Point, Points, ShortestPath


class NavMeshLike(Protocol):
    """Geodesic queries on a walkable surface (:class:`~navbench.nav.NavMesh` fits)."""

    def is_navigable(self, p: Point) -> bool:
        """Whether ``p`` lies on the walkable area."""
        ...

    def snap_point(self, p: Point, island: int | None = None) -> np.ndarray | None:
        """The nearest walkable point to ``p`` (optionally on ``island``), or ``None``."""
        ...

    def find_path(self, a: Point, b_or_many: Goals) -> ShortestPath:
        """Shortest path from ``a`` to ``b`` (or the nearest of many goals)."""
        ...

    def geodesic_distance(self, a: Point, b_or_many: Goals) -> float:
        """Length of :meth:`find_path` (m); ``math.inf`` when unreachable."""
        ...

    def geodesic_distances(self, points: Points, b_or_many: Goals) -> np.ndarray:
        """``(N,)`` :meth:`geodesic_distance` from each of ``points`` ``(N, 3)`` to the goals."""
        ...


__all__ = ["Goals", "NavMeshLike", "Point", "Points"]
