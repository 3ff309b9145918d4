"""The real evaluation pipeline: dataset episodes → simulator + agent → metrics → results DB.

:func:`evaluate` plans one shard per scene (split further when there are more workers than
scenes), opens ``OUT/results.sqlite`` and runs the unfinished episodes through
:func:`navbench.eval.run_shards`; re-running the same command resumes. :func:`run_shard` is the
worker function (``"navbench.eval.pipeline:run_shard"``): it loads the scene once, builds one
:class:`~navbench.sim.Simulator`, loads the agent, and for each episode runs
:func:`~navbench.agents.rollout.run_episode` and scores it with
:func:`~navbench.metrics.compute_episode_metrics`.

Every episode is judged with its own success distance τ (``info.navbench.success_distance``,
set on the simulator per episode); without one the simulator's 1.0 m + robot radius applies.
Distance to goal for the metrics (``--distance``): ``geodesic`` (per step on the dataset's
navmesh, VLN-CE style), ``euclidean`` (NavVerse: 3D distance minus the goal's half size, the
same quantity the simulator labels with) or ``auto`` = geodesic for point goals (no goal size)
when the dataset has a navmesh, else euclidean. An episode whose geodesic distances are not
all finite (the robot left the navmesh) falls back to euclidean; ``extra["dtg_kind"]`` says
which one was used.

Reachability is decided once per episode, before the rollout, from the dataset's navmesh (the
geodesic from the start to the nearest goal; without a navmesh the file's L): an unreachable
episode is not run, is labelled ``unreachable`` with ``reachable`` false and every metric
undefined, so that it is excluded from every mean and counted — never an agent error. nDTW uses
the split's ``_gt`` locations as the reference when the dataset has them.
"""

from __future__ import annotations

import dataclasses
import inspect
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from navbench.errors import ConfigError
from navbench.eval.reachability import start_geodesic, unreachable_result
from navbench.eval.records import EpisodeResult, RunSummary, ShardSpec
from navbench.eval.selection import scene_key, select_episodes
from navbench.eval.timeouts import EpisodeTimeout
from navbench.jsontypes import JSON, JSONMapping, JSONObject

if TYPE_CHECKING:
    from navbench.agents.base import Agent, AgentLike
    from navbench.agents.rollout import EpisodeOutcome
    from navbench.episodes.loader import Dataset, Manifest
    from navbench.episodes.model import Episode
    from navbench.nav import NavMesh
    from navbench.nav.protocols import NavMeshLike
    from navbench.scene.model import Scene
    from navbench.sim.simulator import SimulatorLike

WORKER_FN = "navbench.eval.pipeline:run_shard"
RENDER_MODES = ("auto", "on", "off")
DISTANCE_MODES = ("auto", "geodesic", "euclidean")
#: Per-step arrays of the simulator's records stored as the episode trajectory.
#: CondVLN §5.1: "episodes are executed with a fixed action budget proportional to instruction
#: length". The paper gives no constant; ours is 15 agent actions per instruction word, close to
#: VLN-CE's 500-step limit over R2R's ~33-word mean (500 / 33 ≈ 15).
ACTION_BUDGET_PER_WORD = 15.0
TRAJECTORY_KEYS = ("t", "position", "yaw", "tilt", "collision", "obstacle_distance", "surface",
                   "preferred", "stop", "dtg", "label")


