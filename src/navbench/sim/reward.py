"""The reward of :class:`~navbench.sim.env.NavEnv`: habitat-lab's navigation shaping.

Per step ``t`` (habitat-lab's ``NavRLEnv``: ``reward_measure = distance_to_goal``,
``success_reward = 2.5``, ``slack_reward = -0.01``)::

    r_t = (d_{t−1} − d_t) + success_reward · 1[the step ends in success] + slack_reward

``d_t`` is the geodesic distance (m) from the base's ground point to the nearest goal on a
navmesh of the scene (the one given, else one built from the scene with the ``indoor`` preset —
habitat's 0.1 m agent radius — or the ``outdoor`` preset for outdoor and hybrid scenes). Where
the geodesic is not finite at reset (a goal the navmesh cannot reach, e.g. an object's centre
inside furniture) the episode uses the simulator's NavVerse distance instead (3D distance to the
goal's surface, :meth:`~navbench.sim.Simulator.distance_to_goal`); a step whose geodesic is not
finite (the base more than the navmesh's ``snap_radius`` off it) adds no progress and keeps the
last finite ``d``. ``distance="euclidean"`` always uses the simulator's distance.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from navbench.errors import ConfigError
from navbench.jsontypes import JSONObject

if TYPE_CHECKING:
    from navbench.nav.protocols import NavMeshLike
    from navbench.scene.model import Scene
    from navbench.sim.protocols import EpisodeLike

REWARD_DISTANCES = ("geodesic", "euclidean")


@dataclass(frozen=True)
class RewardSettings:
    """How :class:`~navbench.sim.env.NavEnv` rewards (see the module docs).

    Attributes:
        distance: ``geodesic`` (navmesh) or ``euclidean`` (the simulator's NavVerse distance).
        success_reward: added on the step that ends in ``success``.
        slack_reward: added on every step (habitat's time penalty, negative).
    """

    distance: str = "geodesic"
    success_reward: float = 2.5
    slack_reward: float = -0.01

    def __post_init__(self) -> None:
        if self.distance not in REWARD_DISTANCES:
            raise ConfigError(f"RewardSettings.distance: expected one of {REWARD_DISTANCES}, "
                              f"got {self.distance!r}")
        for name in ("success_reward", "slack_reward"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
                raise ConfigError(f"RewardSettings.{name}: expected a finite number, got {v!r}")


class ProgressReward:
    """The reward of one episode at a time (``reset`` then ``step``); see the module docs."""

    def __init__(self, settings: RewardSettings, scene: Scene,
                 navmesh: NavMeshLike | None = None) -> None:
        self.settings, self.scene = settings, scene
        self._navmesh = navmesh
        self._goals = np.zeros((0, 3))
        self.kind = settings.distance
        self.d = math.nan

    def navmesh(self) -> NavMeshLike:
        """The navmesh of the geodesic distance (built from the scene at the first use)."""
        if self._navmesh is None:
            from navbench.nav import NavMesh, NavSettings

            kind = self.scene.kind
            preset = NavSettings.preset("outdoor" if kind in ("outdoor", "hybrid") else "indoor",
                                        **({"cell_size": 0.1} if kind == "hybrid" else {}))
            self._navmesh = NavMesh.build(self.scene, preset)
        return self._navmesh

    def _geodesic(self, pose: np.ndarray) -> float:
        if not len(self._goals):
            return math.inf
        p = np.asarray(pose, float)[:3].reshape(1, 3)
        return float(self.navmesh().geodesic_distances(p, self._goals)[0])

    def reset(self, episode: EpisodeLike, pose: np.ndarray, euclidean: float) -> float:
        """Start an episode at ``pose`` (x, y, z, yaw; y the ground point) whose simulator
        distance is ``euclidean``; returns ``d_0`` (m)."""
        self._goals = np.array([[float(v) for v in g.position] for g in episode.goals],
                               float).reshape(-1, 3)
        self.kind = self.settings.distance
        d = self._geodesic(pose) if self.kind == "geodesic" else math.nan
        if not math.isfinite(d):
            self.kind, d = "euclidean", float(euclidean)
        self.d = d
        return d

    def step(self, pose: np.ndarray, euclidean: float, label: str | None) -> tuple[float, JSONObject]:
        """Reward of the step that ended at ``pose`` with simulator distance ``euclidean`` and
        the episode's ``label`` (``None`` while it runs); returns ``(reward, terms)``."""
        d = self._geodesic(pose) if self.kind == "geodesic" else float(euclidean)
        progress = 0.0
        if math.isfinite(d) and math.isfinite(self.d):
            progress = self.d - d
        if math.isfinite(d):
            self.d = d
        bonus = self.settings.success_reward if label == "success" else 0.0
        slack = self.settings.slack_reward
        terms: JSONObject = {"progress": progress, "success": bonus, "slack": slack,
                             "distance": self.d, "distance_kind": self.kind}
        return progress + bonus + slack, terms
