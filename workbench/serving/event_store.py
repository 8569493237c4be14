"""The served app's memory of what it sent on each SSE stream, so a client can resume.

SEP-1699 (2025-11-25): a handshake-era client whose response stream ends before the answer
(the server closed it to poll, or the network dropped it) reconnects with ``Last-Event-ID``
and gets what it missed, then the rest live. That needs every event sent on a request's
stream kept for a while: the SDK's transport stores each one here (and a priming event with
an id and a ``retry`` opens each stream). FastMCP scopes each session to its own stream
names, so one session never replays another's events.

Bounded on purpose: at most ``max_events`` events (the oldest go first) and none older than
``max_age`` seconds, whatever clients do. A client that comes back later than that gets
nothing replayed. 2026-07-28 requests never come here (their transport keeps no store).
"""

from __future__ import annotations

import time
import uuid
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass

from mcp.server.streamable_http import (
    EventCallback,
    EventId,
    EventMessage,
    EventStore,
    StreamId,
)
from mcp_types import JSONRPCMessage

RETRY_MS = 500
"""How long a client waits before reconnecting a stream the server closed (SSE ``retry``)."""
MAX_EVENTS = 2_000
MAX_AGE = 120.0


@dataclass(frozen=True)
class _Event:
    stream: StreamId
    message: JSONRPCMessage | None  # None: a stream's priming event
    at: float


class BoundedEventStore(EventStore):
    """Events in memory, oldest dropped first, by count and by age."""

    def __init__(
        self,
        max_events: int = MAX_EVENTS,
        max_age: float = MAX_AGE,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if max_events < 1 or max_age <= 0:
            raise ValueError("max_events and max_age must be positive")
        self.max_events = max_events
        self.max_age = max_age
        self._clock = clock
        self._events: OrderedDict[EventId, _Event] = OrderedDict()
        self._streams: dict[StreamId, deque[EventId]] = {}

    def __len__(self) -> int:
        return len(self._events)

    async def store_event(self, stream_id: StreamId, message: JSONRPCMessage | None) -> EventId:
        now = self._clock()
        event_id = uuid.uuid4().hex
        self._events[event_id] = _Event(stream_id, message, now)
        self._streams.setdefault(stream_id, deque()).append(event_id)
        self._forget(now)
        return event_id

    async def replay_events_after(
        self, last_event_id: EventId, send_callback: EventCallback
    ) -> StreamId | None:
        self._forget(self._clock())
        last = self._events.get(last_event_id)
        if last is None:
            return None  # unknown, or forgotten: nothing to resume
        after = list(self._streams.get(last.stream, ()))
        for event_id in after[after.index(last_event_id) + 1 :]:
            event = self._events.get(event_id)
            if event is not None and event.message is not None:
                await send_callback(EventMessage(event.message, event_id))
        return last.stream

    def _forget(self, now: float) -> None:
        """Drop the oldest events past the count or the age (each is its stream's oldest)."""
        while self._events:
            event_id, event = next(iter(self._events.items()))
            if len(self._events) <= self.max_events and now - event.at <= self.max_age:
                return
            del self._events[event_id]
            stream = self._streams[event.stream]
            stream.popleft()
            if not stream:
                del self._streams[event.stream]
