"""Placing text labels on a bird's-eye view without overlaps, with leader lines where crowded.

Labels are placed greedily in the order given. Each label first tries its anchor (an object's
centre); when its box (display pixels, padded by :data:`PAD_PX`) would overlap a label already
placed or leave the axes, a label that may move (``Label.leader``) tries positions on rings
around the anchor (:data:`RINGS_PX` × 16 directions, nearest first; positions whose centre lies
in the anchor's room polygon before the others) and is joined to its anchor by a thin leader
line. A label that must be shown (``Label.must``) and fits nowhere goes where it overlaps the
least; any other label that fits nowhere is left out. The order and the candidates depend only
on the labels and the layout, so the same scene and layout give the same picture.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from navbench.report.bev_labels import Label

if TYPE_CHECKING:  # matplotlib is imported lazily at run time
    from matplotlib.axes import Axes
    from matplotlib.text import Text

PAD_PX = 3.0  #: free space kept around every label (display pixels)
#: Distances (display pixels) of the leader-line positions from the anchor.
RINGS_PX = (14.0, 22.0, 32.0, 44.0, 58.0, 76.0, 98.0)
_ANGLES = np.deg2rad(np.arange(16) * 22.5 + 90.0)  # north first, counter-clockwise on the page
LEADER_COLOR = "#555555"


def _inside(box: np.ndarray, frame: np.ndarray) -> bool:
    """Box ``(x0, y0, x1, y1)`` lies within ``frame`` (same form, x0 <= x1, y0 <= y1)."""
    return bool(frame[0] <= box[0] and box[2] <= frame[2] and frame[1] <= box[1] and box[3] <= frame[3])


def _overlap(box: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """Overlap area (px²) of ``box`` with each row of ``boxes`` (N, 4)."""
    if not len(boxes):
        return np.zeros(0)
    w = np.minimum(box[2], boxes[:, 2]) - np.maximum(box[0], boxes[:, 0])
    h = np.minimum(box[3], boxes[:, 3]) - np.maximum(box[1], boxes[:, 1])
    return np.clip(w, 0, None) * np.clip(h, 0, None)


def _segment(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Points every ~2 px along the segment ``a``-``b`` (display pixels), ends excluded."""
    n = max(2, int(np.hypot(*(b - a)) / 2.0))
    f = np.linspace(0.0, 1.0, n + 1)[1:-1, None]
    return a[None, :] + f * (b - a)[None, :]


def _crosses(anchor: np.ndarray, box: np.ndarray, placed: np.ndarray, leaders: np.ndarray) -> bool:
    """Whether a label at ``box`` would cover a leader line drawn, or its own leader line from
    ``anchor`` would cross a label placed (both tested on points ~2 px apart)."""
    if len(leaders) and bool(((leaders >= box[:2]) & (leaders <= box[2:])).all(axis=1).any()):
        return True
    inner = box + np.array([PAD_PX, PAD_PX, -PAD_PX, -PAD_PX])
    end = np.clip(anchor, inner[:2], inner[2:])
    if not len(placed) or np.allclose(end, anchor):
        return False
    q = _segment(anchor, end)
    hit = ((q[:, None, 0] > placed[None, :, 0]) & (q[:, None, 0] < placed[None, :, 2])
           & (q[:, None, 1] > placed[None, :, 1]) & (q[:, None, 1] < placed[None, :, 3]))
    return bool(hit.any())


def _candidates(lab: Label, anchor: np.ndarray, ax: Axes) -> list[np.ndarray]:
    """Groups of offsets (K, 2) in display pixels to try, in order: the anchor itself, then the
    ring positions (module docstring) whose point lies in the label's room, then the others."""
    offs = np.asarray([r * np.array([np.cos(a), np.sin(a)]) for r in RINGS_PX for a in _ANGLES])
    centre = np.zeros((1, 2))
    if not lab.leader:
        return [centre]
    if lab.room is None:
        return [centre, offs]
    from matplotlib.path import Path as MplPath

    room = MplPath(ax.transData.transform(np.asarray(lab.room, dtype=float)))
    inside = room.contains_points(anchor[None, :] + offs)
    return [centre, offs[inside], offs[~inside]]


