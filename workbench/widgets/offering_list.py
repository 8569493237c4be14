"""OfferingList: the search box and list of the Resources and Prompts tabs, as one anywidget.

Like ``ToolList`` (``static/list_core.js`` keeps at most one request in flight), but over
a short list the view loads itself (``load``), searched by plain word match: every word of
the query (case-insensitive) must be in a row's uri, name, title, description or server.

Listing resources or prompts is a round trip to every server, which only the kernel's main
thread may wait for: a change announced on the bridge thread (``mark_stale``) only bumps the
synced ``stale`` counter; the page answers with a request, and the kernel reloads while
answering it, on the main thread (comm messages are handled there).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import anywidget
import traitlets

from workbench.display.formatting import first_line, shorten
from workbench.display.tables import count_noun
from workbench.registry.search import MAX_QUERY_CHARS
from workbench.widgets.static_text import joined

LIMIT = 100
"""Rows rendered at most."""
MAX_QUERY = MAX_QUERY_CHARS
"""Characters of a query the box takes and the kernel reads."""
MAX_WORDS = 32
DESCRIPTION_WIDTH = 160
NOTE_QUERY_WIDTH = 60


@dataclass(frozen=True)
class Row:
    """One listed item: ``key`` is unique in the list (what ``selected`` holds)."""

    key: str
    label: str
    server: str
    kind: str
    title: str = ""
    description: str = ""

    def matches(self, words: Sequence[str]) -> bool:
        text = " ".join((self.label, self.server, self.kind, self.title, self.description))
        folded = text.casefold()
        return all(word in folded for word in words)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.key,
            "label": self.label,
            "server": self.server,
            "kind": self.kind,
            "title": self.title if self.title and self.title != self.label else "",
            "description": shorten(first_line(self.description), DESCRIPTION_WIDTH),
        }


Loader = Callable[[], tuple[Sequence[Row], str]]
"""Reads the rows (and a note, such as servers whose listing failed); may raise."""


class OfferingList(anywidget.AnyWidget):
    """A searchable list of rows; ``selected`` is the key of the row clicked."""

    _esm = joined("list_core.js", "offering_list.js")
    _css = joined("list_core.css", "offering_list.css")

    request = traitlets.Dict().tag(sync=True)
    answer = traitlets.Dict().tag(sync=True)
    selected = traitlets.Unicode("").tag(sync=True)
    stale = traitlets.Int(0).tag(sync=True)
    placeholder = traitlets.Unicode("Search…").tag(sync=True)
    limit = traitlets.Int(LIMIT).tag(sync=True)
    max_query = traitlets.Int(MAX_QUERY).tag(sync=True)

    def __init__(self, load: Loader, *, noun: str, placeholder: str) -> None:
        super().__init__(request={"query": "", "seq": 0}, placeholder=placeholder)
        self._load = load
        self._noun = noun
        self._rows: list[Row] = []
        self._problem = ""
        self._note = ""
        self._loaded = False
        self._outdated = False
        self._lock = threading.Lock()
        self.answer = {"seq": 0, "query": "", "rows": [], "note": f"Open to list {noun}."}
        self.observe(self._on_request, names="request")

    @property
    def loaded(self) -> bool:
        return self._loaded

    @property
    def rows(self) -> list[Row]:
        return list(self._rows)

    def row(self, key: str) -> Row | None:
        return next((row for row in self._rows if row.key == key), None)

    def load(self) -> None:
        """Read the rows again and answer the current request (main thread only: it waits
        for the servers)."""
        with self._lock:
            self._outdated = False
            try:
                rows, note = self._load()
            except Exception as error:  # a view shows a failure, never raises it
                rows, note = [], ""
                self._problem = f"Could not list {self._noun}: {type(error).__name__}: {error}"
            else:
                self._problem = ""
            self._rows, self._note, self._loaded = list(rows), note, True
            self.answer = self._answer()

    def mark_stale(self) -> None:
        """The rows are out of date (any thread): the page asks again, and the answer
        reloads them. Before the first load nothing happens: opening the tab loads."""
        if not self._loaded:
            return
        self._outdated = True
        self.stale += 1

    def search(self, query: str) -> None:
        """Search from Python, as if typed."""
        seq = int(self.request.get("seq") or 0) + 1
        self.request = {"query": query[:MAX_QUERY], "seq": seq}

    def _on_request(self, change: dict[str, Any]) -> None:
        if self._loaded and self._outdated:
            self.load()
        elif self._loaded:
            with self._lock:
                self.answer = self._answer()

    def _count(self, count: int) -> str:
        """ "1 prompt", "3 prompts": ``noun`` is a regular plural."""
        return count_noun(count, self._noun.removesuffix("s"))

    def _answer(self) -> dict[str, Any]:
        query = str(self.request.get("query") or "")[:MAX_QUERY]
        seq = int(self.request.get("seq") or 0)
        words = [word.casefold() for word in query.split()][:MAX_WORDS]
        found = [row for row in self._rows if row.matches(words)]
        shown = [row.to_json() for row in found[: self.limit]]
        total = len(self._rows)
        if self._problem:
            note = self._problem
        elif not total:
            note = f"No {self._noun}: no connected server offers any."
        elif not words:
            note = self._count(total)
        elif not found:
            note = f"Nothing matches {shorten(query, NOTE_QUERY_WIDTH)!r}."
        else:
            note = f"{len(found)} of {self._count(total)}"
        if len(shown) < len(found):
            note += f" (the first {len(shown)} shown)"
        if self._note:
            note += f". {self._note}"
        return {"seq": seq, "query": query, "rows": shown, "note": note}
