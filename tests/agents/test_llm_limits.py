"""Limits of the LLM client against the loopback fake server: the reply-size cap (read in
chunks: a 300 MB reply keeps the client process small), the total deadline against servers that
trickle bytes, the cache folder checked before any request, damaged cache files named, and
malformed token usage ignored with a warning."""

from __future__ import annotations

import json
import logging
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from navbench.agents.llm.client import ChatClient, LLMError, UsageStats
from navbench.errors import ConfigError
from tests.agents.fake_openai import FakeOpenAI

MSG = [{"role": "user", "content": "hello"}]
MB = 1 << 20

# The client in a process of its own, so that its peak memory is its own. VmHWM (KiB) belongs to
# the process image: ru_maxrss would also carry the forking pytest worker's peak across exec.
CHILD = """
import json, sys
from navbench.agents.llm.client import ChatClient, LLMError
out = []
for _ in range(2):
    try:
        ChatClient(sys.argv[1], "fake", cache="off", retries=0).complete(
            [{"role": "user", "content": "hello"}])
        out.append("ok")
    except LLMError as e:
        out.append(str(e))
hwm = next(l for l in open("/proc/self/status") if l.startswith("VmHWM:"))
print(json.dumps({"rss_mb": int(hwm.split()[1]) / 1024, "errors": out}))
"""


def _client(url: str, tmp_path: Path, **kw: object) -> ChatClient:
    kw.setdefault("cache", "off")
    kw.setdefault("backoff_s", 0.01)
    return ChatClient(url, "fake", cache_dir=tmp_path / "cache", **kw)  # type: ignore[arg-type]


def test_a_300_mb_reply_is_refused_without_holding_it(tmp_path: Path) -> None:
    # 300 MB of content, once with its Content-Length, once ended by closing the connection
    with FakeOpenAI([("stream", 300 * MB, True), ("stream", 300 * MB, False)]) as srv:
        p = subprocess.run([sys.executable, "-c", CHILD, srv.base_url], capture_output=True,
                           text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(Path.cwd())})
    assert p.returncode == 0, p.stderr
    res = json.loads(p.stdout.strip().splitlines()[-1])
    declared, streamed = res["errors"]
    assert re.search(r"reply of 3145729\d\d bytes \(limit 16777216\)", declared)
    assert "max_reply_bytes" in declared
    assert f"reply over {16 * MB} bytes" in streamed
    # measured ~60 MB; the whole reply read at once took 1.3 GB
    assert res["rss_mb"] < 600, res
    # the server got to write little more than the cap before the client hung up
    assert srv.sent < 16 * MB + 48 * MB


def test_a_custom_cap_and_a_reply_under_it(tmp_path: Path) -> None:
    with FakeOpenAI([("stream", 2000, False), ("stream", 900, True)]) as srv:
        c = _client(srv.base_url, tmp_path, max_reply_bytes=1000, retries=3)
        with pytest.raises(LLMError, match=r"reply over 1000 bytes.*max_reply_bytes"):
            c.complete(MSG)
        assert len(srv.requests) == 1  # not retried: the server would send it again
        big = _client(srv.base_url, tmp_path, max_reply_bytes=2000)
        assert big.complete(MSG).text == "a" * 900
    with pytest.raises(ConfigError, match="max_reply_bytes"):
        _client("http://127.0.0.1:9/v1", tmp_path, max_reply_bytes=0)


@pytest.mark.parametrize("step", [("trickle", 0.1, 100), ("trickle_headers", 0.1, 100)])
def test_a_trickling_server_is_cut_at_the_total_deadline(tmp_path: Path, step: tuple) -> None:
    # every read succeeds within timeout_s = 5 s; only the total deadline (1 s) stops it
    with FakeOpenAI([step]) as srv:
        c = _client(srv.base_url, tmp_path, timeout_s=5.0, total_timeout_s=1.0, retries=3)
        t0 = time.monotonic()
        with pytest.raises(LLMError, match=r"no complete reply within total_timeout_s=1 s"):
            c.complete(MSG)
        assert time.monotonic() - t0 < 2.5
    assert len(srv.requests) == 1  # no time was left for a retry


def test_retries_stop_at_the_total_deadline(tmp_path: Path) -> None:
    with FakeOpenAI([("status", 503)]) as srv:
        c = _client(srv.base_url, tmp_path, backoff_s=0.4, retries=10, total_timeout_s=1.0)
        t0 = time.monotonic()
        with pytest.raises(LLMError, match=r"HTTP 503.*no time left for a retry"):
            c.complete(MSG)
        # waits 0.4 + 0.8 s would pass 1.0 s: two attempts, no sleep past the deadline
        assert len(srv.requests) == 2 and time.monotonic() - t0 < 1.0


