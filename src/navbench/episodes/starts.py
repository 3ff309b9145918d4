"""Where episodes start: on the largest navmesh island, and inside the house in
indoor-to-outdoor scenes (NavVerse App. 8.1: hybrid episodes start indoors).

Frame: Habitat world, metres, +Y up.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from navbench.nav import NavMesh
from navbench.scene.model import Scene


def indoor_start(scene: Scene, nm: NavMesh, rng: np.random.Generator, tries: int = 64) -> np.ndarray | None:
    """A navigable point of the largest island inside a room (room drawn by floor area, point
    uniform in its polygon, snapped onto the navmesh); ``None`` after ``tries`` failures."""
    import shapely

    from navbench.scene.stages import indoor_mask

    polys = [shapely.Polygon(r.floor_polygon) for r in scene.rooms]
    areas = np.array([max(p.area, 0.0) for p in polys])
    if not len(polys) or areas.sum() <= 0:
        return None
    for _ in range(tries):
        k = int(rng.choice(len(polys), p=areas / areas.sum()))
        x0, z0, x1, z1 = polys[k].bounds
        x, z = float(rng.uniform(x0, x1)), float(rng.uniform(z0, z1))
        if not polys[k].contains(shapely.Point(x, z)):
            continue
        p = nm.snap_point((x, scene.rooms[k].floor_y, z), island=0)
        if p is not None and nm.is_navigable(p) and bool(indoor_mask(scene, p[None])[0]):
            return p
    return None


#: A scene whose largest island is larger than this many discs of the goal range (π r²,
#: r = the longest reference path) samples starts near a goal (:func:`near_start`): an
#: area-uniform start on a 1 km² city lies within 50 m of a given shop about once in 60 draws
#: (PlaceNav kept 0 of 16 episodes on it).
NEAR_AREA_FACTOR = 4.0


def samples_near_goals(nm: NavMesh, reach: float) -> bool:
    """Whether starts are drawn near goals: the largest island's area exceeds
    :data:`NEAR_AREA_FACTOR` · π · ``reach``² (m²)."""
    return bool(nm.islands) and nm.island_area(0) > NEAR_AREA_FACTOR * math.pi * reach * reach


def near_start(nm: NavMesh, rng: np.random.Generator, centre: tuple[float, float, float],
               reach: float, tries: int = 64) -> np.ndarray | None:
    """A navigable point of the largest island, uniform over its part within ``reach`` m (XZ)
    of ``centre`` (x, y, z; y picks the navmesh layer), at least the navmesh's agent radius
    from obstacles; ``None`` after ``tries`` rejected draws."""
    for _ in range(tries):
        r, a = reach * math.sqrt(float(rng.random())), 2.0 * math.pi * float(rng.random())
        x, z = centre[0] + r * math.cos(a), centre[2] + r * math.sin(a)
        q = nm.snap_point((x, centre[1], z), island=0)
        if q is not None and q[0] == x and q[2] == z and \
                nm.distance_to_obstacle(q) >= nm.settings.agent_radius:
            return q
    return None


def start_sampler(scene: Scene, nm: NavMesh) -> Callable[[np.random.Generator], np.ndarray | None]:
    """Start sampler of a scene: :func:`indoor_start` for hybrid scenes, else area-uniform on
    the largest island."""
    if scene.kind == "hybrid" and scene.rooms:
        return lambda rng: indoor_start(scene, nm, rng)
    return lambda rng: nm.sample_point(rng, island=0)


__all__ = ["NEAR_AREA_FACTOR", "indoor_start", "near_start", "samples_near_goals",
           "start_sampler"]
