"""Blind baselines of VLN-CE (``vlnce_baselines/nonlearning_agents.py``), on discrete actions.

- :class:`RandomAgent`: samples STOP / FORWARD / LEFT / RIGHT with VLN-CE's oracle action
  distribution of the R2R training set, ``(0.02, 0.68, 0.15, 0.15)``.
- :class:`ForwardAgent` (VLN-CE's ``HandcraftedAgent``): turns right a random number of 15°
  steps in ``[0, 24]`` (a random heading), takes 37 forward steps of 0.25 m (9.25 m ≈ the mean
  oracle path length of R2R train, 9.27 m), then stops.

Randomness is derived from ``seed`` and the episode id (:func:`navbench.rng.derive`), so a run
is reproducible and independent of episode order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from navbench.agents.base import ActionSpace, Agent, Task
from navbench.errors import ConfigError
from navbench.jsontypes import Observation
from navbench.rng import derive
from navbench.sim.actions import Action, DiscreteAction

#: VLN-CE RandomAgent probabilities of STOP, MOVE_FORWARD, TURN_LEFT, TURN_RIGHT.
VLNCE_ACTION_PROBS: tuple[float, float, float, float] = (0.02, 0.68, 0.15, 0.15)


class RandomAgent(Agent):
    """Random discrete actions with VLN-CE's probabilities (see module docs)."""

    name: ClassVar[str] = "random"
    action_space: ActionSpace = "discrete"

    def __init__(self, seed: int = 0, probs: Sequence[float] = VLNCE_ACTION_PROBS) -> None:
        p = [float(x) for x in probs]
        if len(p) != 4 or min(p) < 0 or abs(sum(p) - 1.0) > 1e-6:
            raise ConfigError(f"random agent: probs: expected 4 non-negative numbers summing to 1, "
                              f"got {list(probs)}")
        self.seed, self.probs = int(seed), p
        self._rng = derive(self.seed, "random-agent")

    def reset(self, task: Task) -> None:
        self._rng = derive(self.seed, "random-agent", task.episode_id)

    def act(self, observation: Observation) -> Action:
        return DiscreteAction.from_id(int(self._rng.choice(4, p=self.probs)))


class ForwardAgent(Agent):
    """VLN-CE's handcrafted agent: a random heading, ``forward_steps`` forward, stop."""

    name: ClassVar[str] = "forward"
    action_space: ActionSpace = "discrete"

    def __init__(self, seed: int = 0, forward_steps: int = 37, max_turns: int = 24) -> None:
        if forward_steps < 0 or max_turns < 0:
            raise ConfigError("forward agent: forward_steps and max_turns must be >= 0")
        self.seed, self.forward_steps, self.max_turns = int(seed), int(forward_steps), int(max_turns)
        self._turns = self._fwd = 0

    def reset(self, task: Task) -> None:
        rng = derive(self.seed, "forward-agent", task.episode_id)
        self._turns = int(rng.integers(0, self.max_turns + 1))
        self._fwd = self.forward_steps

    def act(self, observation: Observation) -> Action:
        if self._turns > 0:
            self._turns -= 1
            return DiscreteAction("right")
        if self._fwd > 0:
            self._fwd -= 1
            return DiscreteAction("forward")
        return DiscreteAction("stop")
