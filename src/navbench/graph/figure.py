"""A figure of one room's scene graph (matplotlib), seen from above with north up."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import networkx as nx

from navbench.io import atomic_write_with

if TYPE_CHECKING:  # matplotlib is imported lazily at run time
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure, SubFigure

DEFAULT_PREDICATES: tuple[str, ...] = ("near", "above", "below", "higher than")


def draw_room_graph(
    graph: nx.DiGraph[str],
    ax: Axes | None = None,
    predicates: Sequence[str] = DEFAULT_PREDICATES,
    title: str | None = None,
) -> Figure | SubFigure:
    """Draw objects at their (x, −z) positions (east right, north up) with their AABB footprints,
    and one arrow subject → reference per edge carrying any of ``predicates`` (labelled).

    Returns the matplotlib ``Figure`` (the one holding ``ax`` when given).
    """
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    fig: Figure | SubFigure
    if ax is None:
        fig, ax = plt.subplots(figsize=(7, 7))
    else:
        fig = ax.figure
    pos: dict[str, tuple[float, float]] = {}
    for n, d in graph.nodes(data=True):
        if d.get("kind") != "object":
            continue
        x, _, z = d["center"]
        pos[n] = (x, -z)
        if d.get("aabb"):
            (x0, _, z0), (x1, _, z1) = d["aabb"]
            ax.add_patch(Rectangle((x0, -z1), x1 - x0, z1 - z0, fill=False, lw=0.8, ec="0.6"))
        ax.plot(x, -z, "o", color="tab:blue", ms=6, zorder=3)
        ax.annotate(f"{d['label']}\n{n}", (x, -z), fontsize=7, ha="center", va="bottom",
                    xytext=(0, 5), textcoords="offset points", zorder=4)
    wanted = set(predicates)
    for u, v, d in graph.edges(data=True):
        if d.get("kind") != "relation":
            continue
        shown = [p for p in d["predicates"] if p in wanted]
        if not shown:
            continue
        (x0, y0), (x1, y1) = pos[u], pos[v]
        ax.annotate("", (x1, y1), (x0, y0), arrowprops={"arrowstyle": "->", "color": "tab:red",
                                                        "lw": 0.8, "alpha": 0.7})
        ax.text(0.6 * x0 + 0.4 * x1, 0.6 * y0 + 0.4 * y1, ", ".join(shown), fontsize=6,
                color="tab:red")
    ax.set_aspect("equal")
    ax.set_xlabel("x (m, east)")
    ax.set_ylabel("−z (m, north)")
    room = graph.graph.get("room_label", "")
    ax.set_title(title or f"{room} ({graph.graph.get('room_id', '')}): arrows = subject → reference")
    return fig


def save_room_figure(graph: nx.DiGraph[str], path: str | Path,
                     predicates: Sequence[str] = DEFAULT_PREDICATES, title: str | None = None) -> Path:
    """Draw with :func:`draw_room_graph` and save atomically (format from the suffix)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 7))
    draw_room_graph(graph, ax, predicates, title)
    try:
        return atomic_write_with(path, lambda tmp: fig.savefig(tmp, dpi=150,
                                                               format=Path(path).suffix[1:] or "png"))
    finally:
        plt.close(fig)
