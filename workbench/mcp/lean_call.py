"""A ``tools/call`` through the client's MCP session: what ``Client.call_tool_mcp`` does that
the workbench needs, at a fraction of its per-call cost.

FastMCP's ``call_tool_mcp`` races each call against the session's own task (an HTTP server's
4xx/5xx, a dead stdio server, end that task, not the call) with a task and ``asyncio.wait``,
twice: once for the call, once more for its SEP-2322 rounds even when there are none. That
is about 250 us of a 2 ms in-process call (``benchmarks/bridge_latency.py``), more than the
bridge's thread hop. Here one done-callback on the session task does the same watching, the
way ``asyncio.timeout`` cancels: the session ending cancels the waiting call, which then
raises what ended the session, as FastMCP does. FastMCP's trace span and the trace context it
sends are kept; a result that is not final (an ``InputRequiredResult``: the server asks) goes
to the client's own SEP-2322 driver, so its questions reach the same handlers.

The client's session task, driver and claims are FastMCP's private attributes, read
defensively: a client without them, or one that claims results (SEP-2133), takes the whole
``call_tool_mcp``. ``tests/mcp/test_lean_call.py`` checks that this FastMCP takes the short way.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:  # imported at the first call: `%load_ext workbench` imports no fastmcp
    import mcp_types
    from fastmcp import Client

T = TypeVar("T")
Driver = Callable[..., Coroutine[Any, Any, Any]]


def short_way(client: Client[Any]) -> tuple[asyncio.Task[Any] | None, Driver] | None:
    """The client's session task (None: nothing to watch) and SEP-2322 driver, when its
    calls can take the short way; None when only ``call_tool_mcp`` knows how."""
    state = getattr(client, "_session_state", None)
    drive = getattr(client, "_drive_input_required", None)
    claims = getattr(client, "_claim_by_model", None)
    if state is None or not callable(drive) or claims is None or claims:
        return None
    session_task = getattr(state, "session_task", None)
    if session_task is not None and not isinstance(session_task, asyncio.Task):
        return None
    return session_task, drive


async def call_tool(
    client: Client[Any],
    name: str,
    arguments: dict[str, Any],
    timeout: float,
    progress: Any = None,
) -> mcp_types.CallToolResult:
    """``client.call_tool_mcp(name, arguments, timeout=..., progress_handler=...)``, shorter."""
    import mcp_types
    from fastmcp.client.telemetry import client_span
    from fastmcp.telemetry import inject_trace_context
    from opentelemetry.trace import Status, StatusCode

    found = short_way(client)
    if found is None:
        result: mcp_types.CallToolResult = await client.call_tool_mcp(
            name, arguments, timeout=timeout, progress_handler=progress
        )
        return result
    session_task, drive = found
    session = client.session
    progress = progress or getattr(client, "_progress_handler", None)
    transport = client.transport
    with client_span(
        f"tools/call {name}",
        "tools/call",
        name,
        session_id=transport.get_session_id(),
        tool_name=name,
    ) as span:
        meta = inject_trace_context(None) or None

        async def send(responses: Any, state: str | None) -> Any:
            return await session.call_tool(
                name=name,
                arguments=arguments,
                read_timeout_seconds=timeout,
                progress_callback=progress,
                meta=meta,  # type: ignore[arg-type]  # the trace context: a plain dict
                input_responses=responses,
                request_state=state,
                allow_input_required=True,
            )

        first = await watching(session_task, send(None, None))
        if isinstance(first, mcp_types.InputRequiredResult):
            first = await watching(session_task, drive(first, send))
        if first.is_error and span.is_recording():  # as call_tool_mcp marks a tool's error
            span.set_attribute("error.type", "tool_error")
            said = first.content[0] if first.content else None
            text = said.text if isinstance(said, mcp_types.TextContent) else ""
            span.set_status(Status(StatusCode.ERROR, text))
        return first  # type: ignore[no-any-return]


async def watching(session_task: asyncio.Task[Any] | None, coro: Coroutine[Any, Any, T]) -> T:
    """Await ``coro`` in this task; if the session's task ends first, cancel it and raise
    what ended the session (``RuntimeError`` when it ended quietly), as FastMCP does."""
    if session_task is None:
        return await coro
    if session_task.done():
        coro.close()
        raise _session_end(session_task)
    task = asyncio.current_task()
    assert task is not None, "watching() runs in a task"
    active, ended = True, False

    def on_session_end(_: object) -> None:
        nonlocal ended
        if active:  # scheduled before the call finished, run after: nothing to cancel
            ended = True
            task.cancel()

    session_task.add_done_callback(on_session_end)
    try:
        return await coro
    except asyncio.CancelledError:
        if not ended:
            raise
        if sys.version_info >= (3, 11) and task.uncancel() > 0:
            raise  # cancelled by someone else too: that cancellation wins
        raise _session_end(session_task) from None
    finally:
        active = False
        session_task.remove_done_callback(on_session_end)


def _session_end(session_task: asyncio.Task[Any]) -> BaseException:
    if session_task.cancelled():
        return RuntimeError("Session task completed unexpectedly")
    return session_task.exception() or RuntimeError("Session task completed unexpectedly")
