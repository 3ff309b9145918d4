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

Every attempted episode counts: an episode whose worker process died (``agent_crash``) or
that a fault outside the rollout ended unscored (``agent_error``) is completed in the parent by
:class:`~navbench.eval.failures.FailureScorer` with the metrics a failure defines (SR 0, SPL 0,
...). The label of a scored episode is the metrics' termination (same S as SR).

Reachability is decided once per episode, before the rollout, from the dataset's navmesh (the
geodesic from the start to the nearest goal; without a navmesh the file's L): an unreachable
episode is not run, is labelled ``unreachable`` with ``reachable`` false and every metric
undefined, so that it is excluded from every mean and counted — never an agent error. nDTW uses
the split's ``_gt`` locations as the reference when the dataset has them.

The action budget (:mod:`navbench.eval.budget`) counts discrete-action equivalents: ``B``
actions for ``discrete`` agents, ``B × 1 s`` of simulated time for streaming ones. CondVLN tasks
end by it alone (the shard's simulator timeout is raised above their budgets,
:func:`~navbench.eval.budget.run_max_time`); NavVerse tasks keep the 300 s ``max_time``, which
caps it. Modules: :mod:`~navbench.eval.settings` (:class:`EvalSettings`),
:mod:`~navbench.eval.planning` (agent, episodes, embodiments, worker arguments),
:mod:`~navbench.eval.scoring` (:func:`score_outcome`); their public names are importable here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from navbench.errors import ConfigError
from navbench.eval.budget import (
    ACTION_BUDGET_PER_WORD,
    SECONDS_PER_ACTION,
    action_budget,
    run_max_time,
    step_limit,
    time_budget,
    timeout_caps,
)
from navbench.eval.planning import (
    agent_declarations,
    default_task,
    make_agent,
    plan_evaluation,
    resolve_embodiments,
)
from navbench.eval.reachability import start_geodesic, unreachable_result
from navbench.eval.records import EpisodeResult, RunSummary, ShardSpec
from navbench.eval.scoring import TRAJECTORY_KEYS, episode_tau, geodesic_distances, score_outcome
from navbench.eval.settings import DISTANCE_MODES, RENDER_MODES, EvalSettings
from navbench.eval.timeouts import EpisodeTimeout
from navbench.jsontypes import JSONMapping, JSONObject

if TYPE_CHECKING:
    from navbench.agents.base import AgentLike
    from navbench.episodes.model import Episode
    from navbench.nav import NavMesh
    from navbench.nav.protocols import NavMeshLike
    from navbench.sim.simulator import SimulatorLike

__all__ = ["ACTION_BUDGET_PER_WORD", "DISTANCE_MODES", "RENDER_MODES", "SECONDS_PER_ACTION",
           "TRAJECTORY_KEYS", "WORKER_FN", "EvalSettings", "action_budget", "agent_declarations",
           "default_task", "episode_tau", "evaluate", "geodesic_distances", "make_agent",
           "plan_evaluation", "resolve_embodiments", "run_one", "run_shard", "score_outcome",
           "step_limit", "summarize", "time_budget"]

WORKER_FN = "navbench.eval.pipeline:run_shard"


# ----------------------------------------------------------------------------- one episode

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
    space = str(kw.get("action_space", "discrete"))
    capped = timeout_caps(kw["task"])  # CondVLN: the budget ends the run, not the 300 s timeout
    per_word = float(kw.get("action_budget_per_word", 0))
    spa = float(kw.get("seconds_per_action", SECONDS_PER_ACTION))
    defaults = SimSettings()
    max_time = run_max_time([eps[i] for i in shard.episode_ids if i in eps], space, capped=capped,
                            per_word=per_word, seconds_per_action=spa, agent_dt=defaults.agent_dt,
                            max_time=float(kw["max_time"]), primitive_timeout=defaults.discrete.timeout)
    sim = Simulator(scene, emb, SimSettings(render=bool(kw["render"]), width=int(kw["width"]),
                                            height=int(kw["height"]), max_time=max_time,
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

    def limit(ep: Episode) -> int | None:  # the budget in this agent's steps
        return step_limit(ep, space, per_word=per_word, seconds_per_action=spa,
                          agent_dt=sim.settings.agent_dt, max_time=float(kw["max_time"]), capped=capped)

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
                         max_steps=limit(ep)))
    finally:
        close = getattr(agent, "close", None)
        if callable(close):
            close()
        sim.close()


# ----------------------------------------------------------------------------- evaluate

def summarize(results: Sequence[EpisodeResult]) -> dict[str, float]:
    """Running summary for the progress bar: SR and SPL over scored episodes (crashed ones
    count as failures), the counts of ``agent_error`` and ``agent_crash`` episodes, and for
    agents reporting LLM usage (``extra.agent.total_tokens``) the summed tokens, calls and
    request latency (s)."""
    sr = [float(v) for r in results if (v := r.metrics.get("success")) is not None]
    spl = [float(v) for r in results if (v := r.metrics.get("spl")) is not None]
    out: dict[str, float] = {}
    if sr:
        out["SR"] = sum(sr) / len(sr)
    if spl:
        out["SPL"] = sum(spl) / len(spl)
    out["errors"] = sum(r.label == "agent_error" for r in results)
    out["crashes"] = sum(r.label == "agent_crash" for r in results)
    stats = [r.extra.get("agent") for r in results]  # LLM agents' cost counters, when reported
    tokens = [a["total_tokens"] for a in stats if isinstance(a, Mapping) and
              isinstance(a.get("total_tokens"), int)]
    if tokens:
        out["tokens"] = sum(tokens)
        out["llm_calls"] = sum(int(a.get("llm_calls", 0)) for a in stats if isinstance(a, Mapping))
        out["llm_latency_s"] = sum(float(a.get("latency_s", 0.0)) for a in stats
                                   if isinstance(a, Mapping))
    return out


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
        ``completed``, ``labels`` (label → count) and ``summary`` (SR, SPL, errors, crashes).

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
    from navbench.eval.failures import FailureScorer
    from navbench.eval.runner import code_version, plan_shards, run_shards

    s = settings or EvalSettings()
    out_path = Path(out)
    if out_path.exists() and not out_path.is_dir() and out_path.suffix not in (".sqlite", ".db"):
        raise ConfigError(f"--out {out}: a file is there; give a run folder (results go to "
                          "OUT/results.sqlite)")
    run_settings, pairs, worker_kw, dhash = plan_evaluation(dataset, agent, s, warn)
    ex = make_executor(executor, workers, ray_address)
    with ResultsDB(out) as db:
        run_id = db.get_or_create_run(agent, dhash, run_settings, s.seed, code_version())
        shards = plan_shards(run_id, pairs, WORKER_FN, worker_kw, workers=workers)
        return run_shards(db, shards, ex, progress=progress, episode_timeout_s=s.episode_timeout_s,
                          summary_fn=summarize,
                          complete_fn=FailureScorer(worker_kw, bool(run_settings["privileged"])))
