"""``navbench demo``: a small end-to-end benchmark (``make demo``).

Steps, each reused when already done (re-running resumes):

1. generate 6 procedural houses, 1 small outdoor block and 1 indoor-to-outdoor scene
   (``OUT/scenes``);
2. build a dataset with conditional, ObjectNav and PlaceNav episodes (``OUT/dataset``, every
   scene in the ``eval`` split) for the demo's robots (:data:`DEMO_EMBODIMENTS`): the
   Turtlebot in the houses, Spot outdoors and in the indoor-to-outdoor scene (the Turtlebot's
   wheels cannot climb the 0.15 m curbs); evaluation runs each scene with its robot;
3. evaluate the demo agents (:data:`DEMO_RUNS`) with 2 worker processes
   (``OUT/runs/<task>/<agent>/results.sqlite``);
4. write the report (``OUT/report/report.html``) over all runs and print its absolute path.

``--quick`` uses 3 houses and fewer episodes. ``OUT/demo.json`` records the mode; a folder made
in the other mode is refused rather than mixed.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from navbench.cli._app import app
from navbench.jsontypes import JSONObject

if TYPE_CHECKING:
    from navbench.episodes.loader import Dataset
    from navbench.scene.model import Scene


@dataclass(frozen=True)
class DemoRun:
    """One evaluation of the demo.

    Attributes:
        agent: agent name (skipped with a note when not a built-in of this install).
        task: dataset task folder.
        scene_kinds: only episodes of these scene kinds (``None``: all).
        per_scene: at most this many episodes per scene (``None``: all), for slow agents.
        dataset_arg: pass the dataset folder as the agent's ``dataset`` argument (the
            blind prior's statistics).
    """

    agent: str
    task: str
    scene_kinds: tuple[str, ...] | None = None
    per_scene: int | None = None
    dataset_arg: bool = False


#: The evaluations of ``navbench demo`` (extend here; names missing from BUILTINS are skipped).
#: oracle-branch is the CondVLN oracle of the gap table; scene-graph renders images, so it runs
#: on a few indoor episodes only to keep the demo within minutes.
DEMO_RUNS: tuple[DemoRun, ...] = (
    DemoRun("oracle-branch", "conditional"),
    DemoRun("oracle-path", "conditional"),
    DemoRun("first-branch", "conditional"),
    # the blind baseline (statistics of the dataset's other scenes, leave-one-scene-out here)
    DemoRun("blind-prior", "conditional", dataset_arg=True),
    # the perception agents render: a few indoor episodes per house keep the demo short
    DemoRun("scene-graph", "conditional", scene_kinds=("indoor",), per_scene=2),
    DemoRun("oracle-branch-grounded", "conditional", scene_kinds=("indoor",), per_scene=2),
    # CondVLN §4: the same agent on the oracle-linear copy of the same episodes
    DemoRun("scene-graph", "conditional_oracle", scene_kinds=("indoor",), per_scene=2),
    DemoRun("random", "conditional"),
    DemoRun("forward", "conditional"),
    DemoRun("oracle-goal", "objectnav"),
    DemoRun("oracle-path", "objectnav"),
    DemoRun("random", "objectnav"),
    DemoRun("oracle-goal", "placenav"),
    DemoRun("oracle-path", "placenav"),
    DemoRun("random", "placenav"),
    DemoRun("oracle-path", "route"),
    DemoRun("forward", "route"),
)
ORACLE = "oracle-branch"
#: Robot per scene kind the demo dataset is built (and evaluated) for; ``default`` = houses.
DEMO_EMBODIMENTS: dict[str, str] = {"default": "turtlebot", "outdoor": "spot", "hybrid": "spot"}


@dataclass(frozen=True)
class DemoSuite:
    """Sizes of the demo suite (small on purpose: the demo must run in minutes on 2 cores)."""

    houses: int = 6
    rooms: tuple[int, int] = (3, 5)
    city_size: float = 200.0
    cars: int = 30
    sidewalk_objects: int = 100
    hybrid_rooms: int = 4
    episodes_per_scene: int = 6
    seed: int = 0
    image_size: tuple[int, int] = (320, 240)


QUICK = DemoSuite(houses=3, episodes_per_scene=2)


def _say(step: str, text: str) -> None:
    typer.echo(f"[{step}] {text}")


def generate_scenes(root: Path, suite: DemoSuite) -> list[str]:
    """Write the suite's scenes under ``root`` (existing scene files are kept); returns ids."""
    from navbench.scene.io import save
    from navbench.scene.procgen.hybrid import HybridSettings, generate_hybrid
    from navbench.scene.procgen.indoor import IndoorSettings, generate_house
    from navbench.scene.procgen.outdoor import OutdoorSettings, generate_city

    city = OutdoorSettings(size=(suite.city_size, suite.city_size), cars=suite.cars,
                           sidewalk_objects=suite.sidewalk_objects, places_per_category=1)
    makers: list[tuple[str, Callable[..., Scene]]] = [
        (f"house_{suite.seed + i}", lambda i=i: generate_house(
            suite.seed + i, None, IndoorSettings(rooms=suite.rooms), f"house_{suite.seed + i}"))
        for i in range(suite.houses)]
    makers.append((f"city_{suite.seed + 100}",
                   lambda: generate_city(suite.seed + 100, city, f"city_{suite.seed + 100}")))
    makers.append((f"hybrid_{suite.seed + 200}", lambda: generate_hybrid(
        suite.seed + 200, HybridSettings(city=city, n_rooms=suite.hybrid_rooms),
        f"hybrid_{suite.seed + 200}")))
    for sid, make in makers:
        path = root / sid / "scene.json"
        if not path.is_file():
            save(make(), path)
    return [sid for sid, _ in makers]