def place_labels(ax: Axes, labels: Sequence[Label]) -> list[Text]:
    """Draw ``labels`` on ``ax`` in order (module docstring); returns the texts drawn. A text of
    an object's label carries the object id as its ``gid``."""
    from matplotlib import patheffects
    from matplotlib.lines import Line2D
    from matplotlib.transforms import Bbox

    ax.apply_aspect()
    get = getattr(ax.figure.canvas, "get_renderer", None)
    renderer = get() if callable(get) else None
    fb = ax.get_window_extent(renderer)
    frame = np.array([fb.x0, fb.y0, fb.x1, fb.y1])
    halo = [patheffects.withStroke(linewidth=2.0, foreground="white")]
    placed = np.zeros((0, 4))
    leaders = np.zeros((0, 2))  # points along the leader lines drawn (display pixels)
    kept: list[Text] = []
    to_data = ax.transData.inverted()
    for lab in labels:
        t = ax.text(lab.x, lab.z, lab.text, fontsize=lab.size, color=lab.color, ha="center",
                    va=lab.va, zorder=lab.zorder, clip_on=True, linespacing=1.0,
                    fontweight=lab.weight, path_effects=halo if lab.halo else None,
                    gid=lab.object_id)
        bb = t.get_window_extent(renderer).padded(PAD_PX)
        box0 = np.array([min(bb.x0, bb.x1), min(bb.y0, bb.y1), max(bb.x0, bb.x1), max(bb.y0, bb.y1)])
        anchor = np.asarray(ax.transData.transform((lab.x, lab.z)), dtype=float)
        within = None
        if lab.within is not None:
            x0, z0, x1, z1 = lab.within
            w = Bbox(ax.transData.transform([(x0, z0), (x1, z1)]))
            within = np.array([min(w.x0, w.x1), min(w.y0, w.y1), max(w.x0, w.x1), max(w.y0, w.y1)])
        best: tuple[float, np.ndarray] | None = None
        chosen: np.ndarray | None = None
        crossing: np.ndarray | None = None
        for group in _candidates(lab, anchor, ax):
            for off in group:
                box = box0 + np.tile(off, 2)
                if not _inside(box, frame) or (within is not None and not _inside(box, within)):
                    continue
                area = float(_overlap(box, placed).sum())
                if area == 0.0:
                    if not _crosses(anchor, box, placed, leaders):
                        chosen = off
                        break
                    crossing = off if crossing is None else crossing
                elif lab.must and (best is None or area < best[0]):
                    best = (area, off)
            if chosen is None and crossing is not None:  # a crossing in this group beats the next
                chosen = crossing
            if chosen is not None:
                break
        if chosen is None and best is not None:
            chosen = best[1]
        if chosen is None:
            t.remove()
            continue
        box = box0 + np.tile(chosen, 2)
        placed = np.vstack([placed, box[None, :]])
        kept.append(t)
        if not chosen.any():
            continue
        t.set_position(tuple(to_data.transform(anchor + chosen)))
        if not _inside(np.tile(anchor, 2), frame):  # an anchor off the map gets no line
            continue
        inner = box + np.array([PAD_PX, PAD_PX, -PAD_PX, -PAD_PX])
        end = np.clip(anchor, inner[:2], inner[2:])  # nearest point of the text box
        x1, z1 = to_data.transform(end)
        leaders = np.vstack([leaders, _segment(anchor, end)])
        ax.add_line(Line2D([lab.x, x1], [lab.z, z1], lw=0.5, color=LEADER_COLOR, zorder=lab.zorder - 0.5,
                           gid=lab.object_id, marker="o", markersize=1.5, markevery=[0]))
    return kept
