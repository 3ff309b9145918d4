"""Episode pages: the "why did it fail" view of sampled failed episodes, linked from the tables.

:func:`select_samples` takes, per report section (task) and run, the failed reachable episodes
that have a trajectory, grouped like the tables count them — task · scene kind × termination
label × branch outcome — and samples up to ``per_group`` of each group in natural episode-id
order (first samples of every group before second ones, at most ``max_pages`` in all). :func:`write_pages` writes one
self-contained page per sample into ``OUT/episodes/``: the instruction, the outcome and
metrics, a bird's-eye map of this run's path with the key moments numbered
(:mod:`navbench.report.moments`), and the robot's first-person view at each moment re-rendered
from the recorded pose (:mod:`navbench.report.episode_frames`; optional). :func:`table_links`
gives the links the termination and branch-confusion cells carry to these pages.
"""

from __future__ import annotations

import base64
import html
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from navbench.episodes import Episode
from navbench.io import atomic_write_text
from navbench.jsontypes import JSONMapping
from navbench.metrics import EpisodeFacts
from navbench.paths import inside, safe_name
from navbench.report.cells import DASH
from navbench.report.figures import BevEpisode, bev_figure, png_bytes
from navbench.report.html import _CSS
from navbench.report.html_table import Key, Links
from navbench.report.moments import Moment, key_moments
from navbench.report.sections import Section
from navbench.report.tables import _label
from navbench.scene.model import Scene

log = logging.getLogger(__name__)
Row = JSONMapping
#: Recorded arrays per run and episode: ``yaw`` (rad), ``t`` (s), ``collision`` (per step).
Records = Mapping[str, Mapping[str, Mapping[str, np.ndarray]]]
MOMENT_COLOR = "#111111"


def termination(r: Row) -> str:
    """The termination label of a row (as the termination table reads it)."""
    return str(r.get("termination") or r.get("label") or "n/a")


def instruction_of(ep: Episode) -> str:
    """What the agent was told: the instruction text, else the goal category."""
    if ep.instruction_text:
        return ep.instruction_text
    if ep.object_category:
        return f"(no instruction text: the goal is the nearest {ep.object_category})"
    return "(no instruction text)"


@dataclass(frozen=True)
class Sample:
    """One failed episode of one run, sampled for a page.

    Attributes:
        task: the report section's task. run: the run's name in that section.
        source: the run's key in the trajectories. episode_id, row: the episode and its row.
        label, outcome: termination label and branch outcome ("" when none).
        rank, of: its number among the group's samples and the group's failed episodes.
    """

    task: str
    run: str
    source: str
    episode_id: str
    row: Row
    label: str
    outcome: str
    rank: int
    of: int

    @property
    def page(self) -> str:
        """The page's path relative to the report folder."""
        return f"episodes/{safe_name(f'{self.task}-{self.run}-{self.episode_id}')}.html"

    @property
    def group(self) -> str:
        """The termination table's row label: ``task · scene kind``."""
        return group_of(self.row)


def group_of(r: Row) -> str:
    """The termination table's row label of a row: ``task · scene kind``."""
    return f"{_label(r.get('task'))} · {_label(r.get('scene_kind'))}"


def select_samples(sections: Sequence[tuple[str, Mapping[str, Sequence[Row]]]],
                   has_trajectory: Callable[[str, str, str], str | None], per_group: int = 2,
                   max_pages: int = 120) -> list[Sample]:
    """Samples of failed episodes per task, run, ``task · scene kind``, termination label and
    branch outcome (see the module docstring).

    ``sections`` are ``(task, rows_by_run)``; ``has_trajectory(task, run, episode_id)`` returns
    the run's key in the trajectories, or ``None`` when there is no trajectory.
    """
    from navbench.eval.records import natural_key

    groups: list[list[Sample]] = []
    for task, rows_by_run in sections:
        for run, rows in rows_by_run.items():
            by: dict[tuple[str, str, str], list[tuple[str, Row, str]]] = {}
            for r in sorted(rows, key=lambda r: natural_key(str(r.get("episode_id")))):
                if r.get("success") or not r.get("reachable", True):
                    continue
                src = has_trajectory(task, run, str(r.get("episode_id")))
                if src is not None:
                    key = (group_of(r), termination(r), str(r.get("branch_outcome") or ""))
                    by.setdefault(key, []).append((str(r.get("episode_id")), r, src))
            for (_, lab, out), members in sorted(by.items()):
                groups.append([Sample(task, run, src, eid, r, lab, out, k + 1, len(members))
                               for k, (eid, r, src) in enumerate(members[:per_group])])
    picked: list[Sample] = []
    for k in range(per_group):
        picked += [g[k] for g in groups if len(g) > k]
    keep = set(map(id, picked[:max_pages]))
    return [s for g in groups for s in g if id(s) in keep]


