"""LLM refinement against a local OpenAI-compatible stub server on 127.0.0.1 (never the internet)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import ClassVar

import pytest

from navbench.errors import ConfigError
from navbench.tasks.route_refine import RefineSettings, check_refined, refine_instruction

TEMPLATE = "Go straight past the sofa. Stop at the fridge."


class _Stub(BaseHTTPRequestHandler):
    reply: str = ""
    status: int = 200
    seen: ClassVar[list[dict]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).seen.append({"path": self.path, "body": body, "auth": self.headers.get("Authorization")})
        out = json.dumps({"choices": [{"message": {"role": "assistant", "content": type(self).reply}}]}).encode()
        self.send_response(type(self).status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[str]:
    srv = HTTPServer(("127.0.0.1", 0), _Stub)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    _Stub.seen, _Stub.status = [], 200
    yield f"http://127.0.0.1:{srv.server_address[1]}/v1"
    srv.shutdown()
    srv.server_close()


def test_refined_text_accepted(server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NB_TEST_KEY", "sekret")
    _Stub.reply = "  Walk ahead past the grey sofa,  and stop beside the fridge. "
    text, status = refine_instruction(TEMPLATE, ["the sofa"], RefineSettings(server, "m1", "NB_TEST_KEY"))
    assert (text, status) == ("Walk ahead past the grey sofa, and stop beside the fridge.", "refined")
    req = _Stub.seen[0]
    assert req["path"] == "/v1/chat/completions" and req["auth"] == "Bearer sekret"
    assert req["body"]["model"] == "m1" and TEMPLATE in req["body"]["messages"][0]["content"]
    assert "the sofa" in req["body"]["messages"][0]["content"]


@pytest.mark.parametrize(("reply", "reason"), [
    ("Walk 5 meters past the sofa and stop at the fridge.", "distance"),
    ("Go 3m ahead then stop.", "distance"),
    ("Take 12 steps and stop at the fridge.", "distance"),
    ("", "empty"),
    ("word " * 101, "too_long"),
])
def test_bad_answers_fall_back_to_template(server: str, reply: str, reason: str) -> None:
    _Stub.reply = reply
    assert refine_instruction(TEMPLATE, [], RefineSettings(server, "m")) == (TEMPLATE, f"fallback:{reason}")


def test_http_error_and_unreachable_fall_back(server: str) -> None:
    _Stub.status, _Stub.reply = 500, "Fine text."
    assert refine_instruction(TEMPLATE, [], RefineSettings(server, "m"))[1] == "fallback:http_500"
    # a closed port on localhost
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    out = refine_instruction(TEMPLATE, [], RefineSettings(f"http://127.0.0.1:{port}/v1", "m", timeout=2))
    assert out == (TEMPLATE, "fallback:unreachable")


def test_check_and_settings_validation(monkeypatch: pytest.MonkeyPatch) -> None:
    assert check_refined("Pass the second door on your left.") is None  # ordinal words are fine
    assert check_refined("Walk 2.5 metres.") == "distance"
    with pytest.raises(ConfigError, match="base_url"):
        RefineSettings("ftp://x", "m")
    monkeypatch.delenv("NB_MISSING_KEY", raising=False)
    with pytest.raises(ConfigError, match="NB_MISSING_KEY"):
        refine_instruction(TEMPLATE, [], RefineSettings("http://127.0.0.1:9/v1", "m", "NB_MISSING_KEY"))
