"""Indoor-to-outdoor scenes on a real map (NavVerse App. 7.6): a house embedded behind a
road-facing OSM building, its exit onto the sidewalk.

Sites: every straight facade edge (≥ the exit's width + 2 m) of a mapped building whose outward
normal reaches the street within :data:`EXIT_REACH` m (a sidewalk, crosswalk or road; what
:mod:`~navbench.scene.sources.osm_places` calls road-facing). The house is turned so that its
exit portal faces out of that facade and moved so the portal sits on the facade line (two wall
thicknesses inside it, as in :mod:`navbench.scene.procgen.hybrid`), slid along the edge until
its footprint (plus the shell) stays on raised ground inside the map — never on a road,
parking lot or water. Of the sites that fit, the one with the most shop categories (up to
:data:`~navbench.scene.procgen.hybrid.SHOP_CATEGORIES`) 5-40 m from the exit wins, then the
shortest way out to the street, then the seed's order. The buildings the house overlaps (plus
1.5 m) and their storefronts are removed; the facade shell, the opening and the upper storeys
are the procedural hybrid's (:func:`~navbench.scene.procgen.hybrid.house_shell`). Furniture and
cars keep clear of the house and of the way from its exit to the street.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from navbench.errors import ConfigError
from navbench.geometry import heading_vector, yaw_of_direction
from navbench.rng import child_seed, derive
from navbench.scene.model import Scene, Surface
from navbench.scene.procgen.hybrid import (
    PREFIX,
    SHOP_CATEGORIES,
    SHOP_REACH,
    HouseTransform,
    house_shell,
    load_house,
    transform_house,
)
from navbench.scene.procgen.urban import FRICTION, PREFERRED, SIDEWALK_Y
from navbench.scene.sources._common import validated
from navbench.scene.sources.osm import OsmPlan, OsmSettings, assemble_osm, plan_osm, populate_osm
from navbench.scene.sources.osm_geometry import polygons_of, ring_xz
from navbench.scene.sources.osm_index import GroundIndex
from navbench.scene.sources.osm_places import _edges, _facing

if TYPE_CHECKING:
    from shapely.geometry import Polygon

#: A facade whose street lies farther than this (m) straight out is not a site.
EXIT_REACH = 12.0
GENERATOR_VERSION = "osm-hybrid/1"


@dataclass(frozen=True)
class OsmHybridSettings:
    """Options of :func:`load_osm_hybrid` (metres): the map's :class:`OsmSettings`, the house's
    room count, the neighbourhood radius of the goals, wall thickness and upper storeys."""

    osm: OsmSettings = dataclasses.field(default_factory=OsmSettings)
    n_rooms: int = 5
    radius: float = 50.0
    wall_thickness: float = 0.2
    storeys: int = 3


#: A facade site: (building index, edge start, unit along, outward normal, length, distance out to the street).
_Site = tuple[int, np.ndarray, np.ndarray, np.ndarray, float, float]


def _sites(plan: OsmPlan, ex_width: float) -> list[_Site]:
    """Road-facing facade edges of the mapped buildings."""
    out: list[_Site] = []
    edges = [(bi, *_edges(b.poly)) for bi, b in enumerate(plan.buildings)]
    if not edges:
        return out
    P = np.concatenate([e[1] for e in edges])
    U = np.concatenate([e[2] for e in edges])
    L = np.concatenate([e[3] for e in edges])
    N = np.concatenate([e[4] for e in edges])
    owner = np.concatenate([np.full(len(e[1]), e[0]) for e in edges])
    face = _facing(P, U, L, N, plan.terrain.index)
    for i in np.flatnonzero((ex_width + 2.0 <= L) & (face <= EXIT_REACH)):
        out.append((int(owner[i]), P[i], U[i], N[i], float(L[i]), float(face[i])))
    return out


def _fit(site: _Site, ex_xz: np.ndarray, ex_yaw: float, foot: Polygon, idx: GroundIndex, t: float,
         dy: float) -> tuple[HouseTransform, Polygon] | None:
    """The transform putting the exit on the facade (slid along it) with the moved footprint
    (and its shell) on raised ground inside the map, or None."""
    import shapely

    _bi, p, u, n, ln, _face = site
    dyaw = yaw_of_direction(float(n[0]), float(n[1])) - ex_yaw
    ring = np.asarray(foot.exterior.coords)
    for s in sorted(np.linspace(1.0, ln - 1.0, 9), key=lambda s: abs(s - ln / 2)):
        to = p + u * s - n * 2 * t
        tf = HouseTransform(dyaw, (float(ex_xz[0]), float(ex_xz[1])), (float(to[0]), float(to[1])), dy)
        moved = shapely.Polygon(tf.xz(ring))
        if idx.shapes_free(np.array([moved.buffer(t)]), buildings=False)[0]:
            return tf, moved
    return None


def load_osm_hybrid(path: str | Path, bbox: tuple[float, float, float, float] | None = None, seed: int = 0,
                    settings: OsmHybridSettings | None = None, house: Scene | None = None,
                    scene_id: str | None = None) -> Scene:
    """An indoor-to-outdoor scene (kind ``"hybrid"``, source ``"osm"``) on the map ``path``.

    ``house`` defaults to a generated house of ``n_rooms`` rooms (seeded by ``seed``); any
    indoor scene with an ``exit`` portal and flat floors works.
    """
    import shapely

    cfg = settings or OsmHybridSettings()
    if cfg.radius <= 0:
        raise ConfigError(f"OsmHybridSettings.radius: expected > 0 m, got {cfg.radius}")
    path = Path(path)
    house, ex, foot, floor_y = load_house(child_seed(seed, "osm-hybrid"), cfg.n_rooms, house)
    plan = plan_osm(path, bbox, dataclasses.replace(cfg.osm, seed=seed))
    sites = _sites(plan, ex.width)
    order = derive(seed, "osm-hybrid", "site").permutation(len(sites))
    ex_xz = np.array([ex.center[0], ex.center[2]])
    fits: list[tuple[_Site, HouseTransform, Polygon]] = []
    for k in order:
        site = sites[int(k)]
        got = _fit(site, ex_xz, ex.yaw, foot, plan.terrain.index, cfg.wall_thickness, SIDEWALK_Y - floor_y)
        if got is not None:
            fits.append((site, *got))
    if not fits:
        raise ConfigError(f"{path.name}: no road-facing building can hold the house (its footprint must stay "
                          "on raised ground, off roads and water); pass a larger --bbox or a smaller house")

    def shops(f: tuple[_Site, HouseTransform, Polygon]) -> int:
        tf, moved = f[1], f[2]
        e = tf.p3(ex.center)
        gone = _removed(plan, moved)
        cats = {p.category for p in plan.places.places if p.building_id not in gone
                and 5.0 <= math.hypot(p.entrance[0] - e[0], p.entrance[2] - e[2]) <= SHOP_REACH}
        return min(len(cats), SHOP_CATEGORIES)

    best = max(fits, key=lambda f: (shops(f), -f[0][5]))
    _site, tf, moved = best
    inner = transform_house(house, tf)
    exit_p = next(p for p in inner.portals if p.id == PREFIX + ex.id)
    gone = _removed(plan, moved)
    plan.extra_boxes += house_shell(inner, moved, exit_p, cfg.wall_thickness, cfg.storeys)
    plan.extra_surfaces += list(inner.surfaces)
    left = shapely.union_all([b.poly for b in plan.all_buildings if b.id in gone]).difference(moved)
    for k, g in enumerate(polygons_of(left)):  # the removed buildings' plots become yards
        if g.area >= 0.5:
            plan.extra_surfaces.append(Surface(f"yard_{k}", "green", ring_xz(g.exterior.coords), SIDEWALK_Y,
                                               FRICTION["green"], PREFERRED["green"],
                                               tuple(ring_xz(h.coords, hole=True) for h in g.interiors)))
    a = np.array([exit_p.center[0], exit_p.center[2]])
    f = heading_vector(exit_p.yaw)
    w = exit_p.width / 2 + 1.0
    side = np.array([-f[1], f[0]])
    far = a + f * (best[0][5] + 2.0)
    approach = shapely.Polygon([a - side * w, a + side * w, far + side * w, far - side * w])
    populate_osm(plan, exclude=[moved.buffer(1.0), approach])
    meta = {
        "generator": "navbench.scene.sources.osm_hybrid", "hybrid_version": GENERATOR_VERSION,
        "house_id": house.id,
        "house_version": house.meta.get("version") or house.meta.get("converter_version"),
        "exit_portal": exit_p.id, "indoor_anchor": [float(v) for v in exit_p.center],
        "neighbourhood_radius": cfg.radius, "start_region": "indoor", "removed_buildings": sorted(gone),
    }
    scene = assemble_osm(plan, scene_id or f"{path.name.split('.')[0]}_hybrid", "hybrid", rooms=inner.rooms,
                         portals=inner.portals, indoor_objects=inner.objects, meta=meta,
                         extra_places=inner.places, removed=frozenset(gone))
    return validated(scene, path)


def _removed(plan: OsmPlan, moved: Polygon) -> set[str]:
    """Ids of the buildings (and kiosks) the moved house and its shell (1.5 m) overlap."""
    keep_out = moved.buffer(1.5)
    return {b.id for b in plan.all_buildings if keep_out.intersects(b.poly)}


__all__ = ["EXIT_REACH", "OsmHybridSettings", "load_osm_hybrid"]