def table_links(samples: Sequence[Sample], task: str) -> dict[str, Links]:
    """Links of one section's tables to its pages: termination cells ``(run, task · scene
    kind) × label`` and branch-confusion cells ``(run, category | all) × outcome``."""
    term: dict[tuple[Key, Key], list[str]] = {}
    branch: dict[tuple[Key, Key], list[str]] = {}
    for s in samples:
        if s.task != task:
            continue
        term.setdefault(((s.run, s.group), (s.label,)), []).append(s.page)
        if s.outcome:
            for cat in ("all", _label(s.row.get("category"))):
                branch.setdefault(((s.run, cat), (s.outcome,)), []).append(s.page)
    return {key: {cell: [(page, str(k)) for k, page in enumerate(pages, start=1)]
                  for cell, pages in cells.items()}
            for key, cells in (("termination", term), ("branch_confusion", branch))}


# ----------------------------------------------------------------------------- pages

def _img(mime: str, data: bytes, alt: str) -> str:
    return (f'<img alt="{html.escape(alt)}" src="data:{mime};base64,'
            f'{base64.b64encode(data).decode("ascii")}">')


def _map_png(ep: Episode, scene: Scene, run: str, pos: np.ndarray, outcome: str,
             moments: Sequence[Moment], color: str) -> bytes:
    """The episode's bird's-eye map with this run's path and the moments numbered on it."""
    f = EpisodeFacts.from_episode(ep)
    bev = BevEpisode(scene, str(ep.episode_id), f.start_position, f.goal_positions, f.branch_goals,
                     f.reference_path, f.subgoals, {run: pos}, {run: outcome}, {run: color})
    fig = bev_figure(bev)
    ax = fig.axes[0]
    for k, m in enumerate(moments, start=1):
        x, z = float(pos[m.step, 0]), float(pos[m.step, 2])
        ax.annotate(str(k), (x, z), xytext=(-9, 9), textcoords="offset points", fontsize=7,
                    color="white", fontweight="bold", ha="center", va="center", zorder=40,
                    bbox={"boxstyle": "circle,pad=0.25", "fc": MOMENT_COLOR, "ec": "white", "lw": 0.6})
    return png_bytes(fig)


def _facts_rows(s: Sample, ep: Episode, scene: Scene, robot: str) -> list[tuple[str, str]]:
    r = s.row

    def num(key: str, fmt: str, scale: float = 1.0) -> str:
        v = r.get(key)
        return DASH if not isinstance(v, (int, float)) else format(float(v) * scale, fmt)

    why = (f"sample {s.rank} of the {s.of} failed {s.group} episodes of {s.run} that ended "
           f"'{s.label}'" + (f" at '{s.outcome}'" if s.outcome else ""))
    return [("task", s.task), ("run", s.run), ("episode", s.episode_id),
            ("scene", f"{scene.id} ({scene.kind})"), ("ended", s.label),
            ("branch outcome", s.outcome or DASH), ("SPL", num("spl", ".2f")),
            ("distance to goal at the stop (m)", num("ne", ".2f")),
            ("path length (m)", num("path_length", ".2f")),
            ("shortest path L (m)", num("geodesic_length", ".2f")),
            *([("category", _label(r.get("category")))] if r.get("category") is not None else []),
            ("frames", f"{robot} head camera"), ("why this page", why)]


