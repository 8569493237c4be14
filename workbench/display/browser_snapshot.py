"""BrowserSnapshot: what a tool browser showed (the search, its results, the open tool and its
last call), as a document and as static HTML, so a saved or shared notebook still shows it.

The live browser is an ipywidgets tree, which a notebook re-opened without its kernel cannot
draw ("model not found", or a raw ``VBox(...)`` repr). Its output therefore also carries this
snapshot: ``BROWSER_MIME`` for the JupyterLab extension, ``text/html`` for every other front
end (nbconvert, GitHub, VS Code), and one line of ``text/plain``. Built from views the live
browser already shows (``ToolCard``, ``ActionView``, ``ObservationView``), so the snapshot
looks like the widget did; no server target, environment or header is ever part of it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from workbench.display import markup
from workbench.display.action import ActionView
from workbench.display.formatting import shorten
from workbench.display.icons import Shown, drawable_shown, icon_html
from workbench.display.mime import BROWSER_MIME, JSON_VERSION
from workbench.display.observation import ObservationView
from workbench.display.tool_card import ToolCard
from workbench.display.visible import visible

RUN_HINT = "Saved snapshot of the tool browser: run the cell for the live widget."
NOT_FINISHED = "The call had not finished when this snapshot was taken."
PLAIN_QUERY_WIDTH = 40


@dataclass(frozen=True)
class ResultRow:
    """One row of the result list, as the browser's list shows it."""

    id: str
    title: str = ""
    description: str = ""
    badges: tuple[str, ...] = ()
    icon: Shown = ()
    """The row's drawable icon by theme, as the list drew it."""

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> ResultRow:
        """A row of ``ToolList.answer`` (anything missing or odd becomes empty; an icon
        only when drawable)."""
        badges = row.get("badges")
        icon = row.get("icon")
        return cls(
            id=str(row.get("id") or ""),
            title=str(row.get("title") or ""),
            description=str(row.get("description") or ""),
            badges=tuple(str(b) for b in badges) if isinstance(badges, list | tuple) else (),
            icon=drawable_shown(icon) if isinstance(icon, Mapping) else (),
        )

    def to_json(self) -> dict[str, Any]:
        made: dict[str, Any] = {"id": self.id, "title": self.title}
        made.update(description=self.description, badges=list(self.badges))
        return {**made, "icon": dict(self.icon)} if self.icon else made


@dataclass(frozen=True)
class LastCall:
    """The open tool's last call from the browser; ``observation`` is None while it runs."""

    action: ActionView
    observation: ObservationView | None = None


@dataclass(frozen=True)
class BrowserSnapshot:
    """Everything the snapshot shows; ``to_json``, ``to_html`` and ``to_plain`` agree."""

    header: str
    query: str = ""
    server: str = ""
    note: str = ""
    total: int = 0
    results: Sequence[ResultRow] = ()
    card: ToolCard | None = None
    last_call: LastCall | None = None
    selected: str = ""

    def to_json(self) -> dict[str, Any]:
        """The document under ``BROWSER_MIME``: plain JSON, the last call as the Action and
        Observation documents the call views write (``display/action.py``, ``observation.py``)."""
        return {
            "kind": "browser",
            "version": JSON_VERSION,
            "header": self.header,
            "query": self.query,
            "server": self.server,
            "note": self.note,
            "total": self.total,
            "results": [row.to_json() for row in self.results],
            "open": _card_json(self.card) if self.card is not None else None,
            "lastCall": _call_json(self.last_call) if self.last_call is not None else None,
        }

    def to_plain(self) -> str:
        """One line for front ends that show only text (and for a quick look at ``_``)."""
        # Clauses joined by "; ": a header or note ending its own sentence loses its ".".
        parts = [f"Tool browser (saved): {self.header.rstrip('.')}"]
        if self.query:
            query = shorten(self.query, PLAIN_QUERY_WIDTH)
            parts.append(f"search {query!r}: {self.note.rstrip('.')}")
        if self.card is not None:
            parts.append(f"{self.card.entry.id} open")
        parts.append("run the cell for the live widget.")
        return visible("; ".join(parts))

    def to_html(self) -> str:
        """Static HTML with inline styles, every string escaped (``markup``)."""
        head = markup.line(
            markup.span("MCP tool browser", bold=True),
            markup.span(self.header, tone="muted"),
        )
        search = markup.line(
            markup.span("search", tone="muted"),
            markup.code(self.query) if self.query else markup.span("(none)", tone="muted"),
            markup.span(f"server: {self.server}", tone="muted") if self.server else "",
            markup.span(self.note, tone="muted") if self.note else "",
        )
        parts = [head, markup.notice(RUN_HINT), search, self._results_html()]
        if self.card is not None:
            parts.append(self.card.to_html())
        if self.last_call is not None:
            parts.append(self.last_call.action.to_html())
            if self.last_call.observation is not None:
                parts.append(self.last_call.observation.to_html())
            else:
                parts.append(markup.notice(NOT_FINISHED))
        return markup.box("browser-snapshot", "".join(parts))

    def _results_html(self) -> str:
        if not self.results:
            return ""
        rows = [
            (
                (icon_html(row.icon[0][1]) if row.icon else "")
                + markup.span(
                    ("▸ " if row.id == self.selected else "") + row.id, mono=True, bold=True
                ),
                markup.esc(row.title),
                markup.esc(row.description)
                + (" " + markup.badges(row.badges) if row.badges else ""),
            )
            for row in self.results
        ]
        return markup.table(("tool", "title", "description"), rows)

    def bundle(self) -> dict[str, Any]:
        """The snapshot's part of the browser's output bundle."""
        return {
            BROWSER_MIME: self.to_json(),
            "text/html": self.to_html(),
            "text/plain": self.to_plain(),
        }


def _card_json(card: ToolCard) -> dict[str, Any]:
    """The open tool as its card shows it (the tool card's document: parameter rows for
    people, not the schema)."""
    entry = card.entry
    return {
        "kind": "tool",
        "version": JSON_VERSION,
        "id": entry.id,
        "server": entry.server,
        "name": entry.name,
        "title": card.subtitle or None,
        "description": entry.description.strip(),
        "badges": list(card.badges),
        "tags": list(entry.tags),
        "parameters": [asdict(param) for param in card.parameters],
        **({"icon": card.icon} if card.icon else {}),
    }


def _call_json(call: LastCall) -> dict[str, Any]:
    observation = call.observation.to_json() if call.observation is not None else None
    return {"action": call.action.to_json(), "observation": observation}
