"""What ends an episode with an instruction, and whether its reference fits (the budget rule).

Two papers, two rules (the task's family, :data:`~navbench.episodes.task_spec.TASK_SPECS`):

- **CondVLN** (``conditional`` and its oracle-linear copy): "episodes are executed with a fixed
  action budget proportional to instruction length" (§5.1); the paper has no time limit. The
  budget is ``B = ceil(15 × words)`` discrete-action equivalents (:func:`action_budget`; VLN-CE's
  unit, MOVE_FORWARD 0.25 m / TURN 15°): a discrete agent gets ``B`` actions, a streaming
  (waypoint / velocity) agent ``T = B × seconds_per_action`` simulated seconds — *not* capped by
  the simulator's 300 s timeout, which must not cut a run still within its budget.
- **NavVerse** (``route``; ObjectNav / PlaceNav have no instruction budget): SPEC §6's 300 s
  timeout ``max_time`` ends the run; the instruction budget applies too, capped by it:
  ``min(B, max_time / seconds_per_action)`` actions, ``min(B × seconds_per_action, max_time)`` s.

``seconds_per_action`` = 1.0 (SPEC §6: a primitive is "~1 s of simulated time"). The dataset
builder drops an episode whose reference cannot fit (:func:`reference_shortfall`: reason
``over_budget`` for CondVLN, ``over_timeout`` for NavVerse) and ``navbench dataset check``
reports one (:mod:`navbench.eval.budget_check`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from navbench.episodes.task_spec import TASKS_BY_NAME

if TYPE_CHECKING:
    from navbench.episodes.model import Episode
    from navbench.jsontypes import JSONObject

#: An episode with its ``_gt`` record (``None`` without one), as the builder pairs them.
Pair = tuple["Episode", "JSONObject | None"]

#: Discrete-action equivalents per instruction word (CondVLN §5.1; VLN-CE 500 steps / ~33 words).
ACTION_BUDGET_PER_WORD = 15.0
#: Simulated seconds one discrete-action equivalent is worth (SPEC §6).
SECONDS_PER_ACTION = 1.0
#: The simulator's timeout for NavVerse tasks (s, SPEC §6).
MAX_TIME = 300.0


def timeout_caps(task: str | None) -> bool:
    """Whether the simulator's timeout caps the budget of ``task``'s episodes: ``False`` for
    CondVLN tasks (they end by the action budget alone), ``True`` otherwise (NavVerse, unknown).

    >>> timeout_caps("conditional"), timeout_caps("conditional_oracle"), timeout_caps("route")
    (False, False, True)
    """
    spec = TASKS_BY_NAME.get(task or "")
    return spec is None or spec.family != "condvln"


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


def discrete_cap(budget: int, *, capped: bool = True, seconds_per_action: float = SECONDS_PER_ACTION,
                 max_time: float = MAX_TIME) -> int:
    """Actions a discrete agent may take with budget ``B`` = ``budget``: ``B`` when the timeout
    does not cap it (CondVLN), else ``min(B, floor(max_time / seconds_per_action))``.

    >>> discrete_cap(600, capped=False), discrete_cap(600), discrete_cap(120)
    (600, 300, 120)
    """
    if not capped:
        return budget
    return min(budget, math.floor(max_time / seconds_per_action + 1e-9))


def time_budget(ep: object, per_word: float = ACTION_BUDGET_PER_WORD,
                seconds_per_action: float = SECONDS_PER_ACTION, max_time: float = MAX_TIME,
                *, capped: bool = True) -> float:
    """Simulated seconds (s) a streaming agent has in ``ep``: ``B × seconds_per_action``, capped
    at ``max_time`` when ``capped`` (NavVerse); ``max_time`` when there is no budget.

    >>> from types import SimpleNamespace
    >>> time_budget(SimpleNamespace(instruction_text="Go to the sofa in the kitchen."))
    105.0
    >>> long = SimpleNamespace(instruction_text=" ".join(["word"] * 60))  # B = 900
    >>> time_budget(long), time_budget(long, capped=False)
    (300.0, 900.0)
    """
    b = action_budget(ep, per_word)
    if b is None:
        return float(max_time)
    t = b * float(seconds_per_action)
    return min(t, float(max_time)) if capped else t


def reference_shortfall(ep: object, task: str | None, gt_actions: int | None, *,
                        per_word: float = ACTION_BUDGET_PER_WORD,
                        seconds_per_action: float = SECONDS_PER_ACTION,
                        max_time: float = MAX_TIME) -> str | None:
    """Why ``ep``'s reference cannot be finished within its budget (module docs), or ``None``:
    its ``gt_actions`` discrete reference actions (STOP included) exceed :func:`discrete_cap`,
    or its recorded verification rollout (``info.navbench.verify.duration``, s) exceeds
    :func:`time_budget`. The top-speed lower bound of ``dataset check`` needs no test here:
    ``gt_actions`` ≥ L / 0.25 m, so it is implied whenever ``vx_max × seconds_per_action`` ≥
    0.25 m (Turtlebot 0.7 m/s, Spot 1.5 m/s).

    >>> from types import SimpleNamespace
    >>> ep = SimpleNamespace(instruction_text=" ".join(["w"] * 40))  # B = 600
    >>> reference_shortfall(ep, "conditional", 562) is None, reference_shortfall(ep, "route", 355)
    (True, '355 reference actions > 300 (300 s / 1 s)')
    >>> reference_shortfall(ep, "conditional", 601)
    '601 reference actions > B = 600'
    """
    b = action_budget(ep, per_word)
    if b is None:
        return None
    capped = timeout_caps(task)
    cap = discrete_cap(b, capped=capped, seconds_per_action=seconds_per_action, max_time=max_time)
    if gt_actions is not None and gt_actions > cap:
        if cap == b:
            return f"{gt_actions} reference actions > B = {b}"
        return f"{gt_actions} reference actions > {cap} ({max_time:g} s / {seconds_per_action:g} s)"
    nb = getattr(ep, "navbench", None)
    ver = nb.get("verify") if isinstance(nb, Mapping) else None
    dur = ver.get("duration") if isinstance(ver, Mapping) else None
    if isinstance(dur, (int, float)):
        t = time_budget(ep, per_word, seconds_per_action, max_time, capped=capped)
        if dur > t + 1e-9:
            return f"verification rollout {dur:.1f} s > {t:g} s"
    return None


def within_budget(task: str, pairs: Sequence[Pair], drop: Counter[str]) -> list[Pair]:
    """The builder's drop rule: the ``(episode, gt)`` pairs whose reference fits the
    evaluation's default budget (:func:`reference_shortfall`: 15 actions / word, 1 s / action,
    300 s for NavVerse); the others are counted in ``drop`` as ``over_budget`` (CondVLN: the
    ``_gt`` actions exceed ``B``) or ``over_timeout`` (NavVerse: they do not fit ``max_time``).

    >>> from collections import Counter
    >>> from types import SimpleNamespace
    >>> ep = SimpleNamespace(instruction_text=" ".join(["w"] * 40))  # B = 600
    >>> drop = Counter()
    >>> kept = within_budget("route", [(ep, {"actions": [1] * 355}), (ep, {"actions": [1] * 300})], drop)
    >>> len(kept), dict(drop)
    (1, {'over_timeout': 1})
    """
    reason = "over_timeout" if timeout_caps(task) else "over_budget"
    out = []
    for e, gt in pairs:
        acts = gt.get("actions") if isinstance(gt, Mapping) else None
        if reference_shortfall(e, task, len(acts) if isinstance(acts, list) else None) is not None:
            drop[reason] += 1
            continue
        out.append((e, gt))
    return out
