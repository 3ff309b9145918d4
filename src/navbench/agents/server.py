"""``navbench serve-agent``: expose a navbench agent over the remote-agent HTTP protocol.

See :mod:`navbench.agents.remote` for the protocol. Each evaluation session gets its own agent
instance (:mod:`navbench.agents.sessions`): ``POST /reset`` without a ``session`` opens one and
answers its id, which the client sends with every later request; ``POST /close`` ends it.
``GET /info`` answers the agent's name, action space and the images it needs (``sensors``:
``rgb``, ``depth``, ``semantic``), the protocol version and the session limit. Errors are
answered with HTTP 400 (bad request: malformed JSON, a field of the wrong type, no session),
409 (unknown session), 411 (no Content-Length), 413 (body over ``max_body_bytes``), 429 (more
than ``max_sessions`` sessions), 503 (more than ``max_connections`` open connections) or 500
(the agent raised), with ``{"error": message}``.

Limits (defaults): request body :data:`MAX_BODY_BYTES` (64 MiB), :data:`MAX_CONNECTIONS` (32)
concurrent connections (one thread each), :data:`~navbench.agents.sessions.MAX_SESSIONS` (8)
sessions, and a socket timeout of :data:`CONNECTION_TIMEOUT_S` (30 s) for every read and write,
so a half-sent request frees its thread.
"""

from __future__ import annotations

import copy
import json
import logging
import socket
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from navbench.agents.base import AgentLike, to_action
from navbench.agents.sessions import (
    MAX_SESSIONS,
    SESSION_IDLE_S,
    SessionLimitError,
    SessionPool,
    UnknownSessionError,
)
from navbench.agents.wire import decode_observation, decode_task, encode_action, wire_sensors
from navbench.errors import ConfigError, NavbenchError
from navbench.io import loads_json
from navbench.jsontypes import JSON

#: Version of the remote-agent protocol this server speaks (2: sessions and ``/info`` sensors).
PROTOCOL_VERSION = 2

log = logging.getLogger(__name__)

#: Largest request body accepted (bytes).
MAX_BODY_BYTES = 64 << 20
#: Most connections served at once (one thread each); more are answered 503.
MAX_CONNECTIONS = 32
#: Socket timeout of each connection (s).
CONNECTION_TIMEOUT_S = 30.0


class AgentServer(ThreadingHTTPServer):
    """HTTP server giving each session its own agent (see the module docs).

    Args:
        agent: the agent to serve; each session gets a deep copy of it as given here (an agent
            holding large weights is better served with ``factory``). With ``factory``, it is
            the first session's agent and describes the agent in ``GET /info``.
        factory: builds the agent of each new session (``serve-agent`` loads it again).
        max_sessions: sessions open at once; one more ``/reset`` is answered 429.
        session_idle_s: a session without requests this long is closed to make room.
    """

    daemon_threads = True
    request_queue_size = 128  # listen backlog: bursts of connections are accepted, then limited

    def __init__(self, agent: AgentLike | None = None, host: str = "127.0.0.1", port: int = 8765, *,
                 factory: Callable[[], AgentLike] | None = None,
                 max_sessions: int = MAX_SESSIONS, session_idle_s: float = SESSION_IDLE_S,
                 max_body_bytes: int = MAX_BODY_BYTES, max_connections: int = MAX_CONNECTIONS,
                 timeout_s: float = CONNECTION_TIMEOUT_S) -> None:
        spare: AgentLike | None = None
        if factory is None:
            if agent is None:
                raise ConfigError("AgentServer: give an agent or a factory")
            try:
                pristine = copy.deepcopy(agent)
            except Exception as e:  # locks, sockets, handles: cannot be copied per session
                raise ConfigError(f"AgentServer: cannot copy {type(agent).__name__} for each "
                                  f"session ({type(e).__name__}: {e}); pass factory= to build "
                                  "one per session") from e

            def build() -> AgentLike:
                return copy.deepcopy(pristine)
        else:
            build = factory
            if agent is None:
                agent = build()
            spare = agent
        #: The agent ``GET /info`` describes (with a factory: the first session's agent).
        self.agent: AgentLike = agent
        self.sessions = SessionPool(build, max_sessions, session_idle_s, spare=spare)
        self.max_body_bytes = int(max_body_bytes)
        self.timeout_s = float(timeout_s)
        self._slots = threading.BoundedSemaphore(int(max_connections))
        super().__init__((host, port), _Handler)

    def info(self) -> dict[str, JSON]:
        """The ``GET /info`` reply: what the agent needs and how many sessions it serves."""
        a = self.agent
        return {"name": getattr(a, "name", type(a).__name__),
                "action_space": getattr(a, "action_space", "discrete"),
                "sensors": list(wire_sensors(a)), "protocol": PROTOCOL_VERSION,
                "max_sessions": self.sessions.max_sessions, "sessions": len(self.sessions)}

    def server_close(self) -> None:
        """Close the socket and every session's agent."""
        super().server_close()
        self.sessions.close_all()

    # Any: socketserver's own parameter types (typeshed: _RequestType, _RetAddress = Any)
    def process_request(self, request: Any, client_address: Any) -> None:
        """Serve in a thread while a slot is free; else answer 503 and close."""
        if not self._slots.acquire(blocking=False):
            try:
                request.settimeout(1.0)
                body = b'{"error": "too many connections"}'
                request.sendall(b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json"
                                b"\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s"
                                % (len(body), body))
            except OSError:
                pass
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._slots.release()
            raise

    # Any: socketserver's own parameter types (typeshed: _RequestType, _RetAddress = Any)
    def handle_error(self, request: Any, client_address: Any) -> None:
        """Log (not print) errors of one connection; client disconnects are routine."""
        import sys

        exc = sys.exc_info()[1]
        if isinstance(exc, OSError):
            log.debug("connection from %s: %s", client_address, exc)
        else:
            log.error("connection from %s failed", client_address, exc_info=True)

    # Any: socketserver's own parameter types (typeshed: _RequestType, _RetAddress = Any)
    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            if isinstance(request, socket.socket):
                request.settimeout(self.timeout_s)
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()

    @property
    def url(self) -> str:
        """``http://host:port`` of the bound socket."""
        host, port = str(self.server_address[0]), self.server_address[1]
        return f"http://{host}:{port}"

    def start(self) -> threading.Thread:
        """Serve in a daemon thread (tests, notebooks); stop with :meth:`shutdown`."""
        t = threading.Thread(target=self.serve_forever, daemon=True, name="navbench-agent-server")
        t.start()
        return t


