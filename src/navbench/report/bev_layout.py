"""Where an episode's bird's-eye map looks, and how its figure is laid out.

:func:`episode_extent` gives the world XZ view (metres): an indoor scene is shown whole; an
outdoor or hybrid scene (large) is cropped to the episode — its points plus the whole building
(rooms joined by doors) of every room one of them lies in, so no room the episode uses is cut. :func:`map_layout` sizes the figure
(inches) so that the map keeps equal aspect at the largest scale that fits and the legend
stands beside the map (or below it when beside would be too wide), never over it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from navbench.geometry import points_in_polygon
from navbench.scene.model import Scene

Extent = tuple[tuple[float, float], tuple[float, float]]  # ((xmin, zmin), (xmax, zmax)), m

MAX_MAP_W = 8.0  #: largest map width (in)
MAX_MAP_H = 7.0  #: largest map height (in)
MAX_FIG_W = 12.0  #: widest figure with the legend beside the map (in)
LEFT, RIGHT, BOTTOM, TOP = 0.8, 0.2, 0.6, 0.5  #: margins around the map: tick and axis labels, title (in)
GAP = 0.25  #: space between the map and the legend (in)


def _buildings_of(scene: Scene, rooms: set[str]) -> set[str]:
    """``rooms`` and every room joined to them by doors and openings, transitively (the whole
    building of each room; exits lead outdoors and join nothing)."""
    out, todo = set(rooms), list(rooms)
    while todo:
        r = todo.pop()
        for port in scene.portals:
            if port.kind != "exit" and r in port.regions:
                for other in port.regions:
                    if other not in out:
                        out.add(other)
                        todo.append(other)
    return out


def episode_extent(scene: Scene, points: Sequence[np.ndarray], margin: float) -> Extent:
    """XZ view of an episode map: ``points`` (arrays of world positions (N, 3): start, goals,
    paths, trajectories) with, indoors, the whole scene (rooms, walls, boxes and the exit
    arrows), or, outdoors and in hybrid scenes, the floor polygons of every building (rooms
    joined by doors) that one of the points lies in; grown by ``margin`` metres on every side,
    then :func:`widened` to :data:`MIN_ASPECT`."""
    p = np.vstack([np.asarray(q, dtype=float).reshape(-1, 3)[:, [0, 2]] for q in points]
                  or [np.zeros((0, 2))])
    parts = [p]
    if scene.kind == "indoor":
        if scene.rooms or scene.boxes or scene.surfaces or scene.meshes:
            parts.append(np.asarray(scene.bounds_xz, dtype=float))
        for port in scene.portals:  # the exit arrow and its label stand outside the house
            if port.kind == "exit":
                d = np.array([-np.sin(port.yaw), -np.cos(port.yaw)])
                parts.append(np.array([port.center[0], port.center[2]]) + 1.3 * d[None, :])
    else:
        used = {r.id for r in scene.rooms
                if len(p) and points_in_polygon(p, r.floor_polygon).any()}
        parts += [np.asarray(r.floor_polygon, dtype=float) for r in scene.rooms
                  if r.id in _buildings_of(scene, used)]
    a = np.vstack(parts)
    if not len(a):
        a = np.asarray(scene.bounds_xz, dtype=float)
    lo, hi = a.min(axis=0) - margin, a.max(axis=0) + margin
    return widened(((float(lo[0]), float(lo[1])), (float(hi[0]), float(hi[1]))))


#: A map is never narrower than this fraction of its height, nor flatter than it of its width:
#: a straight outdoor path gave a 6 m × 45 m strip, too narrow for its title and its context.
MIN_ASPECT = 0.6


def widened(extent: Extent, ratio: float = MIN_ASPECT) -> Extent:
    """``extent`` grown about its centre along its short side until that side is at least
    ``ratio`` times the long one (m).

    >>> widened(((0.0, 0.0), (6.0, 45.0)))
    ((-10.5, 0.0), (16.5, 45.0))
    >>> widened(((0.0, 0.0), (10.0, 8.0)))
    ((0.0, 0.0), (10.0, 8.0))
    """
    (x0, z0), (x1, z1) = extent
    w, h = x1 - x0, z1 - z0
    if w < ratio * h:
        pad = (ratio * h - w) / 2
        x0, x1 = x0 - pad, x1 + pad
    elif h < ratio * w:
        pad = (ratio * w - h) / 2
        z0, z1 = z0 - pad, z1 + pad
    return (x0, z0), (x1, z1)


@dataclass(frozen=True)
class MapLayout:
    """A map figure: its size and where the map and the legend go.

    Attributes:
        size: figure width and height (in).
        axes: the map axes ``(left, bottom, width, height)`` in figure fractions; its
            width / height equals the extent's, so equal aspect fills it.
        legend_at: the legend's upper-left corner (figure fractions).
        beside: the legend stands right of the map (else below it).
    """

    size: tuple[float, float]
    axes: tuple[float, float, float, float]
    legend_at: tuple[float, float]
    beside: bool


def map_layout(extent: Extent, legend: tuple[float, float]) -> MapLayout:
    """Layout of a map of ``extent`` (m) with a legend of ``legend`` (width, height) inches:
    the map at the largest scale within :data:`MAX_MAP_W` × :data:`MAX_MAP_H`, the legend
    beside it when the figure stays within :data:`MAX_FIG_W`, else below it."""
    (x0, z0), (x1, z1) = extent
    w, h = max(x1 - x0, 1e-6), max(z1 - z0, 1e-6)
    s = min(MAX_MAP_W / w, MAX_MAP_H / h)  # inches per metre
    mw, mh = w * s, h * s
    lw, lh = legend
    if LEFT + mw + GAP + lw + RIGHT <= MAX_FIG_W:
        fw, fh = LEFT + mw + GAP + lw + RIGHT, TOP + max(mh, lh) + BOTTOM
        y0 = fh - TOP - mh
        return MapLayout((fw, fh), (LEFT / fw, y0 / fh, mw / fw, mh / fh),
                         ((LEFT + mw + GAP) / fw, (fh - TOP) / fh), True)
    fw, fh = max(LEFT + mw + RIGHT, LEFT + lw + RIGHT), TOP + mh + BOTTOM + lh + GAP
    y0 = BOTTOM + lh + GAP
    return MapLayout((fw, fh), (LEFT / fw, y0 / fh, mw / fw, mh / fh),
                     (LEFT / fw, (lh + GAP / 2) / fh), False)
