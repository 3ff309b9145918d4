"""Report figures (matplotlib, Agg, object-oriented API only): bar charts per metric across
runs, success rate vs path length, and bird's-eye views of episodes with their trajectories.

Every function returns a :class:`~navbench.report.html.FigureImage` (PNG bytes, deterministic:
no timestamps, no software tag) or ``None`` when the inputs hold nothing to draw. BEV maps use
the world XZ plane in metres with x to the right and north (-Z) up, like
:mod:`navbench.report.bev`.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from navbench.metrics import aggregate
from navbench.paths import safe_name
from navbench.report.html import FigureImage
from navbench.report.tables import METRIC_NAMES, RATES, RowsByRun
from navbench.scene.model import Scene

BAR_METRICS = ("success", "spl", "soft_spl", "bsa", "csr", "bca", "ndtw", "ce", "cr", "ado", "nsr")
#: Colour of a trajectory's end marker by where it ended (branch confusion outcome).
OUTCOME_COLORS = {"correct": "#2ca02c", "other_branch": "#d62728", "elsewhere": "#7f7f7f"}
RUN_COLORS = ("#1f77b4", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22")


def _new_figure(w: float, h: float) -> Any:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(w, h), dpi=100)
    FigureCanvasAgg(fig)
    return fig


def png_bytes(fig: Any, dpi: int = 100) -> bytes:
    """PNG bytes of a matplotlib figure, without metadata that varies between machines."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, metadata={"Software": None})
    return buf.getvalue()


