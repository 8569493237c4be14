"""ObservationView: a tool's result as people read it, and as a JSON document for front ends.

The content is first read into neutral parts (text, media, link, resource), so the rich and
the HTML renderings cannot disagree about what is shown, skipped or cut.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.text import Text

from workbench.display import markup
from workbench.display.formatting import (
    base64_size,
    cut,
    format_duration,
    format_size,
    more_notice,
    to_json,
)
from workbench.display.mime import JSON_VERSION, Displayable
from workbench.display.style import RICH_STYLE, Tone
from workbench.tools.schema import (
    AudioContent,
    EmbeddedResource,
    ErrorKind,
    ImageContent,
    Observation,
    ResourceLink,
    TextContent,
    TextResourceContents,
    is_structured_twin,
    is_wrapped_text,
)

MAX_TEXT = 20_000
RESOURCE_TEXT = 2_000
"""Characters of an embedded text resource shown: a preview, since the model reads it all."""
NEVER_RAN = (ErrorKind.INVALID_ARGUMENTS,)
"""Errors of calls refused before they ran: a duration (0.0 ms) would suggest they did."""


@dataclass(frozen=True)
class _Text:
    text: str
    omitted: int = 0
    tone: Tone | None = None


@dataclass(frozen=True)
class _Media:
    kind: Literal["image", "audio"]
    mime: str
    data: str


@dataclass(frozen=True)
class _Link:
    uri: str
    name: str
    description: str | None
    mime: str | None
    size: int | None


@dataclass(frozen=True)
class _Resource:
    uri: str
    mime: str | None
    body: _Text | _Media | None
    blob_size: int | None


_Part = _Text | _Media | _Link | _Resource


class ObservationView(Displayable):
    """One Observation: error header, content blocks, structured content, duration."""

    def __init__(
        self, observation: Observation, *, tool_id: str | None = None, max_text: int = MAX_TEXT
    ) -> None:
        self.observation = observation
        self.tool_id = tool_id
        self.max_text = max_text
        self._parts: list[_Part] = list(self._read_parts())

    @property
    def truncated(self) -> bool:
        """Whether any text shown was cut."""
        return any(_omitted(part) for part in self._parts)

    def _error_label(self) -> str | None:
        if not self.observation.is_error:
            return None
        kind = self.observation.error_kind
        return f"Error · {kind.value if kind else 'error'}"

    def _duration(self) -> str:
        """The header's duration; none for a call that never ran."""
        if self.observation.error_kind in NEVER_RAN:
            return ""
        return format_duration(self.observation.duration)

    def _read_parts(self) -> Iterator[_Part]:
        obs = self.observation
        message = obs.error_message if obs.is_error else None
        if message:
            yield self._text(message, tone="error")
        for block in obs.content:
            if isinstance(block, TextContent):
                if block.text == message or is_structured_twin(block.text, obs.structured_content):
                    continue
                yield self._text(block.text, tone="error" if obs.is_error else None)
            elif isinstance(block, ImageContent | AudioContent):
                yield _media(block.type, block.mime_type, block.data)
            elif isinstance(block, ResourceLink):
                yield _Link(
                    block.uri,
                    block.title or block.name,
                    block.description,
                    block.mime_type,
                    block.size,
                )
            elif isinstance(block, EmbeddedResource):
                yield self._resource(block)
        texts = [block.text for block in obs.content if isinstance(block, TextContent)]
        if obs.structured_content is not None and not is_wrapped_text(
            obs.structured_content, texts
        ):
            yield self._text(to_json(obs.structured_content, indent=2))
        if not (obs.content or obs.structured_content is not None or message):
            yield _Text("(no content)", tone="muted")

    def _text(self, text: str, *, tone: Tone | None = None, limit: int | None = None) -> _Text:
        shown, omitted = cut(text, self.max_text if limit is None else limit)
        return _Text(shown, omitted, tone)

    def _resource(self, block: EmbeddedResource) -> _Resource:
        contents = block.resource
        mime = contents.mime_type
        if isinstance(contents, TextResourceContents):
            body = self._text(contents.text, limit=min(self.max_text, RESOURCE_TEXT))
            return _Resource(contents.uri, mime, body, None)
        media = _media("image", mime, contents.blob) if mime else None
        if isinstance(media, _Media):
            return _Resource(contents.uri, mime, media, None)
        return _Resource(contents.uri, mime, None, base64_size(contents.blob))

    # -- rich -------------------------------------------------------------------------------

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        header = Text()
        if self.tool_id:
            header.append(self.tool_id, style="bold cyan")
        label = self._error_label()
        if label:
            header.append(("  " if header else "") + label, style=RICH_STYLE["error"])
        duration = self._duration()
        if duration:
            header.append(("  " if header else "") + duration, style="dim")
        if header:
            yield header
        for part in self._parts:
            yield from _rich_part(part)

    # -- HTML -------------------------------------------------------------------------------

    def to_html(self) -> str:
        label = self._error_label()
        header = markup.line(
            markup.span(self.tool_id, mono=True, bold=True) if self.tool_id else "",
            markup.span(label, tone="error", bold=True) if label else "",
            markup.span(self._duration(), tone="muted"),
        )
        has_header = bool(self.tool_id or label or self._duration())
        body = "".join(_html_part(part) for part in self._parts)
        tone: Tone | None = "error" if label else None
        return markup.box("observation", (header if has_header else "") + body, tone=tone)

    # -- JSON -------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """MCP-shaped content (long texts cut at ``max_text``) and the call's outcome."""
        obs = self.observation
        omitted = 0
        blocks: list[dict[str, Any]] = []
        for block in obs.content:
            data = block.model_dump(mode="json", by_alias=True, exclude_none=True)
            holder = data.get("resource") if data["type"] == "resource" else data
            if isinstance(holder, dict) and isinstance(holder.get("text"), str):
                holder["text"], cut_chars = cut(holder["text"], self.max_text)
                omitted += cut_chars
            blocks.append(data)
        structured = obs.structured_content
        return {
            "kind": "observation",
            "version": JSON_VERSION,
            "toolId": self.tool_id,
            "content": blocks,
            "structuredContent": None if structured is None else json.loads(to_json(structured)),
            "isError": obs.is_error,
            "errorKind": obs.error_kind.value if obs.error_kind else None,
            "errorMessage": obs.error_message,
            "duration": obs.duration,
            "truncated": (
                {"maxText": self.max_text, "omittedCharacters": omitted} if omitted else None
            ),
        }