@dataclass(frozen=True)
class EvalSettings:
    """What an evaluation run does (everything here changes results and names the run).

    Attributes:
        task: task folder of the dataset (``None``: ``conditional`` if present, else the first).
        split: split to evaluate.
        episodes: ``--episodes`` expression (ids or filter, :mod:`navbench.eval.selection`).
        embodiment: ``spot`` or ``turtlebot``; ``None`` = the robot the dataset was built for
            (per scene, from the manifest; ``spot`` for datasets built with ``none``). An
            explicit one that differs from the dataset's is allowed with a warning: the
            reference paths were planned for another body.
        render: ``auto`` (only when the agent needs images), ``on`` or ``off``.
        width, height: image size when rendering (px).
        max_time: simulated timeout per episode (s).
        episode_timeout_s: wall-clock limit per episode (s); past it: ``agent_error``.
        distance: distance to goal for the metrics: ``auto``, ``geodesic`` or ``euclidean``.
        seed: seed handed to agents that take one (``seed`` constructor argument).
        action_budget_per_word: agent actions allowed per word of an episode's instruction
            (:func:`action_budget`; past it: ``timeout``); ``0`` = no budget.
        agent_kwargs: extra constructor arguments of the agent (JSON-able).
        friction_scale: multiplies every surface's friction μ in the simulator (NavVerse §4.4
            embodiment × friction study); 1 = the scene's own.
        friction_override: surface class → μ (``{"floor": 0.3}``), applied before the scale.
    """

    task: str | None = None
    split: str = "eval"
    episodes: str | None = None
    embodiment: str | None = None
    render: str = "auto"
    width: int = 640
    height: int = 480
    max_time: float = 300.0
    episode_timeout_s: float = 600.0
    distance: str = "auto"
    seed: int = 0
    agent_kwargs: JSONMapping = field(default_factory=dict)
    action_budget_per_word: float = ACTION_BUDGET_PER_WORD
    friction_scale: float = 1.0
    friction_override: Mapping[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not (math.isfinite(self.friction_scale) and self.friction_scale > 0):
            raise ConfigError(f"--friction-scale: expected a number > 0, got {self.friction_scale}")
        for k, v in self.friction_override.items():
            if not (isinstance(v, (int, float)) and math.isfinite(v) and v >= 0):
                raise ConfigError(f"--friction: expected CLASS=MU with MU >= 0, got {k}={v!r}")
        if self.render not in RENDER_MODES:
            raise ConfigError(f"--render: expected one of {', '.join(RENDER_MODES)}, got {self.render!r}")
        if self.distance not in DISTANCE_MODES:
            raise ConfigError(f"--distance: expected one of {', '.join(DISTANCE_MODES)}, "
                              f"got {self.distance!r}")
        if not self.max_time > 0:
            raise ConfigError(f"--max-time: expected simulated seconds > 0, got {self.max_time}")
        if not self.action_budget_per_word >= 0:
            raise ConfigError("--action-budget-per-word: expected actions per word >= 0, "
                              f"got {self.action_budget_per_word}")
        if not self.episode_timeout_s > 0:
            raise ConfigError(f"--episode-timeout: expected seconds > 0, got {self.episode_timeout_s}")


# ----------------------------------------------------------------------------- agents

def _agent_target(name: str) -> object:
    """The class (or factory) an agent name resolves to, or ``None`` for remote agents."""
    from navbench.agents.loading import resolve

    return resolve(name)


def make_agent(name: str, kwargs: JSONMapping | None = None, seed: int = 0) -> Agent:
    """:func:`navbench.agents.load_agent` with ``seed`` added when the constructor takes one."""
    from navbench.agents import load_agent

    kw = dict(kwargs or {})
    target = _agent_target(name)
    if callable(target) and "seed" not in kw:
        try:
            params: Mapping[str, inspect.Parameter] = inspect.signature(target).parameters
        except (TypeError, ValueError):
            params = {}
        if "seed" in params:
            kw["seed"] = int(seed)
    return load_agent(name, **kw)


def agent_declarations(agent: object) -> JSONObject:  # a JSON record of the run
    """What an agent declares: privileged facts, extra sensors, action space, render need."""
    priv = sorted(getattr(agent, "privileged", ()) or ())
    sensors = sorted(getattr(agent, "sensors", ()) or ())
    return {"privileged": bool(priv), "privileged_facts": priv, "sensors": sensors,
            "action_space": str(getattr(agent, "action_space", "waypoint")),
            "needs_render": bool(getattr(agent, "needs_render", False) or sensors),
            # agents that only read depth + semantic get no RGB pass and flat boxes (same ids)
            "needs_rgb": bool(getattr(agent, "needs_rgb", True))}


# ----------------------------------------------------------------------------- one episode

def _jsonable(v: object) -> JSON:  # any value in, plain JSON out
    """Plain JSON types (numpy → Python, non-finite floats → None, unknown → str)."""
    if isinstance(v, Mapping):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple, np.ndarray)):
        return [_jsonable(x) for x in (v.tolist() if isinstance(v, np.ndarray) else v)]
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        return float(v) if math.isfinite(v) else None
    return v if v is None or isinstance(v, str) else str(v)


