"""CLI command ``navbench report RUN [RUN ...] -o DIR`` (tables, figures, self-contained HTML)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from navbench.cli._app import app


@app.command("report")
def report_cmd(
    runs: Annotated[list[Path], typer.Argument(help="Run folders (holding results.sqlite) or .sqlite files.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Output folder.")] = Path("report"),
    dataset: Annotated[
        Path | None,
        typer.Option(help="navbench dataset folder: episode fields, goals, reference paths and "
                          "scenes (BEV maps) of the task and split each run evaluated."),
    ] = None,
    split: Annotated[str | None, typer.Option(help="Split of --dataset [default: the runs' split].")] = None,
    episodes: Annotated[
        Path | None, typer.Option(help="Episodes file (VLN-CE R2R .json.gz); overrides --dataset/--split.")
    ] = None,
    scenes: Annotated[
        list[Path] | None, typer.Option(help="Extra folder to look for scenes in (repeatable).")
    ] = None,
    oracle: Annotated[
        str | None, typer.Option(help="Name of the oracle run for the gap table [default: the only run named *oracle*].")
    ] = None,
    max_bev: Annotated[int, typer.Option(help="At most this many BEV maps.", min=0)] = 6,
    episode_pages: Annotated[int, typer.Option(
        help="Failed episodes per run x termination label x branch outcome that get a page "
             "(OUT/episodes/*.html: map, instruction, key moments, first-person frames); 0 = none.",
        min=0)] = 2,
    frames: Annotated[bool, typer.Option(
        "--frames/--no-frames", help="Re-render the robot's view at each key moment on the "
                                     "episode pages (needs MuJoCo rendering).")] = True,
    max_pages: Annotated[int, typer.Option(help="At most this many episode pages.", min=0)] = 120,
    title: Annotated[str, typer.Option(help="Report title.")] = "navbench report",
    latex: Annotated[bool, typer.Option(
        "--latex", help="Also write booktabs tables (tables/<task>/*.tex), report.tex (compiles "
                        "with pdflatex) and every figure as PDF and SVG beside the PNG.")] = False,
) -> None:
    """Write OUT/report.html (self-contained), OUT/report.md, OUT/tables/<task>/*.md|csv and
    OUT/figures/*.png, one section per task: overall metrics, CondVLN Tables 2–3, branch
    confusion and the oracle gaps (conditional tasks), NavVerse task × scene, safety,
    indoor-to-outdoor stages, termination, difficulty tertiles, paired comparisons between runs
    and, for agents run with several seeds, their spread; and OUT/episodes/*.html, one page per sampled failed
    episode (linked from the termination and branch-confusion cells). Every cell has its 95% interval
    (Wilson score for binary rates, percentile bootstrap over episodes for means); gaps and
    comparisons have paired p-values (McNemar, sign-flip permutation).
    """
    from rich.progress import Progress, SpinnerColumn, TextColumn

    from navbench.errors import ConfigError
    from navbench.report.build import build_report

    ep_file = episodes
    roots = list(scenes or [])
    if ep_file is not None and not ep_file.is_file():
        raise ConfigError(f"{ep_file}: episodes file not found (--episodes)")
    if ep_file is not None:
        roots.append(ep_file.parent.parent)
        if dataset is not None:
            roots.insert(0, dataset)
            dataset = None
    with Progress(SpinnerColumn(), TextColumn("{task.description}"), transient=True) as bar:
        task = bar.add_task("reading runs")
        html = build_report(runs, out, episodes_file=ep_file, dataset=dataset, split=split,
                            scene_roots=roots, oracle=oracle,
                            title=title, max_bev=max_bev, latex=latex, episode_pages=episode_pages,
                            frames=frames, max_pages=max_pages,
                            progress=lambda msg: bar.update(task, description=msg))
    typer.echo(f"wrote {html} (tables in {out / 'tables'}, figures in {out / 'figures'}"
               + (f", LaTeX in {out / 'report.tex'})" if latex else ")"))