def _media(kind: str, mime: str, data: str) -> _Media | _Text:
    """Media a browser can play inline; anything else is named, never put in a data URI."""
    if kind in ("image", "audio") and mime.startswith(f"{kind}/"):
        return _Media("image" if kind == "image" else "audio", mime, data)
    return _Text(f"[{kind} · {mime} · {format_size(base64_size(data))}]", tone="muted")


def _omitted(part: _Part) -> int:
    if isinstance(part, _Resource):
        return part.body.omitted if isinstance(part.body, _Text) else 0
    return part.omitted if isinstance(part, _Text) else 0


def _rich_part(part: _Part) -> Iterator[RenderableType]:
    if isinstance(part, _Text):
        yield Text(part.text, style=RICH_STYLE[part.tone] if part.tone else "")
        if part.omitted:
            yield Text(more_notice(part.omitted), style="dim italic")
    elif isinstance(part, _Media):
        size = format_size(base64_size(part.data))
        yield Text(f"[{part.kind} · {part.mime} · {size}]", style="magenta")
    elif isinstance(part, _Link):
        line = Text.assemble(("resource link ", "dim"), (part.name, "bold"), " ", part.uri)
        details = " · ".join(
            x for x in (part.mime, format_size(part.size) if part.size else None) if x
        )
        if details:
            line.append(f"  {details}", style="dim")
        yield line
        if part.description:
            yield Text(part.description, style="dim")
    else:
        line = Text.assemble(("resource ", "dim"), (part.uri, "cyan"))
        details = " · ".join(
            x for x in (part.mime, format_size(part.blob_size) if part.blob_size else None) if x
        )
        if details:
            line.append(f"  {details}", style="dim")
        yield line
        if part.body is not None:
            yield from _rich_part(part.body)


def _html_part(part: _Part) -> str:
    if isinstance(part, _Text):
        shown = markup.pre(part.text, tone=part.tone)
        return shown + (markup.notice(more_notice(part.omitted)) if part.omitted else "")
    if isinstance(part, _Media):
        src = markup.esc(f"data:{part.mime};base64,{part.data}")
        if part.kind == "image":
            style = "max-width:100%;height:auto;display:block;margin:4px 0"
            alt = markup.esc(f"image ({part.mime})")
            return f'<img src="{src}" alt="{alt}" style="{style}">'
        return f'<audio controls src="{src}" style="display:block;margin:4px 0"></audio>'
    if isinstance(part, _Link):
        size = format_size(part.size) if part.size else None
        details = " · ".join(x for x in (part.mime, size) if x)
        head = markup.line(
            markup.span("resource link", tone="muted"),
            markup.span(part.name, bold=True),
            _uri(part.uri),
            markup.span(details, tone="muted") if details else "",
        )
        description = markup.block(markup.esc(part.description), tone="muted")
        return markup.block(head + (description if part.description else ""))
    size = format_size(part.blob_size) if part.blob_size else None
    details = " · ".join(x for x in (part.mime, size) if x)
    head = markup.line(
        markup.span("resource", tone="muted"),
        _uri(part.uri),
        markup.span(details, tone="muted") if details else "",
    )
    return markup.block(head + (_html_part(part.body) if part.body else ""))


def _uri(uri: str) -> str:
    """A URI as code, and a link when it is a web address (never ``javascript:``)."""
    shown = markup.code(uri)
    if uri.startswith(("https://", "http://")):
        return f'<a href="{markup.esc(uri)}" target="_blank" rel="noopener noreferrer">{shown}</a>'
    return shown
