"""ObservationView: a tool's result (or a resource read) as people read it, and as a JSON
document for front ends.

The content is read into neutral parts by ``content.ContentReader``, so the rich and the
HTML renderings cannot disagree about what is shown, skipped or cut.
"""

from __future__ import annotations

import json
from collections.abc import Container, Iterator
from typing import Any

from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text

from workbench.display import markup
from workbench.display.content import (
    MAX_BYTES,
    MAX_TEXT,
    RESOURCE_TEXT,
    SHRINK,
    BoundedView,
    ContentReader,
    Part,
    TextPart,
    html_part,
    left_out_text,
    rich_part,
)
from workbench.display.formatting import cut, format_duration, to_json
from workbench.display.mime import APP_MIME, JSON_VERSION
from workbench.display.style import RICH_STYLE, Tone
from workbench.tools.schema import (
    EmbeddedResource,
    ErrorKind,
    Observation,
    TextContent,
    is_structured_twin,
    is_wrapped_text,
)

__all__ = ["MAX_BYTES", "MAX_TEXT", "WHOLE_RESULT", "ObservationView"]

WHOLE_RESULT = (
    "The whole result stays in Python: the Observation's .content and .structured_content"
    " (`_` after wb.call, or wb.history[-1].observation)."
)
SAVE_HINT = (
    "Save it from Python (wb.history[-1] is the latest call or read; `_` right after"
    " wb.read_resource is the same Observation):"
)
NEVER_RAN = (ErrorKind.INVALID_ARGUMENTS,)
"""Errors of calls refused before they ran: a duration (0.0 ms) would suggest they did."""
APP_ELSEWHERE = "(shown where the workbench JupyterLab extension is installed)"


class ObservationView(BoundedView):
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
        self._reader = ContentReader(
            self.observation.content,
            max_text=self.max_text,
            max_bytes=self.max_bytes,
            scale=self._scale,
            where=lambda index: f"wb.history[-1].observation.content[{index}]",
            save_hint=SAVE_HINT,
        )
        self._cuts = self._reader.cuts
        self._parts: list[Part] = list(self._read_parts())
        self._cuts.structured = self._structured_cut()
        if self._cuts:
            note = self._cuts.describe(self.max_bytes) + " " + WHOLE_RESULT
            self._parts.append(TextPart(note, tone="muted"))
        if self.app_line():
            self._parts.append(TextPart(self.app_line(), tone="muted"))  # the last line

    def app_line(self) -> str:
        """The line naming the call's MCP App, or saying why it is not drawn ('' if none)."""
        app = self.observation.app
        if not isinstance(app, dict):
            return ""
        if "html" in app:
            return f"App: {app.get('uri')} {APP_ELSEWHERE}"
        return str(app.get("refused") or "")

    def _repr_mimebundle_(
        self, include: Container[str] | None = None, exclude: Container[str] | None = None
    ) -> dict[str, Any]:
        """The bounded bundle, and the App's document beside it: the App's HTML is kept
        whole (``workbench/apps/cache.py`` bounds it), never cut to the result's budget."""
        bundle = super()._repr_mimebundle_(include, exclude)
        app = self.observation.app
        wanted = (include is None or APP_MIME in include) and not (exclude and APP_MIME in exclude)
        if isinstance(app, dict) and "html" in app and wanted:
            bundle[APP_MIME] = app
        return bundle

    @property
    def truncated(self) -> bool:
        """Whether anything shown was cut."""
        return bool(self._cuts)

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

    def _is_read(self) -> bool:
        """Whether this is a resource read (its id is the URI of what it holds): the
        resource is the result, shown like a tool's text, not as a short preview."""
        blocks = self.observation.content
        return bool(blocks) and all(
            isinstance(block, EmbeddedResource) and block.resource.uri == self.tool_id
            for block in blocks
        )

    def _read_parts(self) -> Iterator[Part]:
        obs = self.observation
        message = obs.error_message if obs.is_error else None
        if message:
            yield self._reader.text(message, tone="error")
        resource_text = self.max_text if self._is_read() else RESOURCE_TEXT
        tone: Tone | None = "error" if obs.is_error else None
        for index, block in enumerate(obs.content):
            if isinstance(block, TextContent) and (
                block.text == message or is_structured_twin(block.text, obs.structured_content)
            ):
                continue
            yield self._reader.block(index, block, tone=tone, resource_text=resource_text)
        texts = [block.text for block in obs.content if isinstance(block, TextContent)]
        if obs.structured_content is not None and not is_wrapped_text(
            obs.structured_content, texts
        ):
            yield self._reader.text(self._structured_text())
        if not (obs.content or obs.structured_content is not None or message):
            yield TextPart("(no content)", tone="muted")

    def _structured_text(self) -> str:
        """Pretty JSON, unless it is too big to be read whole anyway (then the compact one)."""
        if len(self._structured()) > self.max_text:
            return self._structured()
        return to_json(self.observation.structured_content, indent=2)

    # -- rich -------------------------------------------------------------------------------

    def rich_parts(self, console: Console, options: ConsoleOptions) -> RenderResult:
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
            yield from rich_part(part)

    # -- HTML -------------------------------------------------------------------------------

    def to_html(self) -> str:
        label = self._error_label()
        header = markup.line(
            markup.span(self.tool_id, mono=True, bold=True) if self.tool_id else "",
            markup.span(label, tone="error", bold=True) if label else "",
            markup.span(self._duration(), tone="muted"),
        )
        has_header = bool(self.tool_id or label or self._duration())
        body = "".join(html_part(part) for part in self._parts)
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
            if index not in self._reader.kept:
                blocks.append({"type": "text", "text": left_out_text(block)})
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
            **({"appNote": self.app_line()} if self.app_line() else {}),
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
