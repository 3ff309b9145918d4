"""Matplotlib drawing of a navmesh over a bird's-eye view (X right, north = -Z up)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from navbench.nav.navmesh import NavMesh
from navbench.nav.query import ShortestPath

if TYPE_CHECKING:
    from matplotlib.axes import Axes


def draw_navmesh(ax: Axes, nm: NavMesh, layer: int = 0, path: ShortestPath | None = None) -> None:
    """Draw one layer's islands (colours), boundary polygons and an optional path on ``ax``.

    World X runs to the right and Z down the page, so north (-Z) is up.
    """
    from matplotlib import colormaps

    if not nm.layers:
        return
    L = nm.layers[layer]
    nr, nc = L.labels.shape
    extent = (L.x0, L.x0 + nc * L.cs, L.z0 + nr * L.cs, L.z0)
    lab = L.labels
    rgba = np.zeros((nr, nc, 4), np.float32)
    walk = L.clear > 0
    rgba[walk] = (0.8, 0.8, 0.8, 0.5)
    cmap = colormaps["tab10"]
    for i in np.unique(lab[lab >= 0]):
        rgba[lab == i] = (*cmap(int(i) % 10)[:3], 0.45)
    ax.imshow(rgba, extent=extent, origin="upper", interpolation="nearest", zorder=1.5)
    g = nm.graphs[layer].nodes
    for k in range(len(g.ring_starts) - 1):
        ring = g.rings[g.ring_starts[k]:g.ring_starts[k + 1]]
        ring = np.vstack([ring, ring[:1]])
        ax.plot(ring[:, 0], ring[:, 1], color="k", lw=0.6, zorder=2)
    if len(g.pos):
        ax.scatter(g.pos[:, 0], g.pos[:, 1], s=4, color="k", zorder=3)
    if path is not None and path.points is not None:
        p = np.asarray(path.points)
        ax.plot(p[:, 0], p[:, 2], color="crimson", lw=2, zorder=4)
        ax.scatter([p[0, 0]], [p[0, 2]], color="green", s=30, zorder=5)
        ax.scatter([p[-1, 0]], [p[-1, 2]], color="crimson", marker="*", s=80, zorder=5)
    ax.set_xlim(extent[0], extent[1])
    ax.set_ylim(extent[2], extent[3])  # Z grows downwards: north (-Z) is up
    ax.set_aspect("equal")
    ax.set_xlabel("x (m, east)")
    ax.set_ylabel("z (m, south)")
