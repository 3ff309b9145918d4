"""Hostile agents (non-finite actions, raising constructors, bad declarations) and hostile peers
of the remote-agent protocol (oversized bodies and replies, half-sent requests, wrong types)."""

from __future__ import annotations

import contextlib
import http.server
import json
import math
import socket
import sys
import threading
import time
from pathlib import Path

import pytest

from navbench.agents import AGENT_ERROR, Agent, load_agent, run_episode
from navbench.agents.base import MAX_WAYPOINT_COORD, check_action
from navbench.agents.baselines import ForwardAgent
from navbench.agents.remote import RemoteAgent, RemoteAgentError
from navbench.agents.server import AgentServer
from navbench.episodes import Episode, Goal
from navbench.errors import ConfigError
from navbench.sim import SPOT, SimSettings, Simulator
from navbench.sim.actions import DiscreteAction, StopAction, VelocityAction, WaypointAction
from tests.conftest import two_room_scene


@pytest.mark.parametrize("action", [
    VelocityAction(math.nan), VelocityAction(0.1, math.inf), VelocityAction(0.0, 0.0, -math.inf),
    WaypointAction(((math.nan, 0.0, 0.0),)), WaypointAction(((1.0, math.inf, math.nan),)),
    WaypointAction(((1.0, 1.0, math.inf),)),
])
def test_non_finite_actions_are_refused(action: object) -> None:
    with pytest.raises(ConfigError, match=r"^non-finite action"):
        check_action(action)  # type: ignore[arg-type]


def test_out_of_range_and_valid_actions() -> None:
    with pytest.raises(ConfigError, match=r"^action out of range"):
        check_action(WaypointAction(((MAX_WAYPOINT_COORD * 1.01, 0.0, math.nan),)))
    ok = [WaypointAction(((1.0, -2.0, math.nan),)), VelocityAction(0.3, 0.0, 0.1),
          DiscreteAction("forward"), StopAction()]
    assert [check_action(a) for a in ok] == ok


class NaNVelocity(Agent):
    action_space = "velocity"

    def act(self, observation):
        return VelocityAction(math.nan, 0.0, 0.0)


def test_nan_velocity_ends_the_episode_as_agent_error_without_moving() -> None:
    sim = Simulator(two_room_scene(), SPOT, SimSettings(success_distance=1.0))
    ep = Episode("e0", "two_rooms", (2.0, 0.0, -2.0), (0, 0, 0, 1), (Goal((6.0, 0.0, -2.0)),))
    o = run_episode(sim, NaNVelocity(), ep)
    assert o.label == AGENT_ERROR and "non-finite action" in o.error and o.steps == 0
    moved = o.records["position"][-1] - o.records["position"][0]
    assert float(abs(moved).max()) < 1e-6


class Raising(Agent):
    def __init__(self) -> None:
        raise RuntimeError("weights.pt not found")


class Lidar(Agent):
    sensors = frozenset({"lidar"})


def test_agents_are_constructed_and_checked_once_at_load() -> None:
    with pytest.raises(ConfigError, match=r"constructor raised RuntimeError: weights\.pt not found"):
        load_agent(f"{__name__}:Raising")
    with pytest.raises(ConfigError, match="unknown sensors"):
        load_agent(f"{__name__}:Lidar")


