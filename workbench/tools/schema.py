"""Actions (validated tool inputs), Observations (tool results) and MCP content blocks.

Content blocks mirror MCP's wire format (camelCase aliases, a ``type`` discriminator) so a
result from any server validates straight into an Observation, without importing the MCP SDK.
How they look is the display room's business (``workbench.display``; see ``viewing.py``).
"""

from __future__ import annotations

import json
from enum import Enum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from workbench.tools.viewing import Viewed


class _Block(BaseModel):
    model_config = ConfigDict(populate_by_name=True, extra="allow")

    annotations: dict[str, Any] | None = None
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


class TextContent(_Block):
    """Plain text."""

    type: Literal["text"] = "text"
    text: str


class ImageContent(_Block):
    """An image as base64 data."""

    type: Literal["image"] = "image"
    data: str
    mime_type: str = Field(alias="mimeType")


class AudioContent(_Block):
    """Audio as base64 data."""

    type: Literal["audio"] = "audio"
    data: str
    mime_type: str = Field(alias="mimeType")


class ResourceLink(_Block):
    """A pointer to a resource the client may read."""

    type: Literal["resource_link"] = "resource_link"
    uri: str
    name: str
    title: str | None = None
    description: str | None = None
    mime_type: str | None = Field(default=None, alias="mimeType")
    size: int | None = None


class TextResourceContents(BaseModel):
    """The text body of an embedded resource."""

    model_config = ConfigDict(populate_by_name=True, extra="allow")

    uri: str
    mime_type: str | None = Field(default=None, alias="mimeType")
    text: str


class BlobResourceContents(BaseModel):
    """The binary (base64) body of an embedded resource."""

    model_config = ConfigDict(populate_by_name=True, extra="allow")

    uri: str
    mime_type: str | None = Field(default=None, alias="mimeType")
    blob: str


class EmbeddedResource(_Block):
    """A resource whose contents travel inside the result."""

    type: Literal["resource"] = "resource"
    resource: TextResourceContents | BlobResourceContents


ContentBlock = Annotated[
    TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource,
    Field(discriminator="type"),
]


def is_structured_twin(text: str, structured: dict[str, Any] | None) -> bool:
    """Whether a text block only repeats the structured content as JSON (servers send both
    for older clients); showing it twice adds only noise."""
    if structured is None:
        return False
    try:
        data = json.loads(text)
    except ValueError:
        return False
    return bool(data == structured or ("result" in structured and data == structured["result"]))


def is_wrapped_text(structured: dict[str, Any] | None, texts: list[str]) -> bool:
    """Whether structured content only wraps a string result (``{"result": "..."}``, as
    FastMCP wraps a function's ``str``) that a text block already says: the text reads better
    than the same words quoted inside JSON."""
    if structured is None or list(structured) != ["result"]:
        return False
    result = structured["result"]
    return isinstance(result, str) and (result in texts or result == "".join(texts))


def _text_of(block: Any) -> str | None:
    """The text a content block carries: a text block's, or an embedded text resource's."""
    if isinstance(block, TextContent):
        return block.text
    if isinstance(block, EmbeddedResource) and isinstance(block.resource, TextResourceContents):
        return block.resource.text
    return None


class ErrorKind(str, Enum):
    """Why a call failed; lets callers react without parsing messages."""

    INVALID_ARGUMENTS = "invalid_arguments"
    TOOL_ERROR = "tool_error"
    TIMEOUT = "timeout"
    CONNECTION = "connection"
    NOT_FOUND = "not_found"
    CANCELLED = "cancelled"
    PROTOCOL = "protocol"
    """The call was refused with a JSON-RPC error (``error_code``), not answered."""


class Action(Viewed, BaseModel):
    """The validated input of one tool call. Subclasses declare the tool's parameters."""

    model_config = ConfigDict(extra="forbid")

    def to_arguments(self) -> dict[str, Any]:
        """The arguments as JSON-ready data, as they travel to a server."""
        return self.model_dump(mode="json", by_alias=True, exclude_unset=False)


class Observation(Viewed, BaseModel):
    """The result of one tool call: content blocks, structured content, or an error."""

    model_config = ConfigDict(populate_by_name=True)

    content: list[ContentBlock] = Field(default_factory=list)
    structured_content: dict[str, Any] | None = Field(default=None, alias="structuredContent")
    is_error: bool = Field(default=False, alias="isError")
    error_kind: ErrorKind | None = None
    error_message: str | None = None
    error_code: int | None = None
    """A ``protocol`` error's JSON-RPC code (its ``data`` in ``error_data``)."""
    error_data: Any = None
    duration: float | None = Field(default=None, description="Seconds the call took.")
    tool_id: str | None = Field(
        default=None, exclude=True, description="The tool that produced it (for display)."
    )
    app: dict[str, Any] | None = Field(
        default=None,
        exclude=True,
        repr=False,
        description="The MCP App drawn under it (for display, set by workbench/apps/): the "
        "App document (display/schemas/app.schema.json), or {uri, refused} saying why not.",
    )

    @property
    def text(self) -> str:
        """All text content joined by newlines, embedded text resources included (a resource
        read's text); the error message for a bare error."""
        parts = [text for text in map(_text_of, self.content) if text is not None]
        if not parts and self.error_message:
            return self.error_message
        return "\n".join(parts)

    @classmethod
    def from_text(cls, text: str, **fields: Any) -> Observation:
        """An Observation holding one text block."""
        return cls(content=[TextContent(text=text)], **fields)

    @classmethod
    def error(cls, kind: ErrorKind, message: str, **fields: Any) -> Observation:
        """An error Observation whose text is its message."""
        return cls(
            content=[TextContent(text=message)],
            is_error=True,
            error_kind=kind,
            error_message=message,
            **fields,
        )

    def to_llm_content(self) -> list[dict[str, Any]]:
        """Content blocks as MCP-shaped dicts, ready to hand back to a model.

        Structured content with no text twin becomes a JSON text block, so a model that
        reads only text still sees it.
        """
        blocks = [
            block.model_dump(mode="json", by_alias=True, exclude_none=True)
            for block in self.content
        ]
        if self.structured_content is not None and not any(
            block["type"] == "text" for block in blocks
        ):
            blocks.append({"type": "text", "text": json.dumps(self.structured_content)})
        return blocks
