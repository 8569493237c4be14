"""A served call's hold on its own SSE stream: the tool may close it mid-call (SEP-1699).

A long call need not keep one HTTP response open for minutes (proxies cut those): the
server ends the response stream and the client reconnects with ``Last-Event-ID``, after the
``retry`` the stream's priming event gave, and gets every event it missed from the event
store (``event_store.py``), then the rest. ``ServedTool.run`` sets the closer of the request
in flight for the call (``closing``), the way it sets the asker; ``DefinitionTool.run``
captures it into the call's ``ToolContext``, whose ``close_stream()`` calls it on the bridge
loop.

There is a closer only where closing is safe: a handshake-era request at 2025-11-25 or later
(the client was sent a priming event, so it can resume) on a server keeping an event store.
Elsewhere (a 2026-07-28 request, an older client, a call from the notebook itself) there is
none and ``close_stream()`` does nothing.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

StreamCloser = Callable[[], Awaitable[None]]
"""Ends the response stream of the request in flight; awaited on the bridge loop."""

_closer: ContextVar[StreamCloser | None] = ContextVar("workbench_stream_closer", default=None)


@contextmanager
def closing(closer: StreamCloser | None) -> Iterator[None]:
    """Calls started in this context may close their stream with ``closer`` (None: not)."""
    token = _closer.set(closer)
    try:
        yield
    finally:
        _closer.reset(token)


def current_closer() -> StreamCloser | None:
    """The closer of the served request this context runs for, or None."""
    return _closer.get()


def request_closer(request: Any) -> StreamCloser | None:
    """The closer the SDK gave fastmcp's Context ``request`` of a served call, if any."""
    context = getattr(request, "request_context", None)
    closer = getattr(context, "close_sse_stream", None)
    return closer if callable(closer) else None
