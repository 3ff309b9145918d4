"""CLI commands of the evaluation area: ``navbench evaluate`` and ``navbench results ...``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from navbench.cli._app import app, results_app

_Run = Annotated[
    Path, typer.Argument(help="Run folder (holding results.sqlite) or the .sqlite file.")
]
_RunId = Annotated[
    str | None, typer.Option("--run-id", help="Run to use when the database holds several.")
]


@results_app.command("export")
def export_cmd(
    run: _Run,
    fmt: Annotated[str, typer.Option("--format", "-f", help="csv | parquet | json | latex")] = "csv",
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
    wall_time_s, extra (JSON). The json format nests metrics and adds the run's settings. The
    latex format writes the report's tables of the run (booktabs, 95% intervals, paired tests)
    as one document that compiles with pdflatex.
    """
    from navbench.errors import ConfigError
    from navbench.eval.db import DB_NAME, EXPORT_FORMATS, ResultsDB

    if fmt == "latex":
        from navbench.report.export import export_latex

        path = export_latex([run], out or Path(run if run.suffix != ".sqlite" else run.parent)
                            / (Path(DB_NAME).stem + ".tex"), run_id=run_id)
        typer.echo(f"wrote the report tables to {path}")
        return
    if fmt not in EXPORT_FORMATS:
        raise ConfigError(f"--format: expected one of {', '.join(EXPORT_FORMATS)}, latex, "
                          f"got {fmt!r}")
    with ResultsDB(run, create=False) as db:
        rid = db.resolve_run(run_id)
        target = out or db.path.with_name(Path(DB_NAME).stem + "." + fmt)
        db.export(rid, fmt, target, timings=timings)
        n = len(db.finished_episode_ids(rid))
        held = [q for q in db.quarantined(rid) if q["what"] == "episode"]
    typer.echo(f"wrote {n} episodes of {rid} to {target}")
    if held:
        typer.echo(f"  left out: {len(held)} quarantined episode(s) (unreadable rows moved aside by "
                   f"results repair; listed by: navbench results show {run})")


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
            for q in db.quarantined(r["run_id"]):  # rows results repair moved aside
                typer.echo(f"  quarantined {q['what']} {q['episode_id'] or ''}: {q['reason']} "
                           f"({q['quarantined']}; left out of export, report and scoring)")


def _agent_args(items: list[str] | None) -> dict[str, object]:
    """``["k=v", ...]`` → kwargs; values parsed as JSON when they parse (numbers, true, lists)."""
    from navbench.errors import ConfigError
    from navbench.io import loads_json

    out: dict[str, object] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key.strip().isidentifier():
            raise ConfigError(f"--agent-arg: expected NAME=VALUE (e.g. clearance=0.5), got {item!r}")
        try:
            out[key.strip()] = loads_json(value)
        except ValueError:  # not JSON (or past the JSON limits): the text itself
            out[key.strip()] = value
    return out


def _frictions(items: list[str] | None) -> dict[str, float]:
    """``--friction CLASS=MU`` values as a dict."""
    import math

    from navbench.errors import ConfigError

    out: dict[str, float] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        try:
            mu = float(value)
        except ValueError:
            mu = math.nan
        if not sep or not key.strip() or not math.isfinite(mu) or mu < 0:
            raise ConfigError(f"--friction: expected CLASS=MU with MU >= 0 (e.g. floor=0.2), got {item!r}")
        out[key.strip()] = mu
    return out


