"""The served app's event store: replays a stream after an id, and stays bounded."""

from __future__ import annotations

import asyncio
from typing import Any

import mcp_types
import pytest
from mcp.server.streamable_http import EventMessage

from workbench.serving.event_store import BoundedEventStore


def note(n: int) -> Any:
    return mcp_types.JSONRPCNotification(
        jsonrpc="2.0", method="notifications/progress", params={"progressToken": 1, "progress": n}
    )


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def replay(store: BoundedEventStore, after: str) -> tuple[str | None, list[int]]:
    sent: list[EventMessage] = []

    async def send(event: EventMessage) -> None:
        sent.append(event)

    stream = asyncio.run(store.replay_events_after(after, send))
    return stream, [event.message.params["progress"] for event in sent]  # type: ignore[union-attr]


def store_all(store: BoundedEventStore, events: list[tuple[str, Any]]) -> list[str]:
    async def main() -> list[str]:
        return [await store.store_event(stream, message) for stream, message in events]

    return asyncio.run(main())


def test_replays_what_followed_on_that_stream_only() -> None:
    store = BoundedEventStore()
    ids = store_all(
        store, [("a", None), ("a", note(1)), ("b", note(10)), ("a", note(2)), ("b", note(11))]
    )
    assert replay(store, ids[0]) == ("a", [1, 2])  # the priming event's id: all after it
    assert replay(store, ids[1]) == ("a", [2])
    assert replay(store, ids[2]) == ("b", [11])
    assert replay(store, "unknown") == (None, [])
    assert len(set(ids)) == 5


def test_keeps_at_most_max_events_the_oldest_going_first() -> None:
    store = BoundedEventStore(max_events=3)
    ids = store_all(store, [("a", None), *[("a", note(n)) for n in range(1, 6)]])
    assert len(store) == 3
    assert replay(store, ids[0]) == (None, [])  # forgotten: nothing to resume from
    assert replay(store, ids[3]) == ("a", [4, 5])
    assert store._streams["a"] == type(store._streams["a"])(ids[3:])


def test_forgets_events_older_than_max_age() -> None:
    clock = Clock()
    store = BoundedEventStore(max_age=60, clock=clock)
    first = store_all(store, [("a", None), ("a", note(1)), ("b", note(2))])
    clock.now = 61
    assert replay(store, first[0]) == (None, [])
    assert len(store) == 0 and not store._streams
    later = store_all(store, [("a", note(3)), ("a", note(4))])
    assert replay(store, later[0]) == ("a", [4])


@pytest.mark.parametrize(("events", "age"), [(0, 1.0), (1, 0.0)])
def test_bounds_must_be_positive(events: int, age: float) -> None:
    with pytest.raises(ValueError, match="must be positive"):
        BoundedEventStore(max_events=events, max_age=age)
