"""``navbench serve-agent``: expose a navbench agent over the remote-agent HTTP protocol.

See :mod:`navbench.agents.remote` for the protocol. Also answers ``GET /info`` with the agent's
name, action space and sensors. Errors are answered with HTTP 400 (bad request) or 500 (the
agent raised), with ``{"error": message}``.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from navbench.agents.base import Agent, to_action
from navbench.agents.wire import decode_observation, decode_task, encode_action
from navbench.errors import NavbenchError


class AgentServer(ThreadingHTTPServer):
    """HTTP server around one agent (requests are serialised with a lock)."""

    daemon_threads = True

    def __init__(self, agent: Agent, host: str = "127.0.0.1", port: int = 8765) -> None:
        self.agent = agent
        self.lock = threading.Lock()
        super().__init__((host, port), _Handler)

    @property
    def url(self) -> str:
        """``http://host:port`` of the bound socket."""
        host, port = self.server_address[:2]
        return f"http://{host}:{port}"

    def start(self) -> threading.Thread:
        """Serve in a daemon thread (tests, notebooks); stop with :meth:`shutdown`."""
        t = threading.Thread(target=self.serve_forever, daemon=True, name="navbench-agent-server")
        t.start()
        return t


class _Handler(BaseHTTPRequestHandler):
    server: AgentServer

    def log_message(self, format: str, *args: Any) -> None:  # quiet by default
        pass

    def _reply(self, code: int, body: Any) -> None:
        data = json.dumps(body).encode("utf-8")
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        if self.path != "/info":
            self._reply(404, {"error": f"unknown route {self.path}"})
            return
        a = self.server.agent
        self._reply(200, {"name": getattr(a, "name", type(a).__name__),
                          "action_space": getattr(a, "action_space", "discrete"),
                          "sensors": sorted(getattr(a, "sensors", ()))})

    def do_POST(self) -> None:
        try:
            n = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(n).decode("utf-8"))
            if not isinstance(body, dict):
                raise ValueError("body must be a JSON object")
        except (ValueError, UnicodeDecodeError) as e:
            self._reply(400, {"error": f"invalid JSON body: {e}"})
            return
        agent = self.server.agent
        try:
            if self.path == "/reset":
                task = decode_task(body.get("task") or {})
                with self.server.lock:
                    agent.reset(task)
                self._reply(200, {"ok": True})
            elif self.path == "/act":
                obs = decode_observation(body.get("observation") or {})
                with self.server.lock:
                    action = to_action(agent.act(obs))
                self._reply(200, encode_action(action))
            else:
                self._reply(404, {"error": f"unknown route {self.path}"})
        except NavbenchError as e:
            self._reply(400, {"error": str(e)})
        except Exception as e:
            self._reply(500, {"error": f"{type(e).__name__}: {e}"})


def serve_agent(agent: Agent, host: str = "127.0.0.1", port: int = 8765) -> None:
    """Serve ``agent`` until interrupted."""
    srv = AgentServer(agent, host, port)
    try:
        srv.serve_forever()
    finally:
        srv.server_close()
