"""``NavEnv``: a Gymnasium environment over :class:`~navbench.sim.Simulator`.

Action spaces (``action_type``): ``"discrete"`` — ``Discrete(4)`` with Habitat ids (0 stop,
1 forward 0.25 m, 2 left 15°, 3 right 15°); ``"velocity"`` — ``Box(4)`` ``(vx, vy, ω, stop)``
in body frame, stop when the 4th entry > 0.5; ``"waypoint"`` — ``Box(4)`` ``(x, z, yaw, stop)``,
one world-frame waypoint streamed per step. Observations: ``pose`` (x, y, z, yaw) and, when the
settings render, ``rgb`` (H,W,3 uint8), ``depth`` (H,W,1 float32 m) and ``semantic`` (H,W int32).
Reward: decrease of the distance to goal, +2.5 on success (habitat-lab's default shaping).
``terminated`` for success / perception_error / fall / stopped, ``truncated`` for timeout.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from navbench.errors import ConfigError
from navbench.scene.model import Scene
from navbench.sim.actions import Action, DiscreteAction, StopAction, VelocityAction, WaypointAction
from navbench.sim.embodiments import SPOT, Embodiment
from navbench.sim.simulator import EpisodeLike, SimSettings, Simulator

ACTION_TYPES = ("discrete", "velocity", "waypoint")


class NavEnv(gym.Env[dict[str, np.ndarray], Any]):
    """Episodes of one scene; ``reset`` cycles through ``episodes`` (or picks ``options["index"]``)."""

    metadata: dict[str, Any] = {"render_modes": ["rgb_array"]}  # noqa: RUF012 (gym.Env declares it an instance attribute)

    def __init__(self, scene: Scene, episodes: Sequence[EpisodeLike],
                 embodiment: Embodiment = SPOT, settings: SimSettings | None = None,
                 action_type: str = "discrete", success_reward: float = 2.5) -> None:
        if action_type not in ACTION_TYPES:
            raise ConfigError(f"action_type must be one of {ACTION_TYPES}, got {action_type!r}")
        if not episodes:
            raise ConfigError("NavEnv needs at least one episode")
        self.sim = Simulator(scene, embodiment, settings)
        self.episodes = list(episodes)
        self.action_type = action_type
        self.success_reward = success_reward
        self._next = 0
        self._dtg = 0.0
        s = self.sim.settings
        obs: dict[str, spaces.Space[Any]] = {
            "pose": spaces.Box(-np.inf, np.inf, (4,), np.float64)}
        if s.render:
            obs["rgb"] = spaces.Box(0, 255, (s.height, s.width, 3), np.uint8)
            obs["depth"] = spaces.Box(0.0, np.inf, (s.height, s.width, 1), np.float32)
            obs["semantic"] = spaces.Box(0, np.iinfo(np.int32).max, (s.height, s.width), np.int32)
        # spaces.Dict is a Space[dict[str, Any]]; its samples are dicts of arrays
        self.observation_space = spaces.Dict(obs)  # type: ignore[assignment]
        e = embodiment
        if action_type == "discrete":
            self.action_space = spaces.Discrete(4)
        elif action_type == "velocity":
            hi = np.array([e.vx_max, e.vy_max, e.omega_max, 1.0])
            self.action_space = spaces.Box(-hi, hi, dtype=np.float64)
        else:
            self.action_space = spaces.Box(-np.inf, np.inf, (4,), np.float64)

    def _obs(self, raw: dict[str, Any]) -> dict[str, np.ndarray]:
        out = {"pose": np.asarray(raw["pose"], np.float64)}
        if "rgb" in raw:
            out.update(rgb=raw["rgb"], depth=raw["depth"][..., None], semantic=raw["semantic"])
        return out

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict]:
        super().reset(seed=seed)
        idx = (options or {}).get("index", self._next)
        ep = self.episodes[int(idx) % len(self.episodes)]
        self._next = int(idx) + 1
        raw = self.sim.reset(ep)
        self._dtg = self.sim.distance_to_goal()
        return self._obs(raw), {"episode_id": ep.episode_id, "distance_to_goal": self._dtg}

    def _action(self, a: Any) -> Action:
        if self.action_type == "discrete":
            return DiscreteAction.from_id(int(a))
        v = np.asarray(a, float).reshape(4)
        if v[3] > 0.5:
            return StopAction()
        if self.action_type == "velocity":
            return VelocityAction(float(v[0]), float(v[1]), float(v[2]))
        yaw = float(v[2]) if math.isfinite(v[2]) else math.nan
        return WaypointAction(((float(v[0]), float(v[1]), yaw),))

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict]:
        raw, done, info = self.sim.step(self._action(action))
        dtg = info["distance_to_goal"]
        reward = 0.0 if not (math.isfinite(dtg) and math.isfinite(self._dtg)) else self._dtg - dtg
        self._dtg = dtg
        label = info["label"]
        if label == "success":
            reward += self.success_reward
        return self._obs(raw), float(reward), done and label != "timeout", label == "timeout", info

    def render(self) -> np.ndarray | None:
        """The last RGB frame (``rgb_array``), when rendering is on."""
        if not self.sim.settings.render:
            return None
        return self.sim._observe()["rgb"]

    def close(self) -> None:
        self.sim.close()
