"""The action budget in the evaluation: the rule of :mod:`navbench.episodes.budget`, applied.

CondVLN §5.1: "episodes are executed with a fixed action budget proportional to instruction
length". The budget's unit is one discrete primitive (VLN-CE: MOVE_FORWARD 0.25 m, TURN 15°):

- ``B = ceil(per_word × words)`` discrete-action equivalents (:func:`action_budget`, 15 / word);
- a ``discrete`` agent gets ``B`` actions;
- a streaming ``waypoint`` or ``velocity`` agent acts every ``agent_dt`` (0.1 s), ten times per
  primitive: it gets the primitives' simulated time ``T = B × seconds_per_action``
  (:func:`time_budget`), i.e. ``ceil(T / agent_dt)`` agent steps (:func:`step_limit`). SPEC §6:
  a primitive is "~1 s of simulated time" (measured: forward 0.25 m 1.2 s, turn 15° 1.0 s, on
  Spot and the Turtlebot), so ``seconds_per_action`` = 1.0.

Both end as ``timeout``. CondVLN tasks end by the budget alone: the simulator's timeout is raised
for their runs so that it cannot cut one still within its budget (:func:`run_max_time`).
NavVerse tasks (route VLN) keep SPEC §6's 300 s timeout (``max_time``), which caps the budget.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from navbench.episodes.budget import (
    ACTION_BUDGET_PER_WORD,
    MAX_TIME,
    SECONDS_PER_ACTION,
    action_budget,
    discrete_cap,
    reference_shortfall,
    time_budget,
    timeout_caps,
)

__all__ = ["ACTION_BUDGET_PER_WORD", "MAX_TIME", "SECONDS_PER_ACTION", "STREAMING_SPACES",
           "action_budget", "discrete_cap", "reference_shortfall", "run_max_time", "step_limit",
           "time_budget", "timeout_caps"]

#: Action spaces whose agents act every ``agent_dt`` instead of once per primitive.
STREAMING_SPACES = ("waypoint", "velocity")


def step_limit(ep: object, action_space: str, *, per_word: float = ACTION_BUDGET_PER_WORD,
               seconds_per_action: float = SECONDS_PER_ACTION, agent_dt: float = 0.1,
               max_time: float = MAX_TIME, capped: bool = True) -> int | None:
    """The ``max_steps`` of :func:`~navbench.agents.rollout.run_episode` for an agent of
    ``action_space`` in ``ep`` (module docs): ``B`` actions for ``discrete`` agents,
    ``ceil(T / agent_dt)`` agent steps for streaming ones; ``None`` when the simulator's
    timeout comes first (``capped`` and ``T = max_time``) or there is no budget.

    >>> from types import SimpleNamespace
    >>> ep = SimpleNamespace(instruction_text="Go to the sofa in the kitchen.")  # B = 105
    >>> step_limit(ep, "discrete"), step_limit(ep, "waypoint"), step_limit(ep, "velocity")
    (105, 1050, 1050)
    >>> step_limit(ep, "waypoint", seconds_per_action=3.0) is None  # 315 s > max_time
    True
    >>> step_limit(ep, "waypoint", seconds_per_action=3.0, capped=False)  # CondVLN: 315 s
    3150
    """
    b = action_budget(ep, per_word)
    if b is None:
        return None
    if action_space not in STREAMING_SPACES:
        return b
    t = time_budget(ep, per_word, seconds_per_action, max_time, capped=capped)
    if capped and t >= max_time:
        return None
    return max(1, math.ceil(t / agent_dt - 1e-9))


def run_max_time(episodes: Iterable[object], action_space: str, *, capped: bool,
                 per_word: float = ACTION_BUDGET_PER_WORD,
                 seconds_per_action: float = SECONDS_PER_ACTION, agent_dt: float = 0.1,
                 max_time: float = MAX_TIME, primitive_timeout: float = 3.0) -> float:
    """The simulator's timeout (s) for a run over ``episodes``: ``max_time`` when it caps the
    budget (NavVerse), else (CondVLN) large enough that no episode is cut within its budget —
    ``max(max_time, T + agent_dt)`` for streaming agents, ``max(max_time, B × primitive_timeout)``
    for discrete ones (a primitive is abandoned after ``primitive_timeout`` s,
    ``DiscreteConfig.timeout``); each episode then ends by its own :func:`step_limit`.

    >>> from types import SimpleNamespace
    >>> eps = [SimpleNamespace(instruction_text=" ".join(["w"] * n)) for n in (10, 40)]  # B = 150, 600
    >>> run_max_time(eps, "waypoint", capped=True), run_max_time(eps, "waypoint", capped=False)
    (300.0, 600.1)
    >>> run_max_time(eps, "discrete", capped=False), run_max_time(eps[:1], "velocity", capped=False)
    (1800.0, 300.0)
    """
    out = float(max_time)
    if capped:
        return out
    for ep in episodes:
        b = action_budget(ep, per_word)
        if b is None:
            continue
        if action_space in STREAMING_SPACES:
            out = max(out, b * float(seconds_per_action) + agent_dt)
        else:
            out = max(out, b * float(primitive_timeout))
    return out
