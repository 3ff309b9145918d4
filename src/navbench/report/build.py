"""Build a report folder from evaluation runs (or from plain rows).

``OUT/report.html`` (self-contained), ``OUT/report.md`` (every table), ``OUT/tables/<key>.md``
and ``.csv``, ``OUT/figures/<key>.png``; with ``latex``, ``OUT/tables/<key>.tex``,
``OUT/report.tex`` and ``OUT/figures/<key>.pdf|svg``. Same inputs → byte-identical files.

Rows are the metric dicts of :mod:`navbench.metrics` merged with episode fields (see
:mod:`navbench.report.tables`). :func:`build_report` reads them from run folders through
:class:`navbench.eval.ResultsDB`; episode fields missing from the database are filled from the
episodes file, and indoor-to-outdoor stage fields are derived from the scene and the trajectory
when the rows lack them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import numpy as np

from navbench.episodes import Episode, read_r2r
from navbench.errors import ConfigError
from navbench.io import atomic_write_bytes, atomic_write_text
from navbench.jsontypes import JSONMapping, JSONObject
from navbench.metrics import EpisodeFacts
from navbench.metrics.stages import stage_metrics, transition_metrics
from navbench.paths import inside, safe_name
from navbench.report.episode_pages import (
    Records,
    episode_pages_for,
    index_html,
    table_links,
    with_instruction,
)
from navbench.report.figures import BevEpisode, bar_charts, bev_map, run_colors, success_vs_length
from navbench.report.html import (
    FigureImage,
    markdown_text,
    render_html,
    table_markdown,
    write_tables,
)
from navbench.report.latex import latex_document, write_latex_tables
from navbench.report.runs import load_scenes_for, quarantined_episodes, read_runs, run_cameras
from navbench.report.sections import report_sections
from navbench.report.tables import RowsByRun
from navbench.scene.model import Scene
from navbench.scene.stages import classify_positions

Row = JSONObject  # a metrics row: a JSON record
Trajectories = Mapping[str, Mapping[str, np.ndarray]]


def with_episode_fields(rows: Sequence[JSONMapping], episodes: Mapping[str, Episode]) -> list[Row]:
    """Rows completed with the grouping fields of their episode (row values win)."""
    out = []
    for r in rows:
        ep = episodes.get(str(r.get("episode_id")))
        if ep is None:
            out.append(dict(r))
            continue
        f = EpisodeFacts.from_episode(ep).fields
        out.append({**{k: v for k, v in f.items() if v is not None}, **{k: v for k, v in r.items()
                                                                        if v is not None or k not in f}})
    return out


def stage_fields(scene: Scene, positions: np.ndarray, row: JSONMapping) -> JSONObject:
    """Indoor-to-outdoor stage fields of one trajectory in a scene with rooms
    (:func:`navbench.metrics.stages.stage_metrics` over the scene's indoor/outdoor labels).

    ``reached_outdoor`` (went from a room to outside), ``ce_before_exit`` / ``ce_after_exit``
    (coverage efficiency of the positions up to / from the exit step, cells per metre),
    ``post_exit_failure`` (the termination label when the episode failed after the exit),
    ``steps_to_exit`` and ``path_length_indoor`` / ``path_length_outdoor``
    (:func:`navbench.metrics.stages.transition_metrics`).
    Empty when the trajectory did not start indoors.
    """
    p = np.asarray(positions, dtype=float).reshape(-1, 3)
    labels = classify_positions(scene, p)
    out = stage_metrics(p, labels, succeeded=bool(row.get("success")),
                        termination=str(row.get("termination") or row.get("label") or "n/a"))
    out.update(transition_metrics(p, labels))  # steps to exit and part lengths (no timestamps)
    return out


def _bev_episodes(rows_by_run: RowsByRun, scenes: Mapping[str, Scene], trajectories: Trajectories,
                  episodes: Mapping[str, Episode], limit: int) -> list[BevEpisode]:
    """Up to ``limit`` episodes with a scene and at least one trajectory; episodes where some run
    ended at another branch's goal come first, then natural episode-id order."""
    from navbench.eval.records import natural_key

    outcomes: dict[str, dict[str, str]] = {}
    for run, rows in rows_by_run.items():
        for r in rows:
            eid = str(r.get("episode_id"))
            if eid in episodes and eid in trajectories.get(run, {}):
                outcomes.setdefault(eid, {})[run] = str(r.get("branch_outcome") or "")
    cands = [e for e in outcomes if _scene_for(episodes[e], scenes) is not None]
    cands.sort(key=lambda e: ("other_branch" not in outcomes[e].values(), natural_key(e)))
    out = []
    for eid in cands[:limit]:
        ep = episodes[eid]
        facts = EpisodeFacts.from_episode(ep)
        scene = _scene_for(ep, scenes)
        assert scene is not None
        out.append(BevEpisode(
            scene, eid, facts.start_position, facts.goal_positions, facts.branch_goals,
            facts.reference_path, facts.subgoals,
            {run: trajectories[run][eid] for run in rows_by_run if eid in trajectories.get(run, {})},
            outcomes[eid]))
    return out


def _scene_for(ep: Episode, scenes: Mapping[str, Scene]) -> Scene | None:
    sid = ep.scene_id
    for k in (sid, Path(sid).stem, Path(sid).parent.name, ep.navbench.get("scene")):
        if k and k in scenes:
            return scenes[k]
    return None


def build_report_from_rows(
    rows_by_run: RowsByRun,
    out: str | Path,
    scenes: Mapping[str, Scene] | None = None,
    trajectories: Trajectories | None = None,
    *,
    episodes: Mapping[str, Episode] | Sequence[Episode] | None = None,
    oracle: str | None = None,
    title: str = "navbench report",
    max_bev: int = 6,
    meta: Mapping[str, str] | None = None,
    progress: Callable[[str], None] | None = None,
    latex: bool = False,
    records: Records | None = None,
    episode_pages: int = 2,
    frames: bool = True,
    max_pages: int = 120,
) -> Path:
    """Write the report folder ``out`` from rows; returns the path of ``report.html``.

    Parameters
    ----------
    rows_by_run : mapping
        Run name → per-episode rows (metrics of
        :func:`~navbench.metrics.compute_episode_metrics` + episode fields such as ``task``).
    out : str or Path
        Output folder (created): ``report.html``, ``report.md``, ``tables/<task>/*.csv|md``,
        ``figures/*.png``.
    scenes : mapping, optional
        Scene id → Scene, for BEV maps and stage fields.
    trajectories : mapping, optional
        Run name → episode id → positions ``(T, 3)`` (m, world frame), for BEV maps.
    episodes : mapping or sequence of Episode, optional
        The episodes (for fields missing from rows, goals and reference paths).
    oracle : str, optional
        Name of the oracle run for the gap table (default: the only '*oracle*' run).
    title : str, default "navbench report"
        Report title.
    max_bev : int, default 6
        At most this many BEV maps.
    meta : mapping, optional
        Extra key/value lines shown at the top of the HTML report.
    progress : callable, optional
        Called with a short message before each step.
    latex : bool, default False
        Also write ``tables/<task>/<key>.tex`` (booktabs), ``report.tex`` (compiles with
        pdflatex) and every figure as ``figures/<key>.pdf`` and ``.svg`` beside the PNG.
    records : mapping, optional
        Run name → episode id → recorded arrays (``yaw`` rad, ``t`` s, ``collision``), for the
        episode pages' moments and frames.
    episode_pages : int, default 2
        Failed episodes per run × termination label × branch outcome that get a page
        (``episodes/*.html``, :mod:`navbench.report.episode_pages`); 0 = none.
    frames : bool, default True
        Re-render the robot's first-person view at each key moment on the episode pages.
    max_pages : int, default 120
        At most this many episode pages.

    Returns
    -------
    Path
        ``out / "report.html"``.

    Raises
    ------
    navbench.errors.ConfigError
        If ``rows_by_run`` is empty.

    Examples
    --------
    Two runs of one ObjectNav episode (L = 3.5 m, τ = 1.0 m): one stops 0.5 m from the goal,
    one 2.5 m away. Soft success is 1 − d_T / L: 85.7 % and 28.6 %. SR and OSR carry the Wilson
    interval of 1 (0) successes in 1 episode, [1/(1 + z²), 1] ([0, z²/(1 + z²)]); a mean over
    one episode such as SPL has none.

    >>> import tempfile
    >>> from pathlib import Path
    >>> import numpy as np
    >>> from navbench.metrics import EpisodeFacts, Trajectory, compute_episode_metrics
    >>> from navbench.report.build import build_report_from_rows
    >>> facts = EpisodeFacts("e0", np.zeros(3), np.array([[0.0, 0.0, -3.5]]), np.zeros(1), 1.0,
    ...                      geodesic_distance=3.5)
    >>> def row(z):
    ...     traj = Trajectory("e0", np.array([[0.0, 0.0, 0.0], [0.0, 0.0, z]]))
    ...     return {**compute_episode_metrics(traj, facts), "task": "objectnav"}
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     html = build_report_from_rows({"near": [row(-3.0)], "far": [row(-1.0)]}, Path(tmp) / "r")
    ...     table = (Path(tmp) / "r" / "tables" / "objectnav" / "overall.md").read_text()
    >>> html.name
    'report.html'
    >>> for line in table.splitlines():  # run, episodes, excluded, crashed, SR, OSR, SPL, SS, SoftSPL
    ...     if line.startswith(("| near", "| far")):
    ...         print(" | ".join(line.split(" | ")[:9]))
    | near | 1 | 0 | 0 | 100.0 [20.7, 100.0] (1) | 100.0 [20.7, 100.0] (1) | 100.0 (1) | 85.7 (1) | 85.7 (1)
    | far | 1 | 0 | 0 | 0.0 [0.0, 79.3] (1) | 0.0 [0.0, 79.3] (1) | 0.0 (1) | 28.6 (1) | 28.6 (1)
    """
    step = progress or (lambda _msg: None)
    out = Path(out)
    if not rows_by_run:
        raise ConfigError("report: no run given")
    eps: dict[str, Episode] = {}
    if episodes is not None:
        seq = episodes.values() if isinstance(episodes, Mapping) else episodes
        eps = {str(e.episode_id): e for e in seq}
    scenes = scenes or {}
    trajectories = trajectories or {}
    rows: dict[str, list[Row]] = {}
    for run, rs in rows_by_run.items():
        full = with_episode_fields(rs, eps) if eps else [dict(r) for r in rs]
        for r in full:
            eid = str(r.get("episode_id"))
            pos = trajectories.get(run, {}).get(eid)
            ep = eps.get(eid)
            scene = _scene_for(ep, scenes) if ep is not None else scenes.get(str(r.get("scene_id")))
            if pos is not None and scene is not None and scene.rooms and scene.kind == "hybrid" \
                    and r.get("reached_outdoor") is None:
                r.update({k: v for k, v in stage_fields(scene, pos, r).items() if r.get(k) is None})
        rows[run] = full
    step("tables")
    sections = report_sections(rows, oracle)
    md = [f"# {markdown_text(title)}", "", "Cells: value [95% interval] (n episodes); rates in %. "
          "Each table's note names its interval method.", ""]
    md += [f"{markdown_text(k)}: {markdown_text(v)}" for k, v in (meta or {}).items() if k == LEFT_OUT] \
        + ([""] if meta and LEFT_OUT in meta else [])
    for sec in sections:
        write_tables(sec.tables, out / "tables" / sec.task)
        if latex:
            write_latex_tables(sec.tables, out / "tables" / sec.task, sec.task)
        md += [f"## {sec.title}", ""] + [table_markdown(t) for t in sec.tables]
    atomic_write_text(out / "report.md", "\n".join(md))
    step("figures")
    colors = run_colors([run for sec in sections for run in sec.rows_by_run])
    figs: dict[str, list[FigureImage]] = {}
    for sec in sections:
        figs[sec.task] = [f for f in (bar_charts(sec.rows_by_run, task=sec.task, colors=colors, vector=latex),
                                      success_vs_length(sec.rows_by_run, colors=colors, vector=latex)) if f]
        figs[sec.task] = [dataclasses.replace(f, key=f"{sec.task}_{f.key}") for f in figs[sec.task]]
    bevs = []
    for bev in _bev_episodes(rows, scenes, trajectories, eps, max_bev):
        step(f"BEV map of episode {bev.episode_id}")
        bev = dataclasses.replace(bev, colors={r: colors.get(r.split(" · ")[0], "#777777")
                                               for r in bev.trajectories})
        fig = bev_map(bev, vector=latex)
        bevs.append(dataclasses.replace(fig, caption=with_instruction(fig.caption, eps.get(bev.episode_id))))
    for f in [*(f for fs in figs.values() for f in fs), *bevs]:
        atomic_write_bytes(inside(out / "figures", f"{safe_name(f.key)}.png"), f.png)
        for ext, data in f.vectors:
            atomic_write_bytes(inside(out / "figures", f"{safe_name(f.key)}.{ext}"), data)
    info = {f"runs · {sec.task}": ", ".join(f"{k} ({len(v)} episodes)" for k, v in sec.rows_by_run.items())
            for sec in sections}
    info.update(meta or {})
    pages = episode_pages_for(sections, out, eps, lambda e: _scene_for(e, scenes), trajectories,
                              records or {}, colors=colors, per_group=episode_pages if scenes else 0,
                              max_pages=max_pages, frames=frames, progress=step)
    parts = [(sec.title, sec.tables, figs[sec.task]) for sec in sections]
    if latex:
        atomic_write_text(out / "report.tex", latex_document(
            title, [(sec.task, sec.title, sec.tables, figs[sec.task]) for sec in sections], bevs))
    return atomic_write_text(out / "report.html", render_html(
        title, parts, bevs, info, links=[table_links(pages, sec.task) for sec in sections],
        extras=[index_html(pages, sec.task) for sec in sections]))


#: The report line that counts quarantined episodes (left out of every table).
LEFT_OUT = "left out (quarantined)"


def build_report(
    runs: Sequence[str | Path],
    out: str | Path,
    *,
    episodes_file: str | Path | None = None,
    dataset: str | Path | None = None,
    split: str | None = None,
    scene_roots: Sequence[str | Path] = (),
    oracle: str | None = None,
    title: str = "navbench report",
    max_bev: int = 6,
    progress: Callable[[str], None] | None = None,
    latex: bool = False,
    episode_pages: int = 2,
    frames: bool = True,
    max_pages: int = 120,
) -> Path:
    """Report of the runs in ``runs`` (run folders or ``.sqlite`` files) into ``out``.

    ``episodes_file`` (VLN-CE R2R ``.json.gz``) supplies episode fields, goals and reference
    paths; scenes are looked up under ``scene_roots`` (see :func:`load_scenes_for`). Instead,
    ``dataset`` (a navbench dataset folder) supplies the episodes of the task and split each run
    evaluated (``split`` overrides the runs' split); when the runs cover several tasks, episode
    ids become ``<task>-<id>`` so that tasks whose ids overlap stay apart.

    Parameters
    ----------
    runs : sequence of str or Path
        Run folders of :func:`navbench.eval.pipeline.evaluate` (or their ``results.sqlite``).
    out : str or Path
        Output folder (see :func:`build_report_from_rows`).
    episodes_file, dataset, split, scene_roots
        Where episodes and scenes come from (above).
    oracle, title, max_bev, progress, latex, episode_pages, frames, max_pages
        As in :func:`build_report_from_rows`.

    Returns
    -------
    Path
        The path of ``report.html``.

    Raises
    ------
    navbench.errors.ConfigError
        A run folder without a results database, a damaged one, or no runs.

    Examples
    --------
    After ``evaluate(ds, "oracle-path", "run")`` (the example of
    :func:`~navbench.eval.pipeline.evaluate`), ``build_report(["run"], "report", dataset=ds)``
    writes the report. A folder that holds no run is refused:

    >>> from navbench.report.build import build_report
    >>> build_report(["no-run-here"], "report")
    Traceback (most recent call last):
    ...
    navbench.errors.ConfigError: no-run-here/results.sqlite: no results database here (run 'navbench evaluate' first)
    """
    records: dict[str, dict[str, dict[str, np.ndarray]]] = {}
    rows_by_run, traj = read_runs(runs, records)
    eps = read_r2r(episodes_file) if episodes_file is not None else []
    roots = [Path(r) for r in scene_roots]
    meta = {"run folders": ", ".join(str(r) for r in runs)}
    cameras = run_cameras(runs)
    if cameras:
        meta["camera"] = cameras
    held = quarantined_episodes(runs)
    if held:
        meta[LEFT_OUT] = f"{len(held)} episode(s) with unreadable rows, moved aside by results repair: " + \
            ", ".join(held[:20]) + (" ..." if len(held) > 20 else "")
    if episodes_file is not None:
        meta["episodes"] = str(episodes_file)
    elif dataset is not None:
        old_ids = {id(p): eid for run in traj.values() for eid, p in run.items()}
        rows_by_run, traj, eps = _with_dataset(rows_by_run, traj, Path(dataset), split)
        records = {run: {eid: records[run][old_ids[id(p)]] for eid, p in ps.items()
                         if old_ids.get(id(p)) in records.get(run, {})} for run, ps in traj.items()}
        roots.insert(0, Path(dataset))
        meta["dataset"] = str(dataset)
    scenes = load_scenes_for(eps, roots) if eps and roots else {}
    return build_report_from_rows(rows_by_run, out, scenes, traj, episodes=eps, oracle=oracle,
                                  title=title, max_bev=max_bev, meta=meta, progress=progress,
                                  latex=latex, records=records, episode_pages=episode_pages, frames=frames,
                                  max_pages=max_pages)


def _with_dataset(
    rows_by_run: dict[str, list[Row]], traj: dict[str, dict[str, np.ndarray]], dataset: Path,
    split: str | None,
) -> tuple[dict[str, list[Row]], dict[str, dict[str, np.ndarray]], list[Episode]]:
    """Episodes of every (task, split) the runs evaluated; ids prefixed by task when mixed."""
    from navbench.episodes.loader import load_dataset

    ds = load_dataset(dataset)
    pairs = sorted({(str(r.get("run_task") or "conditional"), split or str(r.get("run_split") or "eval"))
                    for rows in rows_by_run.values() for r in rows})
    mixed = len({t for t, _ in pairs}) > 1

    def key(task: str, eid: object) -> str:
        return f"{task}-{eid}" if mixed else str(eid)

    episodes = [dataclasses.replace(e, episode_id=key(t, e.episode_id))
                for t, sp in pairs for e in ds.episodes(t, sp)]
    if not mixed:
        return rows_by_run, traj, episodes
    new_rows = {name: [{**r, "episode_id": key(str(r.get("run_task") or "conditional"), r["episode_id"])}
                       for r in rows] for name, rows in rows_by_run.items()}
    new_traj: dict[str, dict[str, np.ndarray]] = {}
    for name, rows in rows_by_run.items():
        task_of = {str(r["episode_id"]): str(r.get("run_task") or "conditional") for r in rows}
        new_traj[name] = {key(task_of.get(str(eid), "conditional"), eid): p
                          for eid, p in traj.get(name, {}).items()}
    return new_rows, new_traj, episodes
