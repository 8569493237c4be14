"""ToolCard: everything a person needs before calling one tool, on one card."""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from rich import box
from rich.console import Console, ConsoleOptions, RenderResult
from rich.table import Table
from rich.text import Text

from workbench.display import markup
from workbench.display.icons import ROW_ICON_CHARS, IconBudget, icon_html
from workbench.display.mime import JSON_VERSION, TOOL_MIME, Displayable
from workbench.display.params import Parameter, parameters
from workbench.display.style import RICH_STYLE, badge_tone

if TYPE_CHECKING:
    from workbench.registry.entry import ToolEntry

PARAMETER_HEADERS = ("name", "type", "required", "default", "description")


class ToolCard(Displayable):
    """One registry entry: id, title, description, annotation badges and parameters."""

    json_mime = TOOL_MIME

    def __init__(self, entry: ToolEntry) -> None:
        self.entry = entry
        self.parameters: list[Parameter] = parameters(entry.input_schema)
        self.icon = dict(IconBudget(ROW_ICON_CHARS).take(entry.icons))
        """The drawable icon by theme (``workbench/display/icons.py``), or empty."""

    @property
    def badges(self) -> list[str]:
        return self.entry.annotations.badges() if self.entry.annotations else []

    @property
    def subtitle(self) -> str:
        """The title, when it says more than the name."""
        title = self.entry.display_title
        return "" if title == self.entry.name else title

    def rich_parts(self, console: Console, options: ConsoleOptions) -> RenderResult:
        header = Text(self.entry.id, style="bold cyan")
        if self.subtitle:
            header.append(f"  {self.subtitle}", style="bold")
        yield header
        if self.badges:
            yield Text(" · ").join(
                Text(word, style=RICH_STYLE[badge_tone(word)]) for word in self.badges
            )
        if self.entry.description:
            yield Text(self.entry.description.strip())
        if self.entry.tags:
            yield Text(f"tags: {', '.join(self.entry.tags)}", style="dim")
        if not self.parameters:
            yield Text("No parameters.", style="dim italic")
            return
        table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), show_edge=False)
        for name in PARAMETER_HEADERS:
            table.add_column(name, overflow="fold")
        for param in self.parameters:
            table.add_row(
                Text(param.name, style="cyan"),
                Text(param.type, style="magenta"),
                Text("yes" if param.required else ""),
                Text(param.default),
                Text(param.description),
            )
        yield table

    def to_html(self) -> str:
        header = markup.line(
            (icon_html(self.icon["any"]) if self.icon else "")
            + markup.span(self.entry.id, mono=True, bold=True),
            markup.span(self.subtitle, bold=True) if self.subtitle else "",
            markup.badges(self.badges),
        )
        parts = [header]
        if self.entry.description:
            description = markup.esc(self.entry.description.strip())
            parts.append(markup.block(f'<span style="white-space:pre-wrap">{description}</span>'))
        if self.entry.tags:
            parts.append(
                markup.block(markup.esc(f"tags: {', '.join(self.entry.tags)}"), tone="muted")
            )
        if self.parameters:
            rows = [
                (
                    markup.span(param.name, mono=True, bold=param.required),
                    markup.span(param.type, mono=True, tone="accent"),
                    markup.esc("yes" if param.required else ""),
                    markup.span(param.default, mono=True) if param.default else "",
                    markup.esc(param.description),
                )
                for param in self.parameters
            ]
            parts.append(markup.table(PARAMETER_HEADERS, rows))
        else:
            parts.append(markup.notice("No parameters."))
        return markup.box("tool-card", "".join(parts), tone="accent")

    def to_json(self) -> dict[str, Any]:
        """What the card shows, for the extension to draw in a saved notebook: the
        parameter rows as written for people (not the schema, which may be large)."""
        return {
            "kind": "tool",
            "version": JSON_VERSION,
            "id": self.entry.id,
            "server": self.entry.server,
            "name": self.entry.name,
            "title": self.subtitle or None,
            "description": self.entry.description.strip(),
            "badges": self.badges,
            "tags": list(self.entry.tags),
            "parameters": [asdict(param) for param in self.parameters],
            **({"icon": self.icon} if self.icon else {}),
        }
