"""The OpenAI-compatible client against a loopback fake server: replies, usage, retries on
429 / 5xx / timeouts / malformed bodies, the replay cache, the key and the concurrency limit."""

from __future__ import annotations

import hashlib
import json
import logging
import threading
import time
from pathlib import Path

import pytest

from navbench.agents.llm.client import ChatClient, LLMError
from navbench.errors import ConfigError
from tests.agents.fake_openai import FakeOpenAI

MSG = [{"role": "user", "content": "hello"}]
SECRET = "sk-test-Zq9-never-store-me"


def _client(url: str, tmp_path: Path, **kw: object) -> ChatClient:
    kw.setdefault("cache", "off")
    kw.setdefault("backoff_s", 0.01)
    return ChatClient(url, "fake", cache_dir=tmp_path / "cache", **kw)  # type: ignore[arg-type]


def test_reply_usage_body_and_key_header(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAKE_KEY", SECRET)
    with FakeOpenAI(["Thought: ok.\nAction: STOP"]) as srv:
        c = _client(srv.base_url, tmp_path, api_key_env="FAKE_KEY", params={"temperature": 0.0})
        r = c.complete(MSG, max_tokens=5)
    assert r.text == "Thought: ok.\nAction: STOP"
    assert (r.prompt_tokens, r.completion_tokens, r.total_tokens) == (100, 7, 107)
    assert r.attempts == 1 and not r.cached and r.latency_s > 0
    assert srv.requests == [{"model": "fake", "messages": MSG, "temperature": 0.0, "max_tokens": 5}]
    assert srv.headers[0]["Authorization"] == f"Bearer {SECRET}"
    assert SECRET not in json.dumps(vars(c), default=str)  # not kept on the client
    with FakeOpenAI(["x"]) as srv:
        _client(srv.base_url, tmp_path).complete(MSG)
    assert "Authorization" not in srv.headers[0]  # no api_key_env: no header
    monkeypatch.delenv("FAKE_KEY")
    with pytest.raises(ConfigError, match="'FAKE_KEY' is not set"):
        _client("http://127.0.0.1:9/v1", tmp_path, api_key_env="FAKE_KEY")
    with pytest.raises(ConfigError, match="base_url"):
        _client("127.0.0.1:8000", tmp_path)


def test_the_key_is_not_logged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                               caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setenv("FAKE_KEY", SECRET)
    caplog.set_level(logging.DEBUG)
    with FakeOpenAI([("status", 500), ("status", 401)]) as srv, pytest.raises(LLMError) as e:
        _client(srv.base_url, tmp_path, api_key_env="FAKE_KEY", retries=2).complete(MSG)
    assert "HTTP 401" in str(e.value) and SECRET not in str(e.value)
    assert "HTTP 500" in caplog.text and SECRET not in caplog.text


def test_retries_429_5xx_and_malformed_then_ok(tmp_path: Path) -> None:
    script = [("status", 429, "0"), ("status", 500), ("raw", b"{not json"),
              ("raw", b'{"choices": []}'), "Action: TURN_LEFT"]
    with FakeOpenAI(script) as srv:
        t0 = time.monotonic()
        r = _client(srv.base_url, tmp_path, retries=4, backoff_s=0.05).complete(MSG)
        waited = time.monotonic() - t0
    assert r.text == "Action: TURN_LEFT" and r.attempts == 5 and len(srv.requests) == 5
    # Retry-After 0 for the 429, then 0.05·2^1 + 0.05·2^2 + 0.05·2^3 s of backoff
    assert waited >= 0.1 + 0.2 + 0.4 - 0.01
    with FakeOpenAI([("status", 503)]) as srv, pytest.raises(LLMError, match=r"3 attempt.*HTTP 503"):
        _client(srv.base_url, tmp_path, retries=2).complete(MSG)
    assert len(srv.requests) == 3
    with FakeOpenAI([("status", 400), "ok"]) as srv, pytest.raises(LLMError, match="HTTP 400"):
        _client(srv.base_url, tmp_path, retries=3).complete(MSG)
    assert len(srv.requests) == 1  # a client error is not retried


def test_timeouts_are_retried_then_fail(tmp_path: Path) -> None:
    with FakeOpenAI([("sleep", 1.0, "late"), "on time"]) as srv:
        r = _client(srv.base_url, tmp_path, timeout_s=0.2, retries=1).complete(MSG)
    assert r.text == "on time" and r.attempts == 2
    with FakeOpenAI([("sleep", 1.0, "late")]) as srv:
        t0 = time.monotonic()
        with pytest.raises(LLMError, match=r"2 attempt.*(timed out|Timeout)"):
            _client(srv.base_url, tmp_path, timeout_s=0.2, retries=1).complete(MSG)
    assert time.monotonic() - t0 < 1.5
    with pytest.raises(LLMError, match=r"Connection refused|URLError"):  # nothing listening
        _client(srv.base_url, tmp_path, retries=1).complete(MSG)


def test_cache_replays_offline_and_is_keyed_by_the_body(tmp_path: Path) -> None:
    with FakeOpenAI([("status", 500), "first", "second"]) as srv:
        c = _client(srv.base_url, tmp_path, cache="readwrite")
        a = c.complete(MSG)
        b = c.complete([{"role": "user", "content": "hello!"}])
        again = c.complete(MSG)
    assert (a.text, b.text, again.text) == ("first", "second", "first")
    assert len(srv.requests) == 3 and again.cached and not a.cached
    assert (again.latency_s, again.attempts, again.total_tokens) == (a.latency_s, 2, 107)
    body = json.dumps({"model": "fake", "messages": MSG}, sort_keys=True, separators=(",", ":"))
    key = hashlib.sha256(body.encode()).hexdigest()
    entry = json.loads((tmp_path / "cache" / key[:2] / f"{key}.json").read_text())
    assert entry["response"]["choices"][0]["message"]["content"] == "first"
    assert SECRET not in json.dumps(entry) and set(entry) == {
        "schema", "key", "model", "response", "latency_s", "attempts"}
    # server gone: read mode replays hits, refuses misses without touching the network
    ro = _client(srv.base_url, tmp_path, cache="read")
    assert ro.complete(MSG).text == "first" and ro.complete(MSG).cached
    with pytest.raises(LLMError, match="no reply stored"):
        ro.complete([{"role": "user", "content": "new"}])
    with FakeOpenAI(["live"]) as srv2:
        off = _client(srv2.base_url, tmp_path, cache="off")
        assert off.complete(MSG).text == "live" and off.complete(MSG).text == "live"
        # a damaged cache file is a miss: asked again and rewritten
        path = tmp_path / "cache" / key[:2] / f"{key}.json"
        path.write_text('{"schema": "navbench.llm-cache/1", "key": "trunc')
        rw = _client(srv2.base_url, tmp_path, cache="readwrite")
        assert not rw.complete(MSG).cached and rw.complete(MSG).text == "live"
    assert len(srv2.requests) == 3
    with pytest.raises(ConfigError, match="cache: expected one of off, read, readwrite"):
        _client(srv.base_url, tmp_path, cache="sometimes")


def test_concurrency_limit_per_endpoint(tmp_path: Path) -> None:
    with FakeOpenAI([("sleep", 0.3, "ok")]) as srv:
        threads = [threading.Thread(target=_client(srv.base_url, tmp_path,
                                                   max_concurrency=2).complete, args=(MSG,))
                   for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(10)
    assert len(srv.requests) == 6 and srv.max_in_flight == 2
