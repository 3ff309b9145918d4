"""Does every episode's action budget cover its reference path? (``navbench dataset check``.)

For every episode with an instruction (:func:`~navbench.eval.budget.action_budget` ``B``), by
the rule of :mod:`navbench.episodes.budget` (CondVLN tasks: the budget alone; NavVerse tasks:
the budget capped by the simulator's timeout ``max_time``):

- **discrete agents**: the discrete reference of the split's ``_gt`` file (``actions``, STOP
  included) must fit in ``B`` actions (CondVLN), or in ``min(B, max_time / seconds_per_action)``
  (NavVerse);
- **streaming (waypoint / velocity) agents**: the time the embodiment needs along the
  reference path must fit in ``T = B × seconds_per_action`` (CondVLN) or ``min(T, max_time)``
  (NavVerse) (:func:`~navbench.eval.budget.time_budget`). The time needed is, best first: the
  verification rollout's duration recorded at generation (``info.navbench.verify.duration``);
  with ``rollout=True`` a reference rollout now (:func:`navbench.sim.verify.verify_episode`,
  the robot the scene was built for): the time from which it stays within τ of the goal;
  else the reference path's length less τ at the robot's top speed ``vx_max`` — a lower
  bound, so only episodes nobody can finish are caught.

Every shortfall is a :class:`~navbench.episodes.check.Problem` naming the episode, the budget
and what the reference needs. The dataset builder drops such episodes (``over_budget``,
``over_timeout``), so a freshly built dataset passes.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from navbench.episodes.check import CheckReport, Problem, check_dataset
from navbench.errors import ConfigError, NavbenchError
from navbench.eval.budget import (
    ACTION_BUDGET_PER_WORD,
    SECONDS_PER_ACTION,
    STREAMING_SPACES,
    action_budget,
    discrete_cap,
    time_budget,
    timeout_caps,
)
from navbench.geometry import path_length

if TYPE_CHECKING:
    from navbench.episodes.loader import Dataset
    from navbench.episodes.model import Episode
    from navbench.sim.embodiments import Embodiment
    from navbench.sim.simulator import Simulator


#: Verification reasons of a rollout that reached the end of the reference path.
_REACHED = ("ok", "no_oracle_success", "too_short", "too_long", "travel_too_short",
            "travel_too_long")


@dataclass
class BudgetReport:
    """What :func:`check_budgets` looked at: episodes with a budget, and the shortfalls."""

    episodes: int = 0
    problems: list[Problem] = field(default_factory=list)

    @property
    def episode_ids(self) -> list[str]:
        """Ids (``task/split/id``) of the episodes with a shortfall, each once, in order."""
        return list(dict.fromkeys(p.field.removeprefix("episode ") for p in self.problems))


def _arrival(rec: Mapping[str, np.ndarray], tau: float) -> float:
    """First time (s) from which the rollout stays within ``tau`` of the goal to its end (a
    perfect agent stops there; a goal object that blocks the path end counts as arrived);
    ``inf`` if it does not end there."""
    inside = np.asarray(rec["dtg"], float) <= tau
    if not len(inside) or not inside[-1]:
        return math.inf
    k = len(inside) - int(np.argmin(inside[::-1])) if not inside.all() else 0
    return float(np.asarray(rec["t"], float)[k])


def _needed_time(ds: Dataset, e: Episode, sid: str, emb: Embodiment, rollout: bool,
                 sims: dict[str, Simulator], max_time: float) -> tuple[float, str]:
    """Simulated seconds the reference path takes (s) and where the number comes from."""
    ver = e.navbench.get("verify")
    if isinstance(ver, dict) and isinstance(ver.get("duration"), (int, float)):
        return float(ver["duration"]), "verification rollout"
    if rollout and e.reference_path:
        from navbench.sim.simulator import SimSettings, Simulator
        from navbench.sim.verify import verify_episode

        if sid not in sims:
            # one simulator per scene whatever the episode's budget: max_duration ends the rollout
            sims[sid] = Simulator(ds.scene(sid), emb, SimSettings(render=False, max_time=1e6))
        sim = sims[sid]
        tau = e.navbench.get("success_distance")
        r = verify_episode(sim.scene, e, emb, simulator=sim, max_duration=max_time, max_travel=math.inf,
                           allow_collisions=True, tau=None if tau is None else float(tau))
        return _arrival(sim.records(), sim.tau), f"reference rollout, {emb.name}" + (
            "" if r.reason in _REACHED else f", ended: {r.reason} at {r.duration:.0f} s")
    length = path_length(e.reference_path) if e.reference_path else e.geodesic_distance
    tau = float(e.navbench.get("success_distance", 1.0 + emb.radius))
    return (max(length - tau, 0.0) / emb.vx_max,
            f"{length:.1f} m less τ = {tau:g} m at {emb.name}'s top speed {emb.vx_max} m/s")


def check_budgets(root: str | Path, *, per_word: float = ACTION_BUDGET_PER_WORD,
                  seconds_per_action: float = SECONDS_PER_ACTION, max_time: float = 300.0,
                  rollout: bool = False, action_space: str = "all") -> BudgetReport:
    """Episodes of the dataset at ``root`` whose action budget cannot cover the reference path
    (module docs); ``per_word``, ``seconds_per_action`` and ``max_time`` as in
    :class:`~navbench.eval.pipeline.EvalSettings`; ``action_space``: ``discrete``, ``waypoint``,
    ``velocity`` (the last two are the same check) or ``all``. Never raises for a bad episode
    file (the format check reports those).

    Raises:
        ConfigError: for an unknown ``action_space``.
    """
    from navbench.episodes.loader import load_dataset
    from navbench.eval.selection import scene_key
    from navbench.sim.embodiments import get_embodiment

    if action_space not in ("all", "discrete", *STREAMING_SPACES):
        raise ConfigError(f"--action-space: expected all, discrete, {', '.join(STREAMING_SPACES)}; "
                          f"got {action_space!r}")
    discrete, streaming = action_space in ("all", "discrete"), action_space != "discrete"
    ds = load_dataset(root)
    rep = BudgetReport()
    known = list(ds.manifest.scenes)
    sims: dict[str, Simulator] = {}
    try:
        for task in ds.tasks:
            for split in ds.splits:
                try:
                    path = str(ds.path(task, split))
                    eps = ds.episodes(task, split)
                    gt = ds.gt(task, split) if ds.path(task, split, "gt").is_file() else {}
                except NavbenchError:
                    continue
                capped = timeout_caps(task)
                limit = f"min(B = {{b}} × {seconds_per_action:g} s, {max_time:g} s)" if capped \
                    else f"B = {{b}} × {seconds_per_action:g} s"
                for e in eps:
                    b = action_budget(e, per_word)
                    if b is None:
                        continue
                    rep.episodes += 1
                    where = f"episode {task}/{split}/{e.episode_id}"
                    rec = gt.get(str(e.episode_id))
                    acts = rec.get("actions") if isinstance(rec, dict) else None
                    if discrete and isinstance(acts, list):
                        cap = discrete_cap(b, capped=capped, seconds_per_action=seconds_per_action,
                                           max_time=max_time)
                        if len(acts) > cap:
                            why = f"B = {b}" if cap == b else f"{max_time:g} s / {seconds_per_action:g} s"
                            rep.problems.append(Problem(path, where, (
                                f"a discrete agent has {cap} actions ({why}), the _gt reference "
                                f"needs {len(acts)}")))
                    sid = scene_key(e, known)
                    if not streaming or sid not in ds.manifest.scenes:
                        continue
                    emb = get_embodiment(ds.manifest.scene_embodiment(sid) or "spot")
                    t = time_budget(e, per_word, seconds_per_action, max_time, capped=capped)
                    need, basis = _needed_time(ds, e, sid, emb, rollout, sims, max(t, max_time))
                    if need > t + 1e-9:
                        rep.problems.append(Problem(path, where, (
                            f"a waypoint/velocity agent has {t:g} s ({limit.format(b=b)}), the "
                            f"reference path needs {need:.1f} s ({basis})")))
    finally:
        for sim in sims.values():
            sim.close()
    return rep


def check_all(root: str | Path, *, per_word: float = ACTION_BUDGET_PER_WORD,
              seconds_per_action: float = SECONDS_PER_ACTION, max_time: float = 300.0,
              rollout: bool = False, action_space: str = "all"
              ) -> tuple[CheckReport, BudgetReport | None, list[Problem]]:
    """``navbench dataset check``: :func:`~navbench.episodes.check.check_dataset` (formats,
    reachability, τ, path lengths) and, unless ``per_word`` is 0, :func:`check_budgets`
    (arguments as there). Returns both reports and all their problems, format ones first."""
    rep = check_dataset(root)
    budget = check_budgets(root, per_word=per_word, seconds_per_action=seconds_per_action,
                           max_time=max_time, rollout=rollout, action_space=action_space) \
        if per_word else None
    return rep, budget, [*(rep.problems or []), *(budget.problems if budget else [])]
