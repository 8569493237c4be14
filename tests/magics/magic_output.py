"""Reading what a magic displayed while ``IPython.utils.capture.capture_output`` was on."""

from __future__ import annotations

from typing import Any

from IPython.utils.capture import CapturedIO


def bundles(captured: CapturedIO) -> list[dict[str, Any]]:
    """The mime bundles displayed while capturing."""
    return [dict(output.data) for output in captured.outputs]


def shown(captured: CapturedIO) -> str:
    """Everything a person would read: stdout and every displayed text/plain."""
    return captured.stdout + "\n".join(b.get("text/plain", "") for b in bundles(captured))
