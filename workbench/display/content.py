"""MCP content blocks as people read them, for every view that shows some: a tool's result,
a resource read, a prompt's messages.

Blocks are first read into neutral parts (text, media, link, resource) within one rendering's
budgets (``ContentReader``), then drawn for rich and for HTML, so no two views (and no two
renderings of one view) disagree about what is shown, skipped or cut. ``BoundedView`` keeps
a whole mime bundle under its byte budget by shrinking those budgets, since a saved notebook
keeps every output.
"""

from __future__ import annotations

import json
from abc import abstractmethod
from collections.abc import Callable, Container, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from rich.console import RenderableType
from rich.text import Text

from workbench.display import markup
from workbench.display.formatting import base64_size, cut, format_size, more_notice, to_json
from workbench.display.mime import Displayable
from workbench.display.saving import Save, file_name, save_snippet
from workbench.display.style import RICH_STYLE, Tone
from workbench.tools.schema import (
    AudioContent,
    EmbeddedResource,
    ImageContent,
    ResourceLink,
    TextContent,
    TextResourceContents,
)

MAX_TEXT = 20_000
MAX_BYTES = 100_000
"""What one output may put in a saved notebook, all its mime types together: a 10 MB result
must not make a 10 MB notebook. The whole result stays in Python."""
SHRINK = (1.0, 0.5, 0.25, 0.1, 0.0)
"""Shares of the budgets tried in turn until a bundle fits ``max_bytes`` (0: notes only)."""
RESOURCE_TEXT = 2_000
"""Characters of an embedded text resource shown: a preview, since the model reads it all."""


@dataclass(frozen=True)
class TextPart:
    text: str
    omitted: int = 0
    tone: Tone | None = None


@dataclass(frozen=True)
class MediaPart:
    kind: Literal["image", "audio"]
    mime: str
    data: str


@dataclass(frozen=True)
class LinkPart:
    uri: str
    name: str
    description: str | None
    mime: str | None
    size: int | None


@dataclass(frozen=True)
class ResourcePart:
    uri: str
    mime: str | None
    body: TextPart | MediaPart | None
    blob_size: int | None
    save: Save | None = None


Part = TextPart | MediaPart | LinkPart | ResourcePart


@dataclass
class Cuts:
    """What the bounds left out of one rendering, for the note that says so."""

    characters: int = 0
    media: list[str] = field(default_factory=list)
    structured: int = 0
    others: list[str] = field(default_factory=list)
    """Anything else left out, as words (``5 messages``)."""

    def __bool__(self) -> bool:
        return bool(self.characters or self.media or self.structured or self.others)

    def describe(self, max_bytes: int) -> str:
        said = [f"Cut to fit {format_size(max_bytes)} in the notebook:"]
        if self.characters:
            said.append(f"{self.characters:,} characters not shown;")
        dropped = self.media + self.others
        if self.structured:
            dropped.append(f"structured content ({format_size(self.structured)})")
        if dropped:
            said.append(f"{', '.join(dropped)} not kept;")
        return " ".join(said).rstrip(";") + "."


