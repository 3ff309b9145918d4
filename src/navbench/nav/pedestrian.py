"""Pedestrian navmeshes: routes a person would walk (sidewalks and crosswalks, never the roadway).

A roadway cost for route reference paths, taken to its exact limit: the road boxes' tops
and ``road`` surfaces are not walkable, so the road becomes a hole in the walkable grid and
streets are crossed only on the crosswalks (raised tables at sidewalk height that join the
sidewalk rings; :mod:`navbench.scene.procgen.streets`). Paths stay exact shortest paths of the
remaining area (visibility graph), and keep the agent radius from the curb as from any other
obstacle. Scenes without roads give the same navmesh as :meth:`NavMesh.build`.
"""

from __future__ import annotations

from navbench.nav.navmesh import NavMesh
from navbench.nav.settings import NavSettings
from navbench.scene.model import Scene

#: Ground classes / box kinds a pedestrian route never uses.
ROADWAY: tuple[str, ...] = ("road",)


def pedestrian_settings(settings: NavSettings) -> NavSettings:
    """``settings`` with the roadway removed from the walkable box kinds and surface classes."""
    return settings.replace(
        walkable_box_kinds=tuple(k for k in settings.walkable_box_kinds if k not in ROADWAY),
        walkable_surface_classes=tuple(c for c in settings.walkable_surface_classes if c not in ROADWAY),
    )


def has_roadway(scene: Scene) -> bool:
    """True if the scene has a road surface or road box."""
    return any(s.cls in ROADWAY for s in scene.surfaces) or any(b.kind in ROADWAY for b in scene.boxes)


def pedestrian_navmesh(scene: Scene, settings: NavSettings) -> NavMesh:
    """Navmesh of ``scene`` without the roadway (see the module docstring)."""
    return NavMesh.build(scene, pedestrian_settings(settings))
