"""One declaration per dataset task: the :data:`TASK_SPECS` table (issue 21 item 3).

Each :class:`TaskSpec` says what a task folder of a navbench dataset is: its display title, the
paper family whose metrics and tables apply (``condvln`` | ``navverse``), the episode file
format (VLN-CE ``r2r`` with a ``_gt`` companion, or habitat ``objectnav``), whether ``--verify``
replays its reference paths, and whether it is a derived copy of another task (the
oracle-linear probe). The report reads it to title sections and choose tables; the dataset
constants (``TASKS``, ``R2R_TASKS``, ``VERIFY_TASKS``) are derived from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class TaskSpec:
    """A dataset task.

    Attributes:
        name: task folder name (``info.navbench.task`` of its episodes, or the run's task).
        title: section heading in reports.
        family: ``condvln`` (BSA/CSR, CondVLN Tables 2–3) or ``navverse`` (τ = 1 + r_robot,
            NavVerse task × scene table).
        episode_format: ``r2r`` (VLN-CE R2R + ``{split}_gt.json.gz``) or ``objectnav``.
        verify: ``--verify`` replays its reference paths in the simulator.
        derived_from: the task this one copies (``conditional_oracle`` ← ``conditional``).
    """

    name: str
    title: str
    family: Literal["condvln", "navverse"]
    episode_format: Literal["r2r", "objectnav"]
    verify: bool = False
    derived_from: str | None = None


TASK_SPECS: tuple[TaskSpec, ...] = (
    TaskSpec("conditional", "Conditional VLN (CondVLN)", "condvln", "r2r"),
    TaskSpec("conditional_oracle", "Conditional VLN, oracle-linear instructions (CondVLN §4 probe)",
             "condvln", "r2r", derived_from="conditional"),
    TaskSpec("objectnav", "ObjectNav (NavVerse)", "navverse", "objectnav", verify=True),
    TaskSpec("placenav", "PlaceNav (NavVerse)", "navverse", "objectnav", verify=True),
    TaskSpec("route", "Route VLN (NavVerse)", "navverse", "r2r", verify=True),
)
TASKS_BY_NAME: dict[str, TaskSpec] = {t.name: t for t in TASK_SPECS}
assert len(TASKS_BY_NAME) == len(TASK_SPECS), "duplicate task name"
assert all(t.derived_from in TASKS_BY_NAME for t in TASK_SPECS if t.derived_from), "unknown base task"


def tasks_of(family: str) -> tuple[str, ...]:
    """Names of the tasks of one family, in table order."""
    return tuple(t.name for t in TASK_SPECS if t.family == family)
