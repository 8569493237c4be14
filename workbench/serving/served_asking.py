"""A served notebook tool's questions go to the outside client that called it, in its era.

A handshake-era client (2025-11-25 and before) gets a real ``elicitation/create`` (form or
URL mode), ``sampling/createMessage`` or ``roots/list`` on its session, tied to the call's
request. A 2026-07-28 client gets rounds of ``InputRequiredResult`` (``rounds.py``) carrying
the same three as input requests (sampling and roots are deprecated there, SEP-2577, but
still in the spec). A client that did not declare the capability a question needs is never
asked: the tool's question raises ``MissingCapability``; a 2026-07-28 call that ends on it
(the tool did not catch it) answers MCP's -32021 MissingRequiredClientCapabilityError, the
capability in its ``requiredCapabilities`` (SEP-2575). Progress and log lines of a call that
spans rounds go to the round in flight (``Relay``).
"""

from __future__ import annotations

import asyncio
import uuid
import warnings
from collections.abc import Awaitable, Callable
from typing import Any

import mcp_types
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError
from mcp.shared.message import ServerMessageMetadata
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from workbench.mcp.connection import LogRecord, ProgressCallback
from workbench.serving.questions import (
    Asker,
    ElicitationAnswer,
    ElicitationRequest,
    MissingCapability,
    Root,
    RootsAsker,
    RootsRequest,
    Sampler,
    SamplingReply,
    SamplingRequest,
    asking,
)
from workbench.serving.rounds import Rounds, Suspended
from workbench.serving.wire_questions import sampling_reply
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
    refused: list[MissingCapability] = []

    async def start(call: Suspended) -> Observation:
        with asking(*round_askers(ctx, call, refused)):
            return await call_with(
                lambda done, total, message: call.relay.progress(done, total, message),
                lambda record: call.relay.log(record),
            )

    result: Observation | mcp_types.InputRequiredResult
    if state is None:
        result = await rounds.first(start, relay, ctx.input_responses)
    else:
        again = await rounds.again(state, ctx.input_responses, relay)
        if again is None:
            return Observation.error(ErrorKind.TOOL_ERROR, GONE, duration=0.0)
        result = again
    await relay.sent()
    if isinstance(result, Observation):
        missing(result, refused)
    return result


def round_askers(ctx: Any, call: Suspended, refused: list[MissingCapability]) -> list[Any]:
    """The asker, sampler and roots asker of a 2026-07-28 request: its rounds, for what
    the client declared in the request's ``_meta``; a refusal (noted in ``refused``) else."""
    return [
        call.ask if _declared(ctx, capability) else _refusing(capability, refused)
        for capability in ("elicitation", "sampling", "roots")
    ]


def missing(observation: Observation, refused: list[MissingCapability]) -> None:
    """Raise -32021 when the call ended on a capability its client did not declare."""
    said = observation.error_message or "" if observation.is_error else ""
    needed = sorted({r.capability for r in refused if str(r) in said})
    if needed:
        raise missing_error(needed)


def missing_error(needed: list[str]) -> MCPError:
    """MCP's -32021 MissingRequiredClientCapabilityError naming ``needed`` (SEP-2575)."""
    data = mcp_types.MissingRequiredClientCapabilityErrorData(
        required_capabilities=mcp_types.ClientCapabilities.model_validate(
            {capability: {} for capability in needed}
        )
    )
    return MCPError(
        code=mcp_types.MISSING_REQUIRED_CLIENT_CAPABILITY,
        message=f"The client did not declare the {' and '.join(needed)} capability it needs.",
        data=data.model_dump(by_alias=True, mode="json", exclude_none=True),
    )


def session_askers(ctx: Any) -> tuple[Asker, Sampler, RootsAsker]:
    """Ask on a handshake-era session, tied to the call's request."""
    session, request_id = ctx.session, ctx.request_id
    elicits, samples = _declared(ctx, "elicitation"), _declared(ctx, "sampling")
    lists_roots = _declared(ctx, "roots")

    async def ask(request: ElicitationRequest) -> ElicitationAnswer:
        if not elicits:
            raise MissingCapability("elicitation")
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
            raise MissingCapability("sampling")
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
        return sampling_reply(await sent)

    async def roots(request: RootsRequest) -> list[Root]:
        if not lists_roots:
            raise MissingCapability("roots")
        with warnings.catch_warnings():  # deprecated in 2026-07-28; this client has it
            warnings.simplefilter("ignore", MCPDeprecationWarning)
            listed = await session.send_request(
                mcp_types.ListRootsRequest(),
                mcp_types.ListRootsResult,
                metadata=ServerMessageMetadata(related_request_id=request_id),
            )
        return [Root(str(root.uri), root.name) for root in listed.roots]

    return ask, sample, roots


def _declared(ctx: Any, capability: str) -> bool:
    """Whether the client declared ``capability``; a client declaring nothing at all (no
    capabilities in a 2026-07-28 request) is taken at its word only for handshake eras."""
    declared = getattr(ctx.session, "client_capabilities", None)
    if declared is None:
        return ctx.request_context.protocol_version in MODERN_PROTOCOL_VERSIONS
    return getattr(declared, capability, None) is not None


def _refusing(capability: str, refused: list[MissingCapability]) -> Any:
    async def refuse(request: Any) -> Any:
        refusal = MissingCapability(capability)
        refused.append(refusal)
        raise refusal

    return refuse


def _request() -> Any:
    from fastmcp.server.dependencies import get_context

    try:
        return get_context()
    except RuntimeError:
        return None
