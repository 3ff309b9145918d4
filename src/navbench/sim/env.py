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
from navbench.jsontypes import JSONObject, Observation
from navbench.scene.model import Scene
from navbench.sim.actions import Action, DiscreteAction, StopAction, VelocityAction, WaypointAction
from navbench.sim.embodiments import SPOT, Embodiment
from navbench.sim.simulator import EpisodeLike, SimSettings, Simulator

ACTION_TYPES = ("discrete", "velocity", "waypoint")


#: A Gymnasium action: a discrete id, or the (4,) Box vector (see the module docs).
EnvAction = int | np.int64 | np.ndarray


class NavEnv(gym.Env[dict[str, np.ndarray], EnvAction]):
    """Episodes of one scene; ``reset`` cycles through ``episodes`` (or picks ``options["index"]``).

    Examples
    --------
    Stop (discrete id 0) at the start, 2.0 m from a point goal: Spot's default τ (1.6 m) calls
    it a miss, a per-episode ``options={"tau": 2.5}`` a success (reward 2.5, no progress).

    >>> from navbench.episodes import Episode, Goal
    >>> from navbench.scene import Box, Scene
    >>> from navbench.sim import SPOT, NavEnv
    >>> floor = Box("floor", "floor", (0.0, -0.05, 0.0), (10.0, 0.1, 10.0), label="floor")
    >>> ep = Episode("e0", "flat", (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0), (Goal((0.0, 0.0, -2.0)),))
    >>> env = NavEnv(Scene("flat", "indoor", "handmade", boxes=(floor,)), [ep], SPOT)
    >>> obs, info = env.reset(seed=0)
    >>> info["episode_id"], round(info["distance_to_goal"], 1), obs["pose"].shape
    ('e0', 2.0, (4,))
    >>> obs, reward, terminated, truncated, info = env.step(0)
    >>> terminated, truncated, info["label"]
    (True, False, 'perception_error')
    >>> _ = env.reset(options={"tau": 2.5})
    >>> _, reward, terminated, _, info = env.step(0)
    >>> info["label"], round(reward, 1)
    ('success', 2.5)
    >>> env.render() is None  # no images without SimSettings(render=True)
    True
    """

    metadata: JSONObject = {"render_modes": ["rgb_array"]}  # noqa: RUF012 (gym.Env declares it an instance attribute)

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
        self._frame: np.ndarray | None = None  # RGB of the last observation (served by render)
        s = self.sim.settings
        obs: dict[str, spaces.Space[Any]] = {  # Any: Gymnasium's Dict takes spaces of any sample type
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

    def _obs(self, raw: Observation) -> dict[str, np.ndarray]:
        self._frame = raw.get("rgb")
        out = {"pose": np.asarray(raw["pose"], np.float64)}
        if "rgb" in raw:
            out.update(rgb=raw["rgb"], depth=raw["depth"][..., None], semantic=raw["semantic"])
        return out

    def reset(self, *, seed: int | None = None,
              options: JSONObject | None = None) -> tuple[dict[str, np.ndarray], dict]:
        """Start the next episode (Gymnasium API).

        Parameters
        ----------
        seed : int, optional
            Seeds ``self.np_random`` (the simulator itself is deterministic).
        options : dict, optional
            ``"index"``: the episode to start (default: the one after the last); ``"tau"``:
            this episode's success distance τ (m), passed to ``Simulator.reset(ep, tau=...)``
            (default: the simulator's :attr:`~navbench.sim.Simulator.default_tau`).

        Returns
        -------
        observation : dict
            ``pose`` (x, y, z, yaw) and, when rendering, ``rgb``, ``depth``, ``semantic``.
        info : dict
            ``episode_id`` and ``distance_to_goal`` (m).
        """
        super().reset(seed=seed)
        opts = options or {}
        idx = opts.get("index", self._next)
        ep = self.episodes[int(idx) % len(self.episodes)]
        self._next = int(idx) + 1
        tau = opts.get("tau")
        raw = self.sim.reset(ep, tau=None if tau is None else float(tau))
        self._dtg = self.sim.distance_to_goal()
        return self._obs(raw), {"episode_id": ep.episode_id, "distance_to_goal": self._dtg}

    def _action(self, a: EnvAction) -> Action:
        if self.action_type == "discrete":
            return DiscreteAction.from_id(int(a))
        v = np.asarray(a, float).reshape(4)
        if v[3] > 0.5:
            return StopAction()
        if self.action_type == "velocity":
            return VelocityAction(float(v[0]), float(v[1]), float(v[2]))
        yaw = float(v[2]) if math.isfinite(v[2]) else math.nan
        return WaypointAction(((float(v[0]), float(v[1]), yaw),))

    def step(self, action: EnvAction) -> tuple[dict[str, np.ndarray], float, bool, bool, dict]:
        """Apply one action (Gymnasium API); see the module docs for the action spaces.

        Returns
        -------
        observation : dict
            As from :meth:`reset`.
        reward : float
            Decrease of the distance to goal (m) during the step, + ``success_reward`` on
            success (0 where the distance is not finite).
        terminated : bool
            ``success``, ``perception_error``, ``fall`` or ``stopped``.
        truncated : bool
            ``timeout`` (simulated time limit).
        info : dict
            The simulator's step info (``label``, ``time``, ``distance_to_goal``, ...).
        """
        raw, done, info = self.sim.step(self._action(action))
        dtg = info["distance_to_goal"]
        reward = 0.0 if not (math.isfinite(dtg) and math.isfinite(self._dtg)) else self._dtg - dtg
        self._dtg = dtg
        label = info["label"]
        if label == "success":
            reward += self.success_reward
        return self._obs(raw), float(reward), done and label != "timeout", label == "timeout", info

    def render(self) -> np.ndarray | None:
        """The RGB frame of the last observation (``rgb_array``, H x W x 3 uint8), or ``None``
        when the settings do not render RGB. It is the frame :meth:`reset`/:meth:`step` already
        rendered: nothing is rendered again."""
        return self._frame

    def close(self) -> None:
        self.sim.close()
