"""Agents for the pipeline tests (loaded by worker processes as ``module:Class``)."""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from typing import Any, ClassVar

from navbench.agents.base import Agent, Task
from navbench.agents.baselines import RandomAgent
from navbench.agents.oracle import FirstBranchAgent
from navbench.sim.actions import Action, DiscreteAction, StopAction


class StopNow(Agent):
    """Stops at the first step (the final position is the start)."""

    name: ClassVar[str] = "stop-now"

    def act(self, observation: Mapping[str, Any]) -> Action:
        return StopAction()


class PacedRandom(RandomAgent):
    """VLN-CE's random agent, sleeping ``$NAVBENCH_TEST_PAUSE`` wall-clock seconds per action
    (so that a test can kill a run in the middle). The pause comes from the environment, not
    from an agent argument, so paced and unpaced runs are the same run (same settings)."""

    name: ClassVar[str] = "paced-random"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.pause = float(os.environ.get("NAVBENCH_TEST_PAUSE", "0"))

    def act(self, observation: Mapping[str, Any]) -> Action:
        time.sleep(self.pause)
        return super().act(observation)


class Faulty(Agent):
    """Raises in episode ``raise_on``, hangs in episode ``hang_on``, else walks 2 steps, stops."""

    name: ClassVar[str] = "faulty"
    action_space = "discrete"

    def __init__(self, raise_on: str = "", hang_on: str = "") -> None:
        self.raise_on, self.hang_on = str(raise_on), str(hang_on)
        self.steps = 0
        self.episode = ""

    def reset(self, task: Task) -> None:
        self.episode, self.steps = task.episode_id, 0

    def act(self, observation: Mapping[str, Any]) -> Action:
        self.steps += 1
        if self.episode == self.raise_on and self.steps == 2:
            raise RuntimeError("boom in act")
        if self.episode == self.hang_on and self.steps == 2:
            time.sleep(3600)
        return DiscreteAction("forward") if self.steps <= 2 else StopAction()


class Privileged(StopNow):
    """Declares the privileged ``goals`` fact."""

    name: ClassVar[str] = "privileged-stop"
    privileged = frozenset({"goals"})


class DiscreteSpinner(Agent):
    """Turns left forever with discrete primitives (declares the ``discrete`` action space)."""

    name: ClassVar[str] = "discrete-spinner"
    action_space = "discrete"

    def act(self, observation: Mapping[str, Any]) -> Action:
        return DiscreteAction("left")


class PacedTurns(Agent):
    """Turns left ``turns`` times, then stops, sleeping ``$NAVBENCH_TEST_PAUSE`` wall-clock
    seconds per action: an episode of a known wall-clock length (turns × pause). Episodes after
    this instance's first sleep ``$NAVBENCH_TEST_PAUSE_LATER`` s per action when it is set (a
    long second episode leaves a test time to interrupt it on a loaded machine)."""

    name: ClassVar[str] = "paced-turns"
    action_space = "discrete"

    def __init__(self, turns: int = 6) -> None:
        self.turns, self.steps = int(turns), 0
        self.pause = float(os.environ.get("NAVBENCH_TEST_PAUSE", "0"))
        self.episodes = 0

    def reset(self, task: Task) -> None:
        self.steps = 0
        self.episodes += 1
        if self.episodes == 2:
            self.pause = float(os.environ.get("NAVBENCH_TEST_PAUSE_LATER", self.pause))

    def act(self, observation: Mapping[str, Any]) -> Action:
        time.sleep(self.pause)
        self.steps += 1
        return DiscreteAction("left") if self.steps <= self.turns else StopAction()


def die(how: str) -> None:
    """End this process as a crashing agent would: ``exit`` (``os._exit``), ``kill`` (SIGKILL),
    ``segv`` (a null-pointer read), ``hang`` (a sleep the in-worker deadline cannot interrupt:
    SIGALRM blocked, so only the runner's kill ends it)."""
    import ctypes
    import signal

    if how == "exit":
        os._exit(3)
    if how == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    if how == "segv":
        ctypes.string_at(0)
    if how == "hang":
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
        time.sleep(3600)
    raise ValueError(f"die: unknown way {how!r}")


