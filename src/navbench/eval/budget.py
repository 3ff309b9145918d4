"""The CondVLN action budget (§5.1) with one meaning for every action space.

CondVLN §5.1: "episodes are executed with a fixed action budget proportional to instruction
length". The paper gives no constant; ours is :data:`ACTION_BUDGET_PER_WORD` = 15 per word,
close to VLN-CE's 500-step limit over R2R's ~33-word mean (500 / 33 ≈ 15). VLN-CE counts
*discrete* actions (MOVE_FORWARD 0.25 m, TURN 15°), so the budget's unit is one discrete
primitive:

- ``B = ceil(per_word × words)`` discrete-action equivalents (:func:`action_budget`);
- a ``discrete`` agent gets ``B`` actions;
- a streaming ``waypoint`` or ``velocity`` agent acts every ``agent_dt`` (0.1 s), ten times per
  primitive: it gets the primitives' simulated time, ``T = min(B × seconds_per_action,
  max_time)`` (:func:`time_budget`), i.e. ``ceil(T / agent_dt)`` agent steps
  (:func:`step_limit`). SPEC §6: a primitive is "~1 s of simulated time" (measured: forward
  0.25 m 1.2 s, turn 15° 1.0 s, on Spot and the Turtlebot), so ``seconds_per_action`` = 1.0.

Both end as ``timeout``, and the simulator's own timeout (``max_time``, 300 s) caps both.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

#: Discrete-action equivalents per instruction word (CondVLN §5.1; see module docs).
ACTION_BUDGET_PER_WORD = 15.0
#: Simulated seconds one discrete-action equivalent is worth to a streaming agent (SPEC §6).
SECONDS_PER_ACTION = 1.0
#: Action spaces whose agents act every ``agent_dt`` instead of once per primitive.
STREAMING_SPACES = ("waypoint", "velocity")


def action_budget(ep: object, per_word: float = ACTION_BUDGET_PER_WORD) -> int | None:
    """Discrete-action equivalents allowed in ``ep`` (CondVLN §5.1): ``ceil(per_word × words)``
    of its instruction text (whitespace-separated words); ``None`` (no budget) for episodes
    without an instruction (ObjectNav, PlaceNav) or when ``per_word`` is 0. An oracle-linear
    episode (CondVLN §4: only the agent-facing text is rewritten, the episode is unchanged)
    keeps the budget of its conditional instruction (``info.navbench.conditional_text``).

    >>> from types import SimpleNamespace
    >>> action_budget(SimpleNamespace(instruction_text="Go to the sofa in the kitchen."))
    105
    >>> action_budget(SimpleNamespace(instruction_text="Go to the bed.", navbench={
    ...     "conditional_text": "If there is a lamp in the hall, go to the bed; otherwise stop."}))  # 14 words
    210
    """
    nb = getattr(ep, "navbench", None)
    text = nb.get("conditional_text") if isinstance(nb, Mapping) else None
    if not isinstance(text, str):
        text = getattr(ep, "instruction_text", None)
    if not per_word or not isinstance(text, str) or not text.split():
        return None
    return math.ceil(per_word * len(text.split()))


def time_budget(ep: object, per_word: float = ACTION_BUDGET_PER_WORD,
                seconds_per_action: float = SECONDS_PER_ACTION, max_time: float = 300.0) -> float:
    """Simulated seconds (s) a streaming agent has in ``ep``: ``min(B × seconds_per_action,
    max_time)`` with ``B`` = :func:`action_budget`; ``max_time`` when there is no budget.

    >>> from types import SimpleNamespace
    >>> time_budget(SimpleNamespace(instruction_text="Go to the sofa in the kitchen."))
    105.0
    >>> time_budget(SimpleNamespace(instruction_text=" ".join(["word"] * 60)))  # 900 s > 300 s
    300.0
    """
    b = action_budget(ep, per_word)
    return float(max_time) if b is None else min(b * float(seconds_per_action), float(max_time))


def step_limit(ep: object, action_space: str, *, per_word: float = ACTION_BUDGET_PER_WORD,
               seconds_per_action: float = SECONDS_PER_ACTION, agent_dt: float = 0.1,
               max_time: float = 300.0) -> int | None:
    """The ``max_steps`` of :func:`~navbench.agents.rollout.run_episode` for an agent of
    ``action_space`` in ``ep`` (module docs): ``B`` actions for ``discrete`` agents,
    ``ceil(T / agent_dt)`` agent steps for streaming ones; ``None`` when the simulator's
    timeout comes first (``T = max_time``) or there is no budget.

    >>> from types import SimpleNamespace
    >>> ep = SimpleNamespace(instruction_text="Go to the sofa in the kitchen.")  # B = 105
    >>> step_limit(ep, "discrete"), step_limit(ep, "waypoint"), step_limit(ep, "velocity")
    (105, 1050, 1050)
    >>> step_limit(ep, "waypoint", seconds_per_action=3.0) is None  # 315 s > max_time
    True
    """
    b = action_budget(ep, per_word)
    if b is None:
        return None
    if action_space not in STREAMING_SPACES:
        return b
    t = time_budget(ep, per_word, seconds_per_action, max_time)
    if t >= max_time:
        return None
    return max(1, math.ceil(t / agent_dt - 1e-9))
