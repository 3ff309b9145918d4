"""A loopback fake of the OpenAI chat-completions API for the LLM / VLM agent tests.

``FakeOpenAI(script)`` serves ``POST /v1/chat/completions`` on 127.0.0.1 (port 0 = any free
port) in a thread. ``script`` is either a list of steps consumed one per request (the last one
repeats) or a function ``request_json -> step``. A step is:

- a ``str``: reply with that assistant text (usage: prompt 100 + 10 per image, completion 7);
- ``("status", code)``: an HTTP error (``("status", 429, "0")`` adds ``Retry-After: 0``);
- ``("sleep", seconds, text)``: wait, then reply with ``text`` (for timeouts);
- ``("raw", bytes)``: a 200 reply with that body (malformed JSON...);
- ``("stream", n, declare)``: a 200 reply whose content is ``n`` bytes of ``a``, written 1 MiB
  at a time from one buffer (the fake never holds it whole), with a ``Content-Length`` when
  ``declare``, else ended by closing the connection; ``sent`` counts the bytes written;
- ``("trickle", seconds, n)``: a 200 status and headers, then one body byte every ``seconds``
  (``n`` bytes), ended by closing the connection;
- ``("trickle_headers", seconds, n)``: the status line, then one header byte every ``seconds``.

Every request is recorded (``requests``: parsed body, ``headers``), with the number in flight
at its start (``max_in_flight``); a request stops being in flight just before its reply is
sent, so a client that starts its next request on receiving a reply never overlaps it.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
import urllib.parse
from collections.abc import Callable, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Step = Any


def usage_of(body: dict[str, Any]) -> dict[str, int]:
    """The fake's token accounting: 100 + 10 per image prompt tokens, 7 completion tokens."""
    images = sum(1 for m in body.get("messages", []) if isinstance(m.get("content"), list)
                 for p in m["content"] if p.get("type") == "image_url")
    return {"prompt_tokens": 100 + 10 * images, "completion_tokens": 7,
            "total_tokens": 107 + 10 * images}


class FakeOpenAI:
    """The fake server (see module docs); use as a context manager."""

    def __init__(self, script: Sequence[Step] | Callable[[dict[str, Any]], Step]) -> None:
        self.script = script
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.in_flight = self.max_in_flight = 0
        self.sent = 0  # body bytes written by "stream" steps
        self.paths: list[str] = []  # request targets as sent (absolute through a proxy)
        self._lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a: Any) -> None:
                pass

            def do_POST(self) -> None:
                n = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(n).decode("utf-8"))
                with fake._lock:
                    k = len(fake.requests)
                    fake.requests.append(body)
                    fake.headers.append(dict(self.headers.items()))
                    fake.paths.append(self.path)
                    fake.in_flight += 1
                    fake.max_in_flight = max(fake.max_in_flight, fake.in_flight)
                done = [False]

                def release() -> None:  # once: before the reply is written, or on an error
                    with fake._lock:
                        if not done[0]:
                            done[0] = True
                            fake.in_flight -= 1

                try:
                    fake._answer(self, body, k, release)
                finally:
                    release()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1``."""
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def _step(self, body: dict[str, Any], k: int) -> Step:
        if callable(self.script):
            return self.script(body)
        return self.script[min(k, len(self.script) - 1)]

    def _answer(self, h: BaseHTTPRequestHandler, body: dict[str, Any], k: int,
                release: Callable[[], None]) -> None:
        step = self._step(body, k)
        if urllib.parse.urlsplit(h.path).path != "/v1/chat/completions":
            step = ("status", 404)
        if isinstance(step, tuple) and step[0] in ("stream", "trickle", "trickle_headers"):
            release()
            with contextlib.suppress(OSError):  # the client gives up before the end
                self._slow(h, step)
            h.close_connection = True
            return
        if isinstance(step, tuple) and step[0] == "sleep":
            time.sleep(step[1])
            step = step[2]
        if isinstance(step, tuple) and step[0] == "status":
            h.send_response(step[1])
            if len(step) > 2:
                h.send_header("Retry-After", step[2])
            data = b'{"error": {"message": "scripted failure"}}'
        elif isinstance(step, tuple) and step[0] == "raw":
            h.send_response(200)
            data = step[1]
        else:
            h.send_response(200)
            data = json.dumps({
                "id": f"chatcmpl-{k}", "object": "chat.completion", "model": body.get("model"),
                "choices": [{"index": 0, "finish_reason": "stop",
                             "message": {"role": "assistant", "content": step}}],
                "usage": usage_of(body)}).encode()
        h.send_header("Content-Type", "application/json")
        h.send_header("Content-Length", str(len(data)))
        h.end_headers()
        release()
        with contextlib.suppress(OSError):  # the client gave up (timeout test)
            h.wfile.write(data)

    def _slow(self, h: BaseHTTPRequestHandler, step: tuple[Any, ...]) -> None:
        """The ``stream`` / ``trickle`` / ``trickle_headers`` replies (see module docs)."""
        kind = step[0]
        if kind == "trickle_headers":
            h.wfile.write(b"HTTP/1.0 200 OK\r\n")
            for _ in range(int(step[2])):
                h.wfile.write(b"X")
                h.wfile.flush()
                time.sleep(step[1])
            return
        h.send_response(200)
        h.send_header("Content-Type", "application/json")
        head = b'{"choices": [{"index": 0, "message": {"role": "assistant", "content": "'
        tail = b'"}}], "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}'
        if kind == "stream" and step[2]:
            h.send_header("Content-Length", str(len(head) + int(step[1]) + len(tail)))
        h.end_headers()
        if kind == "trickle":
            for _ in range(int(step[2])):
                h.wfile.write(b" ")
                h.wfile.flush()
                time.sleep(step[1])
            return
        block = b"a" * (1 << 20)
        h.wfile.write(head)
        left = int(step[1])
        while left > 0:
            n = min(left, len(block))
            h.wfile.write(block if n == len(block) else block[:n])
            with self._lock:
                self.sent += n
            left -= n
        h.wfile.write(tail)

    def __enter__(self) -> FakeOpenAI:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
