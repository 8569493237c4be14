"""The project's own exception and warning types.

Errors a user can cause carry a one-line message; the magic layer turns them into
IPython's ``UsageError``. Failed tool *calls* are never exceptions: they become error
Observations.
"""

from __future__ import annotations

from collections.abc import Sequence


class WorkbenchError(Exception):
    """Base of every error the workbench raises on purpose."""


class OneLineError(WorkbenchError):
    """An error whose message says all a person needs: IPython shows it as that message
    alone (``_render_traceback_``), without the frames it came through; plain Python
    shows it as any other exception."""

    def _render_traceback_(self) -> list[str]:
        return [f"{type(self).__name__}: {self}"]


class WorkbenchWarning(UserWarning):
    """Base of every warning the workbench emits on purpose."""


class SchemaFallbackWarning(WorkbenchWarning):
    """A parameter's annotation (or an event's payload schema) could not become a JSON
    Schema; it accepts anything."""


class ToolDefinitionError(WorkbenchError):
    """A function or class cannot become a tool (e.g. ``*args``, a bad name)."""


class ToolAnnotationsError(ToolDefinitionError, TypeError):
    """Tool annotations given as something that is neither a mapping nor a model."""


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


class RequestFailedError(WorkbenchError):
    """A request to a server other than a tool call (listing resources, reading a prompt,
    a completion, a ping) failed; the message says which server and why."""


class FormError(WorkbenchError):
    """A form value cannot become arguments at all (``abc`` in a number field, bad JSON);
    ``path`` names the field as the form does (``people[0].name``)."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


class UnknownServerError(WorkbenchError):
    """No server (connection or registry entry) has this name."""


class BridgeError(WorkbenchError):
    """The event-loop bridge was misused (closed, or blocked from its own thread)."""


class KernelLoopBusyError(BridgeError):
    """A wait would stop the kernel's event loop that a notebook tool needs: ``await`` it."""


class ConnectionFailedError(OneLineError):
    """A server could not be connected; the message says why and what to try."""


class WorkbenchClosedError(WorkbenchError):
    """The Workbench was closed; create a new one."""


class ServerNameError(WorkbenchError, ValueError):
    """A server name that cannot name a server (not a string, empty, or with a ``.``)."""


class ServerSpecError(WorkbenchError):
    """A server's settings do not make a connection (what to start, where, how long)."""


class ToolListError(WorkbenchError, ValueError):
    """A server's tool list cannot be read (a tool without a name, one listed twice)."""


class ConfigError(WorkbenchError):
    """A config file, or one server in it, cannot be read."""


class SemanticUnavailableError(WorkbenchError):
    """Semantic search was asked for but its optional model is not installed."""


class WorkspaceError(WorkbenchError):
    """A workspace directory cannot be loaded at all (missing, or no tools/ nor events/)."""


class ExportError(WorkbenchError):
    """The notebook's tools cannot be exported as asked (the file exists, no tool can be
    written out, a folder that does not exist, ...)."""


class ProtocolError(WorkbenchError):
    """Raised by a notebook tool to refuse its call with a JSON-RPC error (``code``,
    ``message``, ``data``) rather than answer a tool error: a served call answers that
    error, a served task ends ``failed`` carrying it, and the notebook's own call gets an
    error Observation of kind ``protocol`` saying so. -32603 (internal error) by default."""

    def __init__(self, message: str, code: int = -32603, data: object = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.data = data


class ConnectionWarning(WorkbenchWarning):
    """A server of a config file failed to connect while the others went on."""


class UnansweredRequestWarning(WorkbenchWarning):
    """A server asked for input or a completion and nobody was there to answer (a script
    with no handler set): it was declined."""


class ListenerWarning(WorkbenchWarning):
    """A view's listener raised; it is reported once and never fails the change it followed."""


class ServeError(OneLineError):
    """The notebook's tools cannot be served as asked (a remote address without the flag,
    a port in use, a token variable that is not set, ...)."""


class NotServedError(ServeError, AttributeError):
    """``Workbench.served`` was asked for while nothing is served."""


class ServeWarning(WorkbenchWarning):
    """Serving goes on, but something deserves a look: no auth, a filter naming no tool."""
