"""``navbench score``: score an external run (VLN-CE r2r/rxr predictions or navbench trajectories)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from navbench.cli._app import app
from navbench.errors import ConfigError


def _episode_file(dataset: Path, task: str | None, split: str) -> Path:
    """The episodes file: DATASET itself, DATASET/<task>/<split>/<split>.json.gz or
    DATASET/<split>/<split>.json.gz, else the only ``**/<split>.json.gz`` under DATASET."""
    if dataset.is_file():
        return dataset
    if not dataset.is_dir():
        raise ConfigError(f"--episodes {dataset}: no such file or folder")
    cands = [dataset / task / split / f"{split}.json.gz"] if task else []
    cands.append(dataset / split / f"{split}.json.gz")
    for c in cands:
        if c.is_file():
            return c
    found = sorted(dataset.rglob(f"{split}.json.gz"))
    if len(found) == 1:
        return found[0]
    if not found:
        raise ConfigError(f"--episodes {dataset}: no {split}.json.gz found (use --split / --task)")
    rel = ", ".join(str(f.relative_to(dataset)) for f in found)
    raise ConfigError(f"--episodes {dataset}: several episode files ({rel}); choose one with --task")


def _is_objectnav(episode_file: Path) -> bool:
    """A habitat ObjectNav / PlaceNav split: its episodes sit in ``content/`` beside it."""
    return (episode_file.parent / "content").is_dir()


def _navmesh_dir(episode_file: Path, override: Path | None) -> Path | None:
    if override is not None:
        return override
    for parent in episode_file.resolve().parents:
        if (parent / "navmeshes").is_dir():
            return parent / "navmeshes"
    return None


def _fmt(v: object) -> str:
    return "—" if v is None else f"{v:.3f}" if isinstance(v, float) else str(v)


@app.command("score")
def score(
    episodes: Annotated[Path, typer.Option("--episodes", help="DATASET folder or a {split}.json.gz episodes file.")],
    predictions: Annotated[Path, typer.Option("--predictions", help="Prediction file (r2r JSON, rxr JSON lines, navbench trajectories).")],
    fmt: Annotated[str, typer.Option("--format", help="auto | r2r | rxr | navbench.")] = "auto",
    split: Annotated[str | None, typer.Option(
        "--split", help="Split to score when --episodes is a folder [default: eval for a navbench "
                        "dataset, else val_unseen].")] = None,
    task: Annotated[str | None, typer.Option(
        "--task", help="Task folder of a navbench DATASET [default: conditional].")] = None,
    tau: Annotated[float | None, typer.Option(
        "--tau", help="Success distance in metres for every episode [default: each episode's own "
                      "for a navbench dataset, VLN-CE's 3.0 otherwise].")] = None,
    episode_tau: Annotated[bool, typer.Option("--episode-tau", help="Use each episode's own success distance (the default for navbench datasets).")] = False,
    inclusive: Annotated[bool | None, typer.Option(
        "--inclusive/--strict", help="Succeed on d <= tau (SPEC) or on VLN-CE's d < tau "
                                     "[default: inclusive for navbench datasets, strict otherwise].",
        show_default=False)] = None,
    dtw: Annotated[str | None, typer.Option(
        "--dtw", help="exact | fastdtw (VLN-CE's default, radius 1) for nDTW/SDTW [default: "
                      "exact for navbench datasets, fastdtw otherwise].")] = None,
    navmeshes: Annotated[Path | None, typer.Option("--navmeshes", help="Folder of <scene>.npz navmeshes (default: DATASET/navmeshes).")] = None,
    out: Annotated[Path | None, typer.Option("--out", help="Write metrics.json and per_episode.csv here.")] = None,
    missing: Annotated[str, typer.Option("--missing", help="Episodes without a prediction: fail (count each as a failed episode: SR 0, SPL 0, as evaluate counts a crashed agent) | skip (leave them out of every mean).")] = "fail",
) -> None:
    """Score a run: SR, OSR, SPL, NE, nDTW, SDTW, BSA, CSR, ... with counts per metric."""
    from rich.console import Console
    from rich.table import Table

    from navbench.episodes import read_gt, read_r2r
    from navbench.episodes.habitat_objectnav import read_objectnav
    from navbench.metrics.scoring import (
        navmesh_geodesic,
        read_predictions,
        score_episodes,
        write_score,
    )

    if fmt not in ("auto", "r2r", "rxr", "navbench"):
        raise ConfigError(f"--format: expected auto, r2r, rxr or navbench, got {fmt!r}")
    if dtw is not None and dtw not in ("exact", "fastdtw"):
        raise ConfigError(f"--dtw: expected exact or fastdtw, got {dtw!r}")
    if tau is not None and tau <= 0:
        raise ConfigError(f"--tau: expected a positive distance in metres, got {tau}")
    if missing not in ("fail", "skip"):
        raise ConfigError(f"--missing: expected fail or skip, got {missing!r}")
    if tau is not None and episode_tau:
        raise ConfigError("--tau and --episode-tau: give one of them")
    console = Console()
    navbench_ds = episodes.is_dir() and (episodes / "manifest.json").is_file()
    if split is None:
        split = "eval" if navbench_ds else "val_unseen"
    if task is None and navbench_ds:
        task = "conditional"
    ep_file = _episode_file(episodes, task, split)
    navbench_ds = navbench_ds or any((p / "manifest.json").is_file() for p in ep_file.resolve().parents)
    eps = read_objectnav(ep_file) if _is_objectnav(ep_file) else read_r2r(ep_file)
    gt_file = ep_file.with_name(ep_file.name.replace(".json.gz", "_gt.json.gz"))
    gt = read_gt(gt_file) if gt_file.is_file() and gt_file != ep_file else None
    # navbench datasets: their own τ and d <= τ (SPEC §5); VLN-CE files: VLN-CE's defaults
    use_tau = None if (episode_tau or (tau is None and navbench_ds)) else (3.0 if tau is None else tau)
    strict = (not navbench_ds) if inclusive is None else not inclusive
    method = dtw or ("exact" if navbench_ds else "fastdtw")
    from navbench.metrics.scoring import detect_format

    real_fmt = detect_format(predictions) if fmt == "auto" and predictions.is_file() else fmt
    preds = read_predictions(predictions, real_fmt)  # type: ignore[arg-type]
    nm_dir = _navmesh_dir(ep_file, navmeshes)
    geo = navmesh_geodesic(nm_dir) if nm_dir is not None else None
    if geo is None:
        console.print("[yellow]note:[/] no navmeshes found: distance to goal is Euclidean (3D), not geodesic")
    result = score_episodes(
        eps, preds, fmt=real_fmt, tau=use_tau, strict=strict,
        dtw_method=method, geodesic=geo, gt=gt,  # type: ignore[arg-type]
        start_length=None if geo is None else geo.start_length,
        off_mesh=None if geo is None else geo.off_navmesh,
        missing="fail" if missing == "fail" else "skip",
    )
    if geo is None:
        result.notes.append("no navmeshes: Euclidean distance to goal")
    if gt is None:
        result.notes.append(f"no {gt_file.name}: nDTW reference = reference_path resampled every 0.25 m")
    s = result.summary
    st = result.settings
    taus = sorted({r["tau"] for r in result.rows})
    tau_txt = (f"{taus[0]:g} m" if len(taus) == 1 else "per episode: " + ", ".join(f"{t:g}" for t in taus) + " m")
    console.print(f"success: d {st['comparison']} τ, τ = {tau_txt} ({'each episode' + chr(39) + 's own' if use_tau is None else 'given'}); "
                  f"nDTW: {method} DTW against {'the _gt locations' if gt is not None else 'the dense reference path'}; "
                  f"distance to goal: {st['distance_to_goal']}")
    table = Table(title=f"{ep_file.name}: {len(result.rows)} scored episodes ({real_fmt}"
                        f"{f', {len(result.missing)} without a prediction' if result.missing and missing == 'fail' else ''})")
    for col in ("metric", "mean", "n", "excluded"):
        table.add_column(col, justify="left" if col == "metric" else "right")
    n_all = s["episodes"]
    for name, m in s["metrics"].items():
        if m["n"]:
            table.add_row(name, _fmt(m["mean"]), str(m["n"]), str(n_all - m["n"]))
    console.print(table)
    undefined = [name for name, m in s["metrics"].items() if not m["n"]]
    if undefined:
        console.print("not defined for these episodes: " + ", ".join(undefined))
    console.print(f"excluded = unreachable goals ({s['unreachable']}) + episodes where the metric "
                  "does not apply" + (" or that have no trajectory" if result.missing and missing == "fail" else ""))
    console.print("terminations: " + ", ".join(f"{k}={v}" for k, v in result.terminations.items()))
    bc = result.branch_confusion
    console.print(f"ended at: correct goal={bc['correct']}, other branch goal={bc['other_branch']}, elsewhere={bc['elsewhere']}")
    if "stop_off_navmesh" in st:
        console.print(f"stop points off the navmesh: {st['stop_off_navmesh']} (scored where they are: "
                      "the way through the nearest navigable point, never less than the straight line)")
    if result.unreachable:
        console.print(f"[red]unreachable goals[/] (excluded from means): {len(result.unreachable)}: {', '.join(result.unreachable[:10])}")
    if result.missing:
        how = ("scored as failures: SR 0, SPL 0" if missing == "fail"
               else "left out of every mean: --missing skip")
        console.print(f"[yellow]episodes without a prediction[/] ({how}): {len(result.missing)}")
    if result.unmatched:
        console.print(f"[yellow]predictions matching no episode[/]: {len(result.unmatched)}")
    if out is not None:
        j, c = write_score(result, out)
        console.print(f"wrote {j} and {c}")
