"""Legible text labels on a bird's-eye view that never overlap one another.

Labels are placed greedily in a fixed priority order — room names first (on top of the room,
white halo), then exit signs, then object labels by decreasing footprint — and a label is
dropped when its box (display pixels, padded by :data:`PAD_PX`) would overlap a label already
placed or leave the axes. The order depends only on the scene, so the same scene and layout give
the same labels. Positions are world X / Z metres (the axes convention of
:mod:`navbench.report.bev`); call :func:`place_labels` once the axes' limits and position are
final (text boxes are measured in display space).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import numpy as np

from navbench.geometry import point_in_polygon
from navbench.scene.model import Scene, SceneObject

if TYPE_CHECKING:  # matplotlib is imported lazily at run time
    from matplotlib.axes import Axes
    from matplotlib.text import Text
    from matplotlib.transforms import Bbox

ROOM_FONT = 7.5  #: room names (pt)
OBJECT_FONT = 6.0  #: furniture and other top-level objects (pt)
SMALL_FONT = 5.0  #: objects standing on other objects (pt)
PAD_PX = 3.0  #: free space kept around every label (display pixels)
#: Distance of a room name below the room's north edge (m).
ROOM_LABEL_INSET = 0.25


@dataclass(frozen=True)
class Label:
    """One text to place at world ``(x, z)`` (m), anchored by ``va`` (top: the text hangs south)."""

    x: float
    z: float
    text: str
    size: float
    color: str
    va: Literal["top", "center", "bottom"] = "center"
    halo: bool = False
    zorder: float = 12.0
    #: world box ``(xmin, zmin, xmax, zmax)`` (m) the text must fit in (a room's), if any
    within: tuple[float, float, float, float] | None = None


def _footprint(o: SceneObject) -> float:
    """Floor area of an object's footprint (m²; 0 for a bare point)."""
    if o.size is not None:
        return float(o.size[0] * o.size[2])
    if o.bounds is not None:
        (lo, _, zlo), (hi, _, zhi) = o.bounds
        return float((hi - lo) * (zhi - zlo))
    return float(np.pi * o.radius**2) if o.radius else 0.0


def scene_labels(scene: Scene, *, exit_color: str, object_color: str) -> list[Label]:
    """Every label of ``scene`` in placement priority order: rooms (name and id, centred on the
    room's north edge, or at the centroid when that point lies outside an odd-shaped room;
    dropped when wider or taller than the room's bounding box on the page), exit
    portals (1.1 m outside the opening), then objects with a room (all objects indoors) — those
    standing on the floor by decreasing footprint, then those on other objects."""
    out: list[Label] = []
    for r in scene.rooms:
        poly = np.asarray(r.floor_polygon, dtype=float)
        cx, cz = r.centroid
        top = (cx, float(poly[:, 1].min()) + ROOM_LABEL_INSET)
        inside = point_in_polygon(top, r.floor_polygon)
        x, z = top if inside else (cx, cz)
        (x0, z0), (x1, z1) = poly.min(axis=0), poly.max(axis=0)
        out.append(Label(x, z, f"{r.label}\n{r.id}", ROOM_FONT, "#444444",
                         "top" if inside else "center", halo=True, zorder=13,
                         within=(float(x0), float(z0), float(x1), float(z1))))
    for p in scene.portals:
        if p.kind == "exit":
            d = np.array([-np.sin(p.yaw), -np.cos(p.yaw)])  # passage direction (as drawn)
            tx, tz = np.array([p.center[0], p.center[2]]) + 1.1 * d
            out.append(Label(float(tx), float(tz), "exit", 7.0, exit_color, halo=True, zorder=13))
    named = [o for o in scene.objects if o.room_id is not None or scene.kind == "indoor"]
    floor = sorted((o for o in named if o.parent_id is None), key=lambda o: -_footprint(o))
    for o in floor:
        out.append(Label(o.center[0], o.center[2], o.label, OBJECT_FONT, "#2b1d0e", halo=True))
    for o in named:
        if o.parent_id is not None:
            out.append(Label(o.center[0], o.center[2], o.label, SMALL_FONT, object_color, "bottom",
                             halo=True))
    return out


def _inside(a: Bbox, b: Bbox) -> bool:
    """Box ``a`` lies within box ``b`` (either may be flipped: an inverted axis)."""
    return bool(min(b.x0, b.x1) <= min(a.x0, a.x1) and max(a.x0, a.x1) <= max(b.x0, b.x1)
                and min(b.y0, b.y1) <= min(a.y0, a.y1) and max(a.y0, a.y1) <= max(b.y0, b.y1))


def place_labels(ax: Axes, labels: Sequence[Label]) -> list[Text]:
    """Draw ``labels`` on ``ax`` in order, skipping each one whose padded box would overlap a
    label already drawn or stick out of the axes; returns the texts drawn."""
    from matplotlib import patheffects
    from matplotlib.transforms import Bbox

    ax.apply_aspect()
    get = getattr(ax.figure.canvas, "get_renderer", None)
    renderer = get() if callable(get) else None
    frame = ax.get_window_extent(renderer)
    halo = [patheffects.withStroke(linewidth=2.0, foreground="white")]
    boxes: list[Bbox] = []
    kept: list[Text] = []
    for lab in labels:
        t = ax.text(lab.x, lab.z, lab.text, fontsize=lab.size, color=lab.color, ha="center",
                    va=lab.va, zorder=lab.zorder, clip_on=True, linespacing=1.0,
                    path_effects=halo if lab.halo else None)
        bb = t.get_window_extent(renderer).padded(PAD_PX)
        fits = _inside(bb, frame)
        if fits and lab.within is not None:
            x0, z0, x1, z1 = lab.within
            fits = _inside(bb, Bbox(ax.transData.transform([(x0, z0), (x1, z1)])))
        if not fits or any(bb.overlaps(b) for b in boxes):
            t.remove()
            continue
        boxes.append(bb)
        kept.append(t)
    return kept