def page_html(s: Sample, ep: Episode, scene: Scene, robot: str, map_png: bytes,
              moments: Sequence[Moment], times: Sequence[float | None],
              frames: Sequence[bytes] | None) -> str:
    """One episode page (see the module docstring); every text is escaped."""
    e = html.escape
    title = f"Episode {s.episode_id} · {s.run} · {s.label}"
    facts = "".join(f"<tr><th>{e(k)}</th><td>{e(v)}</td></tr>"
                    for k, v in _facts_rows(s, ep, scene, robot))
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>{e(title)}</title>",
           f"<style>{_CSS}\ndiv.frames{{display:flex;flex-wrap:wrap;gap:8px}}"
           "div.frames figure{margin:0}ol.moments{font-size:13px}</style></head><body>",
           '<p class="note"><a href="../report.html">← report</a></p>', f"<h1>{e(title)}</h1>",
           f'<table class="meta">{facts}</table>', "<h2>Instruction</h2>",
           f'<p class="instr">{e(instruction_of(ep))}</p>', "<h2>Path and key moments</h2>"]
    items = "".join(f"<li>{e(m.text)} · step {m.step}" + (f" · t = {t:.1f} s" if t is not None else "")
                    + "</li>" for m, t in zip(moments, times, strict=True))
    out.append(f'<figure>{_img("image/png", map_png, "map of episode " + s.episode_id)}'
               "<figcaption>Numbered dots: the key moments below, on this run's path (end dot "
               "colour = outcome). Green star: correct goal; red X: other branch goals; "
               "dashed: reference path; green numbers: subgoals.</figcaption></figure>")
    out.append(f'<ol class="moments">{items}</ol>')
    if frames:
        out.append("<h2>What the robot saw</h2>")
        figs = "".join(f'<figure>{_img("image/jpeg", f, f"view {k}")}<figcaption>{k}. '
                       f"{e(m.text)}</figcaption></figure>"
                       for k, (m, f) in enumerate(zip(moments, frames, strict=True), start=1))
        out.append(f'<div class="frames">{figs}</div>')
        out.append(f'<p class="note">Re-rendered from the recorded poses with the {e(robot)} '
                   "head camera (no physics): what the agent's camera saw at each moment.</p>")
    out.append("</body></html>\n")
    return "\n".join(out)


def write_pages(samples: Sequence[Sample], out: Path, episodes: Mapping[str, Episode],
                scene_of: Callable[[Episode], Scene | None], trajectories: Mapping[str, Mapping[str, np.ndarray]],
                records: Records, *, colors: Mapping[str, str], frames: bool = True,
                progress: Callable[[str], None] | None = None) -> list[Sample]:
    """Write the page of every sample whose episode and scene are known; returns those."""
    from navbench.report.episode_frames import FrameRenderer
    from navbench.scene.stages import classify_positions

    todo = []
    for s in samples:
        ep = episodes.get(s.episode_id)
        scene = scene_of(ep) if ep is not None else None
        if ep is not None and scene is not None:
            todo.append((s, ep, scene))
    todo.sort(key=lambda x: (x[2].id, robot_of(x[0].row, x[2])))  # one world per scene and robot
    renderer = FrameRenderer() if frames else None
    written: list[Sample] = []
    try:
        for s, ep, scene in todo:
            if progress is not None:
                progress(f"episode page {len(written) + 1}/{len(todo)}")
            pos = np.asarray(trajectories[s.source][s.episode_id], dtype=float).reshape(-1, 3)
            rec = records.get(s.source, {}).get(s.episode_id, {})
            f = EpisodeFacts.from_episode(ep)
            i2o = (bool(scene.rooms) and scene.kind == "hybrid" and len(f.goal_positions) > 0
                   and list(classify_positions(scene, np.vstack([f.start_position, f.goal_positions[0]])))
                   == ["indoor", "outdoor"])  # an indoor-to-outdoor episode: the exit matters
            moments = key_moments(
                pos, tau=f.success_distance, subgoals=f.subgoals, reference=f.reference_path,
                outdoor=(classify_positions(scene, pos) == "outdoor") if i2o else None,
                exits=[p.center for p in scene.portals if p.kind == "exit"],
                contacts=rec.get("collision"), stop_text=f"stop: {s.label}")
            t = rec.get("t")
            times = [float(t[m.step]) if t is not None and len(t) > m.step else None for m in moments]
            robot = robot_of(s.row, scene)
            png = _map_png(ep, scene, s.run, pos, s.outcome, moments, colors.get(s.run, "#1f77b4"))
            shots = None
            if renderer is not None:
                try:
                    shots = renderer.frames(scene, robot, pos, rec.get("yaw"), [m.step for m in moments])
                except Exception as e:  # no GL here (MUJOCO_GL): the pages go on without frames
                    log.warning("episode pages: no first-person frames (%s)", e)
                    renderer.close()
                    renderer = None
            atomic_write_text(inside(out, s.page), page_html(s, ep, scene, robot, png, moments, times, shots))
            written.append(s)
    finally:
        if renderer is not None:
            renderer.close()
    return written


