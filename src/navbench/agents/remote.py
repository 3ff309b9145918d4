"""HTTP client agent: any model behind ``navbench serve-agent``'s JSON protocol.

Protocol (JSON over HTTP, UTF-8):

- ``POST /reset`` ``{"task": {"episode_id", "kind", "action_space", "instruction",
  "goal_category", "success_distance"}}`` → ``{"ok": true}``;
- ``POST /act`` ``{"observation": {"pose": [x,y,z,yaw], "time", "robot_radius",
  "cam_to_body": 4×4, "intrinsics": 3×3, "rgb"|"depth"|"semantic": {"b64", "dtype",
  "shape"}}}`` → an action: ``{"action": 0-3 | "MOVE_FORWARD" | ...}``,
  ``{"waypoints": [[x, z(, yaw)]...], "append": false}``, ``{"velocity": [vx, vy, ω]}`` or
  ``{"stop": true}``.

Each request has a timeout (``timeout_s``) and is retried ``retries`` times on connection
errors, timeouts and HTTP 5xx (with ``backoff_s`` × attempt between tries); then
:class:`RemoteAgentError` is raised, which :func:`~navbench.agents.rollout.run_episode` turns
into an ``agent_error`` episode. Retrying ``/act`` may make a stateful server see one step twice.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Mapping
from typing import Any, ClassVar

from navbench.agents.base import ActionSpace, Agent, Task, to_action
from navbench.agents.wire import encode_observation, encode_task
from navbench.errors import ConfigError, NavbenchError
from navbench.sim.actions import Action


class RemoteAgentError(NavbenchError):
    """The remote agent did not answer usefully (after retries)."""


class RemoteAgent(Agent):
    """Client of a remote agent at ``url`` (``http://host:port``)."""

    name: ClassVar[str] = "remote"

    def __init__(self, url: str, timeout_s: float = 30.0, retries: int = 2,
                 backoff_s: float = 0.2, action_space: ActionSpace = "discrete",
                 sensors: tuple[str, ...] = ()) -> None:
        if not url.startswith(("http://", "https://")):
            raise ConfigError(f"remote agent: url: expected http://host:port, got {url!r}")
        if timeout_s <= 0 or retries < 0:
            raise ConfigError("remote agent: timeout_s must be > 0 and retries >= 0")
        self.url = url.rstrip("/")
        self.timeout_s, self.retries, self.backoff_s = float(timeout_s), int(retries), float(backoff_s)
        self.action_space = action_space
        self.sensors = frozenset(sensors)

    def _post(self, route: str, body: Mapping[str, Any]) -> Any:
        data = json.dumps(body, allow_nan=False).encode("utf-8")
        last = ""
        for attempt in range(self.retries + 1):
            if attempt:
                time.sleep(self.backoff_s * attempt)
            req = urllib.request.Request(self.url + route, data=data, method="POST",
                                         headers={"Content-Type": "application/json"})
            try:
                with urllib.request.urlopen(req, timeout=self.timeout_s) as r:
                    return json.loads(r.read().decode("utf-8"))
            except urllib.error.HTTPError as e:
                last = f"HTTP {e.code}: {e.read()[:200].decode('utf-8', 'replace')}"
                if e.code < 500:
                    break
            except (urllib.error.URLError, TimeoutError, ConnectionError, OSError) as e:
                last = f"{type(e).__name__}: {getattr(e, 'reason', e)}"
            except json.JSONDecodeError as e:
                last = f"invalid JSON reply ({e})"
                break
        raise RemoteAgentError(f"remote agent {self.url}{route} failed after "
                               f"{attempt + 1} attempt(s): {last}")

    def reset(self, task: Task) -> None:
        self._post("/reset", {"task": encode_task(task)})

    def act(self, observation: Mapping[str, Any]) -> Action:
        reply = self._post("/act", {"observation": encode_observation(observation)})
        try:
            return to_action(reply)
        except ConfigError as e:
            raise RemoteAgentError(f"remote agent {self.url}/act: bad reply {reply!r} ({e})") from e