def action_budget(ep: object, per_word: float = ACTION_BUDGET_PER_WORD) -> int | None:
    """Agent actions allowed in ``ep`` (CondVLN §5.1): ``ceil(per_word × words)`` of its
    instruction text (whitespace-separated words); ``None`` (no budget) for episodes without
    an instruction (ObjectNav, PlaceNav) or when ``per_word`` is 0.

    >>> from types import SimpleNamespace
    >>> action_budget(SimpleNamespace(instruction_text="Go to the sofa in the kitchen."))
    105
    """
    text = getattr(ep, "instruction_text", None)
    if not per_word or not isinstance(text, str) or not text.split():
        return None
    return math.ceil(per_word * len(text.split()))


def episode_tau(ep: Episode) -> float | None:
    """τ of an episode (``info.navbench.success_distance``), or ``None``."""
    tau = ep.navbench.get("success_distance")
    return None if tau is None else float(tau)


def geodesic_distances(navmesh: NavMeshLike, ep: Episode, positions: np.ndarray) -> np.ndarray:
    """Geodesic distance (m) from every position to the nearest goal of ``ep`` (inf if none);
    one cached goal table serves all positions (:meth:`NavMesh.geodesic_distances`)."""
    goals = np.array([g.position for g in ep.goals], float).reshape(-1, 3)
    return np.asarray(navmesh.geodesic_distances(np.asarray(positions, float).reshape(-1, 3), goals), float)


def score_outcome(outcome: EpisodeOutcome, ep: Episode, scene_id: str, *,
                  navmesh: NavMeshLike | None = None, distance: str = "auto",
                  gt: JSONMapping | None = None,  # the episode's _gt JSON record
                  scene: Scene | None = None, geodesic_length: float | None = None) -> EpisodeResult:
    """The :class:`EpisodeResult` of a finished rollout: numeric metrics, string metrics and
    episode fields in ``extra``, the per-step arrays as the trajectory.

    ``gt``: the episode's ``_gt`` record (nDTW reference); ``scene``: a hybrid scene gives the
    per-step indoor/outdoor labels of the stage metrics; ``geodesic_length``: L from the navmesh,
    used when the file has none."""
    from navbench.agents.rollout import outcome_trajectory
    from navbench.metrics import EpisodeFacts, compute_episode_metrics

    traj = outcome_trajectory(outcome)
    facts = EpisodeFacts.from_episode(ep, gt=gt)
    if geodesic_length is not None and math.isnan(facts.geodesic_distance):
        facts = dataclasses.replace(facts, geodesic_distance=float(geodesic_length))
    point_goals = all(g.size is None for g in ep.goals)
    want_geo = navmesh is not None and (distance == "geodesic" or (distance == "auto" and point_goals))
    gd = geodesic_distances(navmesh, ep, traj.positions) \
        if want_geo and navmesh is not None and ep.goals else None
    fallback = gd is not None and not np.isfinite(gd).all()
    stage_labels = None
    if scene is not None and getattr(scene, "kind", None) == "hybrid" and scene.rooms:
        from navbench.scene.stages import classify_positions

        stage_labels = classify_positions(scene, traj.positions)
    m = compute_episode_metrics(traj, facts, goal_distances=None if fallback else gd,
                                stage_labels=stage_labels)
    metrics = {k: v for k, v in m.items() if k != "episode_id" and
               (v is None or isinstance(v, (bool, int, float, np.integer, np.floating)))}
    metrics["agent_steps"] = outcome.steps
    extra: JSONObject = {k: v for k, v in m.items() if isinstance(v, str) and k != "episode_id"}
    extra.update(fields=_jsonable(facts.fields), privileged=outcome.privileged)
    if fallback:
        extra["dtg_note"] = "geodesic distance undefined on some steps (off the navmesh)"
    if outcome.extra:
        extra["agent"] = _jsonable(outcome.extra)
    rec = outcome.records
    arrays = {("positions" if k == "position" else k): np.asarray(rec[k]) for k in TRAJECTORY_KEYS
              if k in rec}
    if gd is not None:
        arrays["geodesic_dtg"] = gd
    return EpisodeResult(ep.episode_id, scene_id, outcome.label, metrics, outcome.error,
                         float(outcome.wall_time_s), float(outcome.sim_time_s), arrays, extra)


