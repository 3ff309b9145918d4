"""``NavEnv``: a Gymnasium environment over :class:`~navbench.sim.Simulator`.

Episodes: ``reset(seed=s)`` starts episode ``s mod N`` of the ``N`` given; ``reset()`` without a
seed starts the one after the last started (episode 0 first); ``options={"episode": i}`` (an
index, or an episode id) starts that one. So the same seed (or option) always starts the same
episode in the same state: the simulator is deterministic and takes no randomness from
``np_random``, which is still seeded for the user's own draws (Gymnasium's contract).

Action spaces (``action_type``): ``"discrete"`` — ``Discrete(4)`` with Habitat ids (0 stop,
1 forward 0.25 m, 2 left 15°, 3 right 15°); ``"velocity"`` — ``Box(4)`` ``(vx, vy, ω, stop)``
in body frame within the embodiment's limits, stop when the 4th entry > 0.5; ``"waypoint"`` —
``Box(4)`` ``(x, z, yaw, stop)`` within the scene's XZ bounds, one world-frame waypoint streamed
per step (a NaN yaw: any heading), stop when the 4th entry > 0.5.

Observations (every key declared in ``observation_space``): ``pose`` (x, y, z, yaw; m, rad,
ground point of the base), ``instruction`` (the episode's instruction text, else its goal
category, else ``""``) and, when the settings render, ``depth`` (H, W, 1 float32 m, 0 = nothing
within range), ``semantic`` (H, W int32 segment ids) and ``rgb`` (H, W, 3 uint8) unless
``SimSettings.rgb`` is off.

Reward (:mod:`navbench.sim.reward`): habitat-lab's shaping, ``(d_{t−1} − d_t) +
success_reward · 1[success] + slack_reward`` with the geodesic distance to goal ``d``;
``info["reward_terms"]`` gives each term. ``terminated`` for success / perception_error / fall /
stopped, ``truncated`` for timeout.
"""

from __future__ import annotations

import dataclasses
import math
import string
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from navbench.errors import ConfigError
from navbench.jsontypes import JSONObject, Observation
from navbench.nav.protocols import NavMeshLike
from navbench.scene.model import Scene
from navbench.sim.actions import Action, DiscreteAction, StopAction, VelocityAction, WaypointAction
from navbench.sim.embodiments import SPOT, Embodiment
from navbench.sim.reward import ProgressReward, RewardSettings
from navbench.sim.simulator import EpisodeLike, SimSettings, Simulator

ACTION_TYPES = ("discrete", "velocity", "waypoint")
#: Far clip of the depth sensor (m, SPEC §6): the ``depth`` space's upper bound.
DEPTH_FAR = 1000.0


#: A Gymnasium action: a discrete id, or the (4,) Box vector (see the module docs).
EnvAction = int | np.int64 | np.ndarray


def instruction_of(ep: EpisodeLike) -> str:
    """The ``instruction`` observation of an episode (text, else goal category, else ``""``)."""
    text = getattr(ep, "instruction_text", None) or getattr(ep, "object_category", None)
    return str(text) if text else ""