def test_agent_modules_in_the_working_folder_are_found(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "my_cwd_agent.py").write_text(
        "from navbench.agents.base import Agent\nclass A(Agent):\n    pass\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    assert type(load_agent("my_cwd_agent:A")).__name__ == "A"


def test_dataset_fields_are_dataset_errors() -> None:
    from navbench.episodes.model import check_episode
    from navbench.errors import EpisodeFormatError

    ep = Episode("e0", "s", (0, 0, 0), (0, 0, 0, 1), (Goal((1.0, 0.0, 0.0)),),
                 info={"navbench": {"success_distance": "far"}})
    with pytest.raises(EpisodeFormatError) as ei:
        check_episode(ep, "val.json.gz", "episodes[0]")
    assert ei.value.field == "episodes[0].info.navbench.success_distance"
    with pytest.raises(EpisodeFormatError, match=r"goals\[0\]\.radius"):
        check_episode(Episode("e1", "s", (0, 0, 0), (0, 0, 0, 1), (Goal((1.0, 0, 0), -1.0),)),
                      "f", "episodes[1]")


@pytest.fixture
def server():
    srv = AgentServer(ForwardAgent(), "127.0.0.1", 0, max_body_bytes=1000, max_connections=4,
                      timeout_s=1.0)
    srv.start()
    yield srv
    srv.shutdown()
    srv.server_close()


def _raw(srv: AgentServer, req: bytes) -> str:
    with socket.create_connection(srv.server_address[:2], timeout=5) as s:
        s.sendall(req)
        return s.recv(300).split(b"\r\n", 1)[0].decode()


def _post(path: str, body: bytes) -> bytes:
    return b"POST %s HTTP/1.1\r\nContent-Length: %d\r\n\r\n%s" % (path.encode(), len(body), body)


def test_malformed_requests_are_400_not_500(server: AgentServer) -> None:
    assert " 400 " in _raw(server, _post("/reset", b'{"task": "hello"}'))
    assert " 400 " in _raw(server, _post("/reset", b'{"task": {"episode_id": "1", "success_distance": "far"}}'))
    assert " 400 " in _raw(server, _post("/act", b'{"observation": [1, 2]}'))
    assert " 400 " in _raw(server, _post("/act", b'{"observation": {"pose": ["a"]}}'))
    assert " 400 " in _raw(server, _post("/act", b"[" * 100 + b"]" * 100))
    assert " 200 " in _raw(server, _post("/reset", b'{"task": {"episode_id": "1"}}'))


def test_body_limit_and_missing_length(server: AgentServer) -> None:
    t = time.monotonic()
    assert " 413 " in _raw(server, b"POST /act HTTP/1.1\r\nContent-Length: 10000000000\r\n\r\n{")
    assert time.monotonic() - t < 2.0
    assert " 411 " in _raw(server, b"POST /act HTTP/1.1\r\n\r\n")


def test_half_sent_requests_hold_bounded_threads_and_time_out(server: AgentServer) -> None:
    before = threading.active_count()
    socks = [socket.create_connection(server.server_address[:2], timeout=5) for _ in range(20)]
    for s in socks:
        s.sendall(b"POST /act HTTP/1.1\r\nContent-Length: 100\r\n\r\n{")
    time.sleep(0.3)
    assert threading.active_count() - before <= 4  # max_connections
    assert " 503 " in _raw(server, _post("/reset", b'{"task": {"episode_id": "1"}}'))
    time.sleep(1.5)  # the 1 s socket timeout frees the slots
    for s in socks:
        s.close()
    assert " 200 " in _raw(server, _post("/reset", b'{"task": {"episode_id": "1"}}'))


def test_remote_reply_size_limit_and_short_errors() -> None:
    class Huge(http.server.BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def do_POST(self):
            self.rfile.read(int(self.headers["Content-Length"]))
            data = json.dumps({"action": "x" * 5_000_000}).encode()
            self.send_response(200)
            self.end_headers()  # no Content-Length: the client counts while reading
            with contextlib.suppress(OSError):
                self.wfile.write(data)

    hs = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Huge)
    threading.Thread(target=hs.serve_forever, daemon=True).start()
    try:
        agent = RemoteAgent(f"http://127.0.0.1:{hs.server_address[1]}", retries=0,
                            max_reply_bytes=1_000_000)
        with pytest.raises(RemoteAgentError, match="reply over 1000000 bytes") as ei:
            agent.act({"pose": [0.0, 0.0, 0.0, 0.0]})
        assert len(str(ei.value)) < 500
        agent = RemoteAgent(f"http://127.0.0.1:{hs.server_address[1]}", retries=0)
        with pytest.raises(RemoteAgentError, match="bad reply") as ei:
            agent.act({"pose": [0.0, 0.0, 0.0, 0.0]})
        assert len(str(ei.value)) < 500
    finally:
        hs.shutdown()
        hs.server_close()


def test_remote_connect_timeout_and_total_timeout() -> None:
    class Slow(http.server.BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def do_POST(self):
            self.rfile.read(int(self.headers["Content-Length"]))
            self.send_response(200)
            self.send_header("Content-Length", "1000")
            self.end_headers()
            for _ in range(20):  # trickle: every read succeeds, the whole reply never comes
                try:
                    self.wfile.write(b" ")
                    self.wfile.flush()
                except OSError:
                    return
                time.sleep(0.2)

    hs = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Slow)
    threading.Thread(target=hs.serve_forever, daemon=True).start()
    try:
        agent = RemoteAgent(f"http://127.0.0.1:{hs.server_address[1]}", retries=0,
                            timeout_s=1.0, total_timeout_s=0.6)
        t = time.monotonic()
        with pytest.raises(RemoteAgentError, match="TimeoutError"):
            agent.act({"pose": [0.0, 0.0, 0.0, 0.0]})
        assert time.monotonic() - t < 2.0
    finally:
        hs.shutdown()
        hs.server_close()
    with socket.socket() as s:  # a port with nobody listening: refused at once, no hang
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    t = time.monotonic()
    with pytest.raises(RemoteAgentError):
        RemoteAgent(f"http://127.0.0.1:{port}", retries=0, connect_timeout_s=1.0).act({})
    assert time.monotonic() - t < 2.0


def test_ray_address_checks(tmp_path: Path, capsys) -> None:
    from navbench.cli import main
    from navbench.errors import NavbenchError
    from navbench.eval.ray_executor import _host_port, connect

    with pytest.raises(SystemExit):
        main(["evaluate", str(tmp_path / "nope"), "-a", "forward", "-o", str(tmp_path / "r"),
              "--ray-address", "auto"])
    assert "--ray-address auto is ignored without --executor ray" in capsys.readouterr().err
    assert _host_port("ray://10.0.0.1:10001") == ("10.0.0.1", 10001)
    assert _host_port("auto") is None and _host_port("10.0.0.1:6379") == ("10.0.0.1", 6379)

    class NoRay:  # never reached: the probe fails first
        def init(self, **kw):
            raise AssertionError("ray.init called for an unreachable address")

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    t = time.monotonic()
    with pytest.raises(NavbenchError, match=f"cannot reach 127.0.0.1:{port}"):
        connect(NoRay(), f"127.0.0.1:{port}", None, {}, timeout_s=2.0)
    assert time.monotonic() - t < 3.0
