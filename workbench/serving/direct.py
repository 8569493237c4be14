"""Served calls of notebook tools without the second MCP hop inside the kernel (issue 29).

A served call (``%mcp serve``: an outside client, a served task) of a notebook tool goes
through the Workbench's one call path, whose ``notebook`` connection is an in-memory client of
the in-kernel FastMCP server: a second request context, its middleware and JSON-RPC for each
call, measured as most of what a served call costs beyond a plain FastMCP server. For these
calls the connection hands the call to ``DirectCalls`` instead, which answers as that server
would: the same ``DefinitionTool`` runs the definition (``DefinitionTool.answer``), its
progress and log lines go to the connection's handlers as the server's notifications would,
a refusal (``ProtocolError``) raises the JSON-RPC error the client would have read, and the
result is the ``CallToolResult`` as it crosses the wire. Everything else (the Action, the
history record, the timeout, the Observation, who answers a tool's questions) is the call
path's, unchanged. Calls from the notebook itself keep the MCP hop: they show the notebook
server as any other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import mcp_types
from fastmcp.exceptions import FastMCPError
from fastmcp.tools import ToolResult
from mcp.shared.exceptions import MCPError
from pydantic import ValidationError

from workbench.mcp.direct import LogHandler, ProgressHandler
from workbench.serving.refusals import Refused

if TYPE_CHECKING:
    from workbench.serving.notebook_server import LocalServer


class Reporter:
    """What stands for fastmcp's request Context in a direct call's ``ToolContext``: its
    progress goes to the call's progress handler (none: the client asked for none), its log
    lines to the connection's log handler, shaped as the server's notifications arrive."""

    def __init__(self, progress: ProgressHandler | None, log: LogHandler) -> None:
        self._progress = progress
        self._log = log

    async def report_progress(
        self, progress: float, total: float | None = None, message: str | None = None
    ) -> None:
        if self._progress is not None:
            await self._progress(progress, total, message)

    async def log(
        self,
        message: str,
        level: str | None = None,
        logger_name: str | None = None,
        extra: Any = None,
    ) -> None:
        params = mcp_types.LoggingMessageNotificationParams(
            level=level or "info",
            logger=logger_name,
            data={"msg": message, "extra": extra},
        )
        await self._log(params)


class DirectCalls:
    """Answers calls of the notebook server's tools in process (a ``DirectCall``)."""

    def __init__(self, local: LocalServer) -> None:
        self._local = local

    async def __call__(
        self,
        tool: str,
        arguments: dict[str, Any],
        progress: ProgressHandler | None,
        log: LogHandler,
    ) -> mcp_types.CallToolResult:
        served = self._local.tool(tool)
        if served is None:  # removed since the registry listed it: as FastMCP answers
            return _error(f"Unknown tool: {tool!r}")
        try:
            result = served._mark_non_object_result(
                await served.answer(arguments, Reporter(progress, log))
            )
        except FastMCPError as error:  # as FastMCP answers them: the error's words
            return _error(str(error))
        except ValidationError:  # not masked: the SDK answers the JSON-RPC error
            raise MCPError(mcp_types.INVALID_PARAMS, "Invalid request parameters", "") from None
        except MCPError as error:
            if error.code == mcp_types.MISSING_REQUIRED_CLIENT_CAPABILITY:
                raise as_read(error) from None  # on the wire, not masked
            return _error(f"Error calling tool {tool!r}: {error}")
        except Exception as error:  # masked into a result, as FastMCP does
            return _error(f"Error calling tool {tool!r}: {error}")
        if isinstance(result, Refused):  # the Refusals middleware raises it
            raise as_read(result.refusal) from None
        return as_sent(result)


def as_sent(result: ToolResult) -> mcp_types.CallToolResult:
    """The result as the client reads it off the wire (FastMCP's shapes normalised, then
    JSON and back)."""
    made = result.to_mcp_result()
    if isinstance(made, tuple):
        made = mcp_types.CallToolResult(content=made[0], structured_content=made[1])
    elif not isinstance(made, mcp_types.CallToolResult):
        made = mcp_types.CallToolResult(content=made)
    wire = made.model_dump(mode="json", by_alias=True, exclude_none=True)
    return mcp_types.CallToolResult.model_validate(wire)


def as_read(error: MCPError) -> MCPError:
    """A JSON-RPC error as the client raises it (its ``ErrorData`` as the in-memory
    transport hands it over: not through JSON)."""
    return MCPError.from_error_data(error.error)


def _error(text: str) -> mcp_types.CallToolResult:
    return mcp_types.CallToolResult(
        content=[mcp_types.TextContent(type="text", text=text)], is_error=True
    )
