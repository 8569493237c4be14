"""Text helpers shared by every view: durations, cuts with a count of what was left out."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any


def format_duration(seconds: float | None) -> str:
    """Milliseconds under a second (where people compare calls), seconds above."""
    if seconds is None:
        return ""
    if seconds < 1:
        return f"{seconds * 1000:.1f} ms"
    if seconds < 10:
        return f"{seconds:.2f} s"
    return f"{seconds:.1f} s"


def format_time(moment: datetime) -> str:
    """Local wall-clock time to the second: what a person compares with their own clock."""
    return moment.astimezone().strftime("%H:%M:%S")


def format_size(count: int) -> str:
    """A byte count as people read it (``12.3 kB``)."""
    if count < 1000:
        return f"{count} B"
    if count < 1_000_000:
        return f"{count / 1000:.1f} kB"
    return f"{count / 1_000_000:.1f} MB"


def base64_size(data: str) -> int:
    """The decoded size of base64 data, without decoding it."""
    stripped = data.rstrip("=")
    return len(stripped) * 3 // 4


def cut(text: str, limit: int) -> tuple[str, int]:
    """The first ``limit`` characters of a text and how many were left out."""
    if len(text) <= limit:
        return text, 0
    return text[: max(limit, 0)], len(text) - max(limit, 0)


def more_notice(omitted: int) -> str:
    """The line that says a text was cut, so nobody mistakes a cut text for the whole."""
    noun = "character" if omitted == 1 else "characters"
    return f"… {omitted:,} more {noun} not shown"


def shorten(text: str, limit: int = 80) -> str:
    """The first paragraph on one line, cut at a word boundary with an ellipsis."""
    paragraph = text.strip().split("\n\n", 1)[0]
    flat = " ".join(paragraph.split())
    if len(flat) <= limit:
        return flat
    head = flat[: limit - 1]
    cut_at = head.rsplit(" ", 1)[0] if " " in head else head
    return cut_at.rstrip(",.;:") + "…"


def first_line(text: str | None) -> str:
    """The first non-empty line: errors explain themselves there, tracebacks follow."""
    for line in (text or "").splitlines():
        if line.strip():
            return line.strip()
    return ""


def to_json(value: Any, *, indent: int | None = None) -> str:
    """JSON text of any value (unknown objects by ``str``), keeping non-ASCII readable."""
    return json.dumps(value, indent=indent, ensure_ascii=False, default=str)