def build_demo_dataset(scenes: Path, out: Path, suite: DemoSuite, workers: int) -> Dataset:
    """The demo dataset (all tasks, every scene in ``eval``); reused when it exists."""
    from navbench.episodes.dataset import DatasetSettings, build_dataset
    from navbench.episodes.loader import load_dataset
    from navbench.progress import ProgressReporter

    if (out / "manifest.json").is_file():
        return load_dataset(out)
    with ProgressReporter("building dataset", unit="scenes") as prog:
        build_dataset(scenes, out, tasks=("conditional", "objectnav", "placenav", "route"), split="eval=1.0",
                      seed=suite.seed, workers=workers,
                      settings=DatasetSettings(
                          episodes_per_scene=suite.episodes_per_scene,
                          embodiment=DEMO_EMBODIMENTS["default"],
                          embodiment_by_kind={k: v for k, v in DEMO_EMBODIMENTS.items() if k != "default"}),
                      overwrite=True, progress=lambda done, total: prog.update(done, total=total))
    return load_dataset(out)


def check_demo_dataset(root: Path) -> str:
    """``navbench dataset check`` on the demo's dataset (files, reachability, τ, path lengths,
    action budgets at the evaluation's defaults); a one-line summary, or a
    :class:`~navbench.errors.NavbenchError` listing the first problems (the demo's own episodes
    must all be finishable)."""
    from navbench.errors import NavbenchError
    from navbench.eval.budget_check import check_all

    rep, _, problems = check_all(root)
    if problems:
        raise NavbenchError(f"{root}: dataset check found {len(problems)} problem(s): "
                           + "; ".join(str(p) for p in problems[:5]))
    return f"dataset check: {rep.files} files, {rep.episodes} episodes, 0 problems"


def run_selection(ds: Dataset, run: DemoRun) -> str | None:
    """The ``--episodes`` id list of a demo run (``None``: every episode; ``""``: none)."""
    from navbench.eval.selection import scene_key

    if run.scene_kinds is None and run.per_scene is None:
        return None
    known = list(ds.manifest.scenes)
    taken: dict[str, int] = {}
    ids = []
    for e in ds.episodes(run.task, "eval"):
        sid = scene_key(e, known)
        kind = e.navbench.get("scene_kind") or ds.manifest.scenes.get(sid, {}).get("kind")
        if run.scene_kinds is not None and kind not in run.scene_kinds:
            continue
        if run.per_scene is not None and taken.get(sid, 0) >= run.per_scene:
            continue
        taken[sid] = taken.get(sid, 0) + 1
        ids.append(e.episode_id)
    return ",".join(ids)