class ContentReader:
    """Reads content blocks into parts within one rendering's budgets, counting the cuts.

    Texts share ``max_bytes / 5`` characters; media and blobs are inlined in order while
    ``max_bytes / 3`` lasts (both times ``scale``). ``where(index)`` is the Python expression
    of a block (``wb.history[-1].observation.content[0]``), for the snippet that saves a blob
    the notebook does not keep; ``save_hint`` says where that expression comes from."""

    def __init__(
        self,
        blocks: Sequence[Any],
        *,
        max_text: int,
        max_bytes: int,
        scale: float,
        where: Callable[[int], str],
        save_hint: str,
    ) -> None:
        self.max_text = max_text
        self.text_budget = int(max_bytes // 5 * scale)
        self.kept = media_that_fits(blocks, int(max_bytes // 3 * scale))
        self.cuts = Cuts()
        self._where = where
        self._save_hint = save_hint

    def text(self, text: str, *, tone: Tone | None = None, limit: int | None = None) -> TextPart:
        """A text cut to the smaller of ``limit`` (``max_text``) and what the budget has left."""
        limit = min(self.max_text if limit is None else limit, self.text_budget)
        shown, omitted = cut(text, limit)
        self.text_budget -= len(shown)
        self.cuts.characters += omitted
        return TextPart(shown, omitted, tone)

    def block(
        self,
        index: int,
        block: Any,
        *,
        tone: Tone | None = None,
        resource_text: int = RESOURCE_TEXT,
    ) -> Part:
        """One block as a part; an embedded text resource shows ``resource_text`` characters."""
        if isinstance(block, TextContent):
            return self.text(block.text, tone=tone)
        if index not in self.kept:
            return self._left_out(index, block)
        if isinstance(block, ImageContent | AudioContent):
            return media(block.type, block.mime_type, block.data)
        if isinstance(block, ResourceLink):
            name = block.title or block.name
            return LinkPart(block.uri, name, block.description, block.mime_type, block.size)
        if isinstance(block, EmbeddedResource):
            return self._resource(index, block, resource_text)
        return TextPart(f"[{getattr(block, 'type', 'content')}]", tone="muted")

    def _left_out(self, index: int, block: Any) -> Part:
        """A media block or blob too big for the notebook: named, with its size, and a blob
        with the line of Python that saves it."""
        size = base64_size(inline_data(block))
        self.cuts.media.append(f"{block.type} ({format_size(size)})")
        if not isinstance(block, EmbeddedResource):
            return TextPart(left_out_text(block), tone="muted")
        contents = block.resource
        note = TextPart("not kept in the notebook", tone="muted")
        return ResourcePart(contents.uri, contents.mime_type, note, size, self._save(index, block))

    def _resource(self, index: int, block: EmbeddedResource, limit: int) -> ResourcePart:
        contents = block.resource
        mime = contents.mime_type
        if isinstance(contents, TextResourceContents):
            body = self.text(readable_text(contents.text, mime), limit=min(self.max_text, limit))
            return ResourcePart(contents.uri, mime, body, None)
        if mime and mime.startswith("image/"):
            return ResourcePart(contents.uri, mime, MediaPart("image", mime, contents.blob), None)
        save = self._save(index, block, data=contents.blob)
        return ResourcePart(contents.uri, mime, None, base64_size(contents.blob), save)

    def _save(self, index: int, block: EmbeddedResource, data: str | None = None) -> Save:
        name = file_name(block.resource.uri, block.resource.mime_type)
        snippet = save_snippet(f"{self._where(index)}.resource.blob", name)
        mime = block.resource.mime_type or "application/octet-stream"
        return Save(name, mime, data, snippet, self._save_hint)


class BoundedView(Displayable):
    """A view whose mime bundle, all types together, stays under ``max_bytes``: it is built
    again at smaller ``SHRINK`` scales until it fits."""

    max_bytes: int = MAX_BYTES
    _scale: float = SHRINK[0]

    @abstractmethod
    def _build(self) -> None:
        """Read the parts again within the budgets of ``self._scale``."""

    def _repr_mimebundle_(
        self, include: Container[str] | None = None, exclude: Container[str] | None = None
    ) -> dict[str, Any]:
        """The bundle at the largest scale that fits ``max_bytes``, since a notebook keeps it."""
        bundle = super()._repr_mimebundle_(include, exclude)
        for scale in SHRINK:
            if bundle_size(bundle) <= self.max_bytes:
                break
            if scale < self._scale:
                self._scale = scale
                self._build()
                bundle = super()._repr_mimebundle_(include, exclude)
        return bundle


def media_that_fits(blocks: Sequence[Any], budget: int) -> set[int]:
    """Indexes of the blocks whose base64 data is inlined, in order, while it fits."""
    kept: set[int] = set()
    for index, block in enumerate(blocks):
        size = len(inline_data(block))
        if size <= budget:
            kept.add(index)
            budget -= size
    return kept


def inline_data(block: Any) -> str:
    """The base64 data a block would inline (media data, a resource's blob), else ''."""
    if isinstance(block, ImageContent | AudioContent):
        return block.data
    if isinstance(block, EmbeddedResource) and not isinstance(block.resource, TextResourceContents):
        return block.resource.blob
    return ""


def left_out_text(block: Any) -> str:
    holder = getattr(block, "resource", block)
    mime = getattr(holder, "mime_type", None) or "unknown type"
    size = format_size(base64_size(inline_data(block)))
    return f"[{block.type} · {mime} · {size}: not kept in the notebook]"


def bundle_size(bundle: dict[str, Any]) -> int:
    """Bytes a bundle takes in a notebook file (UTF-8; JSON documents serialised)."""
    total = 0
    for value in bundle.values():
        text = value if isinstance(value, str) else to_json(value)
        total += len(text.encode("utf-8", "surrogatepass"))
    return total


def media(kind: str, mime: str, data: str) -> MediaPart | TextPart:
    """Media a browser can play inline; anything else is named, never put in a data URI."""
    if kind in ("image", "audio") and mime.startswith(f"{kind}/"):
        return MediaPart("image" if kind == "image" else "audio", mime, data)
    return TextPart(f"[{kind} · {mime} · {format_size(base64_size(data))}]", tone="muted")


def is_json_mime(mime: str | None) -> bool:
    """``application/json``, ``+json`` suffixes (``application/ld+json``) and the like."""
    base = (mime or "").split(";", 1)[0].strip().lower()
    return base.endswith(("/json", "+json"))


def readable_text(text: str, mime: str | None) -> str:
    """A resource's text as people read it: JSON of a JSON type pretty-printed (when it
    parses), anything else as it came."""
    if not is_json_mime(mime):
        return text
    try:
        value = json.loads(text)
    except ValueError:
        return text
    return to_json(value, indent=2)


def rich_part(part: Part) -> Iterator[RenderableType]:
    if isinstance(part, TextPart):
        yield Text(part.text, style=RICH_STYLE[part.tone] if part.tone else "")
        if part.omitted:
            yield Text(more_notice(part.omitted), style="dim italic")
    elif isinstance(part, MediaPart):
        size = format_size(base64_size(part.data))
        yield Text(f"[{part.kind} · {part.mime} · {size}]", style="magenta")
    elif isinstance(part, LinkPart):
        line = Text.assemble(("resource link ", "dim"), (part.name, "bold"), " ", part.uri)
        details = _details(part.mime, part.size)
        if details:
            line.append(f"  {details}", style="dim")
        yield line
        if part.description:
            yield Text(part.description, style="dim")
    else:
        line = Text.assemble(("resource ", "dim"), (part.uri, "cyan"))
        details = _details(part.mime, part.blob_size)
        if details:
            line.append(f"  {details}", style="dim")
        yield line
        if part.body is not None:
            yield from rich_part(part.body)
        if part.save is not None:
            yield Text(part.save.hint, style="dim")
            yield Text(part.save.snippet)


def html_part(part: Part) -> str:
    if isinstance(part, TextPart):
        shown = markup.pre(part.text, tone=part.tone)
        return shown + (markup.notice(more_notice(part.omitted)) if part.omitted else "")
    if isinstance(part, MediaPart):
        src = markup.esc(f"data:{part.mime};base64,{part.data}")
        if part.kind == "image":
            style = "max-width:100%;height:auto;display:block;margin:4px 0"
            alt = markup.esc(f"image ({part.mime})")
            return f'<img src="{src}" alt="{alt}" style="{style}">'
        return f'<audio controls src="{src}" style="display:block;margin:4px 0"></audio>'
    if isinstance(part, LinkPart):
        details = _details(part.mime, part.size)
        head = markup.line(
            markup.span("resource link", tone="muted"),
            markup.span(part.name, bold=True),
            uri_html(part.uri),
            markup.span(details, tone="muted") if details else "",
        )
        description = markup.block(markup.esc(part.description), tone="muted")
        return markup.block(head + (description if part.description else ""))
    details = _details(part.mime, part.blob_size)
    save = part.save
    head = markup.line(
        markup.span("resource", tone="muted"),
        uri_html(part.uri),
        markup.span(details, tone="muted") if details else "",
        markup.download(save.name, save.data) if save and save.data else "",
    )
    body = html_part(part.body) if part.body else ""
    if save and not save.data:
        body += markup.notice(save.hint) + markup.pre(save.snippet)
    return markup.block(head + body)


def is_web_address(uri: str) -> bool:
    """Whether a server's URI may become a link: http(s) only (never ``javascript:`` or
    ``data:``, which run or draw the server's code where the link is opened)."""
    return uri.startswith(("https://", "http://"))


def uri_html(uri: str) -> str:
    """A URI as code, and a link when it is a web address (never ``javascript:``)."""
    shown = markup.code(uri)
    if is_web_address(uri):
        return f'<a href="{markup.esc(uri)}" target="_blank" rel="noopener noreferrer">{shown}</a>'
    return shown


def _details(mime: str | None, size: int | None) -> str:
    return " · ".join(x for x in (mime, format_size(size) if size else None) if x)
