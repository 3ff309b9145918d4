"""The episode loop shared by tests and the evaluation runner: :func:`run_episode`.

One call = one episode: build the :class:`~navbench.agents.base.Task` (privileged facts only if
the agent declared them), reset simulator and agent, then alternate ``agent.act`` (on the
filtered observation) and ``sim.step`` until the simulator labels the episode, ``max_steps``
agent steps have run (label ``timeout``), or the agent fails (label ``agent_error``: an
exception, an invalid action (a non-finite or out-of-range one: "non-finite action"), or ``wall_timeout_s`` wall-clock seconds exceeded — a hanging
``act`` is abandoned in its thread). The loop never raises for agent faults: the outcome
carries the message, so a run continues with the next episode.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from navbench.agents.base import (
    ProgramFacts,
    Task,
    check_action,
    check_agent,
    filter_observation,
    to_action,
)
from navbench.jsontypes import JSONObject, Observation

if TYPE_CHECKING:
    from navbench.agents.base import AgentLike
    from navbench.episodes.model import Episode
    from navbench.metrics import Trajectory
    from navbench.nav.protocols import NavMeshLike
    from navbench.scene.model import Scene
    from navbench.sim.simulator import SimulatorLike

A = TypeVar("A")  # the argument of an agent call
R = TypeVar("R")  # its result

#: Extra label of episodes ended by an agent fault.
AGENT_ERROR = "agent_error"
#: Longest error message kept for an episode (characters; longer ones are cut).
MAX_ERROR_CHARS = 1000


def _fault(where: str, e: BaseException) -> str:
    text = f"{where}: {type(e).__name__}: {e}"
    return text if len(text) <= MAX_ERROR_CHARS else text[: MAX_ERROR_CHARS - 3] + "..."


@dataclass
class EpisodeOutcome:
    """Result of one episode.

    Attributes:
        episode_id: the episode.
        label: termination label (simulator labels, ``timeout`` for ``max_steps``, or
            ``agent_error``).
        records: ``sim.records()`` (per-step arrays; the last row's ``label`` is set to ``label``).
        error: message when ``label == "agent_error"`` (or a step limit note), else ``None``.
        privileged: whether the agent received privileged facts.
        steps: agent steps taken.
        wall_time_s: wall-clock seconds of the episode.
        sim_time_s: simulated seconds.
        extra: agent-reported diagnostics (``agent.diagnostics()`` if it has one; JSON-able).
    """

    episode_id: str
    label: str
    records: dict[str, np.ndarray]
    error: str | None = None
    privileged: bool = False
    steps: int = 0
    wall_time_s: float = 0.0
    sim_time_s: float = 0.0
    extra: JSONObject = field(default_factory=dict)  # the agent's diagnostics

    @property
    def stopped(self) -> bool:
        """Whether the agent called STOP."""
        st = self.records.get("stop")
        return bool(st is not None and len(st) and st[-1])


def task_kind(episode: Episode) -> str:
    """Task kind from ``info.navbench.task``, else inferred from the episode's fields."""
    nb = getattr(episode, "navbench", {}) or {}
    kind = nb.get("task")
    if isinstance(kind, str) and kind:
        return "conditional" if kind.startswith("conditional") else kind
    if "program" in nb:
        return "conditional"
    if getattr(episode, "object_category", None):
        return "objectnav"
    if getattr(episode, "instruction_text", None):
        return "vln"
    return "pointnav"


def conditional_facts(episode: Episode) -> ProgramFacts | None:
    """The privileged ``program`` fact: ``{"program": Program, "truths": {...}}`` or ``None``."""
    from navbench.tasks.conditional import program_from_dict

    nb = getattr(episode, "navbench", {}) or {}
    p = nb.get("program")
    if p is None:
        return None
    prog = program_from_dict(p, f"episode {episode.episode_id}", "info.navbench.program") \
        if isinstance(p, Mapping) else p
    return ProgramFacts(program=prog, truths=dict(nb.get("truths", {})))


def make_task(episode: Episode, agent: object, *, scene: Scene | None = None,
              navmesh: NavMeshLike | Callable[[], NavMeshLike] | None = None) -> Task:
    """The :class:`Task` of ``episode`` for ``agent`` (privileged facts only if declared)."""
    want = frozenset(getattr(agent, "privileged", frozenset()))
    priv: dict[str, Any] = {}  # privileged facts: arrays, a Program record, the scene, a navmesh
    if "goals" in want:
        priv["goals"] = np.array([g.position for g in episode.goals], float).reshape(-1, 3)
        # NavVerse goal radii ½ max(sx, sz) (0 when unknown): part of the same privileged fact
        priv["goal_radii"] = np.array([g.extent_radius for g in episode.goals], float)
        priv["goal_object_ids"] = [g.object_id for g in episode.goals]  # None: not an object
    if "reference_path" in want:
        priv["reference_path"] = np.array(episode.reference_path, float).reshape(-1, 3)
    if "program" in want:
        priv["program"] = conditional_facts(episode)
    if "scene" in want:
        priv["scene"] = scene
    if "navmesh" in want:
        priv["navmesh"] = navmesh() if callable(navmesh) else navmesh
    nb = getattr(episode, "navbench", {}) or {}
    tau = nb.get("success_distance")
    text = getattr(episode, "instruction_text", None)
    return Task(
        episode_id=str(episode.episode_id),
        kind=task_kind(episode),
        action_space=getattr(agent, "action_space", "waypoint"),
        instruction=text,
        goal_category=getattr(episode, "object_category", None),
        success_distance=None if tau is None else float(tau),
        privileged=priv,
    )


def _call(pool: concurrent.futures.ThreadPoolExecutor | None, fn: Callable[[A], R],
          arg: A, deadline: float) -> R:
    if pool is None:
        return fn(arg)
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError("wall-clock timeout")
    fut = pool.submit(fn, arg)
    try:
        return fut.result(timeout=left)
    except concurrent.futures.TimeoutError:
        raise TimeoutError("wall-clock timeout (the agent did not answer)") from None


def run_episode(sim: SimulatorLike, agent: AgentLike, episode: Episode, *,
                max_steps: int | None = None,
                wall_timeout_s: float | None = None,
                navmesh: NavMeshLike | Callable[[], NavMeshLike] | None = None,
                tau: float | None = None,
                on_step: Callable[[int], None] | None = None) -> EpisodeOutcome:
    """Run one episode of ``agent`` in ``sim`` (see module docs).

    Parameters
    ----------
    sim : Simulator
        A :class:`navbench.sim.Simulator` (or anything with its reset/step/records API).
    agent : Agent
        A :class:`~navbench.agents.base.Agent` (or duck-typed equivalent).
    episode : Episode
        A :class:`navbench.episodes.Episode`.
    max_steps : int, optional
        Agent-step limit (``None``: only the simulator's timeout); reaching it is ``timeout``.
    wall_timeout_s : float, optional
        Wall-clock limit for the whole episode (s); past it: ``agent_error``.
    navmesh : NavMesh or callable, optional
        The scene's navmesh (or a zero-argument function building it) for agents that declare
        ``"navmesh"``.
    tau : float, optional
        Success distance τ of this episode (m), passed to ``sim.reset(episode, tau=tau)``;
        ``None``: the simulator's default (``SimSettings.success_distance`` or 1.0 + r_robot).
    on_step : callable, optional
        Called with the number of agent steps taken after the reset (0) and after every
        ``sim.step`` that does not end the episode (the evaluation streams the rows so far to
        its parent process with it: :class:`navbench.eval.trace.StepTracer`).

    Returns
    -------
    EpisodeOutcome
        Label, per-step records, error, steps, times and the agent's diagnostics. Agent
        exceptions and timeouts become ``agent_error`` with the message in ``error``; they are
        not raised.

    Raises
    ------
    navbench.errors.ConfigError
        If ``agent`` does not declare a valid action space, sensors or privileged facts.

    Examples
    --------
    VLN-CE's forward agent without its random turns: four 0.25 m steps north, then stop,
    2.0 m short of the goal. Spot's default τ is 1.6 m; this episode's τ is 2.5 m.

    >>> from navbench.agents import run_episode
    >>> from navbench.agents.baselines import ForwardAgent
    >>> from navbench.episodes import Episode, Goal
    >>> from navbench.scene import Box, Scene
    >>> from navbench.sim import SPOT, Simulator
    >>> floor = Box("floor", "floor", (0.0, -0.05, 0.0), (10.0, 0.1, 10.0), label="floor")
    >>> sim = Simulator(Scene("flat", "indoor", "handmade", boxes=(floor,)), SPOT)
    >>> ep = Episode("e0", "flat", (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0), (Goal((0.0, 0.0, -3.0)),))
    >>> o = run_episode(sim, ForwardAgent(forward_steps=4, max_turns=0), ep)
    >>> o.label, o.steps, bool(abs(o.records["dtg"][-1] - 2.0) < 0.05)
    ('perception_error', 5, True)
    >>> run_episode(sim, ForwardAgent(forward_steps=4, max_turns=0), ep, tau=2.5).label
    'success'
    """
    check_agent(agent)
    t0 = time.monotonic()
    deadline = math.inf if wall_timeout_s is None else t0 + float(wall_timeout_s)
    privileged = bool(getattr(agent, "privileged", frozenset()))
    task = make_task(episode, agent, scene=getattr(sim, "scene", None), navmesh=navmesh)
    camera = getattr(sim, "camera_info", None)
    if isinstance(camera, Mapping):  # the rig the agent sees through (intrinsics, height, pitch)
        task = dataclasses.replace(task, camera=camera)
    raw = sim.reset(episode, tau=tau)
    if on_step is not None:
        on_step(0)
    labels = getattr(sim, "segmentation_labels", {})
    info: Observation = {"distance_to_goal": sim.distance_to_goal()}
    pool = None if wall_timeout_s is None else concurrent.futures.ThreadPoolExecutor(
        1, thread_name_prefix="navbench-agent")
    label: str | None = None
    error: str | None = None
    steps = 0
    try:
        try:
            _call(pool, agent.reset, task, deadline)
        except Exception as e:
            label, error = AGENT_ERROR, _fault("reset", e)
        while label is None:
            if max_steps is not None and steps >= max_steps:
                label, error = "timeout", f"max_steps={max_steps} reached"
                break
            obs = filter_observation(raw, agent, labels, info)
            try:
                action = check_action(to_action(_call(pool, agent.act, obs, deadline)))
            except Exception as e:
                label, error = AGENT_ERROR, _fault(f"act (step {steps})", e)
                break
            raw, done, info = sim.step(action)
            steps += 1
            if done:
                label = sim.label
            elif time.monotonic() > deadline:
                label, error = AGENT_ERROR, f"wall-clock timeout after {wall_timeout_s} s"
            elif on_step is not None:
                on_step(steps)
    finally:
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
    records = sim.records()
    if len(records.get("label", ())):
        records["label"] = records["label"].astype(object)
        records["label"][-1] = label
        records["label"] = records["label"].astype(str)
    diag = getattr(agent, "diagnostics", None)
    extra: JSONObject = {}
    if callable(diag):
        try:
            extra = dict(diag())
        except Exception as e:
            extra = {"diagnostics_error": f"{type(e).__name__}: {e}"}
    return EpisodeOutcome(
        episode_id=str(episode.episode_id), label=str(label), records=records, error=error,
        privileged=privileged, steps=steps, wall_time_s=time.monotonic() - t0,
        sim_time_s=float(sim.time), extra=extra,
    )


def outcome_trajectory(outcome: EpisodeOutcome) -> Trajectory:
    """The :class:`navbench.metrics.Trajectory` of an outcome (for scoring)."""
    from navbench.metrics import Trajectory

    r = outcome.records
    return Trajectory(
        episode_id=outcome.episode_id, positions=r["position"], stopped=outcome.stopped,
        timestamps=r["t"], headings=r["yaw"], collisions=r["collision"],
        obstacle_distances=r["obstacle_distance"], surfaces=tuple(r["surface"]),
        termination=outcome.label, preferred=r.get("preferred"),
    )
