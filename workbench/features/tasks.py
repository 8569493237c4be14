"""Tasks (the MCP tasks extension, SEP-2663): a tool call that answers with a handle to poll.

Plain data shared by both ends: the served notebook builds these states, the client reads
them back from whichever wire the server speaks (the ``io.modelcontextprotocol/tasks``
extension of 2026-07-28, or the experimental tasks of 2025-11-25). A :class:`TaskRecord` is
what the client keeps of a task so it can resume after a kernel restart: ids and times only,
never arguments or results.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from typing import Any, Literal

TASKS_EXTENSION = "io.modelcontextprotocol/tasks"
"""The extension's identifier, in capabilities and per-request client capabilities."""

MISSING_CAPABILITY = -32021
"""JSON-RPC code of a request that needs a client capability it did not declare."""

PROGRESS_META = "dev.workbench/progress"
"""A task's ``_meta`` key holding its last progress (``{"progress": p, "total": t}``)."""

TaskStatus = Literal["working", "input_required", "completed", "failed", "cancelled"]
TERMINAL: frozenset[str] = frozenset({"completed", "failed", "cancelled"})

Flavor = Literal["extension", "2025-11-25"]
"""Which wire a task lives on: the 2026-07-28 extension, or 2025-11-25's experimental tasks."""


def now_iso() -> str:
    """The current time as MCP writes it (ISO 8601, UTC, milliseconds)."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def parse_iso(text: str) -> datetime | None:
    """An ISO 8601 time, or None when it is not one."""
    try:
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except (TypeError, ValueError):
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=timezone.utc)


@dataclass(frozen=True)
class TaskState:
    """One task as ``tasks/get`` reports it (a ``DetailedTask``)."""

    task_id: str
    status: str
    created_at: str
    last_updated_at: str
    ttl_ms: int | None
    poll_interval_ms: int | None = None
    status_message: str | None = None
    input_requests: dict[str, dict[str, Any]] = field(default_factory=dict)
    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None
    progress: tuple[float, float | None] | None = None

    @property
    def terminal(self) -> bool:
        return self.status in TERMINAL

    def updated(self, **changes: Any) -> TaskState:
        """This state with ``changes`` and a fresh ``last_updated_at``."""
        return replace(self, last_updated_at=now_iso(), **changes)

    def to_wire(self, *, detailed: bool = True) -> dict[str, Any]:
        """The extension's wire shape: a ``DetailedTask`` (``tasks/get``), or without the
        status payloads (``detailed=False``) for a ``CreateTaskResult``."""
        wire: dict[str, Any] = {
            "taskId": self.task_id,
            "status": self.status,
            "createdAt": self.created_at,
            "lastUpdatedAt": self.last_updated_at,
            "ttlMs": self.ttl_ms,
        }
        if self.poll_interval_ms is not None:
            wire["pollIntervalMs"] = self.poll_interval_ms
        if self.status_message is not None:
            wire["statusMessage"] = self.status_message
        if self.progress is not None:
            done, total = self.progress
            wire["_meta"] = {PROGRESS_META: {"progress": done, "total": total}}
        if detailed:
            if self.status == "input_required":
                wire["inputRequests"] = dict(self.input_requests)
            if self.status == "completed" and self.result is not None:
                wire["result"] = self.result
            if self.status == "failed" and self.error is not None:
                wire["error"] = self.error
        return wire

    @classmethod
    def from_wire(cls, data: Mapping[str, Any]) -> TaskState:
        """A task from either wire: the extension's flat shape (``ttlMs``), 2025-11-25's
        (``ttl``, ``pollInterval``) or a ``CreateTaskResult`` nesting it under ``task``."""
        nested = data.get("task")
        body: Mapping[str, Any] = nested if isinstance(nested, Mapping) else data
        ttl = body.get("ttlMs", body.get("ttl"))
        poll = body.get("pollIntervalMs", body.get("pollInterval"))
        meta = body.get("_meta")
        progress = meta.get(PROGRESS_META) if isinstance(meta, Mapping) else None
        requests = body.get("inputRequests")
        return cls(
            task_id=str(body.get("taskId", "")),
            status=str(body.get("status", "working")),
            created_at=str(body.get("createdAt", "")),
            last_updated_at=str(body.get("lastUpdatedAt", body.get("createdAt", ""))),
            ttl_ms=int(ttl) if isinstance(ttl, (int, float)) else None,
            poll_interval_ms=int(poll) if isinstance(poll, (int, float)) else None,
            status_message=_text(body.get("statusMessage")),
            input_requests=dict(requests) if isinstance(requests, Mapping) else {},
            result=_mapping(body.get("result")),
            error=_mapping(body.get("error")),
            progress=_progress(progress),
        )


@dataclass(frozen=True)
class TaskRecord:
    """What the client keeps of a task it started: enough to list and resume it."""

    task_id: str
    server: str
    tool_id: str
    created_at: str
    ttl_ms: int | None
    flavor: Flavor = "extension"
    status: str = "working"

    def expired(self, now: datetime | None = None) -> bool:
        """Whether the task's TTL has passed (the server may have forgotten it)."""
        created = parse_iso(self.created_at)
        if created is None or self.ttl_ms is None:
            return False
        elapsed = ((now or datetime.now(timezone.utc)) - created).total_seconds() * 1000
        return elapsed > self.ttl_ms

    def to_json(self) -> dict[str, Any]:
        return {
            "taskId": self.task_id,
            "server": self.server,
            "toolId": self.tool_id,
            "createdAt": self.created_at,
            "ttlMs": self.ttl_ms,
            "flavor": self.flavor,
            "status": self.status,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TaskRecord | None:
        """A record read back, or None when it is not one."""
        try:
            ttl = data.get("ttlMs")
            flavor: Flavor = "2025-11-25" if data.get("flavor") == "2025-11-25" else "extension"
            return cls(
                task_id=str(data["taskId"]),
                server=str(data["server"]),
                tool_id=str(data["toolId"]),
                created_at=str(data.get("createdAt", "")),
                ttl_ms=int(ttl) if isinstance(ttl, (int, float)) else None,
                flavor=flavor,
                status=str(data.get("status", "working")),
            )
        except (KeyError, TypeError, ValueError):
            return None


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _mapping(value: object) -> dict[str, Any] | None:
    return dict(value) if isinstance(value, Mapping) else None


def _progress(value: object) -> tuple[float, float | None] | None:
    if not isinstance(value, Mapping) or not isinstance(value.get("progress"), (int, float)):
        return None
    total = value.get("total")
    return float(value["progress"]), float(total) if isinstance(total, (int, float)) else None