def write_demo_report(ds: Dataset, runs: list[tuple[DemoRun, Path]], out: Path) -> Path:
    """One report over every run: rows of each task get ids ``<task>-<id>`` so that tasks whose
    episode ids overlap stay apart; runs are named by agent."""
    from navbench.report.build import build_report_from_rows
    from navbench.report.runs import load_scenes_for, read_runs

    rows: dict[str, list[JSONObject]] = {}
    traj: dict[str, JSONObject] = {}
    records: dict[str, dict] = {}
    episodes = []
    for task in dict.fromkeys(r.task for r, _ in runs):
        folders = [p for r, p in runs if r.task == task]
        got_records: dict[str, dict] = {}
        got_rows, got_traj = read_runs(folders, got_records)
        for agent, rs in got_rows.items():
            rows.setdefault(agent, []).extend(
                {**r, "episode_id": f"{task}-{r['episode_id']}"} for r in rs)
            traj.setdefault(agent, {}).update(
                {f"{task}-{k}": v for k, v in got_traj.get(agent, {}).items()})
            records.setdefault(agent, {}).update(
                {f"{task}-{k}": v for k, v in got_records.get(agent, {}).items()})
        episodes += [dataclasses.replace(e, episode_id=f"{task}-{e.episode_id}")
                     for e in ds.episodes(task, "eval")]
    scenes = load_scenes_for(episodes, [ds.root])
    oracle = ORACLE if ORACLE in rows else None
    return build_report_from_rows(rows, out, scenes, traj, episodes=episodes, oracle=oracle,
                                  title="navbench demo", meta={"dataset": str(ds.root)},
                                  records=records)


@app.command("demo")
def demo_cmd(
    out: Annotated[Path, typer.Option("--out", "-o", help="Demo folder (re-run to resume).")] = Path("demo_out"),
    quick: Annotated[bool, typer.Option("--quick", help="3 houses and 2 episodes per scene and task.")] = False,
    workers: Annotated[int, typer.Option("--workers", "-j", min=1, help="Worker processes.")] = 2,
) -> None:
    """Generate a small suite, build its dataset, evaluate the built-in agents, write the report.

    Prints the absolute path of report.html at the end. Finished steps are reused.
    """
    from navbench.agents.loading import BUILTINS
    from navbench.errors import ConfigError
    from navbench.eval.pipeline import EvalSettings, evaluate
    from navbench.io import dumps_json, read_json, write_json

    suite = QUICK if quick else DemoSuite()
    mode = {"schema": "navbench.demo/1", "quick": quick, "suite": dataclasses.asdict(suite),
            "embodiments": DEMO_EMBODIMENTS}
    marker = out / "demo.json"
    if marker.is_file() and dumps_json(read_json(marker)) != dumps_json(mode):
        raise ConfigError(f"{out}: holds a demo made with other settings ({marker}); "
                          "use another --out or delete the folder")
    out.mkdir(parents=True, exist_ok=True)
    write_json(marker, mode)
    t0 = time.perf_counter()
    ids = generate_scenes(out / "scenes", suite)
    _say("1/4", f"scenes: {len(ids)} in {out / 'scenes'} ({', '.join(ids)})")
    ds = build_demo_dataset(out / "scenes", out / "dataset", suite, workers)
    counts = {t: per.get("eval", {}).get("total", 0) for t, per in ds.manifest.counts.items()}
    _say("2/4", f"dataset: {out / 'dataset'} (eval episodes: "
         + ", ".join(f"{t} {n}" for t, n in counts.items()) + ")")
    _say("2/4", check_demo_dataset(out / "dataset"))
    done: list[tuple[DemoRun, Path]] = []
    ran = 0
    plan = [r for r in DEMO_RUNS if r.task in ds.tasks]
    for k, run in enumerate(plan, 1):
        tag = f"3/4 {k}/{len(plan)}"
        if run.agent not in BUILTINS:
            _say(tag, f"skip {run.agent} on {run.task}: not a built-in agent of this install")
            continue
        sel = run_selection(ds, run)
        if sel == "" or counts.get(run.task, 0) == 0:
            _say(tag, f"skip {run.agent} on {run.task}: no episode")
            continue
        folder = out / "runs" / run.task / run.agent
        settings = EvalSettings(task=run.task, split="eval", episodes=sel, seed=suite.seed,
                                width=suite.image_size[0], height=suite.image_size[1],
                                agent_kwargs={"dataset": str(ds.root)} if run.dataset_arg else {})
        t = time.perf_counter()
        s = evaluate(ds.root, run.agent, folder, settings, workers=workers)
        ran += s.completed
        sr = s.summary.get("SR")
        _say(tag, f"{run.agent} on {run.task}: {s.total} episodes ({s.completed} run, "
             f"{s.skipped} reused) SR {'-' if sr is None else f'{sr:.2f}'} "
             f"in {time.perf_counter() - t:.1f} s")
        done.append((run, folder))
    if not done:
        raise ConfigError("demo: no agent could be evaluated")
    html = out / "report" / "report.html"
    if ran or not html.is_file():
        html = write_demo_report(ds, done, out / "report")
        _say("4/4", f"report written in {time.perf_counter() - t0:.0f} s total")
    else:
        _say("4/4", "report reused (no new episodes)")
    typer.echo(str(html.resolve()))
