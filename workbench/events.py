"""The kernel's event log: what event tools emitted, newest last, for cells to follow.

An event tool (``workbench/workspace/event_tools.py``) answers at once and leaves its event
here. The log keeps the last ``capacity`` events in memory, is safe from any thread (event
tools run in a worker thread), and tells its subscribers of each new event on the thread
that emitted it, through ``Listeners``: one that raises never fails the call.
"""

from __future__ import annotations

import itertools
import threading
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from workbench.listeners import Listeners

CAPACITY = 1000
"""Events kept by default; older ones are dropped first."""


@dataclass(frozen=True)
class Event:
    """One emitted event: which tool sent what on which channel, and when."""

    id: str
    channel: str
    tool: str
    payload: Any
    time: datetime
    operation: str = ""
    source: str = ""

    def receipt(self) -> dict[str, str]:
        """What the event tool answers: the event's id, channel and time (ISO 8601, UTC)."""
        return {"event_id": self.id, "channel": self.channel, "time": self.time.isoformat()}


class EventLog:
    """A bounded, thread-safe stream of Events: iterate it, ``subscribe`` to it, ``clear`` it."""

    def __init__(self, capacity: int = CAPACITY) -> None:
        if capacity < 1:
            raise ValueError("An event log keeps at least one event.")
        self.capacity = capacity
        self._events: deque[Event] = deque(maxlen=capacity)
        self._lock = threading.Lock()
        self._numbers = itertools.count(1)
        self._listeners: Listeners[Event] = Listeners("the event log")

    def emit(
        self,
        channel: str,
        payload: Any,
        *,
        tool: str = "",
        operation: str = "",
        source: str = "",
    ) -> Event:
        """Record an event (its payload copied when it is a mapping) and tell every
        subscriber; returns it."""
        with self._lock:
            number = next(self._numbers)
            event = Event(
                id=f"evt-{number:06d}",
                channel=channel,
                tool=tool,
                payload=dict(payload) if isinstance(payload, Mapping) else payload,
                time=datetime.now(timezone.utc),
                operation=operation,
                source=source,
            )
            self._events.append(event)
        self._listeners.notify(event)
        return event

    def subscribe(self, listener: Callable[[Event], object]) -> Callable[[], None]:
        """Follow new events (called on the emitting thread); returns the function that
        stops following."""
        return self._listeners.subscribe(listener)

    def clear(self) -> None:
        """Forget every event kept (ids keep counting up)."""
        with self._lock:
            self._events.clear()

    def last(self, count: int | None = None) -> list[Event]:
        """The newest ``count`` events (all when None), oldest first."""
        with self._lock:
            events = list(self._events)
        return events if count is None else events[max(len(events) - count, 0) :]

    def __iter__(self) -> Iterator[Event]:
        return iter(self.last())

    def __len__(self) -> int:
        with self._lock:
            return len(self._events)

    def __getitem__(self, index: int) -> Event:
        with self._lock:
            return self._events[index]

    def __repr__(self) -> str:
        return f"<EventLog: {len(self)} events>"
