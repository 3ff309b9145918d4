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
from navbench.agents.remote import RemoteAgent
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
    # A crashed server (nothing listening): connection refused, after retries.
    o = run_episode(sim, RemoteAgent(url, timeout_s=0.3, retries=2, backoff_s=0.01), _ep("d"))
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
