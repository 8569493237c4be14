"""Tables of many things at once: tools, servers, calls and search hits.

Each table lists its rows once as ``Cell``s; the rich and HTML renderings are generic.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from rich import box
from rich.console import Console, ConsoleOptions, RenderResult
from rich.segment import Segment
from rich.style import Style
from rich.table import Table
from rich.text import Text

from workbench.display import markup
from workbench.display.formatting import first_line, format_duration, format_time, shorten
from workbench.display.icons import IconBudget, Shown, icon_html
from workbench.display.mime import JSON_VERSION, SERVERS_MIME, TABLE_MIME, Displayable
from workbench.display.style import RICH_STYLE, Tone, badge_tone, status_tone
from workbench.secrets import mask_text

if TYPE_CHECKING:
    from workbench.history import ToolCall
    from workbench.registry.entry import ToolEntry
    from workbench.registry.search import SearchResults

DESCRIPTION_WIDTH = 80
WHOLE_WIDTH = 64
PROSE_LENGTH = 24
"""Characters a cell keeps on one line whatever the width (ids, numbers, statuses, short
phrases); a longer text with spaces wraps at them. The extension's tables follow the same
rule (``labextension/src/render/dom.ts`` ``tableCell``)."""


class ServerRow(Protocol):
    """What a server table shows of a connection (``ServerInfo`` has it): the display room
    knows no MCP, only the shape of a row."""

    @property
    def name(self) -> str: ...
    @property
    def transport(self) -> str: ...
    @property
    def target(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def tool_count(self) -> int: ...
    @property
    def last_error(self) -> str | None: ...
    @property
    def ping(self) -> float | None: ...


@dataclass(frozen=True)
class Cell:
    """One cell: text with an optional tone, or annotation badges; ``marker`` is a muted
    word before the text (``read`` before a URI)."""

    text: str = ""
    tone: Tone | None = None
    mono: bool = False
    badges: tuple[str, ...] = ()
    marker: str = ""
    icons: Shown = ()
    """A drawable icon before the text, by theme (``workbench/display/icons.py``)."""


@dataclass(frozen=True)
class Note:
    """A line under the table (an empty table, no good match)."""

    text: str
    tone: Tone = "muted"


def whole_line(text: str, style: Style) -> Iterator[Segment]:
    """``text`` as one line that rich neither wraps nor crops (``render_plain`` prints with
    ``crop=False``); a notebook wraps it softly on screen."""
    yield Segment(text, style)
    yield Segment.line()


class TableView(Displayable):
    """A titled table of cells with notes under it; subclasses only say what the rows are."""

    kind = "table"
    headers: tuple[str, ...] = ()
    json_mime = TABLE_MIME

    def __init__(self, title: str, rows: Sequence[Sequence[Cell]], notes: Sequence[Note]) -> None:
        self.title = title
        self.rows = [tuple(row) for row in rows]
        self.notes = list(notes)

    def rich_parts(self, console: Console, options: ConsoleOptions) -> RenderResult:
        # The title and notes are whole lines, never wrapped: what a person or a test reads in
        # them ("5 tools loaded" after a long path) must not depend on the width.
        yield from whole_line(self.title, Style(bold=True))
        if self.rows:
            table = Table(box=box.SIMPLE_HEAD, show_edge=False)
            for index, name in enumerate(self.headers):
                table.add_column(name, overflow="fold", min_width=self._whole_width(index))
            for row in self.rows:
                table.add_row(*(_rich_cell(cell) for cell in row))
            yield table
        for note in self.notes:
            yield from whole_line(note.text, Style.parse(f"{RICH_STYLE[note.tone]} italic"))

    def _whole_width(self, index: int) -> int | None:
        """Monospace cells (ids, URIs) are read whole: their column is not squeezed below
        its longest one, up to ``WHOLE_WIDTH`` characters."""
        mono = [len(row[index].text) for row in self.rows if row[index].mono]
        return min(max(mono), WHOLE_WIDTH) if mono else None

    def to_html(self) -> str:
        parts = []
        if self.rows:
            rows = [[_html_cell(cell) for cell in row] for row in self.rows]
            parts.append(markup.table(self.headers, rows, title=self.title))
        else:
            parts.append(markup.block(markup.span(self.title, bold=True)))
        parts.extend(markup.notice(note.text, tone=note.tone) for note in self.notes)
        return markup.box(self.kind, "".join(parts))

    def to_json(self) -> dict[str, Any]:
        """The cells as shown (already shortened and masked), for the extension to draw."""
        return {
            "kind": "table",
            "version": JSON_VERSION,
            "view": self.kind,
            "title": self.title,
            "headers": list(self.headers),
            "rows": [[_json_cell(cell) for cell in row] for row in self.rows],
            "notes": [{"text": note.text, "tone": note.tone} for note in self.notes],
        }


class ToolTable(TableView):
    """Registry entries, one line each: enough to pick a tool, not to call it."""

    kind = "tool-table"
    headers = ("id", "title", "description", "hints")

    def __init__(self, entries: Iterable[ToolEntry]) -> None:
        listed = list(entries)
        budget = IconBudget()
        rows = [
            (
                Cell(entry.id, "accent", mono=True, icons=budget.take(entry.icons)),
                Cell(entry.display_title if entry.display_title != entry.name else ""),
                Cell(shorten(entry.description, DESCRIPTION_WIDTH)),
                Cell(badges=tuple(entry.annotations.badges() if entry.annotations else ())),
            )
            for entry in listed
        ]
        notes = [] if listed else [Note("No tools.")]
        super().__init__(count_noun(len(listed), "tool"), rows, notes)


class ServerTable(TableView):
    """Connections and their health; the last error's first line says what went wrong, and
    ``hints`` (lines under the table) where to read more. A ``ping`` column (milliseconds)
    appears when any row was pinged (``Workbench.servers(ping=True)``)."""

    kind = "server-table"
    headers: tuple[str, ...] = ("name", "transport", "target", "status", "tools", "last error")
    json_mime = SERVERS_MIME

    def __init__(self, infos: Iterable[ServerRow], *, hints: Sequence[str] = ()) -> None:
        listed = list(infos)
        budget = IconBudget()  # a row's ``icons``, when it has some (ServerInfo does)
        icons = [budget.take(getattr(info, "icons", ())) for info in listed]
        self._servers = [
            {
                **({"icon": dict(shown)} if shown else {}),
                "name": info.name,
                "transport": info.transport,
                "target": mask_text(info.target),
                "status": info.status,
                "toolCount": info.tool_count,
                "lastError": mask_text(first_line(info.last_error)) or None,
                "ping": info.ping,
            }
            for info, shown in zip(listed, icons, strict=True)
        ]
        self._hints = list(hints)
        pinged = any(info.ping is not None for info in listed)
        if pinged:
            self.headers = (*self.headers[:5], "ping", *self.headers[5:])
        rows = []
        for info, shown in zip(listed, icons, strict=True):
            row = [
                Cell(info.name, "accent", mono=True, icons=shown),
                Cell(info.transport),
                Cell(mask_text(info.target), mono=True),
                Cell(info.status, status_tone(info.status)),
                Cell(str(info.tool_count)),
                Cell(mask_text(first_line(info.last_error)), "error"),
            ]
            if pinged:
                row.insert(5, Cell(format_ping(info.ping)))
            rows.append(row)
        notes = (
            [Note(hint, "warn") for hint in hints] if listed else [Note("No servers connected.")]
        )
        super().__init__(count_noun(len(listed), "server"), rows, notes)

    def to_json(self) -> dict[str, Any]:
        """The rows as data (targets and errors masked exactly as in the HTML) and the hints,
        for the extension to draw in a saved notebook."""
        return {
            "kind": "servers",
            "version": JSON_VERSION,
            "title": self.title,
            "servers": self._servers,
            "hints": self._hints,
        }


class HistoryTable(TableView):
    """Past calls, oldest first, as the history holds them; a resource read shows its URI
    after a ``read`` marker."""

    kind = "history-table"
    headers = ("#", "tool", "status", "duration", "started", "from")

    def __init__(self, calls: Iterable[ToolCall]) -> None:
        listed = list(calls)
        rows = [
            (
                Cell(str(call.id)),
                Cell(call.tool_id, "accent", mono=True, marker=_MARKERS.get(call.kind, "")),
                Cell(call.status, status_tone(call.status)),
                Cell(format_duration(call.duration)),
                Cell(format_time(call.started_at), "muted"),
                Cell(call.source, "muted" if call.source == "kernel" else "accent"),
            )
            for call in listed
        ]
        notes = [] if listed else [Note("No calls yet.")]
        super().__init__(count_noun(len(listed), "call"), rows, notes)


class SearchTable(TableView):
    """Search hits best first, and a plain statement when none is a credible answer."""

    kind = "search-table"
    headers = ("#", "id", "score", "description")

    def __init__(self, results: SearchResults) -> None:
        rows = [
            (
                Cell(str(rank)),
                Cell(hit.id, "accent", mono=True),
                Cell(f"{hit.score:.2f}"),
                Cell(shorten(hit.description, DESCRIPTION_WIDTH)),
            )
            for rank, hit in enumerate(results, start=1)
        ]
        notes = []
        if results.no_good_match:
            closest = " The closest tools are listed above." if rows else ""
            notes.append(Note(f"No good match for “{results.query}”.{closest}", "warn"))
        title = f"Search “{results.query}”: {count_noun(len(rows), 'hit')}"
        super().__init__(title, rows, notes)


_MARKERS = {"resource": "read"}
"""The word before a history row's target, by ``ToolCall.kind`` (tools have none)."""


