"""Report figures (matplotlib, Agg, object-oriented API only): bar charts per metric across
runs, success rate vs path length, and bird's-eye views of episodes with their trajectories.

Every function returns a :class:`~navbench.report.html.FigureImage` (PNG bytes, and PDF / SVG
with ``vector=True``; deterministic: no timestamps, no software tag) or ``None`` when the inputs
hold nothing to draw. Means carry their 95% intervals (:mod:`navbench.metrics.stats`) as error
bars. BEV maps use
the world XZ plane in metres with x to the right and north (-Z) up, like
:mod:`navbench.report.bev`.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from navbench.metrics.aggregate import metric_values
from navbench.metrics.spec import BY_KEY, METRICS, MetricSpec
from navbench.metrics.stats import BOOTSTRAP_RESAMPLES, SEED, mean_interval
from navbench.paths import safe_name
from navbench.report.html import FigureImage
from navbench.report.tables import Row, RowsByRun
from navbench.scene.model import Scene

if TYPE_CHECKING:  # matplotlib is imported lazily at run time
    from matplotlib.figure import Figure

#: Metrics drawn as bar charts (``bar`` in the metric table), in table order.
BAR_METRICS = tuple(m.key for m in METRICS if m.bar)
#: Colour of a trajectory's end marker by where it ended (branch confusion outcome).
OUTCOME_COLORS = {"correct": "#2ca02c", "other_branch": "#d62728", "elsewhere": "#7f7f7f"}
RUN_COLORS = ("#1f77b4", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22",
              "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173")
#: Bins with fewer episodes are drawn as markers only (no trend line through them).
MIN_TREND_N = 5


def run_colors(names: Sequence[str]) -> dict[str, str]:
    """One colour per distinct run name (first-seen order), the same in every figure."""
    out: dict[str, str] = {}
    for n in names:
        if n not in out:
            out[n] = RUN_COLORS[len(out) % len(RUN_COLORS)]
    return out


#: Run names up to this many characters go in a legend beside the success-vs-length axes;
#: longer ones below it, cut to :data:`LEGEND_MAX_CHARS` (the tables carry the full names).
LEGEND_BESIDE_CHARS = 28
LEGEND_MAX_CHARS = 48


def _new_figure(w: float, h: float) -> Figure:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(w, h), dpi=100)
    FigureCanvasAgg(fig)
    return fig


def png_bytes(fig: Figure, dpi: int = 100) -> bytes:
    """PNG bytes of a matplotlib figure, without metadata that varies between machines."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, metadata={"Software": None})
    return buf.getvalue()


#: Metadata left out of vector files so that they are byte-identical for identical inputs.
_NO_DATES = {"pdf": {"CreationDate": None, "ModDate": None}, "svg": {"Date": None}}


def vector_bytes(fig: Figure) -> tuple[tuple[str, bytes], ...]:
    """The figure as PDF (TrueType fonts embedded as Type 42, which publishers accept, not
    Type 3) and SVG (element ids from a fixed salt), without dates."""
    from matplotlib import rc_context

    out = []
    with rc_context({"pdf.fonttype": 42, "svg.hashsalt": "navbench", "svg.fonttype": "path"}):
        for ext in ("pdf", "svg"):
            buf = io.BytesIO()
            fig.savefig(buf, format=ext, metadata=_NO_DATES[ext])
            out.append((ext, buf.getvalue()))
    return tuple(out)


def _image(key: str, title: str, fig: Figure, caption: str, vector: bool) -> FigureImage:
    return FigureImage(key, title, png_bytes(fig), caption, vector_bytes(fig) if vector else ())


def _estimate(rows: Sequence[Row], key: str) -> tuple[float, int, float, float]:
    """Mean of ``key`` over the rows that define it, n, and its 95% interval (NaN when none)."""
    vals = metric_values(rows, key)
    spec = BY_KEY.get(key)
    if not vals:
        return np.nan, 0, np.nan, np.nan
    iv = mean_interval(vals, spec is not None and spec.binary)
    return (float(np.mean(vals)), len(vals), np.nan if iv is None else iv.lo,
            np.nan if iv is None else iv.hi)


