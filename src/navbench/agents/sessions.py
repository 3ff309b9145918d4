"""Sessions of ``navbench serve-agent``: one agent instance per evaluation session.

Every navbench evaluation worker opens its own session with its first ``POST /reset`` and sends
the session id with each request, so parallel episodes never share an agent's state (an agent
that keeps a history, such as NaVid or UniNaVid, would otherwise see the steps of two episodes
interleaved). A session holds a fresh agent, as a local worker holds its own; it ends with
``POST /close`` or after ``idle_s`` without a request. At most ``max_sessions`` are open at once:
one more is refused with :class:`SessionLimitError` (HTTP 429) naming the limit.
"""

from __future__ import annotations

import contextlib
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field

from navbench.agents.base import AgentLike
from navbench.errors import NavbenchError

#: Default most sessions open at once (each holds one agent instance).
MAX_SESSIONS = 8
#: Default seconds without a request after which a session may be closed to make room (s).
SESSION_IDLE_S = 900.0


class SessionLimitError(NavbenchError):
    """All session slots are taken (answered HTTP 429)."""


class UnknownSessionError(NavbenchError):
    """A request names a session that is not open (answered HTTP 409)."""


@dataclass
class Session:
    """One open session: its agent, a lock that serialises its requests, its last use (s)."""

    agent: AgentLike
    lock: threading.Lock = field(default_factory=threading.Lock)
    last_used: float = field(default_factory=time.monotonic)


class SessionPool:
    """Open sessions by id (thread-safe).

    Args:
        factory: builds the agent of a new session.
        max_sessions: most sessions open at once.
        idle_s: a session unused this long is closed when a new one needs its slot.
        spare: an already built agent, given to the first session instead of calling
            ``factory`` (``serve-agent`` builds one to check it before serving).
    """

    def __init__(self, factory: Callable[[], AgentLike], max_sessions: int = MAX_SESSIONS,
                 idle_s: float = SESSION_IDLE_S, spare: AgentLike | None = None) -> None:
        if max_sessions < 1:
            raise NavbenchError(f"--max-sessions: expected an integer >= 1, got {max_sessions}")
        self.factory, self.max_sessions, self.idle_s = factory, int(max_sessions), float(idle_s)
        self._spare = spare
        self._sessions: dict[str, Session] = {}
        self._lock = threading.Lock()
        self._building = 0

    def __len__(self) -> int:
        with self._lock:
            return len(self._sessions)

    def open(self) -> tuple[str, Session]:
        """A new session with its own agent; :class:`SessionLimitError` when all slots are
        taken (after closing sessions idle for ``idle_s``)."""
        stale: list[Session] = []
        with self._lock:
            now = time.monotonic()
            for sid, s in list(self._sessions.items()):
                if len(self._sessions) + self._building < self.max_sessions:
                    break
                if now - s.last_used > self.idle_s:
                    stale.append(self._sessions.pop(sid))
            if len(self._sessions) + self._building >= self.max_sessions:
                raise SessionLimitError(
                    f"too many sessions: {len(self._sessions) + self._building} open, the limit is "
                    f"{self.max_sessions} (each evaluation worker holds one; raise it with "
                    "'navbench serve-agent --max-sessions N' or run fewer --workers)")
            self._building += 1
            spare, self._spare = self._spare, None
        for s in stale:
            _close(s.agent)
        try:
            agent = spare if spare is not None else self.factory()
        finally:
            with self._lock:
                self._building -= 1
        session = Session(agent)
        sid = uuid.uuid4().hex
        with self._lock:
            self._sessions[sid] = session
        return sid, session

    def get(self, sid: object) -> Session:
        """The open session ``sid`` (its last use set to now); :class:`UnknownSessionError`."""
        with self._lock:
            s = self._sessions.get(sid) if isinstance(sid, str) else None
            if s is None:
                raise UnknownSessionError(
                    f"unknown session {sid!r}: not open (closed, idle for over {self.idle_s:g} s, "
                    "or the server restarted); POST /reset without a session opens a new one")
            s.last_used = time.monotonic()
            return s

    def close(self, sid: object) -> bool:
        """Close session ``sid`` (its agent's ``close``); ``False`` if it was not open."""
        with self._lock:
            s = self._sessions.pop(sid, None) if isinstance(sid, str) else None
        if s is None:
            return False
        _close(s.agent)
        return True

    def close_all(self) -> None:
        """Close every session."""
        with self._lock:
            sessions, self._sessions = list(self._sessions.values()), {}
        for s in sessions:
            _close(s.agent)


def _close(agent: object) -> None:
    close = getattr(agent, "close", None)
    if callable(close):
        with contextlib.suppress(Exception):  # a failing close must not take the server down
            close()
