"""Shared urban vocabulary for outdoor scenes: terrain classes, heights, friction, places.

Used by the procedural city generator and the OSM importer so that both emit the same
surface classes, heights and static slabs (SPEC §1, §7). Frame: Habitat world frame, metres,
+Y up; 2D rectangles are axis-aligned XZ ``(x0, z0, x1, z1)`` with ``x0 < x1``, ``z0 < z1``.
"""

from __future__ import annotations

from navbench.scene.model import Box, Surface, SurfaceClass

#: Top height of sidewalks, crosswalks, lots and parks (m).
SIDEWALK_Y = 0.0
#: Roads are depressed by this much below the sidewalks (NavVerse App. 7.3), metres.
ROAD_DEPTH = 0.2
#: Top height of road surfaces (m).
ROAD_Y = SIDEWALK_Y - ROAD_DEPTH
#: Top height of water (a basin the navigation grid cannot climb out of), metres.
WATER_Y = -0.6
#: Bottom of every ground slab (m): slabs are solid from here to their top.
SLAB_BOTTOM = -0.8
#: Default lane width (m) used to turn lane counts into road widths.
LANE_WIDTH = 3.25

#: Sliding friction per terrain class (dry concrete / asphalt / paint / grass / water).
FRICTION: dict[str, float] = {
    "sidewalk": 1.0,
    "crosswalk": 0.9,
    "road": 0.9,
    "green": 0.6,
    "water": 0.1,
    "building": 1.0,
    "floor": 1.0,
}
#: "Preferred for this embodiment" flag per class (navigable-surface metric, SPEC §5):
#: robots should stay on sidewalks and crosswalks; roads and grass are allowed but not preferred.
PREFERRED: dict[str, bool] = {
    "sidewalk": True,
    "crosswalk": True,
    "road": False,
    "green": False,
    "water": False,
    "building": False,
    "floor": True,
}

#: The 17 storefront categories (NavVerse PlaceNav), lower-case.
PLACE_CATEGORIES: tuple[str, ...] = (
    "restaurant", "cafe", "bank", "convenience store", "pharmacy", "bakery", "bookstore",
    "clothing store", "supermarket", "bar", "hotel", "post office", "hair salon", "gym",
    "fast food", "ice cream shop", "florist",
)

Rect = tuple[float, float, float, float]


def rect_polygon(r: Rect) -> tuple[tuple[float, float], ...]:
    """XZ polygon of a rectangle, counter-clockwise seen from above (+Y)."""
    x0, z0, x1, z1 = r
    # CCW seen from above with north = -Z: (x0, z1) -> (x1, z1) -> (x1, z0) -> (x0, z0).
    return ((x0, z1), (x1, z1), (x1, z0), (x0, z0))


def rect_surface(sid: str, cls: SurfaceClass, r: Rect, y: float, holes: tuple[Rect, ...] = ()) -> Surface:
    """A rectangular :class:`Surface` of ``cls`` with the class friction / preferred flag."""
    return Surface(
        sid, cls, rect_polygon(r), y=y, friction=FRICTION[cls], preferred=PREFERRED[cls],
        holes=tuple(rect_polygon(h) for h in holes),
    )


def slab(bid: str, kind: str, r: Rect, top: float, ref: str | None, bottom: float = SLAB_BOTTOM) -> Box:
    """A solid axis-aligned ground slab over rectangle ``r`` from ``bottom`` up to ``top`` (m)."""
    x0, z0, x1, z1 = r
    return Box(
        bid, kind, ((x0 + x1) / 2, (top + bottom) / 2, (z0 + z1) / 2),
        (x1 - x0, top - bottom, z1 - z0), 0.0, label=kind, ref=ref,
    )


def ring_rects(outer: Rect, inner: Rect) -> list[Rect]:
    """Decompose the ring ``outer`` minus ``inner`` into at most 4 disjoint rectangles."""
    ox0, oz0, ox1, oz1 = outer
    ix0, iz0, ix1, iz1 = inner
    out = [(ox0, oz0, ox1, iz0), (ox0, iz1, ox1, oz1), (ox0, iz0, ix0, iz1), (ix1, iz0, ox1, iz1)]
    return [r for r in out if r[2] - r[0] > 1e-9 and r[3] - r[1] > 1e-9]
