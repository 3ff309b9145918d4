"""Agents served over HTTP and evaluated: each worker its own agent instance (1 and 2 workers
give the same bytes), and the images the agent asks for (rgb + depth when it says nothing)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest

from navbench.agents.server import AgentServer
from navbench.eval import ResultsDB
from navbench.eval.pipeline import EvalSettings, evaluate
from tests.eval.pipeline_agents import StepCounter

EPISODES = "0,1,6,7"  # two per scene: the two workers run at the same time


def _export(run: Path, out: Path) -> bytes:
    with ResultsDB(run) as db:
        db.export(db.resolve_run(None), "csv", out, timings=False)
    return out.read_bytes()


@pytest.fixture
def served() -> Iterator[AgentServer]:
    srv = AgentServer(StepCounter(stop_at=30), "127.0.0.1", 0)
    srv.start()
    yield srv
    srv.shutdown()
    srv.server_close()


def test_one_and_two_workers_give_the_same_bytes(cond_dataset: Path, served: AgentServer,
                                                 tmp_path: Path) -> None:
    """Before sessions, one shared instance counted the steps of both workers' episodes: with
    2 workers episodes stopped after about half their 30 steps; with 1 worker they did not."""
    assert served.info()["sensors"] == []  # a blind agent: no rendering
    runs = {}
    for w in (1, 2):
        s = evaluate(cond_dataset, served.url, tmp_path / f"w{w}", EvalSettings(episodes=EPISODES),
                     workers=w, progress=False)
        assert s.total == 4
        runs[w] = _export(tmp_path / f"w{w}", tmp_path / f"w{w}.csv")
    assert runs[1] == runs[2]
    with ResultsDB(tmp_path / "w2") as db:
        rows = db.rows(db.resolve_run(None))
        settings = db.runs()[0]["settings"]
    assert [r["metrics"]["agent_steps"] for r in rows] == [30, 30, 30, 30]  # its own 30 steps each
    assert settings["render"] is False and settings["action_space"] == "discrete"
    assert len(served.sessions) == 0  # every worker closed its session


class _NoInfo(BaseHTTPRequestHandler):
    """A remote agent that says nothing about itself (no GET /info: HTTP 501): records the
    observation keys of each /act, walks forward twice, stops."""

    seen: ClassVar[list[list[str]]] = []

    def log_message(self, *a: object) -> None:
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if self.path == "/act":
            obs = body["observation"]
            _NoInfo.seen.append(sorted(obs))
            shape = {k: obs[k]["shape"] for k in ("rgb", "depth") if k in obs}
            _NoInfo.seen.append([f"{k}={v}" for k, v in sorted(shape.items())])
            reply = {"action": "STOP" if len(_NoInfo.seen) >= 6 else "MOVE_FORWARD"}
        else:
            reply = {"ok": True}
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def test_an_agent_that_says_nothing_gets_rgb_and_depth(cond_dataset: Path, tmp_path: Path) -> None:
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _NoInfo)
    srv.daemon_threads = True
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    _NoInfo.seen = []
    try:
        url = f"http://127.0.0.1:{srv.server_address[1]}"
        s = evaluate(cond_dataset, url, tmp_path / "r", EvalSettings(episodes="0", width=64, height=48),
                     progress=False)
    finally:
        srv.shutdown()
        srv.server_close()
    assert s.labels.get("agent_error", 0) == 0
    keys, shapes = _NoInfo.seen[0], _NoInfo.seen[1]
    assert {"rgb", "depth", "intrinsics", "pose"} <= set(keys) and "semantic" not in keys
    assert shapes == ["depth=[48, 64]", "rgb=[48, 64, 3]"]
    with ResultsDB(tmp_path / "r") as db:
        settings = db.runs()[0]["settings"]
    assert settings["render"] is True and settings["needs_rgb"] is True


def test_the_example_server_declares_its_images_and_serves_sessions() -> None:
    import socket
    import subprocess
    import sys
    import time

    import numpy as np

    from navbench.agents.base import Task
    from navbench.agents.remote import RemoteAgent

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen([sys.executable, str(root / "examples" / "remote_agent_server.py"),
                             "--port", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline and proc.poll() is None, proc.stderr.read()
                time.sleep(0.1)
        a, b = RemoteAgent(url), RemoteAgent(url)
        assert (a.action_space, a.images) == ("discrete", ("rgb", "depth"))
        a.reset(Task("1", "vln", "discrete"))
        b.reset(Task("2", "vln", "discrete"))
        assert a.session != b.session
        near = {"pose": np.zeros(4), "depth": np.full((6, 6), 0.5, np.float32)}
        far = {"pose": np.zeros(4), "depth": np.full((6, 6), 3.0, np.float32)}
        assert (a.act(near).kind, b.act(far).kind) == ("left", "forward")  # depth < 1 m: turn
        a.close()
        with pytest.raises(Exception, match="HTTP 409"):  # its session is gone
            a._post("/act", {"session": "x", "observation": {}})
        b.close()
    finally:
        proc.terminate()
        proc.wait(10)