def test_cache_dir_is_checked_before_any_request(tmp_path: Path) -> None:
    from navbench.agents import load_agent

    a_file = tmp_path / "cache.txt"
    a_file.write_text("not a folder")
    with FakeOpenAI(["Action: STOP"]) as srv:
        with pytest.raises(ConfigError, match=re.escape(f"cache_dir {a_file}: is a file")):
            load_agent("vlm", base_url=srv.base_url, model="fake", cache_dir=str(a_file))
        with pytest.raises(ConfigError, match=re.escape(f"cache_dir {a_file / 'sub'}: cannot create")):
            ChatClient(srv.base_url, "fake", cache_dir=a_file / "sub")
        with pytest.raises(ConfigError, match=r"no such folder.*cache=read"):
            ChatClient(srv.base_url, "fake", cache="read", cache_dir=tmp_path / "missing")
    assert srv.requests == []  # nothing was asked (nothing paid)
    ChatClient("http://127.0.0.1:9/v1", "fake", cache="off", cache_dir=a_file)  # off: unused


def test_damaged_cache_files_are_named(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with FakeOpenAI(["first", "again"]) as srv:
        rw = _client(srv.base_url, tmp_path, cache="readwrite")
        key = rw.complete(MSG).key
        path = rw.cache.path(key)
        path.write_text('{"schema": "navbench.llm-cache/1", "key": "trunc')
        ro = _client(srv.base_url, tmp_path, cache="read")
        with pytest.raises(LLMError, match=re.escape(f"llm cache file {path} is damaged (not JSON")):
            ro.complete(MSG)
        caplog.set_level(logging.WARNING)
        assert rw.complete(MSG).text == "again"  # readwrite: a warning, asked again, rewritten
        assert f"llm cache file {path} is damaged" in caplog.text
        assert ro.complete(MSG).text == "again"
        path.write_text(json.dumps({"schema": "navbench.llm-cache/1", "key": key}))
        with pytest.raises(LLMError, match=re.escape(f"{path} is damaged (its key, response")):
            ro.complete(MSG)
        with pytest.raises(LLMError, match=r"no reply stored .*/[0-9a-f]{2}/[0-9a-f]{64}\.json does not exist"):
            ro.complete([{"role": "user", "content": "never asked"}])
    assert len(srv.requests) == 2


def test_malformed_usage_is_ignored_with_a_warning(tmp_path: Path,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    def reply(usage: str) -> tuple[str, bytes]:
        return ("raw", ('{"choices": [{"message": {"content": "Action: STOP"}}], "usage": '
                        + usage + "}").encode())

    script = [reply('{"prompt_tokens": NaN, "completion_tokens": "7", "total_tokens": -3}'),
              reply('"lots"'), reply('{"prompt_tokens": 12.0, "completion_tokens": Infinity}')]
    caplog.set_level(logging.WARNING)
    stats = UsageStats()
    with FakeOpenAI(script) as srv:
        c = _client(srv.base_url, tmp_path)
        for _ in range(3):
            r = c.complete(MSG)
            assert r.text == "Action: STOP"
            stats.add(r)
        assert (r.prompt_tokens, r.completion_tokens, r.total_tokens) == (12, None, None)
    assert "usage.prompt_tokens = nan is not a token count" in caplog.text
    assert "usage.completion_tokens = '7'" in caplog.text and "usage.total_tokens = -3" in caplog.text
    assert "usage is str, not an object" in caplog.text
    assert "usage.completion_tokens = inf" in caplog.text
    assert stats.calls == 3 and stats.calls_without_usage == 2 and stats.total_tokens == 12


def test_requests_go_through_the_environment_proxy(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    with FakeOpenAI(["via proxy"]) as proxy:
        monkeypatch.setenv("http_proxy", proxy.base_url.rsplit("/v1", 1)[0])
        monkeypatch.delenv("no_proxy", raising=False)
        monkeypatch.delenv("NO_PROXY", raising=False)
        r = _client("http://llm.invalid:8000/v1", tmp_path).complete(MSG)
    assert r.text == "via proxy"
    assert proxy.paths == ["http://llm.invalid:8000/v1/chat/completions"]  # absolute target
