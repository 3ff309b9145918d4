"""Agents for the pipeline tests (loaded by worker processes as ``module:Class``)."""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from typing import Any, ClassVar

from navbench.agents.base import Agent, Task
from navbench.agents.baselines import RandomAgent
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
    seconds per action: an episode of a known wall-clock length (turns × pause)."""

    name: ClassVar[str] = "paced-turns"
    action_space = "discrete"

    def __init__(self, turns: int = 6) -> None:
        self.turns, self.steps = int(turns), 0
        self.pause = float(os.environ.get("NAVBENCH_TEST_PAUSE", "0"))

    def reset(self, task: Task) -> None:
        self.steps = 0

    def act(self, observation: Mapping[str, Any]) -> Action:
        time.sleep(self.pause)
        self.steps += 1
        return DiscreteAction("left") if self.steps <= self.turns else StopAction()
