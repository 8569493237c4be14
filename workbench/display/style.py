"""One palette for terminals and notebooks: a tone names a meaning, each medium picks a colour.

Colours in HTML are JupyterLab's theme variables with fallbacks, so one output reads well in
the light and the dark theme (and in front ends without those variables, such as VS Code).
"""

from __future__ import annotations

from typing import Literal

Tone = Literal["ok", "error", "warn", "muted", "accent"]

RICH_STYLE: dict[Tone, str] = {
    "ok": "green",
    "error": "bold red",
    "warn": "yellow",
    "muted": "dim",
    "accent": "cyan",
}

CSS_COLOR: dict[Tone, str] = {
    "ok": "var(--jp-success-color1, #2e7d32)",
    "error": "var(--jp-error-color1, #d32f2f)",
    "warn": "var(--jp-warn-color1, #ef6c00)",
    "muted": "var(--jp-ui-font-color2, #808080)",
    "accent": "var(--jp-brand-color1, #1976d2)",
}

FONT = "var(--jp-ui-font-family, system-ui, sans-serif)"
MONO = "var(--jp-code-font-family, ui-monospace, SFMono-Regular, Menlo, monospace)"
TEXT = "var(--jp-ui-font-color1, inherit)"
BORDER = "var(--jp-border-color2, rgba(128, 128, 128, 0.35))"
SUBTLE = "var(--jp-layout-color2, rgba(128, 128, 128, 0.1))"

_STATUS_TONE: dict[str, Tone] = {
    "ok": "ok",
    "connected": "ok",
    "connecting": "warn",
    "cancelled": "warn",
    "disconnected": "muted",
    "closed": "muted",
}

_LEVEL_TONE: dict[str, Tone] = {
    "debug": "muted",
    "info": "accent",
    "notice": "accent",
    "warning": "warn",
}

_BADGE_TONE: dict[str, Tone] = {
    "read-only": "ok",
    "destructive": "error",
    "idempotent": "accent",
    "open-world": "warn",
}


def status_tone(status: str) -> Tone:
    """The tone of a server status or a call status; anything unknown reads as a failure."""
    return _STATUS_TONE.get(status, "error")


def level_tone(level: str) -> Tone:
    """The tone of an MCP log level (error and above are errors)."""
    return _LEVEL_TONE.get(level.lower(), "error")


def badge_tone(badge: str) -> Tone:
    """The tone of an annotation badge: destructive tools stand out, read-only ones reassure."""
    return _BADGE_TONE.get(badge, "muted")
