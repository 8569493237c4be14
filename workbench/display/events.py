"""The event log as a table, and the table kept live in its cell as events come.

``EventTable`` is a snapshot of events (newest last); ``LiveEventTable`` shows one in the
cell that made it and updates that display in place, on the thread that emitted each event
(an event tool's worker thread), until ``close()``. The display room knows the shapes of an
event and of a log (``EventLike``, ``EventSource``), not ``workbench.events`` itself.
"""

from __future__ import annotations

import contextvars
import json
import threading
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any, Protocol

from workbench.display.formatting import shorten
from workbench.display.live import DisplayHandleLike, _in_a_kernel
from workbench.display.tables import Cell, Note, TableView

PAYLOAD_WIDTH = 80
SHOWN = 50
"""Rows a table shows: the newest events."""


class EventLike(Protocol):
    """What the table shows of an event (``workbench.events.Event`` has it)."""

    @property
    def id(self) -> str: ...
    @property
    def time(self) -> datetime: ...
    @property
    def channel(self) -> str: ...
    @property
    def tool(self) -> str: ...
    @property
    def payload(self) -> Any: ...


class EventSource(Protocol):
    """What a live table follows (``workbench.events.EventLog``)."""

    def subscribe(self, listener: Callable[[Any], object]) -> Callable[[], None]: ...
    def last(self, count: int | None = None) -> list[Any]: ...


class EventTable(TableView):
    """Events, oldest first: id, time, channel, tool and the payload on one line."""

    kind = "event-table"
    headers = ("id", "time", "channel", "tool", "payload")

    def __init__(self, events: Iterable[EventLike], *, total: int | None = None) -> None:
        listed = list(events)
        rows = [
            (
                Cell(event.id, "muted", mono=True),
                Cell(event.time.strftime("%H:%M:%S.%f")[:-3], "muted"),
                Cell(event.channel, "accent", mono=True),
                Cell(event.tool, mono=True),
                Cell(_payload(event.payload), mono=True),
            )
            for event in listed
        ]
        count = len(listed) if total is None else total
        notes = [] if listed else [Note("No events yet.")]
        if total is not None and total > len(listed):
            notes.append(Note(f"The newest {len(listed)} of {total} are shown."))
        super().__init__(f"{count} event{'' if count == 1 else 's'}", rows, notes)


def _payload(payload: Any) -> str:
    try:
        text = json.dumps(payload, ensure_ascii=False, default=str)
    except ValueError:
        text = repr(payload)
    return shorten(text, PAYLOAD_WIDTH)


class LiveEventTable:
    """An EventTable of ``source`` in the current cell, redrawn as each event arrives."""

    def __init__(
        self, source: EventSource, *, shown: int = SHOWN, handle: DisplayHandleLike | None = None
    ) -> None:
        self.source = source
        self.shown = shown
        self._lock = threading.Lock()
        self._context = contextvars.copy_context()
        self._handle = handle if handle is not None else _open(self.view())
        self._stop = source.subscribe(self._on_event) if self._handle is not None else _nothing

    @property
    def live(self) -> bool:
        """Whether events still reach a display."""
        return self._handle is not None

    def view(self) -> EventTable:
        """The table as it stands."""
        everything = self.source.last()
        return EventTable(everything[-self.shown :], total=len(everything))

    def close(self) -> None:
        """Stop following the log; the display keeps its last state."""
        self._stop()
        with self._lock:
            self._handle = None

    def _on_event(self, event: object) -> None:
        with self._lock:
            if self._handle is None:
                return
            try:
                self._context.run(self._handle.update, self.view())
            except Exception:  # a closing kernel: stop, never fail the call that emitted
                self._handle = None


def _open(view: EventTable) -> DisplayHandleLike | None:
    if not _in_a_kernel():
        return None
    from IPython.display import display

    handle: DisplayHandleLike | None = display(view, display_id=True)  # type: ignore[no-untyped-call]
    return handle


def _nothing() -> None:
    """Stops following nothing (a table outside a kernel)."""
