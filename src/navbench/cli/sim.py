"""CLI commands of this area (registered on the groups of :mod:`navbench.cli._app`)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated, Optional

import typer

from navbench.cli._app import sim_app
from navbench.errors import ConfigError


def _triple(text: str, what: str) -> tuple[float, float, float]:
    try:
        v = tuple(float(t) for t in text.split(","))
    except ValueError:
        v = ()
    if len(v) != 3:
        raise ConfigError(f"{what}: expected 'x,y,z' (three numbers), got {text!r}")
    return v


def _episode_from_json(path: Path, episode_id: str | None) -> dict:
    from navbench.errors import EpisodeFormatError
    from navbench.io import read_json

    data = read_json(path)
    if isinstance(data, dict) and "episodes" in data:
        eps = data["episodes"]
        if episode_id is None:
            if len(eps) != 1:
                raise ConfigError(f"{path}: holds {len(eps)} episodes; pass --episode-id")
            return eps[0]
        for e in eps:
            if str(e.get("episode_id")) == str(episode_id):
                return e
        raise EpisodeFormatError(path, "episodes[].episode_id", f"an episode {episode_id!r}")
    if not isinstance(data, dict):
        raise EpisodeFormatError(path, "<root>", "an episode object or {'episodes': [...]}")
    return data


@sim_app.command("replay")
def replay(
    scene_or_dataset: Annotated[Path, typer.Argument(help="scene.json, or a DATASET folder.")],
    out: Annotated[Path, typer.Option("-o", "--out", help="run.gif, run.mp4 or a frame folder.")],
    episode_id: str = typer.Argument(None, help="Episode id (with a DATASET or a multi-episode file)."),
    episode: Annotated[Optional[Path], typer.Option(  # noqa: UP045 (typer needs Optional)
        "--episode", help="Episode JSON (R2R record or file).")] = None,
    task: str = typer.Option("conditional", help="Dataset task (with a DATASET folder)."),
    split: str = typer.Option("eval", help="Dataset split (with a DATASET folder)."),
    start: str = typer.Option(None, help="Start 'x,y,z' (without --episode)."),
    goal: str = typer.Option(None, help="Goal 'x,y,z' (without --episode)."),
    yaw: float = typer.Option(None, help="Start yaw in degrees (default: face the path)."),
    agent: str = typer.Option("oracle", help="Agent: 'oracle' follows the reference path."),
    embodiment: str = typer.Option(None, help="spot or turtlebot [default: the dataset's robot "
                                   "for the scene, else spot]."),
    width: int = typer.Option(320, help="Image width (px)."),
    height: int = typer.Option(240, help="Image height (px)."),
    max_time: float = typer.Option(120.0, help="Simulated time limit (s)."),
) -> None:
    """Replay an episode with the oracle agent and write a short video (chase | RGB | depth).

    The oracle follows the episode's reference path, or the straight line start → goal when
    only --start/--goal are given (no navmesh is used)."""
    from rich.progress import Progress

    from navbench.geometry import quaternion_to_yaw, yaw_of_direction
    from navbench.scene import load
    from navbench.sim import get_embodiment
    from navbench.sim.replay import SimpleGoal, replay_oracle
    from navbench.sim.simulator import GoalLike
    from navbench.sim.video import check_output, write_video

    if agent != "oracle":
        raise ConfigError(f"--agent: only 'oracle' is available in the simulator CLI, got {agent!r}")
    check_output(out)
    if scene_or_dataset.is_dir():
        from navbench.episodes.loader import load_dataset

        if episode_id is None:
            raise ConfigError("with a DATASET folder, pass EPISODE_ID")
        ds = load_dataset(scene_or_dataset)
        match = [e for e in ds.episodes(task, split) if str(e.episode_id) == str(episode_id)]
        if not match:
            raise ConfigError(f"{scene_or_dataset}: no episode {episode_id!r} in {task}/{split}")
        ep = match[0]
        sid = ep.info.get("navbench", {}).get("scene") or Path(ep.scene_id).parent.name
        scene = ds.scene(sid)
        embodiment = embodiment or ds.manifest.scene_embodiment(sid) or "spot"
        s = tuple(ep.start_position)
        goals: list[GoalLike] = list(ep.goals)
        path = [tuple(p) for p in (ep.reference_path or [])] or [tuple(goals[0].position)]
        heading = quaternion_to_yaw(ep.start_rotation)
    else:
        scene = load(scene_or_dataset)
        if episode is not None:
            e = _episode_from_json(episode, episode_id)
            s = tuple(float(v) for v in e["start_position"])
            goals = [SimpleGoal(tuple(g["position"]), g.get("radius"), g.get("size"))
                     for g in e.get("goals", [])]
            path = [tuple(p) for p in e.get("reference_path") or []] or \
                [tuple(goals[0].position)]
            heading = quaternion_to_yaw(e.get("start_rotation", [0, 0, 0, 1]))
        elif start is not None and goal is not None:
            s, g = _triple(start, "--start"), _triple(goal, "--goal")
            goals, path = [SimpleGoal(g)], [g]
            heading = yaw_of_direction(g[0] - s[0], g[2] - s[2])
        else:
            raise ConfigError("give --episode EPISODE.json, or both --start and --goal")
    if yaw is not None:
        heading = math.radians(yaw)
    emb = get_embodiment(embodiment or "spot")
    with Progress(transient=True) as bar:
        bar_task = bar.add_task("simulating", total=max_time)
        frames, rec, label = replay_oracle(
            scene, s, heading, goals, path, emb, width=width, height=height, max_time=max_time,
            progress=lambda t: bar.update(bar_task, completed=t))
    write_video(frames, out)
    typer.echo(f"{out}: {len(frames)} frames, {rec['t'][-1]:.1f} s simulated, label {label}, "
               f"collisions {int(rec['collision'].sum())}")
