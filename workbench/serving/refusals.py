"""A notebook tool that refuses its call answers a JSON-RPC error, not a tool error.

A tool raises ``workbench.ProtocolError`` (``code``, ``message``, ``data``): its Observation
is of kind ``protocol`` with that code. FastMCP masks any exception a tool body raises into
an ``isError`` result (all but -32021), so a served tool cannot raise the error itself: it
returns a ``Refused`` result, and the ``Refusals`` middleware, outside that masking, raises
it as the JSON-RPC error the client reads. The in-kernel ``notebook`` server does the same,
so the Workbench's own call sees the code (``Connection`` keeps it on the Observation), and
a served call passes it on unchanged.
"""

from __future__ import annotations

from typing import Any

from fastmcp.server.middleware import CallNext, Middleware, MiddlewareContext
from fastmcp.tools import ToolResult
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel, ConfigDict

from workbench.tools.schema import ErrorKind, Observation


class Refused(ToolResult):
    """A tool's answer that is a JSON-RPC error; ``Refusals`` raises it."""

    model_config = ConfigDict(arbitrary_types_allowed=True)
    refusal: MCPError

    def __init__(self, refusal: MCPError) -> None:
        BaseModel.__init__(
            self, content=[], structured_content=None, meta=None, is_error=True, refusal=refusal
        )


def refusal_of(observation: Observation, prefix: str = "") -> MCPError | None:
    """The JSON-RPC error a ``protocol`` Observation stands for (``prefix``, the
    ``server.tool: `` the Workbench put before the words, left out); None for any other."""
    if observation.error_kind is not ErrorKind.PROTOCOL or observation.error_code is None:
        return None
    message = observation.error_message or "The call was refused."
    if prefix and message.startswith(prefix):
        message = message[len(prefix) :]
    return MCPError(code=observation.error_code, message=message, data=observation.error_data)


def refusal_wire(refusal: MCPError) -> dict[str, Any]:
    """The error as a task's ``error`` (a JSON-RPC error object)."""
    return refusal.error.model_dump(mode="json", exclude_none=True)


class Refusals(Middleware):
    """Raise a ``Refused`` result as its JSON-RPC error, past FastMCP's masking."""

    async def on_call_tool(
        self, context: MiddlewareContext[Any], call_next: CallNext[Any, Any]
    ) -> Any:
        result = await call_next(context)
        if isinstance(result, Refused):
            raise result.refusal
        return result
