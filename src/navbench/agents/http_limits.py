"""One HTTP POST with hard limits, shared by the clients that talk to model servers (the
remote-agent client :mod:`navbench.agents.remote` and the chat-completions client
:mod:`navbench.agents.llm.client`), standard library only.

- **Reply size**: a reply declaring a ``Content-Length`` over ``max_reply_bytes`` is refused
  before its body is read; any other body is read in chunks of at most 1 MiB and abandoned as
  soon as it passes the cap, so the client never holds more than the cap (a 300 MB reply costs
  16 MiB at the default, not 300 MB three times over as text and parsed JSON).
- **Time**: ``connect_timeout_s`` to open the connection, ``read_timeout_s`` for each read of
  the socket, and an absolute ``deadline`` (``time.monotonic()`` seconds) for the whole
  exchange. Socket timeouts alone never stop a server that trickles a byte every few seconds;
  a watchdog timer shuts the socket down at the deadline, whatever the request is waiting for
  (status line, headers or body).
- **Proxies** (``use_proxy``): the ``http_proxy`` / ``https_proxy`` / ``no_proxy`` environment
  variables as :mod:`urllib.request` reads them (an HTTPS request tunnels through the proxy
  with ``CONNECT``; ``user:password@`` in the proxy URL is sent as basic proxy authorisation).
"""

from __future__ import annotations

import base64
import contextlib
import http.client
import socket
import ssl
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass

#: Default cap on one reply's body (bytes).
MAX_REPLY_BYTES = 16 << 20
#: Largest single read of a reply body (bytes).
CHUNK_BYTES = 1 << 20


class ReplyTooLargeError(Exception):
    """The reply's body is larger than the cap (not worth retrying: the server would repeat it)."""


@dataclass(frozen=True)
class HttpReply:
    """One reply: status code, headers (names lower-case) and the whole body."""

    status: int
    headers: dict[str, str]
    body: bytes


def _proxy_for(u: urllib.parse.SplitResult) -> urllib.parse.SplitResult | None:
    """The proxy the environment names for this URL's scheme and host, or ``None``."""
    proxy = urllib.request.getproxies().get(u.scheme)
    if not proxy or urllib.request.proxy_bypass(u.hostname or ""):
        return None
    p = urllib.parse.urlsplit(proxy if "://" in proxy else "http://" + proxy)
    return p if p.hostname else None


def _proxy_auth(p: urllib.parse.SplitResult) -> dict[str, str]:
    if p.username is None:
        return {}
    cred = f"{urllib.parse.unquote(p.username)}:{urllib.parse.unquote(p.password or '')}"
    return {"Proxy-Authorization": "Basic " + base64.b64encode(cred.encode()).decode("ascii")}


def _connection(url: str, timeout: float, use_proxy: bool
                ) -> tuple[http.client.HTTPConnection, str, dict[str, str]]:
    """An unopened connection for ``url``, the request target and extra headers."""
    u = urllib.parse.urlsplit(url)
    if u.scheme not in ("http", "https") or not u.hostname:
        raise ValueError(f"expected an http(s)://host[:port]/path URL, got {url!r}")
    https = u.scheme == "https"
    port = u.port or (443 if https else 80)
    target = (u.path or "/") + (f"?{u.query}" if u.query else "")
    proxy = _proxy_for(u) if use_proxy else None
    if proxy is None:
        if https:
            return (http.client.HTTPSConnection(u.hostname, port, timeout=timeout,
                                                context=ssl.create_default_context()), target, {})
        return http.client.HTTPConnection(u.hostname, port, timeout=timeout), target, {}
    p_port = proxy.port or (443 if proxy.scheme == "https" else 80)
    if https:  # CONNECT tunnel, then TLS with the origin
        conn = http.client.HTTPSConnection(proxy.hostname or "", p_port, timeout=timeout,
                                           context=ssl.create_default_context())
        conn.set_tunnel(u.hostname, port, headers=_proxy_auth(proxy))
        return conn, target, {}
    return (http.client.HTTPConnection(proxy.hostname or "", p_port, timeout=timeout),
            urllib.parse.urlunsplit((u.scheme, u.netloc, u.path or "/", u.query, "")),
            _proxy_auth(proxy))


def post(url: str, data: bytes | None, headers: Mapping[str, str], *, read_timeout_s: float,
         deadline: float, max_reply_bytes: int = MAX_REPLY_BYTES,
         connect_timeout_s: float | None = None, use_proxy: bool = False,
         method: str = "POST") -> HttpReply:
    """POST ``data`` to ``url`` (or ``method``, e.g. ``GET`` with ``data=None``) within the limits
    of the module docs.

    Parameters
    ----------
    url : str
        ``http(s)://host[:port]/path``.
    data : bytes
        The request body.
    headers : mapping
        Request headers.
    read_timeout_s : float
        Limit of each socket read (s).
    deadline : float
        ``time.monotonic()`` by which the whole reply must have arrived.
    max_reply_bytes : int
        Cap on the reply body (bytes).
    connect_timeout_s : float, optional
        Limit of opening the connection (s); default ``read_timeout_s``.
    use_proxy : bool
        Honour the ``*_proxy`` environment variables.

    Returns
    -------
    HttpReply
        Whatever the status code (the caller decides what a 4xx / 5xx means).

    Raises
    ------
    ReplyTooLargeError
        The body is (or declares to be) larger than ``max_reply_bytes``.
    TimeoutError
        The deadline passed before the reply was complete, or one read timed out.
    OSError, http.client.HTTPException
        Connection refused or reset, malformed HTTP.
    """
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError("no time left before the deadline")
    conn, target, extra = _connection(url, min(connect_timeout_s or read_timeout_s, left), use_proxy)
    fired = threading.Event()

    def cut() -> None:  # the deadline passed: whatever the request waits for ends now
        fired.set()
        sock = conn.sock
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    watchdog = threading.Timer(left, cut)
    watchdog.daemon = True
    try:
        conn.connect()
        watchdog.start()
        if conn.sock is not None:
            conn.sock.settimeout(read_timeout_s)
        conn.request(method, target, body=data, headers={**headers, **extra})
        r = conn.getresponse()
        length = r.getheader("Content-Length")
        if length is not None and length.strip().isdigit() and int(length) > max_reply_bytes:
            raise ReplyTooLargeError(f"reply of {int(length)} bytes (limit {max_reply_bytes})")
        chunks: list[bytes] = []
        size = 0
        while True:
            b = r.read1(CHUNK_BYTES)
            if not b:
                break
            size += len(b)
            if size > max_reply_bytes:
                raise ReplyTooLargeError(f"reply over {max_reply_bytes} bytes")
            chunks.append(b)
            if fired.is_set():
                break
        if fired.is_set():  # a cut socket reads as an early end: never a complete reply
            raise TimeoutError("no complete reply before the deadline")
        return HttpReply(r.status, {k.lower(): v for k, v in r.getheaders()}, b"".join(chunks))
    except (OSError, http.client.HTTPException) as e:
        if fired.is_set():
            raise TimeoutError("no complete reply before the deadline") from e
        raise
    finally:
        watchdog.cancel()
        conn.close()