def run_one(sim: SimulatorLike, agent: AgentLike, ep: Episode, scene_id: str, *,
            navmesh: NavMeshLike | None = None,
            navmesh_fn: Callable[[], NavMeshLike] | None = None, distance: str = "auto",
            default_tau: float | None = None,
            gt: JSONMapping | None = None,  # the episode's _gt JSON record
            max_steps: int | None = None) -> EpisodeResult:
    """Run and score one episode with its own τ (``default_tau``, else 1.0 m + robot radius,
    when it has none) and at most ``max_steps`` agent actions. Reachability is decided first
    (:func:`start_geodesic` on the navmesh of ``navmesh_fn``/``navmesh``): an unreachable episode
    is not run (:func:`unreachable_result`). A wall-clock timeout (:class:`EpisodeTimeout`) during
    the rollout ends the episode as ``agent_error`` scored on its partial trajectory."""
    import time

    from navbench.agents.rollout import AGENT_ERROR, EpisodeOutcome, run_episode

    nm = navmesh if navmesh is not None else (navmesh_fn() if navmesh_fn is not None else None)
    L = start_geodesic(nm, ep)
    if math.isinf(L):
        return unreachable_result(ep, scene_id)

    tau = episode_tau(ep)
    if tau is None:  # SPEC §5: 1.0 m + r_robot unless the episode has its own τ
        tau = default_tau if default_tau is not None else 1.0 + float(sim.embodiment.radius)
    t0 = time.monotonic()
    try:  # τ is per episode (SimSettings is fixed per world build): it goes through reset
        outcome = run_episode(sim, agent, ep, navmesh=navmesh_fn, max_steps=max_steps, tau=tau)
    except EpisodeTimeout as e:
        try:
            records = sim.records()
        except Exception:
            raise e from None
        if len(records.get("label", ())):
            lab = records["label"].astype(object)
            lab[-1] = AGENT_ERROR
            records["label"] = lab.astype(str)
        outcome = EpisodeOutcome(str(ep.episode_id), AGENT_ERROR, records, str(e),
                                 bool(getattr(agent, "privileged", ())), max(len(records["t"]) - 1, 0),
                                 time.monotonic() - t0, float(sim.time))
    return score_outcome(outcome, ep, scene_id, navmesh=navmesh, distance=distance, gt=gt,
                         scene=getattr(sim, "scene", None), geodesic_length=L)


# ----------------------------------------------------------------------------- worker

