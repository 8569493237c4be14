"""What a server asks the person at the notebook during a call, and what goes back.

Elicitation (``elicitation/create``): a message and a flat JSON Schema of the answer (form
mode), or a URL to open (URL mode); the answer accepts with content, declines or cancels.
Sampling (``sampling/createMessage``): messages for a language model, and the reply. Roots
(``roots/list``): the folders the caller offers, asked by a notebook tool. A handler gets the
request and returns the answer; these types are all it needs to know.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

ElicitAction = Literal["accept", "decline", "cancel"]


@dataclass(frozen=True)
class ElicitationRequest:
    server: str
    message: str
    schema: dict[str, Any] = field(default_factory=dict)
    """The requested schema: an object of flat properties (form mode); empty for URL mode."""
    mode: Literal["form", "url"] = "form"
    url: str | None = None
    tool: str | None = None
    """The tool whose call asked, when the workbench knows it."""
    key: str | None = None
    """The name the asking tool gave the question (a 2026-07-28 ``inputRequests`` key)."""

    @property
    def fields(self) -> list[str]:
        properties = self.schema.get("properties")
        return list(properties) if isinstance(properties, dict) else []


@dataclass(frozen=True)
class ElicitationAnswer:
    action: ElicitAction
    content: dict[str, Any] | None = None

    @classmethod
    def accept(cls, content: dict[str, Any] | None = None) -> ElicitationAnswer:
        return cls("accept", dict(content or {}))

    @classmethod
    def decline(cls) -> ElicitationAnswer:
        return cls("decline")

    @classmethod
    def cancel(cls) -> ElicitationAnswer:
        return cls("cancel")


@dataclass(frozen=True)
class SamplingMessage:
    role: str
    text: str
    """The message's text; other content is named in brackets (``[image image/png]``)."""
    content: dict[str, Any] = field(default_factory=dict)
    """The content block as MCP sent it."""


@dataclass(frozen=True)
class SamplingRequest:
    server: str
    messages: list[SamplingMessage]
    system_prompt: str | None = None
    max_tokens: int | None = None
    temperature: float | None = None
    stop_sequences: list[str] = field(default_factory=list)
    model_preferences: dict[str, Any] = field(default_factory=dict)
    tool: str | None = None
    key: str | None = None
    """The name the asking tool gave the request (a 2026-07-28 ``inputRequests`` key)."""

    @property
    def last_text(self) -> str:
        return self.messages[-1].text if self.messages else ""


@dataclass(frozen=True)
class SamplingReply:
    text: str
    model: str = "workbench-user"
    stop_reason: str = "endTurn"


@dataclass(frozen=True)
class Root:
    """A folder the caller offers (``file://`` URI), as ``roots/list`` answers it."""

    uri: str
    name: str | None = None


@dataclass(frozen=True)
class RootsRequest:
    """A notebook tool asking its caller's roots (``get_context().roots()``)."""

    server: str
    tool: str | None = None
    key: str | None = None
    """The name the asking tool gave the request (a 2026-07-28 ``inputRequests`` key)."""


ElicitationHandler = Callable[[ElicitationRequest], Any]
"""Returns (or, when async, resolves to) an ElicitationAnswer, a dict (accepted with that
content) or None (declined)."""

SamplingHandler = Callable[[SamplingRequest], Any]
"""Returns (or resolves to) the reply, as text or a SamplingReply; None declines."""


class Declined(Exception):
    """A sampling request the person or the handler declined (the server gets an error)."""


def as_answer(value: object) -> ElicitationAnswer:
    """What a handler returned, as an answer: a dict accepts, None declines."""
    if isinstance(value, ElicitationAnswer):
        return value
    if value is None:
        return ElicitationAnswer.decline()
    if isinstance(value, dict):
        return ElicitationAnswer.accept(value)
    raise TypeError(
        "An elicitation handler returns an ElicitationAnswer, a dict (accept) or None "
        f"(decline), not {type(value).__name__}."
    )


def as_reply(value: object) -> SamplingReply:
    """What a sampling handler returned, as a reply; None declines."""
    if isinstance(value, SamplingReply):
        return value
    if isinstance(value, str):
        return SamplingReply(value)
    if value is None:
        raise Declined("The sampling request was declined.")
    raise TypeError(
        f"A sampling handler returns text or a SamplingReply, not {type(value).__name__}."
    )