def robot_of(row: Row, scene: Scene) -> str:
    """The robot whose camera the frames use: the run's embodiment, else Turtlebot indoors and
    Spot elsewhere (navbench's defaults)."""
    name = row.get("run_embodiment")
    return str(name) if isinstance(name, str) and name else ("turtlebot" if scene.kind == "indoor" else "spot")


def with_instruction(fig_caption: str, ep: Episode | None) -> str:
    """A map caption that starts with the episode's instruction."""
    return fig_caption if ep is None else f"Instruction: “{instruction_of(ep)}” {fig_caption}"


def index_html(samples: Sequence[Sample], task: str) -> str:
    """The list of one section's episode pages, by run and by termination label / outcome."""
    mine = [s for s in samples if s.task == task]
    if not mine:
        return ""
    by: dict[str, dict[str, list[Sample]]] = {}
    for s in mine:
        what = f"{s.group}: {s.label}" + (f" at {s.outcome}" if s.outcome else "")
        by.setdefault(s.run, {}).setdefault(what, []).append(s)
    items = []
    for run, groups in by.items():
        parts = [f"{html.escape(g)}: " + " ".join(f'<a href="{html.escape(s.page)}">{s.rank}</a>' for s in ss)
                 + f" <span class=\"n\">(of {ss[0].of})</span>" for g, ss in groups.items()]
        items.append(f"<li><b>{html.escape(run)}</b> — " + "; ".join(parts) + "</li>")
    return ('<h3>Failed episodes, one page each</h3>\n<p class="note">Sampled failures per run, '
            "termination label and branch outcome (the same links stand in the termination and "
            "branch-confusion cells): the instruction, this run's path on the map with its key "
            "moments, and what the robot's camera saw at each.</p>\n"
            f'<ul class="eps">{"".join(items)}</ul>\n')



def episode_pages_for(sections: Sequence[Section], out: Path, episodes: Mapping[str, Episode],
                      scene_of: Callable[[Episode], Scene | None],
                      trajectories: Mapping[str, Mapping[str, np.ndarray]], records: Records, *,
                      colors: Mapping[str, str], per_group: int = 2, max_pages: int = 120,
                      frames: bool = True, progress: Callable[[str], None] | None = None) -> list[Sample]:
    """Sample and write the pages of the report's sections into ``out/episodes`` (a run named
    ``agent · task`` in the trajectories is ``agent`` in its task's section), and remove pages
    an earlier report left there; returns the pages written."""
    pages: list[Sample] = []
    if per_group > 0 and episodes:
        def source(task: str, run: str, eid: str) -> str | None:
            return next((n for n in (run, f"{run} · {task}") if eid in trajectories.get(n, {})), None)

        samples = select_samples([(sec.task, sec.rows_by_run) for sec in sections], source,
                                 per_group, max_pages)
        pages = write_pages(samples, out, episodes, scene_of, trajectories, records, colors=colors,
                            frames=frames, progress=progress)
    keep = {out / s.page for s in pages}
    for old in sorted((out / "episodes").glob("*.html")):
        if old not in keep:
            old.unlink()
    return pages
