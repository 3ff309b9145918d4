"""Bird's-eye-view pictures of scenes (rooms, walls, doors, objects with labels, north arrow).

Axes convention (so that others can overlay navmeshes, paths and trajectories): data
coordinates are world **X** (horizontal, east to the right) and world **Z** (vertical), with
the Z axis inverted so that up on the page is north = -Z; aspect is equal; units are metres.
To overlay world points ``p = (x, y, z)`` simply ``ax.plot(p[:, 0], p[:, 2])``.

matplotlib is imported lazily and only through its object-oriented API (no pyplot state),
so drawing is thread-safe and works without a display.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from navbench.geometry import box_corners_xz
from navbench.io import atomic_write_with
from navbench.report.bev_labels import scene_labels
from navbench.report.bev_place import place_labels
from navbench.scene.model import Scene

if TYPE_CHECKING:  # matplotlib is imported lazily at run time
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

#: Fill colour per room type (others get :data:`DEFAULT_ROOM_COLOR`).
ROOM_COLORS: dict[str, str] = {
    "living room": "#f6e7c8",
    "kitchen": "#fbd3c0",
    "dining room": "#f4dcb0",
    "bedroom": "#d6e4f5",
    "bathroom": "#c9ece9",
    "hallway": "#e6e6e6",
    "office": "#e0d7f0",
    "laundry room": "#dcefd2",
}
DEFAULT_ROOM_COLOR = "#eeeeee"
WALL_COLOR = "#333333"
FURNITURE_COLOR = "#b08d68"
OBJECT_COLOR = "#3b5b92"
DOOR_COLOR = "#e08a00"
EXIT_COLOR = "#d62728"


def draw_scene(ax: Axes, scene: Scene, *, labels: bool = True, objects: bool = True,
               margin: float = 1.0, limits: tuple[tuple[float, float], tuple[float, float]] | None = None,
               north_arrow: bool = True, referenced: Collection[str] | None = None) -> None:
    """Draw ``scene`` on a matplotlib ``Axes`` (X right = east, Z inverted so north is up).

    Room names and object labels are placed without overlaps, moved off crowded objects with
    leader lines (:mod:`navbench.report.bev_labels`, :mod:`navbench.report.bev_place`) for the
    axes' position at call time: lay the figure out before calling.

    Args:
        ax: matplotlib Axes to draw on; its limits, aspect and axis labels are set.
        scene: the scene to draw.
        labels: write room names and object labels.
        objects: draw objects (furniture filled, small objects darker).
        margin: extra space around the scene bounds (m), when ``limits`` is not given.
        limits: the view ``((xmin, zmin), (xmax, zmax))`` in metres, instead of the scene bounds.
        north_arrow: draw the north arrow in the axes' top-right corner.
        referenced: ids of the objects an instruction refers to
            (:func:`~navbench.report.bev_labels.referenced_objects`): their labels are bold and
            always shown; without it, the labels of objects standing on others are always shown.
    """
    from matplotlib.collections import PolyCollection

    if limits is None:
        (x0, z0), (x1, z1) = scene.bounds_xz
        x0, z0, x1, z1 = x0 - margin, z0 - margin, x1 + margin, z1 + margin
    else:
        (x0, z0), (x1, z1) = limits
    if scene.surfaces and scene.kind != "indoor":  # terrain, buildings and storefronts first
        from navbench.report.bev_outdoor import draw_surfaces

        draw_surfaces(ax, scene, objects=False, places=True, labels=labels,
                      under_rooms=True)
    for r in scene.rooms:
        poly = np.asarray(r.floor_polygon, dtype=float)
        ax.fill(poly[:, 0], poly[:, 1], color=ROOM_COLORS.get(r.label, DEFAULT_ROOM_COLOR),
                zorder=1, linewidth=0)
    walls = [box_corners_xz(b.center, b.size, b.yaw) for b in scene.boxes if b.kind == "wall"]
    if walls:
        ax.add_collection(PolyCollection(walls, facecolors=WALL_COLOR, edgecolors=WALL_COLOR,
                                         linewidths=0.3, zorder=5))
    for p in scene.portals:
        d = np.array([-np.sin(p.yaw), -np.cos(p.yaw)])  # passage direction
        t = np.array([-d[1], d[0]]) * p.width / 2  # along the opening
        c = np.array([p.center[0], p.center[2]])
        color = EXIT_COLOR if p.kind == "exit" else DOOR_COLOR
        ax.plot([c[0] - t[0], c[0] + t[0]], [c[1] - t[1], c[1] + t[1]], color=color, lw=2.5,
                zorder=6, solid_capstyle="butt")
        if p.kind == "exit":
            ax.annotate("", xy=tuple(c + 0.8 * d), xytext=tuple(c), zorder=7,
                        arrowprops={"arrowstyle": "->", "color": EXIT_COLOR, "lw": 1.5})
    if objects:
        _draw_objects(ax, scene)
    ax.set_aspect("equal")
    ax.set_xlim(x0, x1)
    ax.set_ylim(z1, z0)  # inverted: north (-Z) up
    ax.set_xlabel("x (m), east →")
    ax.set_ylabel("z (m), north = -Z ↑")
    ax.set_title(f"{scene.id} ({scene.kind}, {scene.source})", fontsize=9)
    if north_arrow:
        ax.annotate("N", xy=(0.96, 0.97), xytext=(0.96, 0.87), xycoords="axes fraction",
                    ha="center", va="center", fontsize=9, fontweight="bold", zorder=10,
                    arrowprops={"arrowstyle": "-|>", "color": "black", "lw": 1.5})
    if labels:
        place_labels(ax, scene_labels(scene, exit_color=EXIT_COLOR, object_color=OBJECT_COLOR,
                                      referenced=referenced))


def _draw_objects(ax: Axes, scene: Scene) -> None:
    from matplotlib.collections import PolyCollection

    furn: list[np.ndarray] = []
    small: list[np.ndarray] = []
    pts = []
    for o in scene.objects:
        if o.size is not None:
            (furn if o.parent_id is None else small).append(box_corners_xz(o.center, o.size, o.yaw))
        elif o.bounds is not None:
            (lo, _, zlo), (hi, _, zhi) = o.bounds[0], o.bounds[1]
            furn.append(np.array([[lo, zhi], [hi, zhi], [hi, zlo], [lo, zlo]]))
        else:
            pts.append((o.center[0], o.center[2]))
    if furn:
        ax.add_collection(PolyCollection(furn, facecolors=FURNITURE_COLOR, edgecolors="#6b5236",
                                         linewidths=0.4, alpha=0.85, zorder=8))
    if small:
        ax.add_collection(PolyCollection(small, facecolors=OBJECT_COLOR, edgecolors="none",
                                         alpha=0.9, zorder=9))
    if pts:
        a = np.asarray(pts)
        ax.scatter(a[:, 0], a[:, 1], s=6, c=OBJECT_COLOR, zorder=9)


def render_scene_figure(scene: Scene, *, size: float = 10.0, dpi: int = 100,
                        labels: bool = True, referenced: Collection[str] | None = None) -> Figure:
    """A matplotlib ``Figure`` (``size`` × ``size`` inches) with the scene drawn on one axes
    (``referenced``: see :func:`draw_scene`)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(size, size), dpi=dpi)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    fig.subplots_adjust(left=0.08, right=0.98, bottom=0.06, top=0.95)  # before the labels
    draw_scene(ax, scene, labels=labels, referenced=referenced)
    return fig


def save_scene_png(scene: Scene, path: str | Path, *, dpi: int = 100, size: float = 10.0,
                   labels: bool = True, referenced: Collection[str] | None = None) -> Path:
    """Write a bird's-eye PNG of ``size * dpi`` × ``size * dpi`` pixels atomically
    (``referenced``: see :func:`draw_scene`)."""
    fig = render_scene_figure(scene, size=size, dpi=dpi, labels=labels, referenced=referenced)
    return atomic_write_with(path, lambda tmp: fig.savefig(tmp, dpi=dpi, format="png"))
