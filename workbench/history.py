"""The call history: the tool calls made in this Workbench, from any path (the newest
``History.limit`` of them, their results within ``History.budget``).

Written only by the Workbench's one call path (and its ``read_resource``, as ``kind``
"resource"), so every way of calling lands here alike. Old calls are dropped, so views find
a call by ``ToolCall.id``, never by its index.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import threading
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from workbench.listeners import Listeners
from workbench.tools.schema import (
    AudioContent,
    EmbeddedResource,
    ImageContent,
    Observation,
    TextContent,
    TextResourceContents,
)

BUDGET = 50_000_000
"""Characters of content the history keeps in full (texts, base64 data, structured content as
JSON): a kernel that makes many large calls must not grow without end. Older calls beyond it
keep a summary; the newest call is always whole."""
LIMIT = 5_000
"""Calls the history keeps: each costs a few kB even when its result is tiny, and a kernel
served to an agent for hours makes many; older ones are dropped, oldest first."""
SUMMARY_TEXT = 200
"""Characters of a trimmed call's text kept in its summary."""
KERNEL, OUTSIDE, APP = "kernel", "outside", "app"
CALL_SOURCE: ContextVar[str] = ContextVar("workbench_call_source", default=KERNEL)
"""Where the calls recorded in this context come from: ``kernel`` (Python, magics, widgets),
``outside`` (a client of ``Workbench.serve``, which sets it around its calls) or ``app`` (an
MCP App drawn in the notebook, through the ``workbench.apps`` comm)."""
APP_NOTES = 100
"""Notes (an App's ``ui/message``, ``ui/update-model-context``) one call keeps, the newest."""


@dataclass(frozen=True)
class ToolCall:
    """One call: what was asked (tool id and arguments), what came back, and when."""

    id: int
    tool_id: str
    server: str
    arguments: dict[str, Any]
    observation: Observation
    started_at: datetime = field(default_factory=lambda: datetime.now(timezone.utc))
    trimmed: bool = False
    """Whether the Observation is a summary: the whole one went over the history's budget."""
    source: str = KERNEL
    """``kernel``, ``outside`` for a call from a client of the served notebook, or ``app``
    for one an App made."""
    kind: str = "tool"
    """``tool`` (``tool_id`` is ``server.tool``) or ``resource`` (a read: ``tool_id`` is the
    URI, ``arguments`` the template's values)."""
    app_notes: list[dict[str, Any]] = field(default_factory=list, compare=False)
    """What the App drawn under this call said (``{"kind", "payload"}``, oldest first):
    a notebook has no chat, so its ``ui/message`` and ``ui/update-model-context`` are kept
    here (``History.note``)."""

    @property
    def status(self) -> str:
        """ "ok", or the error kind."""
        if not self.observation.is_error:
            return "ok"
        kind = self.observation.error_kind
        return kind.value if kind else "error"

    @property
    def duration(self) -> float | None:
        return self.observation.duration

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "tool": self.tool_id,
            "server": self.server,
            "arguments": self.arguments,
            "status": self.status,
            "source": self.source,
            "kind": self.kind,
            "started_at": self.started_at.isoformat(),
            "duration": self.duration,
            "observation": self.observation.model_dump(mode="json", by_alias=True),
            **({"app_notes": list(self.app_notes)} if self.app_notes else {}),
        }


