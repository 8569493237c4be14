"""ActionView: what is about to be (or was) sent to a tool, as an argument table."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from rich.console import Console, ConsoleOptions, RenderResult
from rich.table import Table
from rich.text import Text

from workbench.display import markup
from workbench.display.formatting import cut, more_notice, to_json
from workbench.display.mime import JSON_VERSION, Displayable
from workbench.tools.schema import Action

MAX_VALUE = 2000
"""Characters of one argument value shown; a pasted file should not flood the cell."""
COMPACT_WIDTH = 60
"""Lists and objects longer than this as one line of JSON are indented instead."""


class ActionView(Displayable):
    """A tool id and its arguments, from a validated Action or a plain mapping."""

    def __init__(self, tool_id: str, action_or_arguments: Action | Mapping[str, Any]) -> None:
        self.tool_id = tool_id
        if isinstance(action_or_arguments, Action):
            self.arguments = action_or_arguments.to_arguments()
        else:
            self.arguments = dict(action_or_arguments)

    def _rows(self) -> list[tuple[str, str, int]]:
        """Name, value as JSON (cut) and the characters cut, for both renderings."""
        rows = []
        for name, value in self.arguments.items():
            text = to_json(value)
            if isinstance(value, dict | list) and len(text) > COMPACT_WIDTH:
                text = to_json(value, indent=2)
            shown, omitted = cut(text, MAX_VALUE)
            rows.append((str(name), shown, omitted))
        return rows

    def rich_parts(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield Text.assemble(("call ", "dim"), (self.tool_id, "bold cyan"))
        rows = self._rows()
        if not rows:
            yield Text("No arguments.", style="dim italic")
            return
        table = Table(show_header=False, box=None, padding=(0, 1))
        table.add_column(style="cyan", no_wrap=True)
        table.add_column(overflow="fold")
        for name, value, omitted in rows:
            shown = Text(value)
            if omitted:
                shown.append("\n" + more_notice(omitted), style="dim italic")
            table.add_row(Text(name), shown)
        yield table

    def to_html(self) -> str:
        header = markup.line(
            markup.span("call", tone="muted"), markup.span(self.tool_id, mono=True, bold=True)
        )
        rows = self._rows()
        if not rows:
            return markup.box("action", header + markup.notice("No arguments."), tone="accent")
        cells = [
            (
                markup.span(name, mono=True, tone="accent"),
                markup.pre(value) + (markup.notice(more_notice(omitted)) if omitted else ""),
            )
            for name, value, omitted in rows
        ]
        return markup.box(
            "action", header + markup.table(("argument", "value"), cells), tone="accent"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "action",
            "version": JSON_VERSION,
            "toolId": self.tool_id,
            "arguments": json.loads(to_json(self.arguments)),
        }
