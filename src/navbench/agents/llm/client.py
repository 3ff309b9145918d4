"""A minimal client of the OpenAI chat-completions API (``POST {base_url}/chat/completions``),
standard library only, with a replay cache, retries, timeouts and a concurrency limit.

Any server speaking that API works: vLLM, llama.cpp's ``llama-server``, Ollama, SGLang,
LM Studio, hosted APIs.

- **Key**: read from the environment variable named ``api_key_env`` at each request and sent as
  ``Authorization: Bearer ...``; never stored on the client, in the cache, in results or logs.
  Without ``api_key_env`` no ``Authorization`` header is sent (local servers).
- **Cache** (:mod:`navbench.agents.llm.cache`): one JSON file per request under ``cache_dir``,
  named by the SHA-256 of the canonical request body (model, messages with their images,
  parameters; not the URL nor the key). ``cache="readwrite"`` (default) answers hits from disk and stores misses;
  ``"read"`` answers only from disk (a miss is an :class:`LLMError`: an offline replay can
  never reach the network); ``"off"`` always asks the server. A hit returns the stored reply,
  token usage, latency and attempt count, so a replay reports the same cost as the live run.
  A damaged cache file is named: with ``"read"`` it is an :class:`LLMError`, with
  ``"readwrite"`` a warning, and the request is asked again and the file rewritten. The cache
  folder is checked when the client is made (before any paid request): a ``cache_dir`` that is
  a file, or that cannot be created or written, is a :class:`~navbench.errors.ConfigError`.
- **Limits** (:mod:`navbench.agents.http_limits`): a reply over ``max_reply_bytes`` (16 MiB) is
  refused, read in chunks and never held whole; ``timeout_s`` bounds each socket read and
  ``total_timeout_s`` the whole request, retries and their waits included (a server trickling
  bytes is cut there, not by the episode's timeout). Neither is retried.
- **Retries**: HTTP 429 and 5xx, read timeouts, refused / reset connections and unreadable
  replies are retried up to ``retries`` times, waiting ``backoff_s · 2^k`` (k = 0, 1, ...; a
  ``Retry-After`` header in seconds wins, capped at 60 s) while the total deadline allows;
  other 4xx fail at once.
- **Usage**: token counts that are not counts (``NaN``, strings, negative) are ignored with a
  warning (the reply still counts as a call without usage).
- **Proxies**: ``http_proxy`` / ``https_proxy`` / ``no_proxy`` as :mod:`urllib.request` reads them.
- **Concurrency**: at most ``max_concurrency`` requests in flight per ``base_url`` in this
  process (shared by every client, so by all episodes a process runs at once). Separate worker
  processes (``--workers``) each have their own limit.
"""

from __future__ import annotations

import contextlib
import hashlib
import http.client
import json
import logging
import math
import os
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

from navbench.agents import http_limits
from navbench.agents.llm.cache import (
    CACHE_ENV,
    CACHE_MODES,
    CACHE_SCHEMA,
    CacheMode,
    LLMError,
    RequestCache,
    default_cache_dir,
)
from navbench.errors import ConfigError
from navbench.io import loads_json
from navbench.jsontypes import JSON, JSONMapping, JSONObject

log = logging.getLogger(__name__)

#: Default limit of one request, retries included (s).
TOTAL_TIMEOUT_S = 180.0


def canonical_body(body: JSONMapping) -> bytes:
    """The request body as sent: compact JSON with sorted keys (UTF-8, no NaN)."""
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


def request_key(body: JSONMapping) -> str:
    """Cache key of a request: SHA-256 hex digest of :func:`canonical_body`."""
    return hashlib.sha256(canonical_body(body)).hexdigest()


@dataclass(frozen=True)
class ChatReply:
    """One completion.

    Attributes:
        text: the assistant message content.
        prompt_tokens, completion_tokens, total_tokens: the server's ``usage`` (``None`` when
            the server reported none).
        latency_s: wall-clock seconds of the successful request (retries included); on a cache
            hit, the latency recorded when it was first asked.
        attempts: HTTP attempts it took (1 = no retry); from the cache on a hit.
        cached: whether it came from the cache.
        key: the request's cache key.
    """

    text: str
    prompt_tokens: int | None
    completion_tokens: int | None
    total_tokens: int | None
    latency_s: float
    attempts: int
    cached: bool
    key: str


