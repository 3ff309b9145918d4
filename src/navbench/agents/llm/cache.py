"""The replay cache of the LLM client (:mod:`navbench.agents.llm.client`): one JSON file per
request under a folder, named by the SHA-256 of the canonical request body.

Modes: ``readwrite`` answers hits from disk and stores misses; ``read`` answers only from disk
(a miss is an :class:`LLMError` naming the file it looked for: an offline replay never reaches
the network); ``off`` always asks the server. :meth:`RequestCache.check` is called when a client
is made, so a folder that cannot serve the mode fails before the first (paid) request. A
damaged file is named: an :class:`LLMError` in ``read`` mode, a warning in ``readwrite`` (the
request is asked again and the file rewritten). A failed write is a warning: the reply, already
paid for, is still used.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Literal

from navbench.errors import ConfigError, NavbenchError
from navbench.io import atomic_write_text, loads_json
from navbench.jsontypes import JSONMapping, JSONObject

log = logging.getLogger("navbench.agents.llm.client")

CacheMode = Literal["off", "read", "readwrite"]
CACHE_MODES: tuple[str, ...] = ("off", "read", "readwrite")
CACHE_SCHEMA = "navbench.llm-cache/1"
#: Environment variable overriding the default cache folder.
CACHE_ENV = "NAVBENCH_LLM_CACHE"


class LLMError(NavbenchError):
    """The model endpoint gave no usable reply (after retries), or a read-only cache missed."""


def default_cache_dir() -> Path:
    """``$NAVBENCH_LLM_CACHE``, else ``$XDG_CACHE_HOME/navbench/llm`` (``~/.cache/navbench/llm``)."""
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "navbench" / "llm"


class RequestCache:
    """Request → reply files ``<dir>/<key[:2]>/<key>.json`` (written atomically)."""

    def __init__(self, directory: str | Path, mode: CacheMode = "readwrite") -> None:
        if mode not in CACHE_MODES:
            raise ConfigError(f"llm agent: cache: expected one of {', '.join(CACHE_MODES)}, "
                              f"got {mode!r}")
        self.dir, self.mode = Path(directory), mode

    def check(self) -> None:
        """Fail now, before any request, if the folder cannot serve the mode: ``readwrite``
        creates it and needs it writable, ``read`` needs it to exist (a folder, not a file).

        Raises:
            ConfigError: naming the folder and what is wrong with it.
        """
        if self.mode == "off":
            return
        d = self.dir
        if d.exists() and not d.is_dir():
            raise ConfigError(f"llm agent: cache_dir {d}: is a file, expected a folder")
        if self.mode == "read":
            if not d.is_dir():
                raise ConfigError(f"llm agent: cache_dir {d}: no such folder (cache=read replays "
                                  "only stored replies; use cache=readwrite to fill it)")
            return
        try:
            d.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise ConfigError(f"llm agent: cache_dir {d}: cannot create it ({e.strerror or e})") from None
        if not os.access(d, os.W_OK | os.X_OK):
            raise ConfigError(f"llm agent: cache_dir {d}: not writable (cache=readwrite stores replies)")

    def path(self, key: str) -> Path:
        """File of one key."""
        return self.dir / key[:2] / f"{key}.json"

    def get(self, key: str) -> JSONObject | None:
        """The stored entry; ``None`` when the mode is ``off`` or no file is stored.

        Raises:
            LLMError: the file exists but is damaged (mode ``read``; ``readwrite`` warns and
                returns ``None``, so the request is asked again and the file rewritten).
        """
        if self.mode == "off":
            return None
        p = self.path(key)
        try:
            text = p.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as e:
            self._damaged(p, f"unreadable: {e}")
            return None
        try:
            entry = loads_json(text)
        except ValueError as e:  # invalid, or past the JSON limits
            self._damaged(p, f"not JSON: {e}")
            return None
        if not (isinstance(entry, dict) and entry.get("schema") == CACHE_SCHEMA):
            self._damaged(p, f"not a {CACHE_SCHEMA} entry")
            return None
        if entry.get("key") != key or not isinstance(entry.get("response"), dict) or \
                not isinstance(entry.get("latency_s"), (int, float)) or \
                not isinstance(entry.get("attempts"), int):
            self._damaged(p, "its key, response, latency_s or attempts field is missing or wrong")
            return None
        return entry

    def _damaged(self, p: Path, why: str) -> None:
        msg = f"llm cache file {p} is damaged ({why})"
        if self.mode == "read":
            raise LLMError(msg + "; delete it, or run with cache=readwrite to ask the server again")
        log.warning("%s; asking the server again and rewriting it", msg)

    def put(self, key: str, model: str, response: JSONMapping, latency_s: float,
            attempts: int) -> None:
        """Store a reply (mode ``readwrite`` only); a failed write is a warning naming the file
        (the paid reply is still used)."""
        if self.mode != "readwrite":
            return
        entry = {"schema": CACHE_SCHEMA, "key": key, "model": model, "response": dict(response),
                 "latency_s": round(float(latency_s), 6), "attempts": int(attempts)}
        p = self.path(key)
        try:
            atomic_write_text(p, json.dumps(entry, sort_keys=True, ensure_ascii=False,
                                            indent=1) + "\n")
        except OSError as e:
            log.warning("llm cache file %s could not be written (%s); the reply is used but "
                        "will not replay", p, e)