def run_shard(shard: ShardSpec, emit: Callable[[EpisodeResult], None]) -> None:
    """Worker function: one world build per shard, then every episode in order (see module)."""
    building = getattr(emit, "building", None)
    if callable(building):  # the build gets its own allowance (eval.worker.SETUP_ALLOWANCE_S)
        building()
    from navbench.episodes.loader import load_dataset
    from navbench.sim import SimSettings, Simulator, get_embodiment

    kw = dict(shard.fn_kwargs)
    ds = load_dataset(kw["dataset"])
    eps = {e.episode_id: e for e in ds.episodes(kw["task"], kw["split"])}
    scene = ds.scene(shard.scene_id)
    emb = get_embodiment(kw["embodiment"] or kw["embodiments"][shard.scene_id])
    sim = Simulator(scene, emb, SimSettings(render=bool(kw["render"]), width=int(kw["width"]),
                                            height=int(kw["height"]), max_time=float(kw["max_time"]),
                                            friction_scale=float(kw.get("friction_scale", 1.0)),
                                            friction_override=dict(kw.get("friction_override", {})),
                                            visuals=bool(kw.get("visuals", True)),
                                            rgb=bool(kw.get("visuals", True))))
    default_tau = sim.default_tau
    has_nm = "navmesh" in ds.manifest.scenes.get(shard.scene_id, {})
    cache: dict[str, NavMesh] = {}

    def navmesh() -> NavMesh:  # called only when the scene has one (has_nm)
        if "nm" not in cache:
            cache["nm"] = ds.navmesh(shard.scene_id)
        return cache["nm"]

    gt: JSONObject = {}
    try:
        has_gt = ds.path(kw["task"], kw["split"], "gt").is_file()
    except ConfigError:
        has_gt = False
    if has_gt:  # nDTW reference locations (R2R tasks)
        gt = ds.gt(kw["task"], kw["split"])
    agent = make_agent(kw["agent"], kw.get("agent_kwargs"), int(kw.get("seed", 0)))
    use_nm = has_nm and kw.get("distance", "auto") != "euclidean"
    first = eps.get(shard.episode_ids[0]) if shard.episode_ids else None
    if use_nm and first is not None and first.goals:  # load + JIT-warm before the first deadline
        navmesh().geodesic_distance(first.start_position, first.goals[0].position)
    begin = getattr(emit, "begin", None)
    try:
        for eid in shard.episode_ids:
            if callable(begin):
                begin(eid)  # the world build above must not eat this episode's deadline
            ep = eps.get(eid)
            if ep is None:
                raise ConfigError(f"{kw['dataset']}: episode {eid!r} is not in {kw['task']}/{kw['split']}")
            emit(run_one(sim, agent, ep, shard.scene_id, navmesh=navmesh() if use_nm else None,
                         navmesh_fn=navmesh if has_nm else None, distance=kw.get("distance", "auto"),
                         default_tau=default_tau, gt=gt.get(str(eid)),
                         max_steps=action_budget(ep, float(kw.get("action_budget_per_word", 0)))))
    finally:
        close = getattr(agent, "close", None)
        if callable(close):
            close()
        sim.close()


# ----------------------------------------------------------------------------- evaluate

def default_task(tasks: Sequence[str]) -> str:
    """``conditional`` when present, else the first task of the dataset."""
    if not tasks:
        raise ConfigError("dataset has no task")
    return "conditional" if "conditional" in tasks else tasks[0]


def _hash_files(ds: Dataset, task: str, split: str, scenes: Sequence[str]) -> str:
    from navbench.eval.runner import dataset_hash

    files = [ds.root / "manifest.json", ds.path(task, split)]
    for sid in sorted(scenes):
        files.append(ds.scene_path(sid))
        nm = ds.manifest.scenes[sid].get("navmesh")
        if nm:
            files.append(ds.root / nm)
    return dataset_hash(files)


def summarize(results: Sequence[EpisodeResult]) -> dict[str, float]:
    """Running summary for the progress bar: SR and SPL over scored episodes, error count, and
    for agents reporting LLM usage (``extra.agent.total_tokens``) the summed tokens, calls and
    request latency (s)."""
    sr = [float(v) for r in results if (v := r.metrics.get("success")) is not None]
    spl = [float(v) for r in results if (v := r.metrics.get("spl")) is not None]
    out: dict[str, float] = {}
    if sr:
        out["SR"] = sum(sr) / len(sr)
    if spl:
        out["SPL"] = sum(spl) / len(spl)
    out["errors"] = sum(r.label == "agent_error" for r in results)
    stats = [r.extra.get("agent") for r in results]  # LLM agents' cost counters, when reported
    tokens = [a["total_tokens"] for a in stats if isinstance(a, Mapping) and
              isinstance(a.get("total_tokens"), int)]
    if tokens:
        out["tokens"] = sum(tokens)
        out["llm_calls"] = sum(int(a.get("llm_calls", 0)) for a in stats if isinstance(a, Mapping))
        out["llm_latency_s"] = sum(float(a.get("latency_s", 0.0)) for a in stats
                                   if isinstance(a, Mapping))
    return out


def resolve_embodiments(manifest: Manifest, scene_ids: Sequence[str], requested: str | None
                        ) -> tuple[dict[str, str], list[str]]:
    """Embodiment per scene and warnings: ``requested`` everywhere, or (``None``) the one each
    scene's episodes were built for (``spot`` where the dataset was built with ``none``); a
    warning for every dataset embodiment that ``requested`` overrides."""
    from navbench.sim import get_embodiment

    if requested is not None:
        get_embodiment(requested)
    built = {sid: manifest.scene_embodiment(sid) for sid in scene_ids}
    warnings = [f"--embodiment {requested}: the dataset's paths were planned for {b} "
                f"(scenes {', '.join(sorted(s for s, x in built.items() if x == b))}); "
                "expect collisions or detours" for b in sorted({b for b in built.values() if b})
                if requested is not None and b != requested]
    return {sid: requested or b or "spot" for sid, b in built.items()}, warnings


