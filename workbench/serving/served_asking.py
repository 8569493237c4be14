"""A served notebook tool's questions go to the outside client that called it, in its era.

A handshake-era client (2025-11-25 and before) gets a real ``elicitation/create`` (form or
URL mode) or ``sampling/createMessage`` on its session, tied to the call's request. A
2026-07-28 client gets rounds of ``InputRequiredResult`` (``rounds.py``); it has no sampling
(deprecated, SEP-2577). A client that declared no elicitation (or sampling) capability is
never asked: the tool's question raises ``NoOneToAsk`` saying so. Progress and log lines of
a call that spans rounds go to the round in flight (``Relay``).
"""

from __future__ import annotations

import asyncio
import uuid
import warnings
from collections.abc import Awaitable, Callable
from typing import Any

import mcp_types
from mcp.shared.exceptions import MCPDeprecationWarning
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from workbench.mcp.connection import LogRecord, ProgressCallback
from workbench.serving.questions import (
    Asker,
    ElicitationAnswer,
    ElicitationRequest,
    NoOneToAsk,
    Sampler,
    SamplingReply,
    SamplingRequest,
    asking,
)
from workbench.serving.rounds import Rounds, Suspended
from workbench.tools.schema import ErrorKind, Observation

LogFn = Callable[[LogRecord], object]
Reporters = Callable[[list[asyncio.Task[None]]], tuple[ProgressCallback | None, LogFn | None]]
"""Makes the progress and log callbacks of the request in flight (``app.reporters``)."""
CallWith = Callable[[ProgressCallback, LogFn], Awaitable[Observation]]
"""Runs the call through the Workbench with these progress and log callbacks."""
GONE = (
    "This call no longer waits for answers (it ended, was abandoned after its time to answer, "
    "or that round was already answered): call the tool again."
)


class Relay:
    """Progress and log lines of a call, sent with the request in flight."""

    def __init__(self, make: Reporters) -> None:
        self.reports: list[asyncio.Task[None]] = []
        self._progress, self._log = make(self.reports)

    def progress(self, done: float, total: float | None, message: str | None) -> None:
        if self._progress is not None:
            self._progress(done, total, message)

    def log(self, record: LogRecord) -> None:
        if self._log is not None:
            self._log(record)

    async def sent(self) -> None:
        """Wait for the reports made so far: none after the answer of this request."""
        await asyncio.gather(*self.reports, return_exceptions=True)


async def served_call(
    call_with: CallWith, rounds: Rounds, make: Reporters
) -> Observation | mcp_types.InputRequiredResult:
    """Run a served call, its questions put to its client; reports sent before it ends."""
    ctx = _request()
    rc = getattr(ctx, "request_context", None)
    relay = Relay(make)
    if rc is None or rc.protocol_version not in MODERN_PROTOCOL_VERSIONS:
        if rc is None:  # no request (a direct call): the Workbench's own answers
            observation = await call_with(relay.progress, relay.log)
        else:
            with asking(*session_askers(ctx)):
                observation = await call_with(relay.progress, relay.log)
        await relay.sent()
        return observation
    state = ctx.request_state
    refused = _refusing("elicitation") if not _declared(ctx, "elicitation") else None

    async def start(call: Suspended) -> Observation:
        with asking(refused or call.ask, None):
            return await call_with(
                lambda done, total, message: call.relay.progress(done, total, message),
                lambda record: call.relay.log(record),
            )

    if state is None:
        result = await rounds.first(start, relay, ctx.input_responses)
    else:
        again = await rounds.again(state, ctx.input_responses, relay)
        if again is None:
            return Observation.error(ErrorKind.TOOL_ERROR, GONE, duration=0.0)
        result = again
    await relay.sent()
    return result


def session_askers(ctx: Any) -> tuple[Asker, Sampler]:
    """Ask on a handshake-era session, tied to the call's request."""
    session, request_id = ctx.session, ctx.request_id
    elicits, samples = _declared(ctx, "elicitation"), _declared(ctx, "sampling")

    async def ask(request: ElicitationRequest) -> ElicitationAnswer:
        if not elicits:
            raise NoOneToAsk(_not_declared("elicitation"))
        if request.mode == "url":
            result = await session.elicit_url(
                request.message, str(request.url), uuid.uuid4().hex, related_request_id=request_id
            )
        else:
            result = await session.elicit_form(
                request.message, dict(request.schema), related_request_id=request_id
            )
        content = dict(result.content) if result.content is not None else None
        return ElicitationAnswer(result.action, content if result.action == "accept" else None)

    async def sample(request: SamplingRequest) -> SamplingReply:
        if not samples:
            raise NoOneToAsk(_not_declared("sampling"))
        with warnings.catch_warnings():  # deprecated in 2026-07-28; this client has it
            warnings.simplefilter("ignore", MCPDeprecationWarning)
            sent = session.create_message(
                [
                    mcp_types.SamplingMessage(
                        role="user", content=mcp_types.TextContent(type="text", text=message.text)
                    )
                    for message in request.messages
                ],
                max_tokens=request.max_tokens or 100,
                system_prompt=request.system_prompt,
                temperature=request.temperature,
                related_request_id=request_id,
            )
        result = await sent
        content = result.content
        text = getattr(content, "text", None)
        return SamplingReply(
            text if isinstance(text, str) else str(content),
            model=result.model,
            stop_reason=str(result.stop_reason or "endTurn"),
        )

    return ask, sample


def _declared(ctx: Any, capability: str) -> bool:
    """Whether the client declared ``capability``; a client declaring nothing at all (no
    capabilities in a 2026-07-28 request) is taken at its word only for handshake eras."""
    declared = getattr(ctx.session, "client_capabilities", None)
    if declared is None:
        return ctx.request_context.protocol_version in MODERN_PROTOCOL_VERSIONS
    return getattr(declared, capability, None) is not None


def _not_declared(capability: str) -> str:
    return f"The client that called this tool did not declare the {capability} capability."


def _refusing(capability: str) -> Asker:
    async def refuse(request: ElicitationRequest) -> ElicitationAnswer:
        raise NoOneToAsk(_not_declared(capability))

    return refuse


def _request() -> Any:
    from fastmcp.server.dependencies import get_context

    try:
        return get_context()
    except RuntimeError:
        return None