def format_ping(seconds: float | None) -> str:
    """A ping's round trip in milliseconds; empty when the server was not pinged."""
    return "" if seconds is None else f"{seconds * 1000:.1f} ms"


def count_noun(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _rich_cell(cell: Cell) -> Text:
    if cell.badges:
        return Text(", ").join(
            Text(word, style=RICH_STYLE[badge_tone(word)]) for word in cell.badges
        )
    text = Text(cell.text, style=RICH_STYLE[cell.tone] if cell.tone else "")
    return Text.assemble((f"{cell.marker} ", "dim"), text) if cell.marker else text


def _json_cell(cell: Cell) -> dict[str, Any]:
    """A cell with only the fields it uses: a table of a thousand rows stays small."""
    data: dict[str, Any] = {"text": cell.text}
    if cell.tone:
        data["tone"] = cell.tone
    if cell.mono:
        data["mono"] = True
    if cell.badges:
        data["badges"] = list(cell.badges)
    if cell.marker:
        data["marker"] = cell.marker
    if cell.icons:
        data["icon"] = dict(cell.icons)
    return data


def _html_cell(cell: Cell) -> str:
    if cell.badges:
        return _one_line(markup.badges(cell.badges))
    shown = markup.span(cell.text, tone=cell.tone, mono=cell.mono)
    html = f"{markup.span(cell.marker, tone='muted')} {shown}" if cell.marker else shown
    html = icon_html(cell.icons[0][1]) + html if cell.icons else html
    return html if wraps(cell.text) else _one_line(html)


def wraps(text: str) -> bool:
    """Whether a cell's text may wrap (at its spaces): only a long one that has spaces."""
    return len(text) > PROSE_LENGTH and any(char.isspace() for char in text.strip())


def _one_line(html: str) -> str:
    return f'<span style="white-space:nowrap">{html}</span>'