_LIMITS: dict[tuple[str, int], threading.BoundedSemaphore] = {}
_LIMITS_LOCK = threading.Lock()


def _limit(base_url: str, n: int) -> threading.BoundedSemaphore:
    """The process-wide semaphore of one endpoint and limit."""
    with _LIMITS_LOCK:
        return _LIMITS.setdefault((base_url, n), threading.BoundedSemaphore(n))


def _reply_text(response: JSONMapping) -> str:
    """``choices[0].message.content`` as text (list-of-parts content joined)."""
    try:
        content = response["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError) as e:
        raise ValueError(f"no choices[0].message.content ({type(e).__name__}: {e})") from None
    if isinstance(content, list):
        content = "".join(str(p.get("text", "")) for p in content if isinstance(p, Mapping))
    if not isinstance(content, str):
        raise ValueError(f"choices[0].message.content is {type(content).__name__}, not text")
    return content


def _usage(response: JSONMapping, key: str, url: str) -> int | None:
    """``usage[key]`` as a token count; ``None`` (with a warning) for anything that is not a
    count — a server reporting ``NaN`` or ``"12"`` costs that reply its usage, not the episode."""
    u = response.get("usage")
    if u is None:
        return None
    if not isinstance(u, Mapping):
        log.warning("llm endpoint %s: usage is %s, not an object; ignored", url, type(u).__name__)
        return None
    v = u.get(key)
    if v is None:
        return None
    if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and \
            v >= 0 and float(v).is_integer():
        return int(v)
    log.warning("llm endpoint %s: usage.%s = %.40r is not a token count; ignored", url, key, v)
    return None


class ChatClient:
    """Chat-completions client (see module docs).

    Args:
        base_url: endpoint root, e.g. ``http://127.0.0.1:8000/v1``.
        model: model name sent in each request.
        api_key_env: name of the environment variable holding the key (``None``: no key).
        timeout_s: limit of each socket read, and of connecting (s).
        total_timeout_s: limit of one request, retries and their waits included (s).
        max_reply_bytes: largest reply body accepted (bytes).
        retries: extra attempts after a retryable failure.
        backoff_s: first retry wait (s); doubles each retry.
        max_concurrency: requests in flight per ``base_url`` in this process.
        cache: ``off`` | ``read`` | ``readwrite``.
        cache_dir: cache folder (default :func:`default_cache_dir`).
        params: extra request fields (``temperature``, ``max_tokens``, ``seed``, ``top_p``...).

    Raises:
        ConfigError: bad URL, limits out of range, unknown cache mode, a cache folder that
            cannot serve the mode, or ``api_key_env`` unset.
    """

    def __init__(self, base_url: str, model: str, *, api_key_env: str | None = None,
                 timeout_s: float = 60.0, retries: int = 4, backoff_s: float = 1.0,
                 max_concurrency: int = 4, cache: CacheMode = "readwrite",
                 cache_dir: str | Path | None = None,
                 params: JSONMapping | None = None,
                 total_timeout_s: float = TOTAL_TIMEOUT_S,
                 max_reply_bytes: int = http_limits.MAX_REPLY_BYTES) -> None:
        if not isinstance(base_url, str) or not base_url.startswith(("http://", "https://")):
            raise ConfigError(f"llm agent: base_url: expected http(s)://host:port/v1, got {base_url!r}")
        if not model or not isinstance(model, str):
            raise ConfigError("llm agent: model: expected the model name the server serves "
                              "(--agent-arg model=NAME)")
        if not (timeout_s > 0 and total_timeout_s > 0) or retries < 0 or backoff_s < 0 or \
                int(max_concurrency) < 1 or int(max_reply_bytes) < 1:
            raise ConfigError("llm agent: expected timeout_s > 0, total_timeout_s > 0, "
                              "retries >= 0, backoff_s >= 0, max_concurrency >= 1 and "
                              "max_reply_bytes >= 1")
        if api_key_env is not None and not os.environ.get(str(api_key_env)):
            raise ConfigError(f"llm agent: api_key_env: environment variable {api_key_env!r} "
                              "is not set (or empty)")
        self.base_url, self.model = base_url.rstrip("/"), model
        self.url = self.base_url + "/chat/completions"
        self.api_key_env = None if api_key_env is None else str(api_key_env)
        self.timeout_s, self.retries, self.backoff_s = float(timeout_s), int(retries), float(backoff_s)
        self.total_timeout_s, self.max_reply_bytes = float(total_timeout_s), int(max_reply_bytes)
        self.max_concurrency = int(max_concurrency)
        self.cache = RequestCache(default_cache_dir() if cache_dir is None else cache_dir, cache)
        self.cache.check()
        self.params = dict(params or {})

    def body(self, messages: Sequence[JSONMapping], **params: JSON) -> JSONObject:
        """The request body: model, messages, then ``params`` over the client's defaults."""
        return {"model": self.model, "messages": list(messages), **self.params, **params}

    def _headers(self) -> dict[str, str]:
        h = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.api_key_env is not None:
            key = os.environ.get(self.api_key_env)
            if not key:
                raise LLMError(f"llm agent: environment variable {self.api_key_env!r} is not set")
            h["Authorization"] = f"Bearer {key}"
        return h

    def _wait(self, attempt: int, retry_after: str | None, deadline: float) -> bool:
        """Sleep before a retry; ``False`` (without sleeping) when the wait would pass the
        request's deadline."""
        wait = self.backoff_s * 2.0 ** attempt
        if retry_after:
            with contextlib.suppress(ValueError):
                wait = min(max(float(retry_after), 0.0), 60.0)
        if time.monotonic() + wait >= deadline:
            return False
        time.sleep(wait)
        return True

    def _send(self, data: bytes) -> tuple[JSONObject, int]:
        """POST with retries within the limits; the parsed reply and the number of attempts."""
        deadline = time.monotonic() + self.total_timeout_s
        last, retry_after = "", None
        for attempt in range(self.retries + 1):
            if attempt and not self._wait(attempt - 1, retry_after, deadline):
                self._fail(f"{last}; no time left for a retry within total_timeout_s="
                           f"{self.total_timeout_s:g} s", attempt - 1)
            retry_after = None
            try:
                r = http_limits.post(self.url, data, self._headers(), read_timeout_s=self.timeout_s,
                                     deadline=deadline, max_reply_bytes=self.max_reply_bytes,
                                     use_proxy=True)
            except http_limits.ReplyTooLargeError as e:
                self._fail(f"{e} (max_reply_bytes)", attempt)
            except (TimeoutError, OSError, http.client.HTTPException) as e:
                last = f"{type(e).__name__}: {e}"
                if time.monotonic() >= deadline:
                    self._fail(f"no complete reply within total_timeout_s={self.total_timeout_s:g} s",
                               attempt)
            else:
                if r.status >= 400 or r.status < 200:
                    last = f"HTTP {r.status}: {r.body[:200].decode('utf-8', 'replace')}"
                    retry_after = r.headers.get("retry-after")
                    if r.status != 429 and r.status < 500:
                        self._fail(last, attempt)
                else:
                    try:
                        # NaN usage counts cost that reply its usage, not the episode
                        reply = loads_json(r.body.decode("utf-8"), allow_nan=True)
                        if not isinstance(reply, dict):
                            raise ValueError(f"a JSON {type(reply).__name__}, not an object")
                        _reply_text(reply)
                        return reply, attempt + 1
                    except (UnicodeDecodeError, ValueError) as e:
                        last = f"unusable reply ({e})"
            log.info("llm request to %s failed (attempt %d): %s", self.url, attempt + 1, last)
        self._fail(last, self.retries)

    def _fail(self, last: str, attempt: int) -> NoReturn:
        raise LLMError(f"llm endpoint {self.url} (model {self.model!r}) failed after "
                       f"{attempt + 1} attempt(s): {last}")

    def complete(self, messages: Sequence[JSONMapping], **params: JSON) -> ChatReply:
        """One chat completion (cache first; see module docs).

        Raises:
            LLMError: no usable reply after retries, or a miss with ``cache="read"``.
        """
        body = self.body(messages, **params)
        data = canonical_body(body)
        key = hashlib.sha256(data).hexdigest()
        entry = self.cache.get(key)
        if entry is not None:
            resp, latency, attempts, cached = entry["response"], float(entry["latency_s"]), \
                int(entry["attempts"]), True
        elif self.cache.mode == "read":
            raise LLMError(f"llm cache: no reply stored for this request ({self.cache.path(key)} "
                           "does not exist; cache=read never asks the server, use cache=readwrite)")
        else:
            with _limit(self.base_url, self.max_concurrency):
                t0 = time.monotonic()
                resp, attempts = self._send(data)
                latency = time.monotonic() - t0
            cached = False
            self.cache.put(key, self.model, resp, latency, attempts)
        try:
            text = _reply_text(resp)
        except ValueError as e:  # a cache entry whose response is not a completion
            raise LLMError(f"llm cache file {self.cache.path(key)} is damaged ({e})") from None
        return ChatReply(text, _usage(resp, "prompt_tokens", self.url),
                         _usage(resp, "completion_tokens", self.url),
                         _usage(resp, "total_tokens", self.url),
                         round(latency, 6), attempts, cached, key)


@dataclass
class UsageStats:
    """Per-episode cost counters of an LLM agent (reported in the results' ``extra.agent``).

    ``latency_s`` and ``attempts`` come from the cache on replays, so a replay reports the same
    numbers as the live run; ``cached_calls`` is what tells them apart.
    """

    calls: int = 0
    cached_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0
    calls_without_usage: int = 0
    latency_s: float = 0.0
    max_latency_s: float = 0.0
    attempts: int = 0
    parse_failures: int = 0

    def add(self, r: ChatReply) -> None:
        """Count one reply."""
        self.calls += 1
        self.cached_calls += r.cached
        if r.total_tokens is None and r.prompt_tokens is None:
            self.calls_without_usage += 1
        self.prompt_tokens += r.prompt_tokens or 0
        self.completion_tokens += r.completion_tokens or 0
        self.total_tokens += r.total_tokens if r.total_tokens is not None else \
            (r.prompt_tokens or 0) + (r.completion_tokens or 0)
        self.latency_s = round(self.latency_s + r.latency_s, 6)
        self.max_latency_s = max(self.max_latency_s, r.latency_s)
        self.attempts += r.attempts

    def as_dict(self) -> JSONObject:
        """JSON-able counters."""
        return {"llm_calls": self.calls, "cached_calls": self.cached_calls,
                "prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens,
                "total_tokens": self.total_tokens, "calls_without_usage": self.calls_without_usage,
                "latency_s": self.latency_s, "max_latency_s": self.max_latency_s,
                "attempts": self.attempts, "parse_failures": self.parse_failures}


def client_from_args(base_url: str, model: str, **kw: JSON) -> ChatClient:  # --agent-arg values
    """A :class:`ChatClient` from agent arguments; ``temperature`` (default 0),
    ``max_tokens`` (default 512) and ``extra_params`` (a dict, e.g. ``{"seed": 0, "top_p": 1}``)
    go into every request."""
    params: JSONObject = {"temperature": float(kw.pop("temperature", 0.0)),
                              "max_tokens": int(kw.pop("max_tokens", 512))}
    extra = kw.pop("extra_params", None) or {}
    if not isinstance(extra, Mapping):
        raise ConfigError(f"llm agent: extra_params: expected a JSON object, got {extra!r}")
    params.update(extra)
    return ChatClient(base_url, model, params=params, **kw)


__all__ = ["CACHE_ENV", "CACHE_MODES", "CACHE_SCHEMA", "TOTAL_TIMEOUT_S", "CacheMode", "ChatClient",
           "ChatReply", "LLMError", "RequestCache", "UsageStats", "canonical_body",
           "client_from_args", "default_cache_dir", "request_key"]
