"""CLI commands of this area (registered on the groups of :mod:`navbench.cli._app`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from navbench.cli._app import dataset_app


@dataset_app.command("build")
def build_cmd(
    scenes: Annotated[Path, typer.Option("--scenes", help="Directory of scene.json files (searched recursively).")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Output dataset directory.")],
    tasks: Annotated[str, typer.Option("--tasks", help="Comma list of conditional,objectnav,placenav,route.")] = "conditional",
    split_by_scene: Annotated[str, typer.Option("--split-by-scene", help="Scene-disjoint splits NAME=FRACTION,...")] = "train=0.8,eval=0.2",
    seed: Annotated[int, typer.Option("--seed", help="Master seed (same seed -> identical files).")] = 0,
    episodes_per_scene: Annotated[int, typer.Option("--episodes-per-scene", "-n", help="Episodes drawn per scene and task.")] = 100,
    categories: Annotated[str | None, typer.Option("--categories", help="Conditional categories (comma list; default all).")] = None,
    start_facing: Annotated[str, typer.Option("--start-facing", help="random or path.")] = "random",
    success_distance: Annotated[float | None, typer.Option("--success-distance", help="Conditional τ in m (default 0.5 single-room / 1.0).")] = None,
    workers: Annotated[int, typer.Option("--workers", "-j", help="Worker processes.")] = 1,
    force: Annotated[bool, typer.Option("--force", help="Replace a non-empty output directory.")] = False,
    verify: Annotated[bool, typer.Option("--verify", help="Replay ObjectNav/PlaceNav/route reference paths in the simulator; drop rejected episodes (slow).")] = False,
    embodiment: Annotated[str, typer.Option("--embodiment", help="Robot the dataset is built for: turtlebot | spot | none. Starts, goals and reference paths keep its clearance (Turtlebot 0.32 m, Spot 0.4 m); ObjectNav/PlaceNav τ = 1.0 + its radius. none = plain presets (habitat-like 0.1 m), τ 1.6 m.")] = "turtlebot",
    verify_embodiment: Annotated[str | None, typer.Option("--verify-embodiment", help="Embodiment of the verification rollout: spot or turtlebot [default: --embodiment, spot for none].")] = None,
    refine_url: Annotated[str | None, typer.Option("--refine-url", help="Route VLN: OpenAI-compatible base URL (e.g. http://127.0.0.1:8000/v1) to refine template instructions.")] = None,
    refine_model: Annotated[str | None, typer.Option("--refine-model", help="Route VLN: model name for --refine-url.")] = None,
    refine_key_env: Annotated[str | None, typer.Option("--refine-key-env", help="Route VLN: environment variable holding the API key.")] = None,
    habitat_scenes: Annotated[Path | None, typer.Option("--habitat-scenes", help="Folder written by `navbench scenes export --format habitat`: episode scene_id = <prefix>/stages/<id>.glb.")] = None,
    habitat_prefix: Annotated[str | None, typer.Option("--habitat-prefix", help="scene_id prefix with --habitat-scenes, relative to habitat-lab's SCENES_DIR [default: the folder's name].")] = None,
    p_relation: Annotated[float, typer.Option("--p-relation", help="Conditional: share of relation conditions (else object presence).")] = 0.3,
    p_cross_room: Annotated[float, typer.Option("--p-cross-room", help="Conditional: share of draws across rooms (else one room).")] = 0.5,
    p_subgoal: Annotated[float, typer.Option("--p-subgoal", help="Conditional: share of instructions that start with a subgoal.")] = 0.4,
    evidence: Annotated[str, typer.Option("--evidence", help="Conditional: evidence observability kept: any | on_route | off_route.")] = "any",
    horizon: Annotated[str | None, typer.Option("--horizon", help="Conditional: allowed horizons (navigation segments), comma list, e.g. 1,2 [default: any].")] = None,
    min_size: Annotated[float | None, typer.Option("--min-size", help="Conditional: smallest visible size (m) of a referenced object [default: what the embodiment's camera resolves at 1.5 m, 0.165 m].")] = None,
) -> None:
    """Generate episodes for every scene and write a VLN-CE / habitat dataset directory."""
    from navbench.episodes.conditional import ConditionalEpisodeSettings
    from navbench.episodes.dataset import DatasetSettings, build_dataset
    from navbench.episodes.instruction_controls import InstructionControls
    from navbench.episodes.route import RouteEpisodeSettings
    from navbench.errors import ConfigError
    from navbench.progress import ProgressReporter
    from navbench.tasks.route_refine import RefineSettings

    if (refine_url is None) != (refine_model is None):
        raise ConfigError("--refine-url and --refine-model: expected both or neither")
    if embodiment not in ("spot", "turtlebot", "none"):
        raise ConfigError(f"--embodiment: expected turtlebot, spot or none, got {embodiment!r}")
    if verify_embodiment not in (None, "spot", "turtlebot"):
        raise ConfigError(f"--verify-embodiment: expected spot or turtlebot, got {verify_embodiment!r}")
    refine = RefineSettings(refine_url, refine_model, refine_key_env) if refine_url and refine_model else None
    cats = tuple(c.strip() for c in categories.split(",") if c.strip()) if categories else None
    if evidence not in ("any", "on_route", "off_route"):
        raise ConfigError(f"--evidence: expected any, on_route or off_route, got {evidence!r}")
    try:
        horizons = None if horizon is None else tuple(int(h) for h in horizon.split(",") if h.strip())
    except ValueError:
        raise ConfigError(f"--horizon: expected a comma list of integers >= 1, got {horizon!r}") from None
    controls = InstructionControls(p_relation=p_relation, p_cross_room=p_cross_room, p_subgoal=p_subgoal,
                                   evidence=None if evidence == "any" else evidence, horizons=horizons,
                                   min_reference_size=min_size)
    settings = DatasetSettings(
        episodes_per_scene=episodes_per_scene, categories=cats, instructions=controls,
        conditional=ConditionalEpisodeSettings(success_distance=success_distance, start_facing=start_facing),
        route=RouteEpisodeSettings(refine=refine), verify=verify, verify_embodiment=verify_embodiment,
        embodiment=None if embodiment == "none" else embodiment,
    )
    task_list = [t.strip() for t in tasks.split(",") if t.strip()]
    scene_ids = None
    if habitat_scenes is not None:
        from navbench.episodes.dataset import load_scenes
        from navbench.export.habitat import habitat_scene_ids

        scene_ids = habitat_scene_ids(habitat_scenes, [s.id for s in load_scenes(scenes)], habitat_prefix)
    elif habitat_prefix is not None:
        raise ConfigError("--habitat-prefix: only with --habitat-scenes")
    with ProgressReporter("building dataset", unit="scenes") as prog:
        m = build_dataset(scenes, out, tasks=task_list, split=split_by_scene, seed=seed,
                          workers=workers, settings=settings, overwrite=force, scene_ids=scene_ids,
                          progress=lambda done, total: prog.update(done, total=total))
    empty = []
    for task, per in m.counts.items():
        dropped = sum(n for d in m.dropped.get(task, {}).values() for n in d.values())
        typer.echo(f"{task}: " + ", ".join(f"{s}={c['total']}" for s, c in per.items()) + f" (dropped {dropped})")
        if not sum(int(c["total"]) for c in per.values()):
            empty.append(task)
            reasons: dict[str, int] = {}
            for d in m.dropped.get(task, {}).values():
                for r, n in d.items():
                    reasons[r] = reasons.get(r, 0) + int(n)
            why = ", ".join(f"{r} {n}" for r, n in sorted(reasons.items(), key=lambda x: -x[1])[:3])
            typer.secho(f"warning: {task}: no episode could be made ({why or 'nothing to draw'}); "
                        "see 'dropped' in manifest.json", err=True, fg=typer.colors.YELLOW)
    typer.echo(f"wrote {out} (built for embodiment {embodiment})")
    if empty and len(empty) == len(m.counts):
        raise ConfigError(f"{out}: the dataset holds no episode; do the scenes have rooms, "
                          "objects and places the tasks can use?")


#: Short column headers of ``dataset audit`` (the JSON keeps the full names).
_AUDIT_HEADERS = {
    "episodes": "eps", "presence": "pres", "presence_blind": "pres\nblind",
    "presence_majority": "pres\nmajor", "relation": "rel", "relation_blind": "rel\nblind",
    "relation_majority": "rel\nmajor", "branch_blind": "branch\nblind", "branch_chance": "branch\nchance",
    "evaluated_relations": "eval\nrel", "relations_in_margin": "rel in\nmargin",
    "qualified": "qual", "qualifiers_in_margin": "qual in\nmargin", "truth_mismatches": "truth\ndiff",
    "references": "refs", "small_references": "small\nrefs", "median_target_m": "target\nmedian m",
    "outside_references": "outside\nrefs",
}


@dataset_app.command("audit")
def audit_cmd(
    dataset: Annotated[Path, typer.Argument(help="Dataset directory (with manifest.json) holding conditional episodes.")],
    prior_split: Annotated[str, typer.Option("--prior-split", help="Split whose scenes the blind prior is fitted on (all scenes, leave-one-scene-out, when the dataset has none).")] = "train",
    splits: Annotated[str | None, typer.Option("--splits", help="Comma list of splits to audit [default: all but the prior's].")] = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="Also write the audit as JSON.")] = None,
    prior_out: Annotated[Path | None, typer.Option("--prior-out", help="Also write the fitted blind prior (for the blind-prior agent's prior=FILE).")] = None,
) -> None:
    """Perception audit of conditional episodes, per category and per source: blind-prior
    accuracy on presence and relation conditions vs the majority class, blind branch choice vs
    chance, relation conditions and qualifiers inside the decidability margins, recorded truths
    that differ from the scene, small and misplaced references; then per source the objects
    outside their room."""
    from rich.console import Console
    from rich.table import Table

    from navbench.episodes.conditional_audit import audit_dataset
    from navbench.io import write_json
    from navbench.tasks.conditional.perception_audit import AUDIT_KEYS

    which = tuple(x.strip() for x in splits.split(",") if x.strip()) if splits else None
    a = audit_dataset(dataset, prior_split, which)
    prior = a["prior"]
    console = Console(width=200)
    t = Table(title=f"{dataset} ({', '.join(a['audited_splits'])}): blind prior {prior['rule']} "
                    f"({prior['scenes']} scenes); smallest reference {a['min_reference_size']} m")
    t.add_column("group", no_wrap=True)
    for k in AUDIT_KEYS:
        t.add_column(_AUDIT_HEADERS.get(k, k), justify="right")
    for g, row in a["groups"].items():
        t.add_row(g, *("-" if row[k] is None else f"{row[k]:.3f}" if isinstance(row[k], float)
                       else str(row[k]) for k in AUDIT_KEYS))
    console.print(t)
    st = Table(title="scene objects per source")
    for col in ("source", "scenes", "objects", "outside room", "small"):
        st.add_column(col, justify="left" if col == "source" else "right")
    for src, f in a["scenes"].items():
        st.add_row(src, *(str(f[k]) for k in ("scenes", "objects", "outside_room", "small")))
    console.print(st)
    if json_out is not None:
        write_json(json_out, a)
    if prior_out is not None:
        from navbench.episodes.conditional_audit import fit_blind_prior

        write_json(prior_out, fit_blind_prior(dataset, prior_split).to_json())


@dataset_app.command("stats")
def stats_cmd(
    dataset: Annotated[Path, typer.Argument(help="Dataset directory (with manifest.json).")],
) -> None:
    """Print counts by task, category, depth, chain length and the path-length distribution."""
    from rich.console import Console
    from rich.table import Table

    from navbench.episodes.loader import load_dataset
    from navbench.episodes.stats import dataset_tables

    console = Console()
    for name, rows in dataset_tables(load_dataset(dataset)).items():
        if not rows:
            continue
        t = Table(title=name)
        for col in rows[0]:
            t.add_column(col, justify="right" if isinstance(rows[0][col], (int, float)) else "left")
        for r in rows:
            t.add_row(*("" if v is None else str(v) for v in r.values()))
        console.print(t)


@dataset_app.command("check")
def check_cmd(
    dataset: Annotated[Path, typer.Argument(help="Dataset directory (with manifest.json).")],
    limit: Annotated[int, typer.Option(help="Print at most this many problems.")] = 50,
    action_budget_per_word: Annotated[float, typer.Option("--action-budget-per-word", help="The evaluation's action budget per instruction word (as in 'navbench evaluate'); 0 = skip the budget check.")] = 15.0,
    seconds_per_action: Annotated[float, typer.Option("--seconds-per-action", help="Simulated seconds per budget action for waypoint/velocity agents (as in 'navbench evaluate').")] = 1.0,
    max_time: Annotated[float, typer.Option("--max-time", help="Simulated timeout per episode (s) of NavVerse tasks (route VLN); CondVLN ones end by the budget alone.")] = 300.0,
    action_space: Annotated[str, typer.Option("--action-space", help="Budget check for: all | discrete | waypoint | velocity agents.")] = "all",
    rollout: Annotated[bool, typer.Option("--rollout", help="Time the reference path with a simulator rollout (robot of the scene) where no verification duration is recorded; else its length at top speed (a lower bound).")] = False,
) -> None:
    """Re-validate a (possibly hand-edited) dataset: file formats, reachability of starts, goals
    and subgoals, τ, recorded path lengths, and that each episode's action budget covers its
    reference path. Exit status 2 when a problem is found."""
    from navbench.errors import NavbenchError
    from navbench.eval.budget_check import check_all

    rep, budget, problems = check_all(dataset, per_word=action_budget_per_word,
                                      seconds_per_action=seconds_per_action, max_time=max_time,
                                      rollout=rollout, action_space=action_space)
    for p in problems[:limit]:
        typer.echo(str(p))
    if len(problems) > limit:
        typer.echo(f"... and {len(problems) - limit} more")
    if budget is not None and budget.problems:
        ids = budget.episode_ids
        typer.echo(f"action budget: {len(ids)} of {budget.episodes} episodes cannot be finished "
                   f"within it: {', '.join(ids)}")
    summary = f"{dataset}: checked {rep.files} files, {rep.episodes} episodes: {len(problems)} problem(s)"
    if problems:
        raise NavbenchError(summary)
    typer.echo(summary + " - OK")
