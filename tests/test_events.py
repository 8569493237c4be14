"""The event log: bounded, ordered, followed, cleared; a failing follower never fails emit."""

from __future__ import annotations

import pytest

from workbench.errors import ListenerWarning
from workbench.events import Event, EventLog


def test_events_are_kept_in_order_up_to_the_capacity() -> None:
    log = EventLog(capacity=3)
    for number in range(5):
        log.emit("c", {"n": number}, tool="t")
    assert [event.payload["n"] for event in log] == [2, 3, 4]
    assert [event.id for event in log] == ["evt-000003", "evt-000004", "evt-000005"]
    assert len(log) == 3 and log[-1].payload == {"n": 4}
    assert [event.payload["n"] for event in log.last(2)] == [3, 4]


def test_subscribers_follow_until_they_unsubscribe() -> None:
    log = EventLog()
    seen: list[Event] = []
    stop = log.subscribe(seen.append)
    first = log.emit("orders", {"a": 1})
    stop()
    log.emit("orders", {"a": 2})
    assert seen == [first]


def test_clear_forgets_events_but_ids_go_on() -> None:
    log = EventLog()
    log.emit("c", {})
    log.clear()
    assert list(log) == []
    assert log.emit("c", {}).id == "evt-000002"


def test_a_follower_that_raises_is_warned_about_and_emit_goes_on() -> None:
    log = EventLog()

    def broken(event: Event) -> None:
        raise RuntimeError("view gone")

    log.subscribe(broken)
    with pytest.warns(ListenerWarning, match="view gone"):
        event = log.emit("c", {"x": 1})
    assert list(log) == [event]


def test_the_payload_is_copied_and_the_receipt_says_where_and_when() -> None:
    payload = {"x": 1}
    event = EventLog().emit("c", payload)
    payload["x"] = 2
    assert event.payload == {"x": 1}
    assert event.receipt() == {"event_id": event.id, "channel": "c", "time": event.time.isoformat()}
    assert event.time.tzinfo is not None
