"""The project's own exception and warning types.

Errors a user can cause carry a one-line message; the magic layer turns them into
IPython's ``UsageError``. Failed tool *calls* are never exceptions: they become error
Observations.
"""

from __future__ import annotations

from collections.abc import Sequence


class WorkbenchError(Exception):
    """Base of every error the workbench raises on purpose."""


class WorkbenchWarning(UserWarning):
    """Base of every warning the workbench emits on purpose."""


class SchemaFallbackWarning(WorkbenchWarning):
    """A parameter's annotation could not become a JSON Schema; it accepts anything."""


class ToolDefinitionError(WorkbenchError):
    """A function or class cannot become a tool (e.g. ``*args``, a bad name)."""


class ToolNotFoundError(WorkbenchError):
    """No tool has this id or name; ``suggestions`` lists close ids."""

    def __init__(self, name: str, suggestions: Sequence[str] = ()) -> None:
        self.name = name
        self.suggestions = list(suggestions)
        hint = f" Did you mean: {', '.join(self.suggestions)}?" if self.suggestions else ""
        super().__init__(f"No tool named {name!r}.{hint}")


class AmbiguousToolError(WorkbenchError):
    """A bare tool name exists on several servers; ``candidates`` lists their ids."""

    def __init__(self, name: str, candidates: Sequence[str]) -> None:
        self.name = name
        self.candidates = list(candidates)
        super().__init__(
            f"Tool name {name!r} exists on several servers; use one of: "
            f"{', '.join(self.candidates)}."
        )


class InvalidArgumentsError(WorkbenchError):
    """Arguments do not match a tool's input schema; ``problems`` names every bad field."""

    def __init__(self, tool: str, problems: Sequence[tuple[str, str]]) -> None:
        self.tool = tool
        self.problems = list(problems)
        listed = "; ".join(f"{field}: {why}" for field, why in self.problems)
        super().__init__(f"Invalid arguments for {tool}: {listed}")


class UnknownServerError(WorkbenchError):
    """No server (connection or registry entry) has this name."""


class BridgeError(WorkbenchError):
    """The event-loop bridge was misused (closed, or blocked from its own thread)."""


class ConnectionFailedError(WorkbenchError):
    """A server could not be connected; the message says why and what to try."""


class WorkbenchClosedError(WorkbenchError):
    """The Workbench was closed; create a new one."""


class ConnectionWarning(WorkbenchWarning):
    """A server of a config file failed to connect while the others went on."""
