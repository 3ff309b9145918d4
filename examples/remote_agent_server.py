"""Reference remote-agent server for navbench (standard library + numpy only).

Wrap your model (NaVid, NaVILA, UniNaVid, ...) by editing ``MyAgent``, run

    python examples/remote_agent_server.py --port 8765

and evaluate it with ``navbench evaluate DATASET --agent http://127.0.0.1:8765``.

Protocol: ``POST /reset`` {"task": {"episode_id", "kind", "action_space", "instruction",
"goal_category", "success_distance"}} -> {"ok": true}; ``POST /act`` {"observation": {"pose":
[x, y, z, yaw], "time", "rgb": {"b64", "dtype", "shape"}, "depth": {...}, ...}} -> one of
{"action": 0..3 | "STOP" | "MOVE_FORWARD" | "TURN_LEFT" | "TURN_RIGHT"},
{"waypoints": [[x, z, yaw], ...]}, {"velocity": [vx, vy, omega]}, {"stop": true}.
"""

from __future__ import annotations

import argparse
import base64
import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np


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


class Handler(BaseHTTPRequestHandler):
    agent = MyAgent()

    def _send(self, code: int, body: dict) -> None:
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
        if self.path == "/reset":
            self.agent.reset(body["task"])
            self._send(200, {"ok": True})
        elif self.path == "/act":
            self._send(200, self.agent.act(body["observation"]))
        else:
            self._send(404, {"error": "unknown route"})


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8765)
    a = ap.parse_args()
    ThreadingHTTPServer((a.host, a.port), Handler).serve_forever()
