"""Reference remote-agent server for navbench (standard library + numpy only).

Wrap your model (NaVid, NaVILA, UniNaVid, ...) by editing ``MyAgent`` and ``INFO``, run

    python examples/remote_agent_server.py --port 8765

and evaluate it with ``navbench evaluate DATASET --agent http://127.0.0.1:8765`` (any
``--workers``: each evaluation worker gets its own ``MyAgent``).

Protocol (version 2):

- ``GET /info`` -> ``INFO``: the action space and the images the agent needs (``sensors``:
  any of "rgb", "depth", "semantic"); the evaluator renders exactly those. A server without
  ``/info`` gets rgb + depth and the ``discrete`` action space.
- ``POST /reset`` {"task": {"episode_id", "kind", "action_space", "instruction",
  "goal_category", "success_distance"}, "session": id or absent} -> {"ok": true, "session": id}.
  Without a session it opens one: a new agent instance for that evaluation worker.
- ``POST /act`` {"session": id, "observation": {"pose": [x, y, z, yaw], "time", "rgb": {"b64",
  "dtype", "shape"}, "depth": {...}, ...}} -> one of {"action": 0..3 | "STOP" | "MOVE_FORWARD" |
  "TURN_LEFT" | "TURN_RIGHT"}, {"waypoints": [[x, z, yaw], ...]}, {"velocity": [vx, vy, omega]},
  {"stop": true}.
- ``POST /close`` {"session": id} -> {"ok": true}: the worker is done with its agent.
"""

from __future__ import annotations

import argparse
import base64
import json
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np

#: What the agent needs: ask only for the images your model reads (each one costs rendering
#: time and bandwidth); e.g. ["depth"] for this depth-steering example.
INFO = {"name": "my-agent", "action_space": "discrete", "sensors": ["rgb", "depth"]}
#: Sessions served at once (one MyAgent each); more are refused with HTTP 429.
MAX_SESSIONS = 8


def decode_image(d: dict) -> np.ndarray:
    """{"b64", "dtype", "shape"} -> numpy array (little-endian raw bytes)."""
    raw = base64.b64decode(d["b64"])
    return np.frombuffer(raw, dtype=np.dtype(d["dtype"]).newbyteorder("<")).reshape(d["shape"])


class MyAgent:
    """Replace with your model. This one walks forward until something is closer than 1 m."""

    def reset(self, task: dict) -> None:
        self.instruction = task.get("instruction")
        self.steps = 0

    def act(self, obs: dict) -> dict:
        self.steps += 1
        if self.steps > 200:
            return {"action": "STOP"}
        if "depth" in obs:
            depth = decode_image(obs["depth"])
            h, w = depth.shape[:2]
            centre = depth[h // 3: 2 * h // 3, w // 3: 2 * w // 3]
            hit = centre[centre > 0]
            if hit.size and float(np.percentile(hit, 10)) < 1.0:
                return {"action": "TURN_LEFT"}
        return {"action": "MOVE_FORWARD"}


SESSIONS: dict[str, MyAgent] = {}
LOCK = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    def _send(self, code: int, body: dict) -> None:
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        if self.path == "/info":
            self._send(200, INFO)
        else:
            self._send(404, {"error": "unknown route"})

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        sid = body.get("session")
        with LOCK:
            agent = SESSIONS.get(sid)
            if self.path == "/reset" and agent is None:
                if len(SESSIONS) >= MAX_SESSIONS:
                    self._send(429, {"error": f"too many sessions (limit {MAX_SESSIONS})"})
                    return
                sid, agent = uuid.uuid4().hex, MyAgent()
                SESSIONS[sid] = agent
            if self.path == "/close":
                SESSIONS.pop(sid, None)
                self._send(200, {"ok": True})
                return
        if agent is None:
            self._send(409, {"error": f"unknown session {sid!r}: POST /reset first"})
        elif self.path == "/reset":
            agent.reset(body["task"])
            self._send(200, {"ok": True, "session": sid})
        elif self.path == "/act":
            self._send(200, agent.act(body["observation"]))
        else:
            self._send(404, {"error": "unknown route"})


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8765)
    a = ap.parse_args()
    ThreadingHTTPServer((a.host, a.port), Handler).serve_forever()
