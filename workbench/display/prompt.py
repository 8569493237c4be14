"""PromptView: what ``prompts/get`` returned, read as the conversation it is.

One block per message, its role told apart by colour and label; the content is read by
``content.ContentReader`` like a tool's result, and the bundle stays under ``max_bytes``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.padding import Padding
from rich.text import Text

from workbench.display import markup
from workbench.display.content import (
    MAX_BYTES,
    MAX_TEXT,
    SHRINK,
    BoundedView,
    ContentReader,
    Part,
    html_part,
    rich_part,
)
from workbench.display.formatting import format_duration
from workbench.display.style import RICH_STYLE, Tone

if TYPE_CHECKING:
    from workbench.features.prompts import PromptResult

ROLE_TONE: dict[str, Tone] = {"user": "accent", "assistant": "ok"}
MESSAGE_BYTES = 1_000
"""What one message's frame (role, box, styles) may take, text aside: frames get at most
half the budget, so a prompt of thousands of short messages still fits."""
WHOLE_PROMPT = (
    "The whole prompt stays in Python: the PromptResult's .messages (`_` right after"
    " wb.get_prompt), or .to_messages() for an LLM client."
)


class PromptView(BoundedView):
    """One PromptResult: ``server.prompt``, its arguments, description and duration, then
    the messages. Texts share one budget, images and blobs are inlined while they fit, and a
    note says what was cut."""

    kind = "prompt"

    def __init__(
        self, result: PromptResult, *, max_text: int = MAX_TEXT, max_bytes: int | None = None
    ) -> None:
        self.result = result
        self.max_text = max_text
        self.max_bytes = MAX_BYTES if max_bytes is None else max_bytes
        self._scale = SHRINK[0]
        self._build()

    def _build(self) -> None:
        result = self.result
        name, arguments, server = result.name, result.arguments, result.server
        again = f"prompt = wb.get_prompt({name!r}, {arguments!r}, server={server!r})"
        reader = ContentReader(
            [message.content for message in result.messages],
            max_text=self.max_text,
            max_bytes=self.max_bytes,
            scale=self._scale,
            where=lambda index: f"prompt.messages[{index}].content",
            save_hint=f"Save it from Python, after {again}:",
        )
        shown = int(self.max_bytes * self._scale / 2 / MESSAGE_BYTES)
        self.messages: list[tuple[str, Part]] = [
            (message.role, reader.block(index, message.content))
            for index, message in enumerate(result.messages[:shown])
        ]
        self._cuts = reader.cuts
        hidden = len(result.messages) - len(self.messages)
        if hidden:
            self._cuts.others.append(f"the last {hidden:,} message{'' if hidden == 1 else 's'}")
        self.note = self._cuts.describe(self.max_bytes) + " " + WHOLE_PROMPT if self._cuts else ""

    @property
    def truncated(self) -> bool:
        """Whether anything shown was cut."""
        return bool(self._cuts)

    @property
    def title(self) -> str:
        return f"{self.result.server}.{self.result.name}"

    def _arguments(self) -> str:
        return "  ".join(f"{key}={value}" for key, value in self.result.arguments.items())

    def _count(self) -> str:
        count = len(self.result.messages)
        return f"{count:,} message{'' if count == 1 else 's'}"

    # -- rich -------------------------------------------------------------------------------

    def rich_parts(self, console: Console, options: ConsoleOptions) -> RenderResult:
        header = Text(self.title, style="bold cyan")
        header.append(f"  {self._count()}", style="dim")
        duration = format_duration(self.result.duration)
        if duration:
            header.append(f"  {duration}", style="dim")
        yield header
        if self.result.arguments:
            yield Text(self._arguments(), style="magenta")
        if self.result.description:
            yield Text(self.result.description.strip(), style="dim")
        if not self.messages:
            yield Text("(no messages)", style="dim italic")
        for role, part in self.messages:
            yield Text(role, style=f"bold {RICH_STYLE[ROLE_TONE.get(role, 'muted')]}")
            yield Padding(Group(*rich_part(part)), (0, 0, 0, 2))
        if self.note:
            yield Text(self.note, style="dim italic")

    # -- HTML -------------------------------------------------------------------------------

    def to_html(self) -> str:
        header = markup.line(
            markup.span(self.title, mono=True, bold=True),
            markup.span(self._count(), tone="muted"),
            markup.span(format_duration(self.result.duration), tone="muted"),
        )
        parts = [header]
        if self.result.arguments:
            arguments = [
                markup.code(f"{key}={value}") for key, value in self.result.arguments.items()
            ]
            parts.append(markup.line(*arguments))
        if self.result.description:
            parts.append(markup.block(markup.esc(self.result.description.strip()), tone="muted"))
        if not self.messages:
            parts.append(markup.notice("(no messages)"))
        parts.extend(_html_message(role, part) for role, part in self.messages)
        if self.note:
            parts.append(markup.notice(self.note))
        return markup.box(self.kind, "".join(parts), tone="accent")


def _html_message(role: str, part: Part) -> str:
    """One message as a framed block whose edge and label carry the role's colour."""
    tone = ROLE_TONE.get(role, "muted")
    label = markup.span(role, tone=tone, bold=True)
    return markup.box(f"message wb-role-{role}", markup.block(label) + html_part(part), tone=tone)