def bar_charts(rows_by_run: RowsByRun, metrics: Sequence[str] = BAR_METRICS, *,
               task: str | None = None, colors: Mapping[str, str] | None = None,
               vector: bool = False) -> FigureImage | None:
    """One horizontal bar chart per metric (one bar per run, one colour per run, full run
    names on the y axis), each bar with its 95% interval as an error bar and labelled with its
    value and n. Only metrics that apply to ``task`` and that some episode defines are drawn.
    ``vector``: also PDF and SVG."""
    shown_specs = [BY_KEY[m] for m in metrics if m in BY_KEY and BY_KEY[m].applies(task)]
    est = {run: {s.key: _estimate(rows, s.key) for s in shown_specs}
           for run, rows in rows_by_run.items()}
    shown = [s for s in shown_specs if any(e[s.key][1] for e in est.values())]
    if not shown:
        return None
    runs = list(rows_by_run)
    col = colors or run_colors(runs)
    cols = min(3, len(shown))
    nrow = -(-len(shown) // cols)
    h_ax = 0.9 + 0.32 * len(runs)
    fig = _new_figure(4.6 * cols, h_ax * nrow + 0.4)
    for k, spec in enumerate(shown):
        ax = fig.add_subplot(nrow, cols, k + 1)
        scale = 100.0 if spec.is_rate else 1.0
        vals = np.array([est[r][spec.key][0] for r in runs]) * scale
        lo = np.array([est[r][spec.key][2] for r in runs]) * scale
        hi = np.array([est[r][spec.key][3] for r in runs]) * scale
        y = np.arange(len(runs))[::-1]
        ax.barh(y, np.nan_to_num(vals), color=[col.get(r, "#777777") for r in runs], height=0.7)
        has = ~np.isnan(lo)
        if has.any():
            ax.errorbar(vals[has], y[has], xerr=[vals[has] - lo[has], hi[has] - vals[has]], fmt="none",
                        ecolor="#222222", elinewidth=0.9, capsize=2.5, zorder=3)
        ends = np.where(has, hi, vals)
        top = 100.0 if spec.is_rate else max(np.nanmax(ends) if not np.all(np.isnan(ends)) else 1.0, 1e-9)
        for yi, v, e, r in zip(y, vals, ends, runs, strict=True):
            n = est[r][spec.key][1]
            txt = "n/a" if np.isnan(v) else f"{v:.1f}" if scale > 1 else f"{v:.2f}"
            ax.text((0 if np.isnan(e) else e) + 0.01 * top, yi, f"{txt} (n={n})", va="center", fontsize=8)
        if k % cols == 0:
            ax.set_yticks(y, runs, fontsize=8)
        else:  # the run names stand on the left of each row of charts only
            ax.set_yticks(y, [""] * len(runs))
            ax.tick_params(axis="y", length=0)
        unit = f" ({spec.unit})" if spec.unit else ""
        ax.set_title(spec.label + unit, fontsize=10)
        ax.set_xlim(0, top * 1.45)
        if spec.is_rate:
            ax.set_xticks([0, 25, 50, 75, 100])
        ax.tick_params(axis="x", labelsize=8)
        ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    return _image("bars", "Metrics per run", fig,
                  "Means over reachable episodes that define the metric; n after each value; "
                  f"error bars: 95% intervals ({_methods_caption(shown)}). One colour per run, "
                  "the same in every figure.", vector)


def _methods_caption(specs: Sequence[MetricSpec]) -> str:
    binary = [s.label for s in specs if s.binary]
    other = [s.label for s in specs if not s.binary]
    parts = ([f"Wilson score for {', '.join(binary)}"] if binary else []) + (
        [f"percentile bootstrap over episodes, B = {BOOTSTRAP_RESAMPLES}, seed {SEED}, for "
         f"{', '.join(other)}"] if other else [])
    return "; ".join(parts)


def success_vs_length(rows_by_run: RowsByRun, bins: int = 5, *,
                      colors: Mapping[str, str] | None = None, vector: bool = False) -> FigureImage | None:
    """Success rate per path-length bin (equal-width bins of L over all runs): per run one
    marker per bin (area ∝ n, runs side by side within a bin so none hides another) with its
    95% Wilson interval as an error bar; a line joins consecutive bins only when both hold at
    least :data:`MIN_TREND_N` episodes. ``vector``: also PDF and SVG."""
    L = np.array([float(r["geodesic_length"]) for rows in rows_by_run.values() for r in rows
                  if r.get("geodesic_length") is not None])
    if len(L) == 0:
        return None
    edges = np.histogram_bin_edges(L, bins=bins if np.ptp(L) > 0 else 1)
    centres = 0.5 * (edges[:-1] + edges[1:])
    width = float(edges[1] - edges[0]) if len(edges) > 1 else 1.0
    runs = list(rows_by_run)
    col = colors or run_colors(runs)
    fig = _new_figure(8.6, 4.4)
    ax = fig.add_subplot(1, 1, 1)
    for i, run in enumerate(runs):
        with_l = [r for r in rows_by_run[run] if r.get("geodesic_length") is not None]
        idx = np.clip(np.searchsorted(edges, [float(r["geodesic_length"]) for r in with_l],
                                      side="right") - 1, 0, len(centres) - 1)
        got = [_estimate([r for r, j in zip(with_l, idx, strict=True) if j == b], "success")
               for b in range(len(centres))]
        sr = [100 * g[0] for g in got]
        ns = [g[1] for g in got]
        x = centres + (i - (len(runs) - 1) / 2) * width * 0.6 / max(len(runs), 1)
        c = col.get(run, "#777777")
        has = [n > 0 for n in ns]
        ci = np.array([(100 * g[2], 100 * g[3]) for g in got])
        ok = np.array(has) & ~np.isnan(ci[:, 0])
        if ok.any():
            ax.errorbar(x[ok], np.asarray(sr)[ok], yerr=[np.asarray(sr)[ok] - ci[ok, 0],
                                                         ci[ok, 1] - np.asarray(sr)[ok]],
                        fmt="none", ecolor=c, elinewidth=0.9, capsize=2, alpha=0.8, zorder=2.5)
        ax.scatter(x[has], np.asarray(sr)[has], s=[18 + 10 * n for n, h in zip(ns, has, strict=True) if h],
                   color=c, edgecolors="white", linewidths=0.6, zorder=3,
                   label=run if len(run) <= LEGEND_MAX_CHARS else run[:LEGEND_MAX_CHARS - 1] + "…")
        for b in range(len(centres) - 1):
            if ns[b] >= MIN_TREND_N and ns[b + 1] >= MIN_TREND_N:
                ax.plot(x[b:b + 2], sr[b:b + 2], "-", color=c, lw=1.4, zorder=2)
        for xi, y, n, top in zip(x, sr, ns, ci[:, 1], strict=True):
            if n:  # above the error bar, or above the marker (radius √s / 2 pt) when it is higher
                at = top if np.isfinite(top) else y
                lift = 3 + (np.sqrt(18 + 10 * n) / 2 if at - y < 4 else 0)
                ax.annotate(f"{n}", (xi, at), textcoords="offset points", xytext=(0, lift),
                            fontsize=7, color=c, ha="center")
    ax.set_xlabel("shortest-path length L (m)")
    ax.set_ylabel("success rate (%)")
    ax.set_ylim(-5, 112)
    ax.set_xticks(edges, [f"{e:.1f}" for e in edges], fontsize=8)
    ax.grid(alpha=0.3)
    if max((len(r) for r in runs), default=0) <= LEGEND_BESIDE_CHARS:
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    else:  # long run names beside the axes would squeeze them to nothing: a legend below
        ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.14), frameon=False,
                  ncol=max(1, min(len(runs), 2)))
    fig.tight_layout()
    return _image("success_vs_length", "Success vs path length", fig,
                  f"SR per bin of L ({len(centres)} equal-width bins over all runs); marker "
                  f"area and the number above its error bar = episodes in the bin; error bars: "
                  f"95% Wilson score intervals; lines only between bins of ≥ {MIN_TREND_N} "
                  "episodes.", vector)


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
        colors: run name → line colour (default: :data:`RUN_COLORS` in order).
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
    colors: Mapping[str, str] = field(default_factory=dict)