class NavEnv(gym.Env[dict[str, Any], EnvAction]):  # Any: arrays and the instruction str
    """Episodes of one scene as a Gymnasium environment (see the module docs).

    Parameters
    ----------
    scene : Scene
        The scene every episode runs in.
    episodes : sequence of Episode
        The episodes ``reset`` chooses from.
    embodiment : Embodiment
        The robot (default Spot).
    settings : SimSettings, optional
        Simulator settings (rendering, image size, τ, ...).
    action_type : {"discrete", "velocity", "waypoint"}
        The action space.
    success_reward : float, optional
        Shortcut for ``reward.success_reward``.
    reward : RewardSettings, optional
        Distance kind, success bonus and slack (default habitat-lab's: geodesic, 2.5, −0.01).
    navmesh : NavMesh, optional
        The navmesh of the geodesic reward (default: built from the scene at the first reset).
    render_mode : {None, "rgb_array"}
        ``"rgb_array"`` turns rendering (with RGB) on in the settings; ``None`` keeps the
        settings, and :attr:`render_mode` is ``"rgb_array"`` exactly when they render RGB.

    Examples
    --------
    Stop (discrete id 0) at the start, 2.0 m from a point goal: Spot's default τ (1.6 m) calls
    it a miss (reward = slack −0.01), a per-episode ``options={"tau": 2.5}`` a success (+2.5).

    >>> from navbench.episodes import Episode, Goal
    >>> from navbench.scene import Box, Scene
    >>> from navbench.sim import SPOT, NavEnv
    >>> floor = Box("floor", "floor", (0.0, -0.05, 0.0), (10.0, 0.1, 10.0), label="floor")
    >>> ep = Episode("e0", "flat", (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0), (Goal((0.0, 0.0, -2.0)),),
    ...              instruction_text="walk two metres north")
    >>> env = NavEnv(Scene("flat", "indoor", "handmade", boxes=(floor,)), [ep], SPOT)
    >>> obs, info = env.reset(seed=0)
    >>> info["episode_id"], round(info["distance_to_goal"], 1), obs["pose"].shape, obs["instruction"]
    ('e0', 2.0, (4,), 'walk two metres north')
    >>> obs, reward, terminated, truncated, info = env.step(0)
    >>> terminated, truncated, info["label"], round(reward, 2)
    (True, False, 'perception_error', -0.01)
    >>> _ = env.reset(options={"episode": "e0", "tau": 2.5})
    >>> _, reward, terminated, _, info = env.step(0)
    >>> info["label"], round(reward, 2), info["reward_terms"]["distance_kind"]
    ('success', 2.49, 'geodesic')
    >>> env.render() is None  # no images without SimSettings(render=True)
    True
    """

    #: Gymnasium's render metadata (``render_fps`` per instance: one frame per agent step).
    metadata: JSONObject = {"render_modes": ["rgb_array"], "render_fps": 10.0}  # noqa: RUF012 (gym.Env declares it an instance attribute)

    def __init__(self, scene: Scene, episodes: Sequence[EpisodeLike],
                 embodiment: Embodiment = SPOT, settings: SimSettings | None = None,
                 action_type: str = "discrete", success_reward: float | None = None, *,
                 reward: RewardSettings | None = None, navmesh: NavMeshLike | None = None,
                 render_mode: str | None = None) -> None:
        if action_type not in ACTION_TYPES:
            raise ConfigError(f"action_type must be one of {ACTION_TYPES}, got {action_type!r}")
        if render_mode not in (None, "rgb_array"):
            raise ConfigError(f"render_mode must be None or 'rgb_array', got {render_mode!r}")
        if render_mode == "rgb_array":
            settings = dataclasses.replace(settings or SimSettings(), render=True, rgb=True)
        if not episodes:
            raise ConfigError("NavEnv needs at least one episode")
        reward = reward or RewardSettings()
        if success_reward is not None:
            reward = RewardSettings(reward.distance, float(success_reward), reward.slack_reward)
        self.sim = Simulator(scene, embodiment, settings)
        self.episodes = list(episodes)
        self.action_type = action_type
        self.reward_settings = reward
        self._reward = ProgressReward(reward, scene, navmesh)
        self._next = 0
        self._instruction = ""
        self._frame: np.ndarray | None = None  # RGB of the last observation (served by render)
        s = self.sim.settings
        self.render_mode = "rgb_array" if s.render and s.rgb else None
        self.metadata = {"render_modes": ["rgb_array"], "render_fps": 1.0 / s.agent_dt}
        texts = [instruction_of(ep) for ep in self.episodes]
        charset = frozenset(string.printable) | frozenset("".join(texts))
        obs: dict[str, spaces.Space[Any]] = {  # Any: Gymnasium's Dict takes spaces of any sample type
            "pose": spaces.Box(-np.inf, np.inf, (4,), np.float64),
            "instruction": spaces.Text(max(1, *(len(t) for t in texts)), min_length=0,
                                       charset=charset)}
        if s.render:
            if s.rgb:
                obs["rgb"] = spaces.Box(0, 255, (s.height, s.width, 3), np.uint8)
            obs["depth"] = spaces.Box(0.0, DEPTH_FAR, (s.height, s.width, 1), np.float32)
            obs["semantic"] = spaces.Box(0, np.iinfo(np.int32).max, (s.height, s.width), np.int32)
        # spaces.Dict is a Space[dict[str, Any]]; its samples are dicts of arrays and a str
        self.observation_space = spaces.Dict(obs)
        e = embodiment
        if action_type == "discrete":
            self.action_space = spaces.Discrete(4)
        elif action_type == "velocity":
            hi = np.array([e.vx_max, e.vy_max, e.omega_max, 1.0])
            self.action_space = spaces.Box(-hi, hi, dtype=np.float64)
        else:
            (x0, z0), (x1, z1) = scene.bounds_xz
            self.action_space = spaces.Box(np.array([x0, z0, -math.pi, 0.0]),
                                           np.array([x1, z1, math.pi, 1.0]), dtype=np.float64)

    def _obs(self, raw: Observation, instruction: str) -> dict[str, Any]:
        self._frame = raw.get("rgb")
        out: dict[str, Any] = {"pose": np.array(raw["pose"], np.float64), "instruction": instruction}
        if "depth" in raw:
            out.update(depth=raw["depth"][..., None], semantic=raw["semantic"])
            if "rgb" in raw:
                out["rgb"] = raw["rgb"]
        return out

    def _episode_index(self, choice: object) -> int:
        n = len(self.episodes)
        if isinstance(choice, (int, np.integer)) and not isinstance(choice, bool):
            if 0 <= int(choice) < n:
                return int(choice)
        elif isinstance(choice, str):
            for i, ep in enumerate(self.episodes):
                if str(ep.episode_id) == choice:
                    return i
        raise ConfigError(f"NavEnv.reset: options['episode']: expected an index in [0, {n}) or "
                          f"the id of one of the {n} episodes, got {choice!r}")

    def reset(self, *, seed: int | None = None,
              options: JSONObject | None = None) -> tuple[dict[str, Any], JSONObject]:
        """Start an episode (Gymnasium API).

        Parameters
        ----------
        seed : int, optional
            Picks the episode (``seed mod N``) and seeds ``self.np_random``.
        options : dict, optional
            ``"episode"`` (``"index"`` also read): the episode to start, an index or an episode
            id (wins over the seed); ``"tau"``: this episode's success distance τ (m), passed to
            ``Simulator.reset(ep, tau=...)`` (default: the simulator's
            :attr:`~navbench.sim.Simulator.default_tau`).

        Returns
        -------
        observation : dict
            ``pose``, ``instruction`` and, when rendering, ``rgb``, ``depth``, ``semantic``.
        info : dict
            ``episode_id``, ``episode_index``, ``distance_to_goal`` (the simulator's NavVerse
            distance, m) and ``reward_distance`` (the reward's ``d_0``, m) with its
            ``reward_distance_kind``.

        Raises
        ------
        navbench.errors.ConfigError
            For an ``episode`` option that names no episode.
        """
        super().reset(seed=seed)
        opts = options or {}
        choice = opts.get("episode", opts.get("index"))
        if choice is not None:
            idx = self._episode_index(choice)
        elif seed is not None:
            idx = int(seed) % len(self.episodes)
        else:
            idx = self._next % len(self.episodes)
        self._next = idx + 1
        ep = self.episodes[idx]
        tau = opts.get("tau")
        raw = self.sim.reset(ep, tau=None if tau is None else float(tau))
        self._instruction = instruction_of(ep)
        dtg = self.sim.distance_to_goal()
        d0 = self._reward.reset(ep, self.sim.pose(), dtg)
        info: JSONObject = {"episode_id": ep.episode_id, "episode_index": idx,
                            "distance_to_goal": dtg, "reward_distance": d0,
                            "reward_distance_kind": self._reward.kind}
        return self._obs(raw, self._instruction), info

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

    def step(self, action: EnvAction) -> tuple[dict[str, Any], float, bool, bool, JSONObject]:
        """Apply one action (Gymnasium API); see the module docs for the action spaces.

        Returns
        -------
        observation : dict
            As from :meth:`reset`.
        reward : float
            ``(d_{t−1} − d_t) + success_reward · 1[success] + slack_reward``
            (:mod:`navbench.sim.reward`).
        terminated : bool
            ``success``, ``perception_error``, ``fall`` or ``stopped``.
        truncated : bool
            ``timeout`` (simulated time limit).
        info : dict
            The simulator's step info (``label``, ``time``, ``distance_to_goal``, ...) and
            ``reward_terms`` (``progress``, ``success``, ``slack``, ``distance``,
            ``distance_kind``).
        """
        raw, done, info = self.sim.step(self._action(action))
        label = info["label"]
        reward, terms = self._reward.step(self.sim.pose(), info["distance_to_goal"], label)
        info["reward_terms"] = terms
        return (self._obs(raw, self._instruction), float(reward), bool(done and label != "timeout"),
                label == "timeout", info)

    def render(self) -> np.ndarray | None:
        """The RGB frame of the last observation (``rgb_array``, H x W x 3 uint8), or ``None``
        when the settings do not render RGB. It is the frame :meth:`reset`/:meth:`step` already
        rendered: nothing is rendered again."""
        return self._frame

    def close(self) -> None:
        self.sim.close()
