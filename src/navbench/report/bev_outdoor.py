"""Legible bird's-eye drawing of outdoor and hybrid scenes (terrain classes, buildings, places).

``draw_surfaces(ax, scene)`` fills every :class:`~navbench.scene.model.Surface` with its class
colour, draws building / wall boxes, objects, storefront places and exit portals on a
matplotlib axes in the XZ plane (x to the right, north = -Z up). Import matplotlib lazily.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from navbench.geometry import box_corners_xz, polygon_area
from navbench.scene.model import Scene

if TYPE_CHECKING:  # matplotlib is imported lazily at run time
    from matplotlib.axes import Axes

#: Fill colour per surface class.
CLASS_COLORS: dict[str, str] = {
    "road": "#6b6b6b",
    "crosswalk": "#f2f2f2",
    "sidewalk": "#c9c3b6",
    "green": "#9ccc7a",
    "water": "#6fa8dc",
    "building": "#8d7b68",
    "floor": "#e8d9b5",
    "stairs": "#d0b48c",
}
BOX_COLORS: dict[str, str] = {"building": "#7a6552", "wall": "#3d3d3d", "sign": "#d62728"}


def draw_surfaces(ax: Axes, scene: Scene, *, objects: bool = True, places: bool = True,
                  labels: bool = False, under_rooms: bool = False) -> None:
    """Draw ``scene`` on ``ax`` (matplotlib Axes), XZ plane with north up (metres).

    ``under_rooms``: the rooms are drawn on top (:func:`navbench.report.bev.draw_scene`), so
    building boxes standing over a room (the upper storeys of a house) are left out.
    """
    from matplotlib.collections import PatchCollection
    from matplotlib.patches import PathPatch
    from matplotlib.path import Path

    def ring_path(rings: list[np.ndarray]) -> Path:
        # nonzero fill rule: the outer ring CCW, holes CW (seen from above)
        rs = [r if (polygon_area(r) >= 0) == (k == 0) else r[::-1] for k, r in enumerate(rings)]
        return Path.make_compound_path(*[Path(np.vstack([r, r[:1]]), closed=True) for r in rs])

    def patches(paths: list[Path], color: str, z: int) -> None:
        if paths:
            ax.add_collection(PatchCollection([PathPatch(p) for p in paths], facecolor=color,
                                              edgecolor=color, linewidths=0.2, zorder=z))

    by_cls: dict[str, list[Path]] = {}
    for s in scene.surfaces:
        rings = [np.asarray(s.polygon, dtype=float)] + [np.asarray(h, dtype=float) for h in s.holes]
        by_cls.setdefault(s.cls, []).append(ring_path(rings))
    order = ["green", "water", "road", "sidewalk", "crosswalk", "building", "floor", "stairs"]
    for k, cls in enumerate(order):
        patches(by_cls.get(cls, []), CLASS_COLORS[cls], 1 + k)
    for kind, color in BOX_COLORS.items():
        bx = [ring_path([box_corners_xz(b.center, b.size, b.yaw)]) for b in scene.boxes if b.kind == kind
              and not (under_rooms and kind == "building" and scene.room_at(b.center[0], b.center[2]))]
        patches(bx, color, 20 if kind != "wall" else 22)
    if objects and scene.objects:
        c = np.array([[o.center[0], o.center[2]] for o in scene.objects])
        ax.scatter(c[:, 0], c[:, 1], s=2, c="#1f3b73", zorder=25, linewidths=0)
    if places and scene.places:
        e = np.array([[p.entrance[0], p.entrance[2]] for p in scene.places])
        ax.scatter(e[:, 0], e[:, 1], s=18, marker="*", c="#d62728", zorder=26, linewidths=0)
        if labels:
            for p in scene.places:
                ax.annotate(p.category, (p.entrance[0], p.entrance[2]), fontsize=5, zorder=27)
    for portal in scene.portals:
        if portal.kind == "exit":
            ax.scatter([portal.center[0]], [portal.center[2]], s=40, marker="D", c="#ff7f0e", zorder=28)
    (x0, z0), (x1, z1) = scene.bounds_xz
    ax.set_xlim(x0, x1)
    ax.set_ylim(z1, z0)  # north (-Z) up
    ax.set_aspect("equal")
    ax.set_xlabel("x (m, east)")
    ax.set_ylabel("z (m, south)")