def _pts(a: npt.ArrayLike) -> np.ndarray:
    return np.asarray(a, dtype=float).reshape(-1, 3)


def bev_map(ep: BevEpisode, *, margin: float = 1.0, vector: bool = False) -> FigureImage:
    """The PNG (and with ``vector`` PDF and SVG) of :func:`bev_figure` with its caption."""
    outs = ", ".join(f"{r}: {o}" for r, o in ep.outcomes.items())
    return _image(f"bev_{safe_name(str(ep.episode_id))}", f"Episode {ep.episode_id}",
                  bev_figure(ep, margin=margin),
                  "Green star: correct branch goal; red X: other branch goals; dashed: "
                  f"reference; end dot colour = outcome ({outs or 'n/a'}).", vector)


def bev_figure(ep: BevEpisode, *, margin: float = 1.0) -> Figure:
    """Bird's-eye view of one episode: the scene, the reference path (dashed), every run's
    trajectory (one colour per run, end marker coloured by outcome), the correct-branch goal
    (green star), other branch goals (red crosses), subgoals (numbered) and the start (black
    triangle). The view (:func:`~navbench.report.bev_layout.episode_extent`, ``margin`` metres
    around) holds the whole scene indoors and, in outdoor and hybrid scenes, the episode's
    points and the buildings they lie in; the figure is sized to the view with the legend beside or
    below the map (:func:`~navbench.report.bev_layout.map_layout`)."""
    from navbench.report.bev import draw_scene
    from navbench.report.bev_layout import episode_extent, map_layout

    fig = _new_figure(9.0, 6.0)
    ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    pts = [_pts(ep.start), _pts(ep.goals), _pts(ep.branch_goals), _pts(ep.reference_path),
           _pts(ep.subgoals)]
    ref = _pts(ep.reference_path)
    if len(ref):
        ax.plot(ref[:, 0], ref[:, 2], "--", color="black", lw=1.2, zorder=30, label="reference path")
    for i, (run, p) in enumerate(ep.trajectories.items()):
        p = _pts(p)
        pts.append(p)
        color = ep.colors.get(run, RUN_COLORS[i % len(RUN_COLORS)])
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
    extent = episode_extent(ep.scene, pts, margin)
    handles, names = ax.get_legend_handles_labels()
    leg = fig.legend(handles, names, fontsize=8, loc="upper left", frameon=False, borderaxespad=0.0)
    box = leg.get_window_extent()  # inches below: independent of the figure size
    lay = map_layout(extent, (box.width / fig.dpi, box.height / fig.dpi))
    fig.set_size_inches(*lay.size)
    ax.set_position(lay.axes)
    leg.set_bbox_to_anchor(lay.legend_at, transform=fig.transFigure)
    draw_scene(ax, ep.scene, labels=True, limits=extent, north_arrow=False)
    ax.set_title("")  # the scene's own title: the episode's stands on the left
    ax.set_title(f"episode {ep.episode_id} · {ep.scene.id}", fontsize=9, loc="left")
    x1, y1 = lay.axes[0] + lay.axes[2], lay.axes[1] + lay.axes[3]  # the map's top-right corner
    w, h = lay.size  # north arrow above that corner, in the top margin (inches → fractions)
    ax.annotate("", xy=(x1 - 0.1 / w, y1 + 0.46 / h), xytext=(x1 - 0.1 / w, y1 + 0.04 / h),
                xycoords="figure fraction", annotation_clip=False,
                arrowprops={"arrowstyle": "-|>", "color": "black", "lw": 1.2})
    ax.text(x1 - 0.2 / w, y1 + 0.06 / h, "N", transform=fig.transFigure, ha="right",
            va="bottom", fontsize=8, fontweight="bold")
    return fig
