"""Handshake-era sessions are bounded (finding G13): each ends after an idle spell, and past a
cap the session idle the longest makes room for a new one.

The idle timeout is the MCP SDK's own (``session_idle_timeout``: no request in flight, an
open GET stream counting as one, for that long ends the session; its id then answers 404).
The cap is ``SessionCap``, an ASGI middleware in front of the served app: a request that
would open a session (a POST without ``Mcp-Session-Id``) and carries the token, while
``limit`` sessions are open, first ends the session idle the longest, as its idle timeout
would have; when every session is busy it is refused with 503. A request without the token
ends nothing: the bearer check answers it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS as HANDSHAKE

DEFAULT_IDLE_TIMEOUT = 30 * 60.0
"""Seconds a handshake-era session may stay idle (the MCP SDK's own default)."""
DEFAULT_MAX_SESSIONS = 1000
"""Sessions open at once (the SDK allows 10,000; an abandoned one holds about 37 KB)."""

Headers = list[tuple[bytes, bytes]]
_FULL = json.dumps(
    {"jsonrpc": "2.0", "id": None, "error": {"code": -32603, "message": "Too many open sessions"}}
).encode()


def check(idle_timeout: object, max_sessions: object) -> None:
    """A ValueError saying what is wrong with the options, if anything."""
    if (
        not isinstance(idle_timeout, (int, float))
        or isinstance(idle_timeout, bool)
        or not math.isfinite(idle_timeout)
        or idle_timeout <= 0
    ):
        raise ValueError(
            f"session_idle_timeout must be a positive number of seconds, got {idle_timeout!r}."
        )
    if not isinstance(max_sessions, int) or isinstance(max_sessions, bool) or max_sessions < 1:
        raise ValueError(f"max_sessions must be a positive whole number, got {max_sessions!r}.")


def idle_since(transport: object) -> float | None:
    """When the session's idle deadline falls (the earliest: idle the longest), or None
    while a request is in flight or it is already ending."""
    scope = getattr(transport, "idle_scope", None)
    if scope is None or scope.cancel_called:
        return None
    deadline = float(scope.deadline)
    return deadline if math.isfinite(deadline) else None


def live(sessions: dict[str, Any]) -> list[Any]:
    """The sessions not already ending."""
    return [
        transport
        for transport in sessions.values()
        if getattr(getattr(transport, "idle_scope", None), "cancel_called", False) is not True
    ]


def make_room(sessions: dict[str, Any], limit: int) -> bool:
    """End the session idle the longest while ``limit`` are open; whether there is room."""
    open_now = live(sessions)
    if len(open_now) < limit:
        return True
    idle = [(since, id(t), t) for t in open_now if (since := idle_since(t)) is not None]
    if not idle:
        return False
    _, _, oldest = min(idle)
    oldest.idle_scope.cancel()  # the SDK ends it as on its idle timeout, and forgets it
    return True


class SessionCap:
    """ASGI middleware: at most ``limit`` sessions, the one idle the longest ending first."""

    def __init__(
        self,
        app: Any,
        *,
        path: str,
        limit: int,
        sessions: Callable[[], dict[str, Any]],
        authorised: Callable[[Headers], bool],
    ) -> None:
        self.app = app
        self.path = path
        self.limit = limit
        self.sessions = sessions
        self.authorised = authorised

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        opens = (
            scope["type"] == "http"
            and scope["method"] == "POST"
            and scope["path"].rstrip("/") == self.path
            and self._opens(scope)
        )
        if opens and not make_room(self.sessions(), self.limit):
            await _refuse(send)
            return
        await self.app(scope, receive, send)

    def _opens(self, scope: Any) -> bool:
        """Whether the request would open a handshake-era session: no session id, and no
        protocol version or a handshake-era one (2026-07-28 requests open none)."""
        headers: Headers = scope.get("headers", [])
        for name, value in headers:
            if name.lower() == b"mcp-session-id":
                return False
            if name.lower() == b"mcp-protocol-version" and value.decode("latin-1") not in HANDSHAKE:
                return False
        return self.authorised(headers)


async def _refuse(send: Any) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": 503,
            "headers": [(b"content-type", b"application/json")],
        }
    )
    await send({"type": "http.response.body", "body": _FULL})
