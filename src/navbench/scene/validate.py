"""Geometric checks of a loaded scene (SPEC §1), run by :func:`navbench.scene.io.scene_from_dict`.

Field-level checks (types, finite numbers, positive sizes, unique ids) live in the loader; this
module checks what needs the whole record: polygons are simple with a positive area (zero-width
spikes and self-touching vertices are tolerated, crossing edges are not), object
parents form no cycle, and every coordinate lies within :data:`MAX_COORD` metres of the origin.
Errors are :class:`~navbench.errors.SceneFormatError` naming the JSON path of the first problem.
"""

from __future__ import annotations

from collections.abc import Sequence

from navbench.errors import SceneFormatError
from navbench.geometry import Vec2, polygon_area
from navbench.scene.model import Scene

#: Largest |x|, |y|, |z| (m) of any scene coordinate: 100 km, beyond any city-scale scene and far
#: below where float64 metres lose millimetre precision.
MAX_COORD = 1.0e5
#: Smallest floor / surface polygon area (m²) accepted.
MIN_AREA = 1.0e-4


def simple_polygon_problem(poly: Sequence[Vec2]) -> str | None:
    """Why ``poly`` is not a simple polygon with a positive area, or ``None`` if it is."""
    if len(poly) < 3:
        return "at least 3 points"
    area = abs(polygon_area(poly))
    if not area >= MIN_AREA:
        return f"an area of at least {MIN_AREA} m² (got {area:.3g})"
    from shapely.geometry import LinearRing, Polygon

    if LinearRing(poly).is_simple:
        return None
    # Zero-width spikes and points where the outline touches itself leave the enclosed area
    # unchanged and are tolerated; crossing edges (a bow-tie) change it.
    fixed = Polygon(poly).buffer(0).area
    if abs(fixed - area) > 1e-6 * max(1.0, area):
        return (f"a simple polygon (its edges cross: enclosed area {fixed:.6g} m² but signed "
                f"area {area:.6g} m²)")
    return None


def check_scene(scene: Scene, file: str) -> None:
    """Raise :class:`SceneFormatError` for the first geometric problem of ``scene``."""
    for i, r in enumerate(scene.rooms):
        why = simple_polygon_problem(r.floor_polygon)
        if why is not None:
            raise SceneFormatError(file, f"rooms[{i}].floor_polygon", why)
    for i, s in enumerate(scene.surfaces):
        why = simple_polygon_problem(s.polygon)
        if why is not None:
            raise SceneFormatError(file, f"surfaces[{i}].polygon", why)
    parent = {o.id: o.parent_id for o in scene.objects}
    index = {o.id: i for i, o in enumerate(scene.objects)}
    for o in scene.objects:
        seen = {o.id}
        p = o.parent_id
        while p is not None:
            if p in seen:
                raise SceneFormatError(file, f"objects[{index[o.id]}].parent_id",
                                       "a parent chain without cycles (an object cannot be its own "
                                       "ancestor)", o.parent_id)
            seen.add(p)
            p = parent.get(p)