def _run_embodiment(by_scene: Mapping[str, str], manifest: Manifest) -> str | dict[str, str] | None:
    """What a run records as its embodiment: one name, or ``{scene kind: name}`` when mixed."""
    names = sorted(set(by_scene.values()))
    if len(names) <= 1:
        return names[0] if names else None
    return {manifest.scenes[s].get("kind", s): e for s, e in sorted(by_scene.items())}


def plan_evaluation(dataset: str | Path, agent: str, settings: EvalSettings,
                    warn: Callable[[str], None] | None = None
                    ) -> tuple[JSONObject, list[tuple[str, str]], JSONObject, str]:
    """Resolve a run: ``(run settings, [(episode id, scene id)], worker kwargs, dataset hash)``.

    Loads the agent once to read its declarations (privileged facts, render need). Embodiment
    mismatches with the dataset go to ``warn`` (default: :func:`warnings.warn`).
    """
    import warnings

    from navbench.episodes.loader import load_dataset

    ds = load_dataset(dataset)
    task = settings.task or default_task(ds.tasks)
    if task not in ds.tasks:
        raise ConfigError(f"--task: expected one of {list(ds.tasks)}, got {task!r}")
    if settings.split not in ds.splits:
        raise ConfigError(f"--split: expected one of {list(ds.splits)}, got {settings.split!r}")
    known = list(ds.manifest.scenes)
    chosen = select_episodes(ds.episodes(task, settings.split), settings.episodes, known)
    pairs = [(e.episode_id, scene_key(e, known)) for e in chosen]
    unknown = sorted({s for _, s in pairs if s not in ds.manifest.scenes})
    if unknown:
        raise ConfigError(f"{ds.root}: episodes refer to scenes missing from manifest.json: {unknown}")
    by_scene, notes = resolve_embodiments(ds.manifest, sorted({s for _, s in pairs}), settings.embodiment)
    for note in notes:
        (warn or (lambda m: warnings.warn(m, UserWarning, stacklevel=3)))(note)
    probe = make_agent(agent, settings.agent_kwargs, settings.seed)
    try:
        decl = agent_declarations(probe)
    finally:
        close = getattr(probe, "close", None)
        if callable(close):
            close()
    render = settings.render == "on" or (settings.render == "auto" and decl["needs_render"])
    run_settings = {**dataclasses.asdict(settings), "task": task, "render": render,
                    "agent_kwargs": _jsonable(dict(settings.agent_kwargs)),
                    "embodiment": _run_embodiment(by_scene, ds.manifest), **decl}
    if not render:
        run_settings.pop("width")
        run_settings.pop("height")
    if settings.friction_scale == 1.0 and not settings.friction_override:
        run_settings.pop("friction_scale")  # default physics: run names as before
        run_settings.pop("friction_override")
    else:
        run_settings["friction_override"] = dict(settings.friction_override)
    worker_kw = {"dataset": str(Path(dataset).resolve()), "task": task, "split": settings.split,
                 "agent": agent, "agent_kwargs": dict(settings.agent_kwargs), "seed": settings.seed,
                 "embodiment": settings.embodiment, "embodiments": by_scene, "render": render, "width": settings.width,
                 "height": settings.height, "max_time": settings.max_time,
                 "distance": settings.distance,
                 "action_budget_per_word": settings.action_budget_per_word,
                 "friction_scale": settings.friction_scale,
                 "friction_override": dict(settings.friction_override),
                 "visuals": decl["needs_rgb"]}
    return run_settings, pairs, worker_kw, _hash_files(ds, task, settings.split,
                                                       sorted({s for _, s in pairs}))