class History:
    """Calls in the order they finished; safe to append from the bridge thread.

    The newest ``limit`` calls are kept (default ``LIMIT``); older ones are dropped, so keep
    a call (or its ``id``) rather than its index. Results are kept whole up to ``budget``
    characters of content (default ``BUDGET``); the oldest beyond it become summaries
    (``ToolCall.trimmed``), the newest is always whole. ``clear()`` forgets every call."""

    def __init__(self, *, budget: int = BUDGET, limit: int = LIMIT) -> None:
        self._limit = _checked_limit(limit)
        self._calls: list[ToolCall] = []
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._listeners: Listeners[ToolCall] = Listeners("the call history")
        self._budget = budget
        self._sizes: dict[int, int] = {}  # call id -> content size, for calls kept whole
        self._held = 0
        self._oldest_whole = 0  # index of the oldest call that may still be whole

    @property
    def budget(self) -> int:
        """Characters of content kept whole; setting it trims at once."""
        return self._budget

    @budget.setter
    def budget(self, characters: int) -> None:
        with self._lock:
            self._budget = characters
            self._trim()

    @property
    def limit(self) -> int:
        """How many calls are kept (the newest); setting it drops the oldest at once."""
        return self._limit

    @limit.setter
    def limit(self, calls: int) -> None:
        with self._lock:
            self._limit = _checked_limit(calls)
            self._drop_oldest()

    def clear(self) -> None:
        """Forget every call (numbering goes on: a new call never takes an old one's id)."""
        with self._lock:
            self._calls.clear()
            self._sizes.clear()
            self._held = 0
            self._oldest_whole = 0

    @property
    def held(self) -> int:
        """Characters of content the whole results hold now."""
        return self._held

    def record(
        self,
        tool_id: str,
        server: str,
        arguments: dict[str, Any],
        observation: Observation,
        *,
        kind: str = "tool",
    ) -> ToolCall:
        with self._lock:
            call = ToolCall(
                next(self._ids),
                tool_id,
                server,
                arguments,
                observation,
                source=CALL_SOURCE.get(),
                kind=kind,
            )
            self._calls.append(call)
            self._sizes[call.id] = size = content_size(observation)
            self._held += size
            self._drop_oldest()
            self._trim()
        self._listeners.notify(call)
        return call

    def record_read(
        self, uri: str, server: str, values: dict[str, Any], observation: Observation
    ) -> Observation:
        """Record a resource read (``kind`` "resource", ``tool_id`` the URI) and return its
        Observation so named: what ``Workbench.read_resource`` and an App's reads keep."""
        observation = observation.model_copy(update={"tool_id": uri})
        self.record(uri, server, values, observation, kind="resource")
        return observation

    def note(self, call_id: int, kind: str, payload: dict[str, Any]) -> ToolCall | None:
        """Keep what an App said on the call it is drawn under (``ToolCall.app_notes``, the
        newest ``APP_NOTES``); None when that call is no longer kept."""
        with self._lock:
            found = next((call for call in self._calls if call.id == call_id), None)
            if found is not None:
                found.app_notes.append({"kind": kind, "payload": payload})
                del found.app_notes[:-APP_NOTES]
        return found

    def _drop_oldest(self) -> None:
        """Drop the calls beyond the limit, oldest first, and their content (lock held)."""
        excess = len(self._calls) - self._limit
        if excess <= 0:
            return
        for call in self._calls[:excess]:
            self._held -= self._sizes.pop(call.id, 0)
        del self._calls[:excess]
        self._oldest_whole = max(0, self._oldest_whole - excess)

    def _trim(self) -> None:
        """Summarise the oldest whole results until the rest fit the budget (lock held)."""
        newest = len(self._calls) - 1
        while self._held > self._budget and self._oldest_whole < newest:
            call = self._calls[self._oldest_whole]
            size = self._sizes.pop(call.id, 0)
            if size:
                self._held -= size
                summary = summarise(call.observation, size, self._budget)
                self._calls[self._oldest_whole] = dataclasses.replace(
                    call, observation=summary, trimmed=True
                )
            self._oldest_whole += 1

    def subscribe(self, listener: Callable[[ToolCall], None]) -> Callable[[], None]:
        """Call ``listener(call)`` after each call is recorded, on the thread that made it
        (often the bridge's); returns the unsubscribe function. A listener that raises is
        warned about once and never fails the call."""
        return self._listeners.subscribe(listener)

    def last(self, count: int | None = None) -> list[ToolCall]:
        with self._lock:
            return list(self._calls if count is None else self._calls[-count:])

    def export(self, path: str | Path) -> Path:
        """Write every call as JSON (arguments, status, timings and Observations).

        JSON has no NaN or infinities: such numbers are written as null, and the call that
        held them gets a ``note`` naming where, so the file stays valid and says so."""
        calls = []
        for call in self.last():
            replaced: list[str] = []
            data = _finite(call.to_dict(), "", replaced)
            if replaced:
                data["note"] = NON_FINITE_NOTE + ", ".join(replaced) + "."
            calls.append(data)
        target = Path(path)
        target.write_text(json.dumps(calls, indent=2, allow_nan=False))
        return target

    def __iter__(self) -> Iterator[ToolCall]:
        return iter(self.last())

    def __len__(self) -> int:
        return len(self._calls)

    def __getitem__(self, index: int) -> ToolCall:
        return self._calls[index]


def _checked_limit(calls: int) -> int:
    if calls < 1:
        raise ValueError(f"History.limit must be at least 1 (the newest call), not {calls}.")
    return calls


def content_size(observation: Observation) -> int:
    """Characters an Observation's content holds: texts, base64 data, structured as JSON."""
    size = 0
    for block in observation.content:
        if isinstance(block, TextContent):
            size += len(block.text)
        elif isinstance(block, ImageContent | AudioContent):
            size += len(block.data)
        elif isinstance(block, EmbeddedResource):
            resource = block.resource
            if isinstance(resource, TextResourceContents):
                size += len(resource.text)
            else:
                size += len(resource.blob)
    if observation.structured_content is not None:
        size += len(json.dumps(observation.structured_content, default=str))
    return size


def summarise(observation: Observation, size: int, budget: int) -> Observation:
    """A trimmed call's Observation: its outcome and the start of its text, saying so."""
    text = observation.text
    head = text[:SUMMARY_TEXT] + ("…" if len(text) > SUMMARY_TEXT else "")
    note = (
        f"[Trimmed: this result's {size:,} characters of content were dropped to keep the "
        f"history's newest results whole within History.budget ({budget:,}).]"
    )
    message = observation.error_message
    return observation.model_copy(
        update={
            "content": [TextContent(text=f"{head}\n{note}" if head else note)],
            "structured_content": None,
            "error_message": message[:SUMMARY_TEXT] if message else message,
        }
    )


NON_FINITE_NOTE = "Numbers JSON cannot hold (NaN, infinities) are written as null: "


def _finite(value: Any, path: str, replaced: list[str]) -> Any:
    """``value`` with every NaN and infinity made None; their paths go to ``replaced``."""
    if isinstance(value, float) and not math.isfinite(value):
        replaced.append(f"{path} ({value})")
        return None
    if isinstance(value, dict):
        return {
            key: _finite(item, f"{path}.{key}" if path else str(key), replaced)
            for key, item in value.items()
        }
    if isinstance(value, list | tuple):
        return [_finite(item, f"{path}[{index}]", replaced) for index, item in enumerate(value)]
    return value
