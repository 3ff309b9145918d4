"""Navigation core: walkable grid, islands, boundary polygons and exact shortest paths.

``NavMesh.build(scene, NavSettings.preset("indoor"))`` rasterises the scene's static geometry
into a 2.5D grid per floor layer, erodes it by the agent radius, splits it into islands and
polygonises it; geodesic queries run A* over an exact reduced visibility graph (numba);
``NavMesh.geodesic_distances`` answers many starts to one goal set from the goals' cached
exact distance table (:mod:`navbench.nav.search`).
"""

from navbench.nav.navmesh import NavMesh
from navbench.nav.protocols import NavMeshLike
from navbench.nav.query import ShortestPath
from navbench.nav.settings import PRESETS, NavSettings

__all__ = ["PRESETS", "NavMesh", "NavMeshLike", "NavSettings", "ShortestPath"]
