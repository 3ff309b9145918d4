"""CLI commands of the evaluation area: ``navbench results ...`` (results databases)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from navbench.cli._app import results_app

_Run = Annotated[
    Path, typer.Argument(help="Run folder (holding results.sqlite) or the .sqlite file.")
]
_RunId = Annotated[
    str | None, typer.Option("--run-id", help="Run to use when the database holds several.")
]


@results_app.command("export")
def export_cmd(
    run: _Run,
    fmt: Annotated[str, typer.Option("--format", "-f", help="csv | parquet | json")] = "csv",
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="Output file [default: RUN/results.<format>]."),
    ] = None,
    run_id: _RunId = None,
    timings: Annotated[
        bool,
        typer.Option(
            "--timings/--no-timings", help="Include wall-clock times (leave out to diff runs)."
        ),
    ] = True,
) -> None:
    """Export the episodes of a run, one row per episode sorted by episode id.

    Columns: run_id, episode_id, scene_id, label, error, one column per metric, sim_time_s,
    wall_time_s, extra (JSON). The json format nests metrics and adds the run's settings.
    """
    from navbench.errors import ConfigError
    from navbench.eval.db import DB_NAME, EXPORT_FORMATS, ResultsDB

    if fmt not in EXPORT_FORMATS:
        raise ConfigError(f"--format: expected one of {', '.join(EXPORT_FORMATS)}, got {fmt!r}")
    with ResultsDB(run, create=False) as db:
        rid = db.resolve_run(run_id)
        target = out or db.path.with_name(Path(DB_NAME).stem + "." + fmt)
        db.export(rid, fmt, target, timings=timings)
        n = len(db.finished_episode_ids(rid))
    typer.echo(f"wrote {n} episodes of {rid} to {target}")


@results_app.command("show")
def show_cmd(run: _Run) -> None:
    """List the runs of a results database: settings, episode counts per label."""
    import json

    from navbench.eval.db import ResultsDB

    with ResultsDB(run, create=False) as db:
        for r in db.runs():
            counts: dict[str, int] = {}
            for row in db.rows(r["run_id"]):
                counts[row["label"]] = counts.get(row["label"], 0) + 1
            typer.echo(
                f"{r['run_id']}  agent={r['agent']} seed={r['seed']} episodes={r['episodes']} "
                f"dataset={r['dataset_hash'][:12]} code={r['code_version']} created={r['created']}"
            )
            typer.echo(f"  settings: {json.dumps(r['settings'], sort_keys=True)}")
            typer.echo(
                "  labels: " + (", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "-")
            )