def bar_charts(rows_by_run: RowsByRun, metrics: Sequence[str] = BAR_METRICS) -> FigureImage | None:
    """One bar chart per metric (bars = runs), labelled with the value and n."""
    stats = {run: aggregate(rows, metrics)["metrics"] for run, rows in rows_by_run.items()}
    shown = [m for m in metrics if any(s[m]["n"] for s in stats.values())]
    if not shown:
        return None
    cols = min(4, len(shown))
    nrow = -(-len(shown) // cols)
    fig = _new_figure(3.2 * cols, 2.8 * nrow)
    runs = list(rows_by_run)
    for k, m in enumerate(shown):
        ax = fig.add_subplot(nrow, cols, k + 1)
        name = METRIC_NAMES[m]
        scale = 100.0 if name in RATES else 1.0
        vals = [np.nan if stats[r][m]["mean"] is None else stats[r][m]["mean"] * scale for r in runs]
        bars = ax.bar(range(len(runs)), np.nan_to_num(vals), color=[RUN_COLORS[i % len(RUN_COLORS)]
                                                                     for i in range(len(runs))])
        for b, v, r in zip(bars, vals, runs, strict=True):
            txt = "n/a" if np.isnan(v) else f"{v:.1f}" if scale > 1 else f"{v:.2f}"
            ax.annotate(f"{txt}\nn={stats[r][m]['n']}", (b.get_x() + b.get_width() / 2, b.get_height()),
                        ha="center", va="bottom", fontsize=7)
        ax.set_xticks(range(len(runs)), [r[:14] for r in runs], fontsize=7, rotation=20)
        ax.set_title(name + (" (%)" if scale > 1 else " (m)" if name in ("NE", "ADO") else ""),
                     fontsize=9)
        top = np.nanmax(vals) if not np.all(np.isnan(vals)) else 1.0
        ax.set_ylim(0, (100.0 if scale > 1 else max(top, 1e-9)) * 1.3)
        ax.tick_params(labelsize=7)
    fig.tight_layout()
    return FigureImage("bars", "Metrics per run", png_bytes(fig),
                       "Means over reachable episodes that define the metric; n under each value.")


def success_vs_length(rows_by_run: RowsByRun, bins: int = 5) -> FigureImage | None:
    """Success rate per path-length bin (equal-width bins of L over all runs), one line per run."""
    L = np.array([float(r["geodesic_length"]) for rows in rows_by_run.values() for r in rows
                  if r.get("geodesic_length") is not None])
    if len(L) == 0:
        return None
    edges = np.histogram_bin_edges(L, bins=bins if np.ptp(L) > 0 else 1)
    centres = 0.5 * (edges[:-1] + edges[1:])
    fig = _new_figure(6.4, 4.0)
    ax = fig.add_subplot(1, 1, 1)
    for i, (run, rows) in enumerate(rows_by_run.items()):
        with_l = [r for r in rows if r.get("geodesic_length") is not None]
        idx = np.clip(np.searchsorted(edges, [float(r["geodesic_length"]) for r in with_l],
                                      side="right") - 1, 0, len(centres) - 1)
        sr, ns = [], []
        for b in range(len(centres)):
            m = aggregate([r for r, j in zip(with_l, idx, strict=True) if j == b], ["success"])
            sr.append(np.nan if m["metrics"]["success"]["mean"] is None
                      else 100 * m["metrics"]["success"]["mean"])
            ns.append(m["metrics"]["success"]["n"])
        color = RUN_COLORS[i % len(RUN_COLORS)]
        ax.plot(centres, sr, "o-", color=color, label=run)
        for x, y, n in zip(centres, sr, ns, strict=True):
            if n:
                ax.annotate(f"n={n}", (x, y), textcoords="offset points", xytext=(0, 5),
                            fontsize=6, color=color, ha="center")
    ax.set_xlabel("shortest-path length L (m)")
    ax.set_ylabel("success rate (%)")
    ax.set_ylim(-5, 110)
    ax.set_xticks(edges, [f"{e:.1f}" for e in edges], fontsize=7)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    return FigureImage("success_vs_length", "Success vs path length", png_bytes(fig),
                       f"SR per bin of L ({len(centres)} equal-width bins over all runs).")


@dataclass(frozen=True, eq=False)
class BevEpisode:
    """What a BEV map of one episode shows (world-frame metres).

    Attributes:
        scene: the scene drawn underneath.
        episode_id: the episode.
        start: start position (3,).
        goals: correct-branch goal positions (G, 3), drawn green.
        branch_goals: goals of the other branches (B, 3), drawn red.
        reference_path: reference locations (R, 3), dashed.
        subgoals: ordered subgoals of the correct branch (M, 3).
        trajectories: run name → positions (T, 3) the agent took.
        outcomes: run name → ``branch_outcome`` (colours the end marker).
    """

    scene: Scene
    episode_id: str
    start: np.ndarray
    goals: np.ndarray
    branch_goals: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    reference_path: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    subgoals: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    trajectories: Mapping[str, np.ndarray] = field(default_factory=dict)
    outcomes: Mapping[str, str] = field(default_factory=dict)


def _pts(a: Any) -> np.ndarray:
    return np.asarray(a, dtype=float).reshape(-1, 3)


def bev_map(ep: BevEpisode, *, margin: float = 2.0) -> FigureImage:
    """Bird's-eye view of one episode: the scene, the reference path (dashed), every run's
    trajectory (one colour per run, end marker coloured by outcome), the correct-branch goal
    (green star), other branch goals (red crosses), subgoals (numbered) and the start (black
    triangle). The view is cropped to the drawn points plus ``margin`` metres."""
    from navbench.report.bev import draw_scene

    fig = _new_figure(6.4, 6.0)
    ax = fig.add_subplot(1, 1, 1)
    draw_scene(ax, ep.scene, labels=True)
    pts = [_pts(ep.start), _pts(ep.goals), _pts(ep.branch_goals), _pts(ep.reference_path)]
    ref = _pts(ep.reference_path)
    if len(ref):
        ax.plot(ref[:, 0], ref[:, 2], "--", color="black", lw=1.2, zorder=30, label="reference path")
    for i, (run, p) in enumerate(ep.trajectories.items()):
        p = _pts(p)
        pts.append(p)
        color = RUN_COLORS[i % len(RUN_COLORS)]
        outcome = ep.outcomes.get(run, "")
        ax.plot(p[:, 0], p[:, 2], "-", color=color, lw=1.6, zorder=31,
                label=f"{run}: {outcome.replace('_', ' ') or 'taken'}")
        ax.scatter([p[-1, 0]], [p[-1, 2]], s=45, marker="o", zorder=33, edgecolors=color,
                   c=OUTCOME_COLORS.get(outcome, "white"), linewidths=1.5)
    g, b, s = _pts(ep.goals), _pts(ep.branch_goals), _pts(ep.subgoals)
    if len(b):
        ax.scatter(b[:, 0], b[:, 2], s=110, marker="X", c="#d62728", zorder=34,
                   edgecolors="white", linewidths=0.8, label="other branch goals")
    if len(g):
        ax.scatter(g[:, 0], g[:, 2], s=160, marker="*", c="#2ca02c", zorder=35,
                   edgecolors="white", linewidths=0.8, label="correct branch goal")
    for k, q in enumerate(s):
        ax.annotate(str(k + 1), (q[0], q[2]), fontsize=7, color="#2ca02c", zorder=36,
                    fontweight="bold", xytext=(4, 4), textcoords="offset points")
    st = _pts(ep.start)
    ax.scatter(st[:, 0], st[:, 2], s=70, marker="^", c="black", zorder=36, label="start")
    a = np.vstack([q for q in pts if len(q)])
    ax.set_xlim(a[:, 0].min() - margin, a[:, 0].max() + margin)
    ax.set_ylim(a[:, 2].max() + margin, a[:, 2].min() - margin)  # north (-Z) up
    ax.set_aspect("equal")
    ax.set_title(f"episode {ep.episode_id} · {ep.scene.id}", fontsize=9)
    ax.legend(fontsize=6, loc="lower left", framealpha=0.85).set_zorder(40)
    fig.tight_layout()
    outs = ", ".join(f"{r}: {o}" for r, o in ep.outcomes.items())
    return FigureImage(f"bev_{safe_name(str(ep.episode_id))}", f"Episode {ep.episode_id}", png_bytes(fig),
                       "Green star: correct branch goal; red X: other branch goals; dashed: "
                       f"reference; end dot colour = outcome ({outs or 'n/a'}).")
