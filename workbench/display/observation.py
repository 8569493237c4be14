"""ObservationView: a tool's result as people read it, and as a JSON document for front ends.

The content is first read into neutral parts (text, media, link, resource), so the rich and
the HTML renderings cannot disagree about what is shown, skipped or cut.
"""

from __future__ import annotations

import json
from collections.abc import Container, Iterator
from dataclasses import dataclass, field
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
MAX_BYTES = 100_000
"""What one output may put in a saved notebook, all its mime types together: a 10 MB result
must not make a 10 MB notebook. The whole result stays in Python (the Observation)."""
SHRINK = (1.0, 0.5, 0.25, 0.1, 0.0)
"""Shares of the budgets tried in turn until a bundle fits ``max_bytes`` (0: notes only)."""
WHOLE_RESULT = (
    "The whole result stays in Python: the Observation's .content and .structured_content"
    " (`_` after wb.call, or wb.history[-1].observation)."
)
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


@dataclass
class _Cuts:
    """What the bounds left out of one rendering, for the note that says so."""

    characters: int = 0
    media: list[str] = field(default_factory=list)
    structured: int = 0

    def __bool__(self) -> bool:
        return bool(self.characters or self.media or self.structured)

    def describe(self, max_bytes: int) -> str:
        said = [f"Cut to fit {format_size(max_bytes)} in the notebook:"]
        if self.characters:
            said.append(f"{self.characters:,} characters not shown;")
        dropped = list(self.media)
        if self.structured:
            dropped.append(f"structured content ({format_size(self.structured)})")
        if dropped:
            said.append(f"{', '.join(dropped)} not kept;")
        return " ".join(said).rstrip(";") + "."


