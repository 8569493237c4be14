"""Whether a notebook tool runs as a task for outside clients (the MCP tasks extension).

Plain data: the served surface (``workbench/serving/tasks.py``) reads it; the tool itself is
unchanged, it runs the same way whether its caller waits or polls.
"""

from __future__ import annotations

from typing import Literal

from workbench.errors import ToolDefinitionError

TaskMode = Literal["forbidden", "optional", "required"]
TaskSupport = bool | TaskMode
"""``True`` means ``"optional"``, ``False`` ``"forbidden"``."""

MODES: tuple[TaskMode, ...] = ("forbidden", "optional", "required")


def task_support(value: object) -> TaskMode:
    """``value`` as a task mode, or a one-line ToolDefinitionError."""
    if value is True:
        return "optional"
    if value is False or value is None:
        return "forbidden"
    for mode in MODES:
        if value == mode:
            return mode
    raise ToolDefinitionError(
        f"task is True, False, 'optional', 'required' or 'forbidden', not {value!r}."
    )
