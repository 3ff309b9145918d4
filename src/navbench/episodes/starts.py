"""Where episodes start: on the largest navmesh island, and inside the house in
indoor-to-outdoor scenes (NavVerse App. 8.1: hybrid episodes start indoors).

Frame: Habitat world, metres, +Y up.
"""

from __future__ import annotations

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


def start_sampler(scene: Scene, nm: NavMesh) -> Callable[[np.random.Generator], np.ndarray | None]:
    """Start sampler of a scene: :func:`indoor_start` for hybrid scenes, else area-uniform on
    the largest island."""
    if scene.kind == "hybrid" and scene.rooms:
        return lambda rng: indoor_start(scene, nm, rng)
    return lambda rng: nm.sample_point(rng, island=0)


__all__ = ["indoor_start", "start_sampler"]
