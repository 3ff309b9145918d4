"""Episode loop faults and the remote agent through a real local HTTP server."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
import pytest

from navbench.agents import AGENT_ERROR, Agent, load_agent, run_episode
from navbench.agents.baselines import ForwardAgent
from navbench.agents.remote import RemoteAgent, RemoteAgentError
from navbench.agents.server import AgentServer
from navbench.episodes import Episode, Goal
from navbench.sim import SPOT, SimSettings, Simulator
from navbench.sim.actions import DiscreteAction
from tests.conftest import two_room_scene


@pytest.fixture(scope="module")
def sim() -> Simulator:
    return Simulator(two_room_scene(), SPOT, SimSettings(success_distance=1.0))


def _ep(eid: str = "e0") -> Episode:
    return Episode(eid, "two_rooms", (2.0, 0.0, -2.0), (0, 0, 0, 1), (Goal((6.0, 0.0, -2.0)),),
                   instruction_text="walk east", info={"navbench": {"success_distance": 1.0}})


class Boom(Agent):
    def act(self, observation):
        raise RuntimeError("model exploded")


class Sleepy(Agent):
    def act(self, observation):
        time.sleep(5.0)
        return DiscreteAction("stop")


def test_agent_faults_end_the_episode_with_a_reason(sim: Simulator) -> None:
    o = run_episode(sim, Boom(), _ep())
    assert o.label == AGENT_ERROR and "model exploded" in o.error and o.steps == 0
    assert o.records["label"][-1] == AGENT_ERROR
    t = time.monotonic()
    o = run_episode(sim, Sleepy(), _ep(), wall_timeout_s=0.3)
    assert o.label == AGENT_ERROR and "timeout" in o.error
    assert time.monotonic() - t < 3.0
    o = run_episode(sim, load_agent("forward", seed=1), _ep(), max_steps=3)
    assert o.label == "timeout" and o.steps == 3 and "max_steps" in o.error


def test_remote_round_trip_matches_local(sim: Simulator) -> None:
    local = run_episode(sim, ForwardAgent(seed=2, forward_steps=6), _ep())
    srv = AgentServer(ForwardAgent(seed=2, forward_steps=6), "127.0.0.1", 0)
    srv.start()
    try:
        remote = run_episode(sim, load_agent(srv.url, timeout_s=5.0), _ep())
    finally:
        srv.shutdown()
        srv.server_close()
    assert remote.label == local.label and remote.label in ("success", "perception_error")
    assert remote.steps == local.steps
    np.testing.assert_array_equal(remote.records["position"], local.records["position"])


class _Hang(BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if self.path == "/act":
            time.sleep(3.0)
        data = json.dumps({"ok": True}).encode()
        try:
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except OSError:  # the client gave up (timeout): expected
            pass


def test_hanging_and_dead_servers_fail_episode_and_run_continues(sim: Simulator) -> None:
    hang = ThreadingHTTPServer(("127.0.0.1", 0), _Hang)
    hang.daemon_threads = True
    threading.Thread(target=hang.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{hang.server_address[1]}"
    t = time.monotonic()
    o = run_episode(sim, RemoteAgent(url, timeout_s=0.3, retries=1, backoff_s=0.05), _ep("h"))
    assert o.label == AGENT_ERROR and "2 attempt(s)" in o.error and "timed out" in o.error.lower()
    assert time.monotonic() - t < 2.5
    hang.shutdown()
    hang.server_close()
    # A crashed server (nothing listening): connection refused, after retries. (Declared here:
    # a client built without declarations asks GET /info, and fails at load instead.)
    with pytest.raises(RemoteAgentError, match="/info failed after 1 attempt"):
        RemoteAgent(url, timeout_s=0.3, retries=0)
    o = run_episode(sim, RemoteAgent(url, timeout_s=0.3, retries=2, backoff_s=0.01,
                                     action_space="discrete", sensors=()), _ep("d"))
    assert o.label == AGENT_ERROR and "/reset" in o.error and "3 attempt(s)" in o.error
    # The run goes on: the next episode with a healthy agent completes normally.
    o = run_episode(sim, ForwardAgent(seed=0, forward_steps=2), _ep("next"))
    assert o.label in ("success", "perception_error") and o.error is None


def test_agent_exception_in_server_is_http_500(sim: Simulator) -> None:
    srv = AgentServer(Boom(), "127.0.0.1", 0)
    srv.start()
    try:
        o = run_episode(sim, RemoteAgent(srv.url, timeout_s=2.0, retries=0), _ep())
    finally:
        srv.shutdown()
        srv.server_close()
    assert o.label == AGENT_ERROR and "HTTP 500" in o.error and "model exploded" in o.error


class _Counter(Agent):
    """Answers ``forward`` until its own step count reaches 3, then ``stop``."""

    action_space = "discrete"

    def reset(self, task):
        self.n = 0

    def act(self, observation):
        self.n += 1
        return DiscreteAction("stop" if self.n >= 3 else "forward")


class _Depth(Agent):
    action_space = "velocity"
    needs_render = True
    needs_rgb = False


def _task(eid: str = "e0"):
    from navbench.agents.base import Task

    return Task(eid, "vln", "discrete")


def test_each_client_has_its_own_agent_and_the_session_limit_is_clear() -> None:
    srv = AgentServer(_Counter(), "127.0.0.1", 0, max_sessions=2)
    srv.start()
    try:
        a, b = (RemoteAgent(srv.url, retries=0) for _ in range(2))
        a.reset(_task("1"))
        b.reset(_task("2"))
        assert a.session and b.session and a.session != b.session and len(srv.sessions) == 2
        # interleaved steps: each counts its own (a shared agent would stop b on its 2nd step)
        kinds = [(x.act({}).kind) for x in (a, b, a, b, a, b)]
        assert kinds == ["forward", "forward", "forward", "forward", "stop", "stop"]
        c = RemoteAgent(srv.url, retries=2)
        with pytest.raises(RemoteAgentError, match="after 1 attempt") as ei:  # 429: not retried
            c.reset(_task("3"))
        assert "HTTP 429" in str(ei.value) and "too many sessions: 2 open, the limit is 2" in str(ei.value)
        assert "--max-sessions" in str(ei.value)
        a.close()
        assert a.session is None and len(srv.sessions) == 1
        c.reset(_task("3"))  # a slot is free again
        assert c.act({}).kind == "forward"
        # a request naming no session or an unknown one is refused, not served by someone's agent
        with pytest.raises(RemoteAgentError, match=r"HTTP 400.*missing 'session'"):
            a.act({})
        a.session = "nope"
        with pytest.raises(RemoteAgentError, match=r"HTTP 409.*unknown session 'nope'"):
            a.act({})
    finally:
        srv.shutdown()
        srv.server_close()


def test_info_says_what_the_agent_needs() -> None:
    srv = AgentServer(_Depth(), "127.0.0.1", 0)
    srv.start()
    try:
        info = srv.info()
        assert (info["action_space"], info["sensors"], info["protocol"]) == ("velocity", ["depth"], 2)
        r = RemoteAgent(srv.url)
        assert (r.action_space, r.images, r.needs_render, r.needs_rgb) == ("velocity", ("depth",), True, False)
        forced = RemoteAgent(srv.url, action_space="waypoint", sensors=["rgb"])  # arguments win
        assert (forced.action_space, forced.images, forced.info) == ("waypoint", ("rgb",), {})
        blind = AgentServer(ForwardAgent(), "127.0.0.1", 0)
        assert blind.info()["sensors"] == [] and blind.info()["action_space"] == "discrete"
        blind.server_close()
    finally:
        srv.shutdown()
        srv.server_close()
    with pytest.raises(Exception, match="sensors: unknown \\['lidar'\\]"):
        RemoteAgent("http://127.0.0.1:9", sensors=["lidar"], action_space="discrete")


def test_only_the_images_asked_for_are_sent() -> None:
    got: list[list[str]] = []

    class Echo(BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def do_GET(self):
            self._send({"sensors": ["depth"], "action_space": "discrete"})

        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            if self.path == "/act":
                got.append(sorted(body["observation"]))
            self._send({"action": "STOP"} if self.path == "/act" else {"ok": True})

        def _send(self, reply):
            data = json.dumps(reply).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    hs = ThreadingHTTPServer(("127.0.0.1", 0), Echo)
    threading.Thread(target=hs.serve_forever, daemon=True).start()
    try:
        r = RemoteAgent(f"http://127.0.0.1:{hs.server_address[1]}", retries=0)
        r.reset(_task())
        assert r.session is None  # a server without sessions: requests carry none
        r.act({"pose": np.zeros(4), "rgb": np.zeros((2, 2, 3), np.uint8),
               "depth": np.ones((2, 2), np.float32)})
    finally:
        hs.shutdown()
        hs.server_close()
    assert got == [["depth", "pose"]]
