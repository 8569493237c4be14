"""The call history: every tool call made in this Workbench, from any path."""

from __future__ import annotations

import itertools
import json
import math
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from workbench.listeners import Listeners
from workbench.tools.schema import Observation


@dataclass(frozen=True)
class ToolCall:
    """One call: what was asked (tool id and arguments), what came back, and when."""

    id: int
    tool_id: str
    server: str
    arguments: dict[str, Any]
    observation: Observation
    started_at: datetime = field(default_factory=lambda: datetime.now(timezone.utc))

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
            "started_at": self.started_at.isoformat(),
            "duration": self.duration,
            "observation": self.observation.model_dump(mode="json", by_alias=True),
        }


class History:
    """Calls in the order they finished; safe to append from the bridge thread."""

    def __init__(self) -> None:
        self._calls: list[ToolCall] = []
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._listeners: Listeners[ToolCall] = Listeners("the call history")

    def record(
        self, tool_id: str, server: str, arguments: dict[str, Any], observation: Observation
    ) -> ToolCall:
        with self._lock:
            call = ToolCall(next(self._ids), tool_id, server, arguments, observation)
            self._calls.append(call)
        self._listeners.notify(call)
        return call

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