def evaluate(dataset: str | Path, agent: str, out: str | Path, settings: EvalSettings | None = None,
             *, workers: int = 1, executor: str = "local", ray_address: str | None = None,
             progress: bool = True, warn: Callable[[str], None] | None = None) -> RunSummary:
    """Evaluate ``agent`` on a dataset split into the run folder ``out`` (resumable).

    Parameters
    ----------
    dataset : str or Path
        Dataset directory (``manifest.json``, see :func:`navbench.episodes.dataset.build_dataset`).
    agent : str
        Built-in agent name (:data:`navbench.agents.BUILTINS`), ``"module:Class"`` or
        ``"http://host:port"``.
    out : str or Path
        Run folder; results go to ``out/results.sqlite`` (one run per agent + settings).
    settings : EvalSettings, optional
        Task, split, episode filter, embodiment, rendering, limits, distance, seed, friction.
    workers : int, default 1
        Worker processes (one world build per scene per worker).
    executor : {"local", "ray"}, default "local"
        Local processes or a Ray cluster (``ray_address``).
    progress : bool, default True
        Show a progress bar with ETA and running SR/SPL (on a terminal).
    warn : callable, optional
        Receives warnings (an ``--embodiment`` other than the dataset's); default
        :func:`warnings.warn`.

    Returns
    -------
    RunSummary
        ``run_id``, ``total``, ``skipped`` (finished before this call: a re-run resumes),
        ``completed``, ``labels`` (label → count) and ``summary`` (SR, SPL, errors).

    Raises
    ------
    navbench.errors.ConfigError
        Bad dataset, task, split, episode filter, agent or settings (one line, before any
        episode runs).
    navbench.errors.InterruptedRunError
        On Ctrl-C; finished episodes are saved, the same call resumes.

    Notes
    -----
    Workers are *spawned* processes that import the caller's main module: in a script, call
    ``evaluate`` under ``if __name__ == "__main__":``.

    Examples
    --------
    Build a two-episode ObjectNav dataset, run the privileged ``oracle-path`` agent on it,
    run again (nothing left to do: the run resumes) and read the rows (the report of the run:
    :func:`navbench.report.build.build_report`):

    >>> import tempfile
    >>> from pathlib import Path
    >>> from navbench.episodes.dataset import DatasetSettings, build_dataset
    >>> from navbench.eval import ResultsDB
    >>> from navbench.eval.pipeline import EvalSettings, evaluate
    >>> from navbench.scene.procgen.indoor import generate_house
    >>> tmp = tempfile.TemporaryDirectory()
    >>> ds, run = Path(tmp.name) / "ds", Path(tmp.name) / "run"
    >>> _ = build_dataset([generate_house(0, n_rooms=2)], ds, tasks=["objectnav"], split="eval=1",
    ...                   settings=DatasetSettings(episodes_per_scene=2))
    >>> s = evaluate(ds, "oracle-path", run, EvalSettings(task="objectnav"), progress=False)
    >>> s.total, s.completed, dict(s.labels), s.summary["SR"]
    (2, 2, {'success': 2}, 1.0)
    >>> again = evaluate(ds, "oracle-path", run, EvalSettings(task="objectnav"), progress=False)
    >>> again.run_id == s.run_id, again.skipped, again.completed
    (True, 2, 0)
    >>> with ResultsDB(run) as db:
    ...     rows = db.rows(s.run_id)
    >>> [(r["episode_id"], r["label"], r["metrics"]["tau"]) for r in rows]  # Turtlebot τ = 1.18 m
    [('0', 'success', 1.18), ('1', 'success', 1.18)]
    >>> tmp.cleanup()
    """
    from navbench.eval.db import ResultsDB
    from navbench.eval.executors import make_executor
    from navbench.eval.runner import code_version, plan_shards, run_shards

    s = settings or EvalSettings()
    run_settings, pairs, worker_kw, dhash = plan_evaluation(dataset, agent, s, warn)
    ex = make_executor(executor, workers, ray_address)
    with ResultsDB(out) as db:
        run_id = db.get_or_create_run(agent, dhash, run_settings, s.seed, code_version())
        shards = plan_shards(run_id, pairs, WORKER_FN, worker_kw, workers=workers)
        return run_shards(db, shards, ex, progress=progress, episode_timeout_s=s.episode_timeout_s,
                          summary_fn=summarize)
