"""Listeners: who follows a change (views, mostly), called so that they can never break it.

A history record, a registry change or a server's log line is made by a call, a connection
or a cell; a view that follows it and fails (a comm closing with the kernel, say) must not
turn that good call into an exception. Each failing listener is reported once, as a
``ListenerWarning``, and the others still run.
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Callable
from typing import Generic, TypeVar

from workbench.errors import ListenerWarning

T = TypeVar("T")


class Listeners(Generic[T]):
    """Functions of one argument, called in subscription order; safe from any thread."""

    def __init__(self, what: str) -> None:
        self._what = what
        self._listeners: list[Callable[[T], object]] = []
        self._reported: set[int] = set()
        self._lock = threading.Lock()

    def subscribe(self, listener: Callable[[T], object]) -> Callable[[], None]:
        """Follow changes; returns the function that stops following (idempotent)."""
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    def notify(self, value: T) -> None:
        """Call every listener with ``value``; one that raises is warned about (once)."""
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            try:
                listener(value)
            except Exception as error:
                self._report(listener, error)

    def __len__(self) -> int:
        return len(self._listeners)

    def _report(self, listener: Callable[[T], object], error: Exception) -> None:
        key = id(listener)
        with self._lock:
            if key in self._reported:
                return
            self._reported.add(key)
        warn_raised(f"A listener of {self._what}", listener, error, "it is ignored (reported once)")


def warn_raised(
    what: str, listener: Callable[..., object], error: Exception, outcome: str, stacklevel: int = 4
) -> None:
    """One ``ListenerWarning`` naming the callback that raised, what it raised, and what
    happens to it now; shared by every place that calls people's callbacks."""
    name = getattr(listener, "__qualname__", None) or repr(listener)
    warnings.warn(
        f"{what} ({name}) raised {type(error).__name__}: {error}; {outcome}.",
        ListenerWarning,
        stacklevel=stacklevel,
    )