class _CrashOnFailure:
    """Kills its own process instead of stopping where the stop would fail (the goal farther
    than τ, Euclidean, from the pose); ``how="none"`` is the same policy without crashes."""

    how = "none"

    def _stop_or_die(self, action: Action, observation: Mapping[str, Any], task: Task) -> Action:
        if isinstance(action, StopAction) and self.how != "none":
            import numpy as np

            goals = np.asarray(task.privileged["goals"], float).reshape(-1, 3)
            pose = np.asarray(observation["pose"], float)
            d = float(np.min(np.hypot(goals[:, 0] - pose[0], goals[:, 2] - pose[2])))
            if task.success_distance is None or d > task.success_distance:
                die(self.how)
        return action


class WalkThenStop(_CrashOnFailure, Agent):
    """Walks ``forward`` discrete steps and stops (dies first when that stop would fail)."""

    name: ClassVar[str] = "walk-then-stop"
    action_space = "discrete"
    privileged = frozenset({"goals"})

    def __init__(self, forward: int = 2, how: str = "none") -> None:
        self.forward, self.how = int(forward), str(how)
        self.steps = 0

    def reset(self, task: Task) -> None:
        self.task, self.steps = task, 0

    def act(self, observation: Mapping[str, Any]) -> Action:
        self.steps += 1
        a: Action = DiscreteAction("forward") if self.steps <= self.forward else StopAction()
        return self._stop_or_die(a, observation, self.task)


class FirstBranchCrasher(_CrashOnFailure, FirstBranchAgent):
    """``first-branch`` that dies where its stop would fail (``how``), else stops."""

    name: ClassVar[str] = "first-branch-crasher"
    privileged = FirstBranchAgent.privileged | {"goals"}

    def __init__(self, how: str = "none", **kw: float) -> None:
        super().__init__(**kw)
        self.how = str(how)

    def act(self, observation: Mapping[str, Any]) -> Action:
        return self._stop_or_die(super().act(observation), observation, self._task)


class StepCounter(Agent):
    """Counts its own steps in the episode: three ``forward``, one ``left``, and so on, then
    ``stop`` on step ``stop_at``. Blind (no images). Two episodes sharing one instance would
    interleave their counts and stop early."""

    name: ClassVar[str] = "step-counter"
    action_space = "discrete"

    def __init__(self, stop_at: int = 30) -> None:
        self.stop_at, self.count = int(stop_at), 0

    def reset(self, task: Task) -> None:
        self.count = 0

    def act(self, observation: Mapping[str, Any]) -> Action:
        self.count += 1
        if self.count >= self.stop_at:
            return StopAction()
        return DiscreteAction("left" if self.count % 4 == 0 else "forward")



class WalkThenDie(Agent):
    """Walks a fixed pattern (three ``forward``, one ``left``, ...) for ``k`` actions, then on
    action ``k + 1`` dies (``how``: :func:`die`'s ways, ``raise`` an exception, ``sysexit``
    ``SystemExit``, ``none``: keeps walking); ``how="init"`` kills a worker process before the agent exists (``os._exit``; the
    evaluator's own process builds one to read its declarations and is spared)."""

    name: ClassVar[str] = "walk-then-die"
    action_space = "discrete"

    def __init__(self, k: int = 16, how: str = "none") -> None:
        import multiprocessing

        if how == "init" and multiprocessing.parent_process() is not None:
            os._exit(3)
        self.k, self.how, self.steps = int(k), str(how), 0

    def reset(self, task: Task) -> None:
        self.steps = 0

    def act(self, observation: Mapping[str, Any]) -> Action:
        self.steps += 1
        if self.steps > self.k and self.how != "none":
            if self.how == "raise":
                raise RuntimeError(f"gave up after {self.k} actions")
            if self.how == "sysexit":  # escapes the episode loop, which catches Exception only
                raise SystemExit(3)
            die(self.how)
        return DiscreteAction("left" if self.steps % 4 == 0 else "forward")
