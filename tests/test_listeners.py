"""Listeners: a follower that raises is reported once and never stops the others."""

from __future__ import annotations

import threading
import warnings

import pytest

from workbench.errors import ListenerWarning
from workbench.listeners import Listeners


def test_listeners_are_called_in_order_until_they_unsubscribe() -> None:
    seen: list[str] = []
    listeners: Listeners[int] = Listeners("numbers")
    stop_first = listeners.subscribe(lambda n: seen.append(f"first {n}"))
    listeners.subscribe(lambda n: seen.append(f"second {n}"))
    listeners.notify(1)
    stop_first()
    stop_first()  # idempotent
    listeners.notify(2)
    assert seen == ["first 1", "second 1", "second 2"] and len(listeners) == 1


def test_a_raising_listener_is_warned_about_once_and_the_others_still_run() -> None:
    seen: list[int] = []
    listeners: Listeners[int] = Listeners("numbers")

    def broken(value: int) -> None:
        raise RuntimeError(f"cannot show {value}")

    listeners.subscribe(broken)
    listeners.subscribe(seen.append)
    with pytest.warns(ListenerWarning, match=r"numbers \(.*broken\) raised RuntimeError"):
        listeners.notify(1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        listeners.notify(2)
    assert seen == [1, 2]


def test_subscribing_while_notifying_from_another_thread_is_safe() -> None:
    listeners: Listeners[int] = Listeners("numbers")
    counts: list[int] = []
    listeners.subscribe(counts.append)

    def churn() -> None:
        for _ in range(200):
            listeners.subscribe(lambda _: None)()

    worker = threading.Thread(target=churn)
    worker.start()
    for value in range(200):
        listeners.notify(value)
    worker.join()
    assert counts == list(range(200)) and len(listeners) == 1
