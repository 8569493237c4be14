"""A tool call answered in process: the server's tool run where the client would have sent it.

The kernel's own ``notebook`` server is a FastMCP server in the kernel: a call of one of its
tools crossing the in-memory transport enters a second request context, its middleware and
JSON-RPC (de)serialisation for nothing the call needs. A ``DirectCall`` (``serving/direct.py``)
answers with the ``CallToolResult`` the client would have read (or raises the error it would
have raised), and ``Connection.call`` treats it like any other answer: the same timeout, the
same output-schema check by the client's session, the same Observation and error mapping.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import mcp_types

if TYPE_CHECKING:
    from workbench.mcp.connection import Connection

ProgressHandler = Callable[[float, "float | None", "str | None"], Awaitable[None]]
"""The client's progress handler of the call (``(progress, total, message)``)."""
LogHandler = Callable[[Any], Awaitable[None]]
"""The client's log handler: takes ``LoggingMessageNotificationParams``."""
DirectCall = Callable[
    [str, dict[str, Any], "ProgressHandler | None", LogHandler],
    Awaitable[mcp_types.CallToolResult],
]
"""``(tool, arguments, progress handler, log handler)`` to the call's ``CallToolResult``."""


async def answer_directly(
    direct: DirectCall,
    connection: Connection,
    tool: str,
    arguments: dict[str, Any],
    limit: float,
    progress: ProgressHandler | None,
) -> mcp_types.CallToolResult:
    """``direct``'s answer within ``limit`` seconds (else TimeoutError, the call cancelled),
    its logs to the connection's log handler, its structured content checked against the
    tool's output schema as the client's session checks every answer it reads."""
    call = direct(tool, arguments, progress, connection._handle_log)
    try:
        result = await asyncio.wait_for(call, limit)
    except asyncio.TimeoutError:  # its own class before 3.11
        raise TimeoutError(f"{tool} did not answer within {limit:g} s") from None
    if not result.is_error:
        await connection._client.session.validate_tool_result(tool, result)
    return result