class ObservationView(Displayable):
    """One Observation: error header, content blocks, structured content, duration.

    Its mime bundle stays under ``max_bytes`` (default ``MAX_BYTES``): texts share one
    character budget, media and structured content are inlined while they fit, and a note
    says what was cut and where the whole result is."""

    def __init__(
        self,
        observation: Observation,
        *,
        tool_id: str | None = None,
        max_text: int = MAX_TEXT,
        max_bytes: int | None = None,
    ) -> None:
        self.observation = observation
        self.tool_id = tool_id
        self.max_text = max_text
        self.max_bytes = MAX_BYTES if max_bytes is None else max_bytes
        self._structured_json: str | None = None
        self._scale = SHRINK[0]
        self._build()

    def _build(self) -> None:
        """Read the parts again within the budgets of the current scale."""
        self._text_budget = int(self.max_bytes // 5 * self._scale)
        self._kept_media = self._media_that_fits(int(self.max_bytes // 3 * self._scale))
        self._cuts = _Cuts()
        self._parts: list[_Part] = list(self._read_parts())
        self._cuts.structured = self._structured_cut()
        if self._cuts:
            note = self._cuts.describe(self.max_bytes) + " " + WHOLE_RESULT
            self._parts.append(_Text(note, tone="muted"))

    @property
    def truncated(self) -> bool:
        """Whether anything shown was cut."""
        return bool(self._cuts)

    def _media_that_fits(self, budget: int) -> set[int]:
        """Indexes of the content blocks whose base64 data is inlined, in order, while it fits."""
        kept: set[int] = set()
        for index, block in enumerate(self.observation.content):
            size = len(_inline_data(block))
            if size <= budget:
                kept.add(index)
                budget -= size
        return kept

    def _structured(self) -> str:
        if self._structured_json is None:
            self._structured_json = to_json(self.observation.structured_content)
        return self._structured_json

    def _structured_cut(self) -> int:
        """The size of structured content left out of the JSON document (0: it fits)."""
        if self.observation.structured_content is None:
            return 0
        size = len(self._structured())
        return size if size > int(self.max_bytes // 3 * self._scale) else 0

    def _repr_mimebundle_(
        self, include: Container[str] | None = None, exclude: Container[str] | None = None
    ) -> dict[str, Any]:
        """The bundle at the largest scale that fits ``max_bytes``, since a notebook keeps it."""
        bundle = super()._repr_mimebundle_(include, exclude)
        for scale in SHRINK:
            if _bundle_size(bundle) <= self.max_bytes:
                break
            if scale < self._scale:
                self._scale = scale
                self._build()
                bundle = super()._repr_mimebundle_(include, exclude)
        return bundle

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
        for index, block in enumerate(obs.content):
            if isinstance(block, TextContent):
                if block.text == message or is_structured_twin(block.text, obs.structured_content):
                    continue
                yield self._text(block.text, tone="error" if obs.is_error else None)
            elif index not in self._kept_media:
                yield self._left_out(block)
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
            yield self._text(self._structured_text())
        if not (obs.content or obs.structured_content is not None or message):
            yield _Text("(no content)", tone="muted")

    def _structured_text(self) -> str:
        """Pretty JSON, unless it is too big to be read whole anyway (then the compact one)."""
        if len(self._structured()) > self.max_text:
            return self._structured()
        return to_json(self.observation.structured_content, indent=2)

    def _text(self, text: str, *, tone: Tone | None = None, limit: int | None = None) -> _Text:
        limit = min(self.max_text if limit is None else limit, self._text_budget)
        shown, omitted = cut(text, limit)
        self._text_budget -= len(shown)
        self._cuts.characters += omitted
        return _Text(shown, omitted, tone)

    def _left_out(self, block: Any) -> _Text:
        """A media block or blob too big for the notebook: named, with its size."""
        size = format_size(base64_size(_inline_data(block)))
        self._cuts.media.append(f"{block.type} ({size})")
        return _Text(_left_out_text(block), tone="muted")

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
        """MCP-shaped content and the call's outcome, within the same budgets as the views:
        long texts cut, media too big replaced by a text block naming them, structured
        content too big left out (null); ``truncated`` says what and how much."""
        obs = self.observation
        omitted = 0
        budget = int(self.max_bytes // 5 * self._scale)
        blocks: list[dict[str, Any]] = []
        for index, block in enumerate(obs.content):
            if index not in self._kept_media:
                blocks.append({"type": "text", "text": _left_out_text(block)})
                continue
            data = block.model_dump(mode="json", by_alias=True, exclude_none=True)
            holder = data.get("resource") if data["type"] == "resource" else data
            if isinstance(holder, dict) and isinstance(holder.get("text"), str):
                holder["text"], cut_chars = cut(holder["text"], min(self.max_text, budget))
                budget -= len(holder["text"])
                omitted += cut_chars
            blocks.append(data)
        structured = obs.structured_content
        kept_structured = structured is not None and not self._cuts.structured
        return {
            "kind": "observation",
            "version": JSON_VERSION,
            "toolId": self.tool_id,
            "content": blocks,
            "structuredContent": json.loads(self._structured()) if kept_structured else None,
            "isError": obs.is_error,
            "errorKind": obs.error_kind.value if obs.error_kind else None,
            "errorMessage": obs.error_message,
            "duration": obs.duration,
            "truncated": self._truncated(omitted),
        }

    def _truncated(self, omitted: int) -> dict[str, Any] | None:
        """The cut note of the JSON document: None when it holds the whole result."""
        if not (omitted or self._cuts):
            return None
        return {
            "maxText": self.max_text,
            "omittedCharacters": omitted,
            "maxBytes": self.max_bytes,
            "omittedMedia": len(self._cuts.media),
            "omittedStructuredContent": self._cuts.structured,
            "note": (self._cuts.describe(self.max_bytes) if self._cuts else "Long texts cut.")
            + " "
            + WHOLE_RESULT,
        }


def _inline_data(block: Any) -> str:
    """The base64 data a block would inline (media data, a resource's blob), else ''."""
    if isinstance(block, ImageContent | AudioContent):
        return block.data
    if isinstance(block, EmbeddedResource) and not isinstance(block.resource, TextResourceContents):
        return block.resource.blob
    return ""


def _left_out_text(block: Any) -> str:
    holder = getattr(block, "resource", block)
    mime = getattr(holder, "mime_type", None) or "unknown type"
    size = format_size(base64_size(_inline_data(block)))
    return f"[{block.type} · {mime} · {size}: not kept in the notebook]"


def _bundle_size(bundle: dict[str, Any]) -> int:
    """Bytes a bundle takes in a notebook file (UTF-8; JSON documents serialised)."""
    total = 0
    for value in bundle.values():
        text = value if isinstance(value, str) else to_json(value)
        total += len(text.encode("utf-8", "surrogatepass"))
    return total


def _media(kind: str, mime: str, data: str) -> _Media | _Text:
    """Media a browser can play inline; anything else is named, never put in a data URI."""
    if kind in ("image", "audio") and mime.startswith(f"{kind}/"):
        return _Media("image" if kind == "image" else "audio", mime, data)
    return _Text(f"[{kind} · {mime} · {format_size(base64_size(data))}]", tone="muted")


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
