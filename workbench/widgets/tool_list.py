"""ToolList: the browser's search box, server filter and ranked result list, as one anywidget.

A keystroke is one synced trait each way: the page sends ``request`` (query, server, seq),
the kernel answers with ``answer`` (the top ``limit`` rows, tagged with the request's seq).
The page keeps at most one request in flight (``static/list_core.js``), which debounces
by the kernel's own pace: the first key is answered at once, keys typed meanwhile are folded
into one follow-up request. Only the top rows cross the wire, so 10,000 tools cost no more
to show than 40. A keystroke's work is bounded whatever is pasted (F10): the box takes at
most ``MAX_QUERY`` characters (search reads no more), the kernel searches and echoes at most
those, and a note quotes at most ``NOTE_QUERY_WIDTH`` of them.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

import anywidget
import traitlets

from workbench.display.formatting import first_line, shorten
from workbench.display.icons import IconBudget
from workbench.display.tables import count_noun
from workbench.errors import WorkbenchError
from workbench.registry.search import MAX_QUERY_CHARS
from workbench.widgets.static_text import joined

if TYPE_CHECKING:
    from workbench.registry import Registry, ToolEntry
    from workbench.registry.search import SearchHit, SearchResults

LIMIT = 40
"""Rows rendered at most; search is for finding, not for scrolling through 10,000 tools."""
DESCRIPTION_WIDTH = 160
MAX_QUERY = MAX_QUERY_CHARS
"""Characters the box takes and the kernel searches: all that search reads of a query."""
NOTE_QUERY_WIDTH = 60
NO_TOOLS = "No tools yet: connect a server."


def registry_summary(registry: Registry) -> str:
    """The browser's header (live and saved): "31 tools from 4 servers"."""
    servers = registry.servers()
    if not servers:
        return "No servers yet."
    return f"{count_noun(len(registry), 'tool')} from {count_noun(len(servers), 'server')}"


class ToolList(anywidget.AnyWidget):
    """Searches a Registry as the user types; ``selected`` is the id of the row clicked."""

    _esm = joined("list_core.js", "tool_list.js")
    _css = joined("list_core.css", "tool_list.css")

    request = traitlets.Dict().tag(sync=True)
    answer = traitlets.Dict().tag(sync=True)
    servers = traitlets.List(traitlets.Unicode()).tag(sync=True)
    selected = traitlets.Unicode("").tag(sync=True)
    limit = traitlets.Int(LIMIT).tag(sync=True)
    max_query = traitlets.Int(MAX_QUERY).tag(sync=True)

    def __init__(self, registry: Registry, *, query: str = "", server: str = "") -> None:
        super().__init__(request={"query": query[:MAX_QUERY], "server": server, "seq": 0})
        self._registry = registry
        self._lock = threading.Lock()
        self.observe(self._on_request, names="request")
        self.refresh()

    @property
    def query(self) -> str:
        return str(self.request.get("query") or "")

    @property
    def server(self) -> str:
        return str(self.request.get("server") or "")

    def search(self, query: str, server: str = "") -> None:
        """Search from Python, as if typed (the page shows the answer and the query)."""
        seq = int(self.request.get("seq") or 0) + 1
        self.request = {"query": query[:MAX_QUERY], "server": server, "seq": seq}

    def refresh(self) -> None:
        """Answer the current request again: the registry changed under it."""
        with self._lock:
            self.servers = self._registry.servers()
            self.answer = self._answer(self.query, self.server, int(self.request.get("seq") or 0))

    def _on_request(self, change: dict[str, Any]) -> None:
        self.refresh()

    def _icon(self, tool_id: str, budget: IconBudget) -> dict[str, str]:
        try:
            return dict(budget.take(self._registry.get(tool_id).icons))
        except WorkbenchError:  # gone since the search: no icon
            return {}

    def _answer(self, query: str, server: str, seq: int) -> dict[str, Any]:
        query = query[:MAX_QUERY]  # a page may send more than its box takes
        quoted = repr(shorten(query, NOTE_QUERY_WIDTH))
        known = server if server in self.servers else ""
        total = len(self._registry.tools(known or None)) if known else len(self._registry)
        where = f" on {known}" if known else ""
        if not query.strip():
            entries = sorted(self._registry.tools(known or None), key=lambda entry: entry.id)
            rows = [_entry_row(entry) for entry in entries[: self.limit]]
            shown = f"first {len(rows)} of " if len(rows) < total else ""
            note = f"{shown}{count_noun(total, 'tool')}{where}" if total else NO_TOOLS
        else:
            results = self._registry.search(query, limit=self.limit, server=known or None)
            rows, note = _ranked(results, quoted, total, where)
        budget = IconBudget()  # drawable data: images only, by theme, within a budget
        for row in rows:
            icon = self._icon(row["id"], budget)
            if icon:
                row["icon"] = icon
        return {"seq": seq, "query": query, "server": known, "rows": rows, "note": note}


def _ranked(
    results: SearchResults, quoted: str, total: int, where: str
) -> tuple[list[dict[str, Any]], str]:
    """The rows and note of a search: the credible hits only, saying how many weak ones
    were left out (``SearchHit.weak``, the rule behind ``%mcp search``'s "No good match");
    when even the best is weak, the closest ones, said so."""
    tools = f"{count_noun(total, 'tool')}{where}"
    if not results:
        return [], f"Nothing matches {quoted}{where}."
    if results.no_good_match:
        rows = [_hit_row(hit) for hit in results]
        return rows, f"No good match for {quoted}; the closest of {tools}:"
    # The best hit is credible (no_good_match says so) even when only meaning reached it.
    good = [hit for rank, hit in enumerate(results) if rank == 0 or not hit.weak]
    note = f"best {len(good)} of {tools}"
    weak = len(results) - len(good)
    if weak:
        note += f"; {count_noun(weak, 'weak hit')} left out"
    return [_hit_row(hit) for hit in good], note


def _row(
    tool_id: str, title: str | None, name: str, description: str, badges: list[str]
) -> dict[str, Any]:
    return {
        "id": tool_id,
        "title": title if title and title != name else "",
        "description": shorten(first_line(description), DESCRIPTION_WIDTH),
        "badges": badges,
    }


def _entry_row(entry: ToolEntry) -> dict[str, Any]:
    badges = entry.annotations.badges() if entry.annotations else []
    return _row(entry.id, entry.title, entry.name, entry.description, badges)


def _hit_row(hit: SearchHit) -> dict[str, Any]:
    badges = hit.annotations.badges() if hit.annotations else []
    return _row(hit.id, hit.title, hit.name, hit.description, badges)
