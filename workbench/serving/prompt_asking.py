"""A notebook prompt asks its caller too: ``get_context()`` inside a ``@prompt`` function.

Rendering a prompt (``prompts/get``) may need input, as a tool call may: the prompt's
function asks with ``get_context().elicit / sample / roots`` and the question goes to the
client that asked for the prompt, in its era (``served_asking.py``): on the handshake-era
session, or as ``InputRequiredResult`` rounds of ``prompts/get`` for a 2026-07-28 client
(SEP-2322 makes them universal; FastMCP answers ``InputRequiredPromptResult``). The rendering
stays suspended in its question between rounds (``rounds.py``). A question whose capability
the client did not declare, left uncaught, answers -32021 (SEP-2575). Outside any request
(a direct render) the function asks whoever the context already names, or nobody.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import mcp_types
from mcp.shared.exceptions import MCPError
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from workbench.serving.questions import MissingCapability, asking
from workbench.serving.rounds import Rounds, Suspended
from workbench.serving.served_asking import missing_error, round_askers, session_askers
from workbench.serving.tool_context import serving

Render = Callable[[], Awaitable[Any]]
"""Runs the prompt's function and makes its result."""
GONE = (
    "This prompt no longer waits for answers (it was rendered, abandoned after its time to "
    "answer, or that round was already answered): get the prompt again."
)


async def asked_render(name: str, render: Render, rounds: Rounds) -> Any:
    """Render the prompt ``name``, its questions put to the requesting client: the result,
    or an ``mcp_types.InputRequiredResult`` (a round of its questions)."""
    ctx = _request()
    rc = getattr(ctx, "request_context", None)
    if rc is None:
        with serving(name, None):
            return await render()
    if rc.protocol_version not in MODERN_PROTOCOL_VERSIONS:
        with asking(*session_askers(ctx)), serving(name, ctx):
            return await render()
    refused: list[MissingCapability] = []

    async def start(call: Suspended) -> Any:
        with asking(*round_askers(ctx, call, refused)), serving(name, ctx):
            return await render()

    try:
        if ctx.request_state is None:
            return await rounds.first(start, None, ctx.input_responses)
        again = await rounds.again(ctx.request_state, ctx.input_responses)
    except MissingCapability as refusal:
        raise missing_error([refusal.capability]) from None
    if again is None:
        raise MCPError(code=mcp_types.INVALID_PARAMS, message=GONE)
    return again


def _request() -> Any:
    from fastmcp.server.dependencies import get_context

    try:
        return get_context()
    except RuntimeError:
        return None