class _Handler(BaseHTTPRequestHandler):
    server: AgentServer

    def log_message(self, format: str, *args: object) -> None:  # quiet by default
        pass

    def _reply(self, code: int, body: JSON) -> None:
        data = json.dumps(body).encode("utf-8")
        try:
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except OSError:  # the client went away (broken pipe, reset, timeout): nothing to tell it
            self.close_connection = True

    def do_GET(self) -> None:
        if self.path != "/info":
            self._reply(404, {"error": f"unknown route {self.path}"})
            return
        self._reply(200, self.server.info())

    def _body(self) -> dict[str, Any] | None:  # a JSON object, or None once answered
        length = self.headers.get("Content-Length")
        if length is None:
            self.close_connection = True
            self._reply(411, {"error": "a Content-Length header is required"})
            return None
        try:
            n = int(length)
            if n < 0:
                raise ValueError(length)
        except ValueError:
            self.close_connection = True
            self._reply(400, {"error": f"Content-Length: expected a byte count, got {length!r}"})
            return None
        if n > self.server.max_body_bytes:
            self.close_connection = True
            self._reply(413, {"error": f"request body of {n} bytes; the limit is "
                                       f"{self.server.max_body_bytes} bytes"})
            return None
        try:
            raw = self.rfile.read(n)
        except OSError:  # the client stopped sending (socket timeout) or went away
            self.close_connection = True
            return None
        try:
            body = loads_json(raw.decode("utf-8"))
            if not isinstance(body, dict):
                raise ValueError("body must be a JSON object")
        except (ValueError, UnicodeDecodeError) as e:
            self._reply(400, {"error": f"invalid JSON body: {e}"})
            return None
        return body

    def do_POST(self) -> None:
        body = self._body()
        if body is None:
            return
        pool = self.server.sessions
        sid = body.get("session")
        try:
            if self.path == "/reset":
                task = decode_task(body.get("task"))
                if sid is None:
                    sid, session = pool.open()
                else:
                    try:
                        session = pool.get(sid)
                    except UnknownSessionError:  # restarted or idle-closed: a fresh one
                        sid, session = pool.open()
                with session.lock:
                    session.agent.reset(task)
                self._reply(200, {"ok": True, "session": sid})
            elif self.path == "/act":
                if sid is None:
                    raise ConfigError("/act: missing 'session' (send the id that /reset answered)")
                obs = decode_observation(body.get("observation", {}))
                session = pool.get(sid)
                with session.lock:
                    action = to_action(session.agent.act(obs))
                self._reply(200, encode_action(action))
            elif self.path == "/close":
                self._reply(200, {"ok": pool.close(sid)})
            else:
                self._reply(404, {"error": f"unknown route {self.path}"})
        except SessionLimitError as e:
            self._reply(429, {"error": str(e)})
        except UnknownSessionError as e:
            self._reply(409, {"error": str(e)})
        except NavbenchError as e:
            self._reply(400, {"error": str(e)})
        except Exception as e:
            self._reply(500, {"error": f"{type(e).__name__}: {e}"})


def serve_agent(agent: AgentLike, host: str = "127.0.0.1", port: int = 8765) -> None:
    """Serve ``agent`` until interrupted."""
    srv = AgentServer(agent, host, port)
    try:
        srv.serve_forever()
    finally:
        srv.server_close()