@app.command("evaluate")
def evaluate_cmd(
    dataset: Annotated[Path, typer.Argument(help="Dataset folder (with manifest.json).")],
    agent: Annotated[str, typer.Option("--agent", "-a", help="Built-in name (oracle-path, oracle-branch, first-branch, random, ...), 'module:Class' or http://host:port.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Run folder; results go to OUT/results.sqlite (re-run to resume).")],
    split: Annotated[str, typer.Option("--split", help="Split to evaluate.")] = "eval",
    task: Annotated[str | None, typer.Option("--task", help="Task folder (conditional, conditional_oracle, objectnav, placenav) [default: conditional if present].")] = None,
    episodes: Annotated[str | None, typer.Option("--episodes", help="Episode ids '0,3,7' or a filter 'category=chain,scene=house_3_6' (ops = != < <= > >=, a|b = either).")] = None,
    workers: Annotated[int, typer.Option("--workers", "-j", min=1, help="Worker processes (one world build per scene per worker).")] = 1,
    executor: Annotated[str, typer.Option("--executor", help="local | ray.")] = "local",
    ray_address: Annotated[str | None, typer.Option("--ray-address", help="Ray cluster address (with --executor ray).")] = None,
    render: Annotated[str, typer.Option("--render", help="auto (only when the agent needs images) | on | off.")] = "auto",
    embodiment: Annotated[str | None, typer.Option("--embodiment", help="spot | turtlebot [default: the robot the dataset was built for; spot for --embodiment none datasets]. Another one than the dataset's prints a warning.")] = None,
    episode_timeout: Annotated[float, typer.Option("--episode-timeout", help="Wall-clock seconds per episode; past it: agent_error.")] = 600.0,
    max_time: Annotated[float, typer.Option("--max-time", help="Simulated seconds per episode before 'timeout' (NavVerse tasks; CondVLN ones end by their action budget, which this cannot cut).")] = 300.0,
    distance: Annotated[str, typer.Option("--distance", help="Distance to goal for metrics: auto | geodesic | euclidean.")] = "auto",
    seed: Annotated[int, typer.Option("--seed", help="Seed for agents that take one.")] = 0,
    action_budget_per_word: Annotated[float, typer.Option("--action-budget-per-word", help="CondVLN §5.1 budget B in discrete-action equivalents per instruction word: B actions for discrete agents, min(B x --seconds-per-action, --max-time) simulated seconds for waypoint/velocity agents; past it: 'timeout'. 0 = no budget.")] = 15.0,
    seconds_per_action: Annotated[float, typer.Option("--seconds-per-action", help="Simulated seconds one budget action is worth to waypoint/velocity agents (a discrete primitive takes ~1 s).")] = 1.0,
    agent_arg: Annotated[list[str] | None, typer.Option("--agent-arg", help="Agent constructor argument NAME=VALUE (repeatable).")] = None,
    friction_scale: Annotated[float, typer.Option("--friction-scale", help="Multiply every surface's friction (traction study; Spot and Turtlebot slip below their force caps).")] = 1.0,
    friction: Annotated[list[str] | None, typer.Option("--friction", help="Surface class friction CLASS=MU, e.g. floor=0.2 (repeatable; before --friction-scale).")] = None,
) -> None:
    """Run an agent on a dataset split in the MuJoCo simulator and record every episode.

    Episodes are sharded by scene; each episode's metrics, termination label and trajectory are committed to OUT/results.sqlite as it finishes, so an interrupted run resumes where it stopped. An agent exception or a wall-clock timeout ends that episode as agent_error.
    """
    from navbench.eval.db import resolve_db_path
    from navbench.eval.pipeline import EvalSettings, evaluate

    if ray_address is not None and executor != "ray":
        typer.secho(f"warning: --ray-address {ray_address} is ignored without --executor ray",
                    err=True, fg=typer.colors.YELLOW)
    settings = EvalSettings(task=task, split=split, episodes=episodes, embodiment=embodiment,
                            render=render, max_time=max_time, episode_timeout_s=episode_timeout,
                            distance=distance, seed=seed, agent_kwargs=_agent_args(agent_arg),
                            action_budget_per_word=action_budget_per_word,
                            seconds_per_action=seconds_per_action,
                            friction_scale=friction_scale, friction_override=_frictions(friction))
    s = evaluate(dataset, agent, out, settings, workers=workers, executor=executor,
                 ray_address=ray_address,
                 warn=lambda m: typer.secho(f"warning: {m}", err=True, fg=typer.colors.YELLOW))
    labels = ", ".join(f"{k} {v}" for k, v in s.labels.items()) or "-"
    summary = "  ".join(f"{k} {v:.3f}" if isinstance(v, float) else f"{k} {v}"
                        for k, v in s.summary.items())
    typer.echo(f"{s.run_id}: {s.completed} episodes run, {s.skipped} already done, "
               f"{s.total} total in {s.wall_s:.1f} s")
    typer.echo(f"  labels: {labels}")
    if summary:
        typer.echo(f"  {summary}")
    _echo_errors(out, s.run_id)
    typer.echo(f"  results: {resolve_db_path(out)}")


def _echo_errors(run: Path, run_id: str, limit: int = 3) -> None:
    """The first ``limit`` episodes that ended with an error, each with its reason's first line."""
    from navbench.eval.db import ResultsDB

    with ResultsDB(run, create=False) as db:
        bad = [r for r in db.rows(run_id) if r["error"]]
    for r in bad[:limit]:
        first = str(r["error"]).strip().splitlines()[0] if str(r["error"]).strip() else "?"
        first = first if len(first) <= 200 else first[:197] + "..."
        typer.echo(f"  episode {r['episode_id']} ({r['label']}): {first}")
    if len(bad) > limit:
        typer.echo(f"  ... {len(bad) - limit} more episodes with errors: navbench results show {run}")


@results_app.command("repair")
def repair_cmd(run: _Run) -> None:
    """Repair a damaged results database: keep every readable episode (also behind damaged
    pages), move rows with unreadable metrics or trajectories to a quarantine table, rebuild a
    damaged header, reattach episodes whose run row is gone; the damaged file stays as
    results.sqlite.corrupt. A healthy database is left untouched. Re-run the same evaluate
    command to redo lost and quarantined episodes."""
    from navbench.eval.db_repair import repair

    r = repair(run)
    if r["healthy"]:
        typer.echo(f"{r['path']}: healthy (integrity check passed, every row readable): nothing to "
                   f"repair, the file is unchanged ({r['runs']} run(s), {r['episodes']} episode(s)).")
        return
    done = []
    if r["header_rebuilt"]:
        done.append("rebuilt the damaged file header")
    if r["reattached"]:
        done.append(f"reattached the episodes of {len(r['reattached'])} run(s) whose run row was gone "
                    f"({', '.join(r['reattached'])})")
    if r["quarantined"]:
        plural = {"episode": "episodes", "trajectory": "trajectories", "run": "runs"}
        kinds = ", ".join(f"{n} {k if n == 1 else plural.get(k, k)}" for k, n in sorted(r["quarantined"].items()))
        done.append(f"quarantined {kinds} with unreadable data (kept in the quarantine table, "
                    f"listed by 'navbench results show {run}', left out of export and report)")
    lost = (f"{r['unreadable']} row(s) were unreadable and are lost" if r["unreadable"] else
            "some rows behind damaged pages may be lost" if not r["complete"] else "no readable row was lost")
    typer.echo(f"{r['path']}: kept {r['runs']} run(s), {r['episodes']} episode(s), "
               f"{r['trajectories']} trajectory(ies); {'; '.join([*done, lost])}; the damaged file is "
               f"{r['backup']}. Re-run the same 'navbench evaluate' command to redo missing episodes.")
