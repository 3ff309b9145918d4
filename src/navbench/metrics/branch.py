"""Branch Selection Accuracy, Conditional Success Rate and branch confusion (CondVLN §3.2).

Subgoal reaching is measured at the recorded positions with the 3D Euclidean distance to the
subgoal point; comparisons against τ are explicit (``strict``: ``<`` instead of ``≤``).
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from navbench.metrics.distance import within

BranchOutcome = Literal["correct", "other_branch", "elsewhere"]


def subgoals_reached_in_order(
    positions: np.ndarray, subgoals: np.ndarray, tau: float, *, strict: bool = False
) -> int:
    """``k``: length of the longest prefix of the ordered subgoals reached in order within τ.

    Scans the steps once; the next subgoal counts when a step is within τ of it. One step may
    complete several consecutive subgoals when they lie within τ of it.
    """
    p = np.asarray(positions, dtype=float).reshape(-1, 3)
    g = np.asarray(subgoals, dtype=float).reshape(-1, 3)
    k = 0
    for q in p:
        while k < len(g) and within(float(np.linalg.norm(q - g[k])), tau, strict=strict):
            k += 1
        if k == len(g):
            break
    return k


def branch_selection_accuracy(k: int, m: int, succeeded: bool) -> float | None:
    """``BSA_i = k/m`` when ``m > 0``; no subgoals: 1 on success, ``None`` (excluded) on failure."""
    if m > 0:
        return k / m
    return 1.0 if succeeded else None


def conditional_success(bsa_i: float | None, succeeded: bool) -> float | None:
    """``CSR_i = 1[BSA_i = 1 ∧ Success_i]`` on the BSA inclusion set; ``None`` when excluded."""
    if bsa_i is None:
        return None
    return 1.0 if (bsa_i == 1.0 and succeeded) else 0.0


def branch_confusion(
    final_goal_distance: float,
    final_position: np.ndarray,
    branch_goals: np.ndarray,
    tau: float,
    *,
    strict: bool = False,
) -> BranchOutcome:
    """Where the episode ended: within τ of the correct goal (``final_goal_distance``, the same
    ``d_T`` used for success), else within τ (Euclidean) of another branch's goal, else elsewhere."""
    if within(final_goal_distance, tau, strict=strict):
        return "correct"
    b = np.asarray(branch_goals, dtype=float).reshape(-1, 3)
    if len(b):
        d = float(np.linalg.norm(b - np.asarray(final_position, dtype=float), axis=1).min())
        if within(d, tau, strict=strict):
            return "other_branch"
    return "elsewhere"


def branch_commit_accuracy(outcome: BranchOutcome, conditional: bool) -> float | None:
    """navbench's logic-only branch score: 1 when the episode ended at the correct branch's goal,
    0 when it ended at another branch's goal, ``None`` (excluded) when it ended elsewhere or the
    episode is not conditional.

    Unlike BSA, whose no-subgoal convention excludes failed episodes (so an agent that ignores
    conditions still scores ≈ 1), this separates *which branch the agent committed to* from
    whether it navigated anywhere: an agent that always takes the first branch scores about
    1/(number of branches). It needs branch goals more than 2τ apart (the episode builder
    guarantees it) so that no stopping point is near two goals.
    """
    if not conditional or outcome == "elsewhere":
        return None
    return 1.0 if outcome == "correct" else 0.0
