"""One server in detail: its row of the server table, then what the libraries logged about it.

The MCP SDK, FastMCP and httpx log about a server (a stdio server's stdout that is not
JSON-RPC, a tool error, an HTTP retry) into that server's log, never into a cell; this is
where a person reads it. Newest last, the last ``LOG_SHOWN`` records, each message's first
line (a traceback folds under it in HTML, and is counted in plain text).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Protocol

from rich import box
from rich.console import Console, ConsoleOptions, RenderResult
from rich.table import Table
from rich.text import Text

from workbench.display import markup
from workbench.display.formatting import shorten
from workbench.display.mime import Displayable
from workbench.display.style import RICH_STYLE, level_tone, status_tone
from workbench.display.tables import ServerRow
from workbench.secrets import mask_text

LOG_SHOWN = 20
"""Log records a detail view shows: the recent past at a glance."""
LINE_WIDTH = 300
"""Characters of a record's first line shown; the whole record is in Python."""
LOGGED = ("warning", "error", "critical")
"""Levels that make a server's log worth a look (``has_warnings``)."""


class LogLine(Protocol):
    """What a detail view shows of a library log record (the display room knows no MCP)."""

    @property
    def level(self) -> str: ...
    @property
    def logger(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def created(self) -> float: ...


def has_warnings(log: Sequence[LogLine]) -> bool:
    """Whether any record is a warning or worse."""
    return any(line.level.lower() in LOGGED for line in log)


class ServerDetail(Displayable):
    """A server's row and its recent library log; ``everything`` is the Python expression
    that returns the whole log, named when records are left out."""

    kind = "server-detail"

    def __init__(
        self,
        info: ServerRow,
        log: Sequence[LogLine],
        *,
        shown: int = LOG_SHOWN,
        everything: str = "",
    ) -> None:
        self.info = info
        self.log = list(log)[-shown:] if shown > 0 else []
        self.omitted = len(log) - len(self.log)
        self.everything = everything

    @property
    def facts(self) -> list[tuple[str, str]]:
        info = self.info
        return [
            ("transport", info.transport),
            ("target", mask_text(info.target)),
            ("status", info.status),
            ("tools", str(info.tool_count)),
        ]

    @property
    def last_error(self) -> str:
        return mask_text(self.info.last_error or "")

    @property
    def log_title(self) -> str:
        if not self.log:
            return "Library log: nothing logged."
        count = len(self.log) + self.omitted
        title = f"Library log: {count} record{'' if count == 1 else 's'}"
        if self.omitted:
            title += f", the last {len(self.log)} shown"
        return title + " (newest last)"

    @property
    def more(self) -> str:
        """The note saying where the records left out are."""
        if not self.omitted:
            return ""
        where = f" {self.everything} returns them all." if self.everything else ""
        return f"{self.omitted} earlier record{'' if self.omitted == 1 else 's'} not shown.{where}"

    def rich_parts(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield Text(f"Server {self.info.name}", style="bold")
        for name, value in self.facts:
            style = RICH_STYLE[status_tone(value)] if name == "status" else ""
            yield Text.assemble((f"  {name}: ", "dim"), (value, style))
        if self.last_error:
            yield Text.assemble(("  last error: ", "dim"), (self.last_error, RICH_STYLE["error"]))
        yield Text(self.log_title, style="bold")
        if self.log:
            table = Table(box=box.SIMPLE_HEAD, show_edge=False, show_header=True)
            for name in ("time", "level", "logger", "message"):
                table.add_column(name, overflow="fold")
            for line in self.log:
                head, rest = _split(line.message)
                extra = f" (+{rest.count(chr(10)) + 1} lines)" if rest else ""
                table.add_row(
                    Text(_stamp(line.created), style="dim"),
                    Text(line.level, style=RICH_STYLE[level_tone(line.level)]),
                    Text(line.logger, style="dim"),
                    Text(head + extra),
                )
            yield table
        if self.more:
            yield Text(self.more, style="dim italic")

    def to_html(self) -> str:
        info = self.info
        facts = [
            markup.span(info.name, tone="accent", mono=True, bold=True),
            *(
                markup.span(f"{name}: ", tone="muted")
                + markup.span(value, tone=status_tone(value) if name == "status" else None)
                for name, value in self.facts
            ),
        ]
        parts = [markup.line(*facts)]
        if self.last_error:
            parts.append(markup.pre(self.last_error, tone="error"))
        parts.append(markup.block(markup.span(self.log_title, bold=True)))
        if self.log:
            rows = [
                [
                    markup.span(_stamp(line.created), tone="muted"),
                    markup.span(line.level, tone=level_tone(line.level)),
                    markup.span(line.logger, tone="muted", mono=True),
                    _html_message(line.message),
                ]
                for line in self.log
            ]
            parts.append(markup.table(("time", "level", "logger", "message"), rows))
        if self.more:
            parts.append(markup.notice(self.more))
        return markup.box(self.kind, "".join(parts))


def _split(message: str) -> tuple[str, str]:
    """A record's first line (masked, shortened) and the rest (a traceback), masked."""
    head, _, rest = mask_text(message).partition("\n")
    return shorten(head, LINE_WIDTH), rest


def _html_message(message: str) -> str:
    head, rest = _split(message)
    if not rest:
        return markup.span(head)
    summary = f"<summary>{markup.esc(head)}</summary>"
    return f"<details>{summary}{markup.pre(rest)}</details>"


def _stamp(created: float) -> str:
    return time.strftime("%H:%M:%S", time.localtime(created))
