"""``blind-prior``: the blind baseline of conditional VLN (the "question-only" baseline of VQA /
EQA papers).

Answers every condition of the instruction from label / room-type statistics
(:class:`~navbench.tasks.conditional.blind.BlindPrior`) of a dataset's training split — never
from what it sees or from the recorded truths — then navigates exactly as ``oracle-branch``
would for the branch those answers select (subgoals, then goal, on the dataset's navmesh). Its
branch accuracy and success show how much of a benchmark common sense alone solves; an agent
that grounds its conditions should beat it.

Statistics: ``dataset=DS`` (the rooms and conditional episodes of ``split``, default ``train``;
a dataset without that split, like the demo's, is answered leave-one-scene-out over all its
scenes) or ``prior=FILE`` (``navbench dataset audit DS --prior-out FILE``). The episode's own
scene is always left out.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from navbench.agents.base import ProgramFacts, Task
from navbench.agents.oracle import _BranchAgent
from navbench.errors import ConfigError

if TYPE_CHECKING:
    from navbench.tasks.conditional import Evaluation
    from navbench.tasks.conditional.blind import BlindPrior


class BlindPriorAgent(_BranchAgent):
    """Blind condition answers from training statistics, then ``oracle-branch`` navigation.

    Args:
        dataset: dataset directory whose ``split`` gives the statistics.
        split: the split the prior is fitted on (``train``).
        prior: a prior JSON file (``dataset audit --prior-out``) instead of ``dataset``.
        clearance, approach_fraction, **kw: as :class:`~navbench.agents.oracle.OracleBranchAgent`.
    """

    name: ClassVar[str] = "blind-prior"

    def __init__(self, dataset: str | None = None, split: str = "train", prior: str | None = None,
                 clearance: float | None = None, approach_fraction: float = 0.8, **kw: float) -> None:
        super().__init__(clearance, approach_fraction, **kw)
        if (dataset is None) == (prior is None):
            raise ConfigError("blind-prior: give the statistics as --agent-arg dataset=DATASET "
                              "(its train split) or --agent-arg prior=FILE (navbench dataset audit "
                              "DATASET --prior-out FILE), one of them")
        for what, p in (("dataset", dataset), ("prior", prior)):
            if p is not None and not Path(p).exists():
                raise ConfigError(f"blind-prior: {what}={p}: no such file or folder")
        self.dataset, self.split, self.prior_file = dataset, str(split), prior
        self._prior: BlindPrior | None = None
        self._scene_id: str | None = None

    @property
    def prior(self) -> BlindPrior:
        """The statistics (loaded on first use, once per process)."""
        if self._prior is None:
            if self.prior_file is not None:
                from navbench.io import read_json
                from navbench.tasks.conditional.blind import BlindPrior

                self._prior = BlindPrior.from_json(read_json(self.prior_file), self.prior_file)
            else:
                from navbench.episodes.conditional_audit import fit_blind_prior

                self._prior = fit_blind_prior(str(self.dataset), self.split)
        return self._prior

    def plan(self, task: Task, start: np.ndarray) -> np.ndarray:
        scene = task.privileged.get("scene")
        self._scene_id = None if scene is None else scene.id  # only to leave its statistics out
        return super().plan(task, start)

    def select(self, facts: ProgramFacts) -> Evaluation:
        from navbench.tasks.conditional import linearize

        answers = self.prior.answers(facts["program"], self._scene_id)  # never facts["truths"]
        self.diag["blind_answers"] = dict(answers)
        self.diag["linear_instruction"] = linearize(facts["program"], answers)
        return self.prior.branch(facts["program"], self._scene_id)


__all__ = ["BlindPriorAgent"]
