"""Oracle linearisation (CondVLN §4): replace a conditional program by its selected route."""

from __future__ import annotations

from navbench.tasks.conditional.program import Facts, Program, evaluate
from navbench.tasks.conditional.templates import linear_text


def linearize(program: Program, facts: Facts) -> str:
    """"Go to g_b." or "First go to g_1, then go to g_2, and finally go to g_b.".

    ``facts`` are the condition truths (id → bool, or a function of the condition); the
    references keep the instruction's own wording ("the stool north of the dishwasher in
    the kitchen"), so only the branch logic is removed.
    """
    ev = evaluate(program, facts)
    return linear_text(ev.goal, ev.subgoals)
