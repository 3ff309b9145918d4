"""The zero-shot ``vlm`` agent: a vision-language model behind any OpenAI-compatible endpoint.

Each decision sends one chat request (NavGPT / Open-Nav style, prompts in
:mod:`navbench.agents.llm.prompts`): the instruction (or goal category), the last ``frames`` RGB
views as base64 PNG images (shrunk to at most ``image_width`` px wide), the last ``history``
actions and the action vocabulary; the model reasons, then names one action. Nothing privileged
is sent (no pose, map, goal position or distance).

Action spaces:

- ``discrete`` (default): ``MOVE_FORWARD`` (0.25 m), ``TURN_LEFT`` / ``TURN_RIGHT`` (15°),
  ``STOP``; one request per agent step.
- ``waypoint``: ``MOVE <distance m> <angle deg>`` (turn by the angle, positive = left, then walk;
  distance clipped to ``max_move``), ``TURN <angle deg>``, ``STOP``; the agent converts the move
  into a world-frame waypoint from its pose and asks again once it is reached, after
  ``waypoint_timeout`` simulated seconds, or when the robot has been stuck for 3 s.

Unparseable replies (:mod:`navbench.agents.llm.parse`): the model is asked again ``reask``
times (default 1) with a reminder of the format; if the reply is still unparseable the agent
takes ``fallback`` (default ``TURN_LEFT`` / ``TURN 30``: look elsewhere) and counts it;
``max_parse_failures`` unparseable decisions in a row end the episode with ``STOP``. After
``max_calls`` requests in an episode the agent stops. Endpoint failures after retries raise
:class:`~navbench.agents.llm.client.LLMError`: the episode becomes ``agent_error``.

Per-episode cost (``diagnostics()``, stored under ``extra.agent`` in the results): see
:class:`~navbench.agents.llm.client.UsageStats`, plus ``fallbacks`` and ``stop_reason``.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from navbench.agents.base import ActionSpace, Agent, Task
from navbench.agents.http_limits import MAX_REPLY_BYTES
from navbench.agents.llm import prompts
from navbench.agents.llm.client import TOTAL_TIMEOUT_S, CacheMode, UsageStats, client_from_args
from navbench.agents.llm.images import image_part
from navbench.agents.llm.parse import parse_discrete, parse_waypoint
from navbench.errors import ConfigError
from navbench.geometry import heading_vector, wrap_angle
from navbench.jsontypes import JSONMapping, JSONObject, Observation
from navbench.sim.actions import Action, DiscreteAction, DiscreteConfig, StopAction, WaypointAction

_DISCRETE_NAMES = {"forward": "MOVE_FORWARD", "left": "TURN_LEFT", "right": "TURN_RIGHT",
                   "stop": "STOP"}
#: Fallback choices: name → (discrete kind, waypoint decision).
FALLBACKS: dict[str, tuple[str, tuple[str, float, float]]] = {
    "left": ("left", ("turn", 0.0, 30.0)), "right": ("right", ("turn", 0.0, -30.0)),
    "forward": ("forward", ("move", 0.5, 0.0)), "stop": ("stop", ("stop", 0.0, 0.0)),
}


class VLMAgent(Agent):
    """Zero-shot VLM navigator (see module docs).

    Args:
        base_url: OpenAI-compatible endpoint root (``http://127.0.0.1:8000/v1``).
        model: model name.
        api_key_env: environment variable holding the API key (``None``: no key sent).
        action_space: ``discrete`` or ``waypoint``.
        cache: ``readwrite`` | ``read`` (offline replay) | ``off``; cache_dir: its folder.
        timeout_s, total_timeout_s, max_reply_bytes, retries, backoff_s, max_concurrency:
            HTTP behaviour (:class:`ChatClient`: per read, per request, reply size cap).
        temperature, max_tokens, extra_params: request parameters.
        history: past actions shown to the model; frames: views per request (the latest last).
        image_width: maximum width (px) of the images sent.
        max_calls: requests per episode before the agent stops.
        fallback: action after an unparseable reply: ``left``, ``right``, ``forward`` or ``stop``.
        reask: extra requests after an unparseable reply before the fallback.
        max_parse_failures: unparseable decisions in a row that end the episode.
        max_move: longest waypoint move (m); waypoint_timeout: simulated s per waypoint.
    """

    name: ClassVar[str] = "vlm"
    action_space: ActionSpace = "discrete"
    needs_render: ClassVar[bool] = True

    def __init__(self, base_url: str, model: str, api_key_env: str | None = None,
                 action_space: ActionSpace = "discrete", cache: CacheMode = "readwrite",
                 cache_dir: str | Path | None = None, timeout_s: float = 60.0, retries: int = 4,
                 backoff_s: float = 1.0, max_concurrency: int = 4, temperature: float = 0.0,
                 max_tokens: int = 512, extra_params: JSONMapping | None = None,
                 history: int = 8, frames: int = 1, image_width: int = 320,
                 max_calls: int = 150, fallback: str = "left", reask: int = 1,
                 max_parse_failures: int = 3, max_move: float = 3.0,
                 waypoint_timeout: float = 15.0, total_timeout_s: float = TOTAL_TIMEOUT_S,
                 max_reply_bytes: int = MAX_REPLY_BYTES) -> None:
        if action_space not in ("discrete", "waypoint"):
            raise ConfigError(f"vlm agent: action_space: expected discrete or waypoint, got "
                              f"{action_space!r}")
        if fallback not in FALLBACKS:
            raise ConfigError(f"vlm agent: fallback: expected one of {sorted(FALLBACKS)}, got "
                              f"{fallback!r}")
        if min(history, reask) < 0 or min(frames, image_width, max_calls, max_parse_failures) < 1:
            raise ConfigError("vlm agent: expected history, reask >= 0 and frames, image_width, "
                              "max_calls, max_parse_failures >= 1")
        self.client = client_from_args(
            base_url, model, api_key_env=api_key_env, cache=cache, cache_dir=cache_dir,
            timeout_s=timeout_s, retries=retries, backoff_s=backoff_s,
            max_concurrency=max_concurrency, temperature=temperature, max_tokens=max_tokens,
            extra_params=extra_params, total_timeout_s=total_timeout_s,
            max_reply_bytes=max_reply_bytes)
        self.action_space = action_space
        self.history_len, self.frames_len = int(history), int(frames)
        self.image_width, self.max_calls = int(image_width), int(max_calls)
        self.fallback, self.reask = fallback, int(reask)
        self.max_parse_failures = int(max_parse_failures)
        self.max_move, self.waypoint_timeout = float(max_move), float(waypoint_timeout)
        self.discrete = DiscreteConfig()
        self.stats = UsageStats()
        self._task: Task | None = None

    # ------------------------------------------------------------------ episode
    def reset(self, task: Task) -> None:
        self._task = task
        self.stats = UsageStats()
        self.history: list[str] = []
        self.views: list[dict[str, object]] = []
        self.failures_in_row, self.fallbacks = 0, 0
        self.stop_reason: str | None = None
        self.target: tuple[float, float, float] | None = None
        self.target_t = 0.0
        self.anchor: tuple[float, np.ndarray] | None = None

    def diagnostics(self) -> JSONObject:
        """Per-episode cost counters, fallbacks taken and why the agent stopped (JSON-able)."""
        return {**self.stats.as_dict(), "fallbacks": self.fallbacks,
                "stop_reason": self.stop_reason, "model": self.client.model}

    # ------------------------------------------------------------------ prompt
    def system_prompt(self) -> str:
        """The system message for this episode's action space and τ."""
        t = self._task
        tau = t.success_distance if t is not None and t.success_distance else 1.0
        vocab = prompts.VOCABULARY[self.action_space].format(
            forward_step=self.discrete.forward_step,
            turn_deg=math.degrees(self.discrete.turn_angle), max_move=self.max_move)
        return prompts.VLM_SYSTEM.format(vocabulary=vocab, tau=tau,
                                         format=prompts.FORMAT[self.action_space])

    def task_text(self) -> str:
        """The instruction or goal line."""
        t = self._task
        if t is not None and t.instruction:
            return prompts.TASK_TEXT["instruction"].format(instruction=t.instruction)
        if t is not None and t.goal_category:
            return prompts.TASK_TEXT["goal"].format(goal=t.goal_category)
        return prompts.TASK_TEXT["none"]

    def messages(self) -> list[JSONObject]:
        """System and user messages of the next request (text, then the views)."""
        hist = self.history[-self.history_len:] if self.history_len else []
        start = len(self.history) - len(hist)
        hist_text = ", ".join(f"{start + i + 1}: {a}" for i, a in enumerate(hist)) or "none yet"
        n = len(self.views)
        note = prompts.FRAMES_NOTE["one"] if n == 1 else \
            prompts.FRAMES_NOTE["many"].format(n=n) if n else ""
        text = prompts.VLM_STEP.format(task=self.task_text(), step=len(self.history) + 1,
                                       max_calls=self.max_calls, history=hist_text,
                                       frames_note=note).rstrip()
        return [{"role": "system", "content": self.system_prompt()},
                {"role": "user", "content": [{"type": "text", "text": text}, *self.views]}]

    # ------------------------------------------------------------------ decisions
    # Any: a discrete action name (str) or a waypoint (kind, m, deg) tuple, per action_space
    def _ask(self) -> tuple[Any, str]:
        """One decision: request (+ re-asks); the parsed choice or ``None``, and the reply."""
        msgs = self.messages()
        parse = parse_discrete if self.action_space == "discrete" else self._parse_waypoint
        choice, text = None, ""
        for k in range(self.reask + 1):
            if self.stats.calls >= self.max_calls:
                break
            if k:
                msgs = [*msgs, {"role": "assistant", "content": text},
                        {"role": "user", "content": prompts.RETRY_NOTE}]
            reply = self.client.complete(msgs)
            self.stats.add(reply)
            text = reply.text
            choice = parse(text)
            if choice is not None:
                break
            self.stats.parse_failures += 1
        return choice, text

    @staticmethod
    def _parse_waypoint(text: str) -> tuple[str, float, float] | None:
        w = parse_waypoint(text)
        if w is None:  # a discrete word is still an answer
            k = parse_discrete(text)
            w = None if k is None else FALLBACKS[k][1]
        return w

    def _stop(self, reason: str) -> Action:
        self.stop_reason = reason
        return StopAction()

    def _following(self, pose: np.ndarray, t: float) -> bool:
        """Whether the current waypoint is still being driven to (not reached, stuck, or late)."""
        if self.target is None:
            return False
        x, z, yaw = self.target
        reached = math.hypot(pose[0] - x, pose[2] - z) <= 0.25 and \
            abs(wrap_angle(float(pose[3]) - yaw)) <= math.radians(10.0)
        if self.anchor is None or np.linalg.norm(pose[[0, 2, 3]] - self.anchor[1]) > 0.05:
            self.anchor = (t, pose[[0, 2, 3]].copy())
        stuck = t - self.anchor[0] > 3.0
        if reached or stuck or t - self.target_t > self.waypoint_timeout:
            self.target = None
            return False
        return True

    def act(self, observation: Observation) -> Action:
        pose = np.asarray(observation["pose"], float)
        t = float(observation.get("time", 0.0))
        if self._following(pose, t):
            return WaypointAction((), append=True)
        if self.stats.calls >= self.max_calls:
            return self._stop("max_calls")
        rgb = observation.get("rgb")
        if rgb is None:
            raise ConfigError("vlm agent: the observation has no 'rgb' image "
                              "(evaluate with --render auto or on)")
        self.views = [*self.views, image_part(rgb, self.image_width)][-self.frames_len:]
        choice, _ = self._ask()
        if choice is None:
            self.failures_in_row += 1
            if self.failures_in_row >= self.max_parse_failures:
                return self._stop("parse_failures")
            self.fallbacks += 1
            d, w = FALLBACKS[self.fallback]
            choice = d if self.action_space == "discrete" else w
        else:
            self.failures_in_row = 0
        if self.action_space == "discrete":
            self.history.append(_DISCRETE_NAMES[choice])
            return self._stop("model") if choice == "stop" else DiscreteAction(choice)
        return self._waypoint(choice, pose, t)

    def _waypoint(self, choice: tuple[str, float, float], pose: np.ndarray, t: float) -> Action:
        kind, dist, angle = choice
        if kind == "stop":
            self.history.append("STOP")
            return self._stop("model")
        angle = max(-180.0, min(180.0, angle))
        dist = max(0.0, min(self.max_move, dist)) if kind == "move" else 0.0
        self.history.append(f"MOVE {dist:.2f} {angle:+.0f}" if kind == "move" else f"TURN {angle:+.0f}")
        yaw = wrap_angle(float(pose[3]) + math.radians(angle))
        dx, dz = heading_vector(yaw) * dist
        self.target = (float(pose[0] + dx), float(pose[2] + dz), yaw)
        self.target_t, self.anchor = t, None
        return WaypointAction((self.target,))
