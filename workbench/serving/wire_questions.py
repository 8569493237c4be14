"""A notebook tool's questions as MCP 2026-07-28 input requests, and the client's answers back.

One ``inputRequests`` entry per question: ``elicitation/create`` (form or URL mode),
``sampling/createMessage`` (deprecated by SEP-2577, still in the spec), ``roots/list``. An
``inputResponses`` entry is read back as the answer of the question it keys; one of the
wrong kind for that question is no answer (the question stays open, asked again).
"""

from __future__ import annotations

import uuid
from typing import Any

import mcp_types

from workbench.features.asking import (
    ElicitationAnswer,
    ElicitationRequest,
    Root,
    RootsRequest,
    SamplingReply,
    SamplingRequest,
)

Question = ElicitationRequest | SamplingRequest | RootsRequest
"""What a notebook tool may ask its caller in a round."""

CAPABILITY = {ElicitationRequest: "elicitation", SamplingRequest: "sampling", RootsRequest: "roots"}
"""The client capability each kind of question needs."""


def wire_request(request: Question) -> mcp_types.InputRequest:
    """A tool's question as an ``inputRequests`` entry."""
    if isinstance(request, SamplingRequest):
        return _sampling(request)
    if isinstance(request, RootsRequest):
        return mcp_types.ListRootsRequest()
    params: mcp_types.ElicitRequestParams
    if request.mode == "url":
        params = mcp_types.ElicitRequestURLParams(
            message=request.message, url=str(request.url), elicitation_id=uuid.uuid4().hex
        )
    else:
        params = mcp_types.ElicitRequestFormParams(
            message=request.message, requested_schema=dict(request.schema)
        )
    return mcp_types.ElicitRequest(params=params)


def _sampling(request: SamplingRequest) -> mcp_types.CreateMessageRequest:
    params = mcp_types.CreateMessageRequestParams(
        messages=[
            mcp_types.SamplingMessage(
                role="assistant" if m.role == "assistant" else "user",
                content=mcp_types.TextContent(type="text", text=m.text),
            )
            for m in request.messages
        ],
        max_tokens=request.max_tokens or 100,
        system_prompt=request.system_prompt,
        temperature=request.temperature,
    )
    return mcp_types.CreateMessageRequest(params=params)


def answer_of(request: Question, response: Any) -> Any:
    """A client's ``inputResponses`` entry as the answer to ``request``; None when it is
    not an answer of that kind."""
    if isinstance(request, ElicitationRequest):
        if isinstance(response, mcp_types.ElicitResult):
            content = dict(response.content) if response.content is not None else None
            accepted = response.action == "accept"
            return ElicitationAnswer(response.action, content if accepted else None)
        return None
    if isinstance(request, RootsRequest):
        if isinstance(response, mcp_types.ListRootsResult):
            return [Root(str(root.uri), root.name) for root in response.roots]
        return None
    sampled = (mcp_types.CreateMessageResult, mcp_types.CreateMessageResultWithTools)
    if isinstance(response, sampled):
        return sampling_reply(response)
    return None


def sampling_reply(result: Any) -> SamplingReply:
    """A ``CreateMessageResult`` as the tool sees it: its text, model and stop reason."""
    content = result.content
    if isinstance(content, list):
        content = content[0] if content else None
    text = getattr(content, "text", None)
    return SamplingReply(
        text if isinstance(text, str) else str(content),
        model=result.model,
        stop_reason=str(result.stop_reason or "endTurn"),
    )
