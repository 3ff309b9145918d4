"""Building footprints as static boxes (a triangle mesh would be a heightfield the size of the
map in the simulator): the footprint is cut into cells in its own frame (its dominant edge
direction, :func:`~navbench.scene.sources.osm_terrain.dominant_angle`), with grid lines on
every long edge that runs along the frame, so rectangular and rectilinear footprints come out
exact; other edges are followed to :data:`CELL` m. Cells (centre inside the footprint) are
merged into rectangles, each a yawed box from the ground to the building's height.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from navbench.scene.model import Box
from navbench.scene.procgen.urban import SIDEWALK_Y
from navbench.scene.sources.osm_cells import aligned, grid_lines, rot
from navbench.scene.sources.osm_terrain import dominant_angle, frame_box, merge_cells

if TYPE_CHECKING:
    from shapely.geometry import Polygon

#: Cell (m) along footprint edges that do not run along the building's frame.
CELL = 0.5
#: Outline detail (m) below which collision boxes do not follow the footprint.
DETAIL = 0.5
#: A footprint filling this share of its minimum rotated rectangle is that one box.
RECTANGULAR = 0.93
#: At most this many boxes per building (the cell doubles until it fits).
MAX_BOXES = 64


def building_boxes(bid: str, poly: Polygon, height: float) -> list[Box]:
    """Yawed boxes (``kind="building"``, ``ref=bid``) covering ``poly`` up to ``height`` m.

    A footprint that fills :data:`RECTANGULAR` of its minimum rotated rectangle is that rectangle
    (one box); others are first simplified by :data:`DETAIL` m. Facade steps and bays are not
    worth a box each: the navmesh keeps clear of the exact footprint (a ``building`` surface)
    as well as of the boxes."""
    import shapely

    if not poly.interiors:  # (nearly) a rectangle (bays and steps included): one box
        rr = poly.minimum_rotated_rectangle
        if rr.geom_type == "Polygon" and poly.area >= RECTANGULAR * rr.area:
            c4 = np.asarray(rr.exterior.coords)[:4]
            e0 = c4[1] - c4[0]
            u = e0 / float(np.hypot(*e0))
            v = np.array([-u[1], u[0]])
            w = float((c4[2] - c4[1]) @ v)
            return [frame_box(f"{bid}_0", "building", c4[0], u, v, 0.0, float(np.hypot(*e0)), min(0.0, w),
                              max(0.0, w), SIDEWALK_Y + height, bid, "building", bottom=SIDEWALK_Y)]
    simple = shapely.simplify(poly, DETAIL, preserve_topology=True)
    if simple.geom_type == "Polygon" and not simple.is_empty and simple.area >= 0.5 * poly.area:
        poly = simple
    u, v = rot(dominant_angle(poly))
    c = np.asarray(poly.exterior.coords)
    q = np.c_[c @ u, c @ v]
    shapely.prepare(poly)
    cell = CELL
    while True:
        xs = grid_lines(q[:, 0].min(), q[:, 0].max(), cell, aligned(poly, u, v, 0))
        zs = grid_lines(q[:, 1].min(), q[:, 1].max(), cell, aligned(poly, u, v, 1))
        cx, cz = np.meshgrid((xs[:-1] + xs[1:]) / 2, (zs[:-1] + zs[1:]) / 2)
        grid = shapely.contains_xy(poly, cx * u[0] + cz * v[0], cx * u[1] + cz * v[1]).astype(np.int8)
        rects = merge_cells(grid, xs, zs)
        if len(rects) <= MAX_BOXES or cell > 16:
            break
        cell *= 2
    if not rects:  # thinner than a cell everywhere: its minimum rotated rectangle
        rr = np.asarray(poly.minimum_rotated_rectangle.exterior.coords)[:4]
        e0 = rr[1] - rr[0]
        ln0 = float(np.hypot(*e0))
        if ln0 < 1e-6:
            return []
        u = e0 / ln0
        v = np.array([-u[1], u[0]])
        w = float((rr[2] - rr[1]) @ v)
        lo, hi = sorted((0.0, w))
        return [frame_box(f"{bid}_0", "building", rr[0], u, v, 0.0, ln0, lo, hi, SIDEWALK_Y + height, bid,
                          "building", bottom=SIDEWALK_Y)]
    return [frame_box(f"{bid}_{k}", "building", np.zeros(2), u, v, a0, a1, b0, b1, SIDEWALK_Y + height, bid,
                      "building", bottom=SIDEWALK_Y) for k, (_c, a0, b0, a1, b1) in enumerate(rects)]


__all__ = ["CELL", "DETAIL", "MAX_BOXES", "RECTANGULAR", "building_boxes"]
