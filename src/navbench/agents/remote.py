"""HTTP client agent: any model behind ``navbench serve-agent``'s JSON protocol.

Protocol (JSON over HTTP, UTF-8):

- ``POST /reset`` ``{"task": {"episode_id", "kind", "action_space", "instruction",
  "goal_category", "success_distance"}}`` → ``{"ok": true}``;
- ``POST /act`` ``{"observation": {"pose": [x,y,z,yaw], "time", "robot_radius",
  "cam_to_body": 4×4, "intrinsics": 3×3, "rgb"|"depth"|"semantic": {"b64", "dtype",
  "shape"}}}`` → an action: ``{"action": 0-3 | "MOVE_FORWARD" | ...}``,
  ``{"waypoints": [[x, z(, yaw)]...], "append": false}``, ``{"velocity": [vx, vy, ω]}`` or
  ``{"stop": true}``.

Limits (defaults): ``connect_timeout_s`` (10 s) to open the connection, ``timeout_s`` (30 s)
for each read of the reply, ``total_timeout_s`` (60 s) for a whole request, and a reply of at
most ``max_reply_bytes`` (16 MiB). A request is retried ``retries`` times on connection
errors, timeouts and HTTP 5xx (with ``backoff_s`` × attempt between tries); then
:class:`RemoteAgentError` is raised, which :func:`~navbench.agents.rollout.run_episode` turns
into an ``agent_error`` episode (a reply over the size limit is not retried). Messages quote at
most 200 characters of a reply. Retrying ``/act`` may make a stateful server see one step twice.
"""

from __future__ import annotations

import http.client
import json
import time
import urllib.parse
from typing import ClassVar

from navbench.agents import http_limits
from navbench.agents.base import ActionSpace, Agent, Task, to_action
from navbench.agents.wire import encode_observation, encode_task
from navbench.errors import ConfigError, NavbenchError
from navbench.io import loads_json

#: Default limits of a remote agent's requests (see the module docs).
from navbench.jsontypes import JSON, JSONMapping, Observation
from navbench.sim.actions import Action

MAX_REPLY_BYTES = http_limits.MAX_REPLY_BYTES
CONNECT_TIMEOUT_S = 10.0
TOTAL_TIMEOUT_S = 60.0


def _short(text: object, n: int = 200) -> str:
    s = text if isinstance(text, str) else repr(text)
    return s if len(s) <= n else s[: n - 3] + "..."


_ReplyTooLargeError = http_limits.ReplyTooLargeError


class RemoteAgentError(NavbenchError):
    """The remote agent did not answer usefully (after retries)."""


class RemoteAgent(Agent):
    """Client of a remote agent at ``url`` (``http://host:port``)."""

    name: ClassVar[str] = "remote"

    def __init__(self, url: str, timeout_s: float = 30.0, retries: int = 2,
                 backoff_s: float = 0.2, action_space: ActionSpace = "discrete",
                 sensors: tuple[str, ...] = (), *, connect_timeout_s: float = CONNECT_TIMEOUT_S,
                 total_timeout_s: float = TOTAL_TIMEOUT_S,
                 max_reply_bytes: int = MAX_REPLY_BYTES) -> None:
        if not url.startswith(("http://", "https://")):
            raise ConfigError(f"remote agent: url: expected http://host:port, got {url!r}")
        u = urllib.parse.urlsplit(url)
        try:
            port = u.port
        except ValueError:
            port = -1
        if not u.hostname or port == -1:
            raise ConfigError(f"remote agent: url: expected http://host:port, got {url!r}")
        if min(timeout_s, connect_timeout_s, total_timeout_s) <= 0 or retries < 0 or max_reply_bytes <= 0:
            raise ConfigError("remote agent: timeouts and max_reply_bytes must be > 0 and retries >= 0")
        self.url = url.rstrip("/")
        self._scheme, self._host, self._port = u.scheme, u.hostname, port
        self._base = u.path.rstrip("/")
        self._netloc = u.netloc
        self.timeout_s, self.retries, self.backoff_s = float(timeout_s), int(retries), float(backoff_s)
        self.connect_timeout_s, self.total_timeout_s = float(connect_timeout_s), float(total_timeout_s)
        self.max_reply_bytes = int(max_reply_bytes)
        self.action_space = action_space
        self.sensors = frozenset(sensors)

    def _request(self, route: str, data: bytes) -> tuple[int, bytes]:
        """One POST: ``(status, body)``; raises OSError / TimeoutError / _ReplyTooLargeError
        (the limits of :func:`navbench.agents.http_limits.post`)."""
        r = http_limits.post(f"{self._scheme}://{self._netloc}{self._base}{route}", data,
                             {"Content-Type": "application/json"},
                             read_timeout_s=self.timeout_s,
                             deadline=time.monotonic() + self.total_timeout_s,
                             max_reply_bytes=self.max_reply_bytes,
                             connect_timeout_s=self.connect_timeout_s)
        return r.status, r.body

    def _post(self, route: str, body: JSONMapping) -> JSON:
        data = json.dumps(body, allow_nan=False).encode("utf-8")
        last = ""
        for attempt in range(self.retries + 1):
            if attempt:
                time.sleep(self.backoff_s * attempt)
            try:
                status, raw = self._request(route, data)
            except _ReplyTooLargeError as e:
                last = str(e)
                break
            except (TimeoutError, ConnectionError, OSError, http.client.HTTPException) as e:
                last = f"{type(e).__name__}: {_short(str(e))}"
                continue
            if status >= 400:
                last = f"HTTP {status}: {raw[:200].decode('utf-8', 'replace')}"
                if status < 500:
                    break
                continue
            try:
                return loads_json(raw.decode("utf-8"))
            except ValueError as e:
                last = f"invalid JSON reply ({_short(str(e))})"
                break
        raise RemoteAgentError(f"remote agent {self.url}{route} failed after "
                               f"{attempt + 1} attempt(s): {last}")

    def reset(self, task: Task) -> None:
        self._post("/reset", {"task": encode_task(task)})

    def act(self, observation: Observation) -> Action:
        reply = self._post("/act", {"observation": encode_observation(observation)})
        try:
            return to_action(reply)
        except ConfigError as e:
            raise RemoteAgentError(f"remote agent {self.url}/act: bad reply {_short(reply)} "
                                   f"({_short(str(e))})") from e
