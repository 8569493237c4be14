"""Registry: every known tool of every server, by id ``server.tool``.

A server's tools are added, replaced and removed as a unit: input is fully read before the
registry changes, so a bad tool leaves the previous state untouched.
"""

from __future__ import annotations

import difflib
import inspect
import threading
import warnings
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from workbench.errors import (
    AmbiguousToolError,
    ToolDefinitionError,
    ToolListError,
    ToolNotFoundError,
    UnknownServerError,
    WorkbenchWarning,
)
from workbench.listeners import Listeners
from workbench.names import LOCAL_SERVER, check_server_name
from workbench.registry.entry import ToolEntry
from workbench.registry.search import SearchIndex, SearchResults
from workbench.registry.visibility import model_visible
from workbench.tools.definition import ToolDefinition, has_control_characters

if TYPE_CHECKING:
    from workbench.registry.lab import Method, SearchLab, SearchReport
    from workbench.registry.lab.embedder import Embedder, RegistryEmbedder
    from workbench.registry.lab.requests import RequestsSource
    from workbench.registry.semantic import SemanticIndex

SUGGESTION_LIMIT = 5
SHOWN_NAME = 60
"""Characters of a refused tool name quoted in the warning."""

Listener = Callable[[str], None]


class Registry:
    """Tools by server, resolvable by id or unique bare name, searchable at once."""

    def __init__(
        self, *, semantic: bool = False, embedder: Embedder | RegistryEmbedder | None = None
    ) -> None:
        self._servers: dict[str, dict[str, ToolEntry]] = {}
        self._servers_by_name: dict[str, set[str]] = {}
        self._index = SearchIndex()  # of the tools a model may see (registry/visibility.py)
        self._size = 0
        self._semantic: SemanticIndex | None = None
        self._listeners: Listeners[str] = Listeners("the registry")
        # Connections update the registry from the bridge thread (tools/list_changed) while
        # a cell or a widget may be searching it.
        self._lock = threading.RLock()
        self.embedder: RegistryEmbedder | None = None
        """The user's embedder that ``search`` fuses with keyword (``set_embedder``)."""
        if embedder is not None:
            self.set_embedder(embedder)
        elif semantic:
            self.enable_semantic()

    def enable_semantic(self, index: SemanticIndex | None = None) -> SemanticIndex:
        """Fuse embedding similarity into ``search`` (needs the ``semantic`` extra,
        ``jupyter-mcp-workbench[semantic]``; the model loads on the first search). Returns the
        index, e.g. to ``prepare()`` it now."""
        from workbench.registry.semantic import SemanticIndex

        if index is None and self._semantic is not None:
            return self._semantic
        chosen = index if index is not None else SemanticIndex()
        for entry in self:
            if model_visible(entry.meta):
                chosen.add(entry)
        self._semantic = chosen
        return chosen

    def set_embedder(
        self, embedder: Embedder | RegistryEmbedder | None, *, name: str | None = None
    ) -> RegistryEmbedder | None:
        """Fuse your own embedder into ``search`` instead of the bundled model: ``fn(list of
        texts) -> vectors``. With a ``name`` (or a model that names itself) vectors are cached
        on disk by text digest. None goes back to keyword search. See ``registry/lab/embedder``."""
        from workbench.registry.lab.embedder import RegistryEmbedder
        from workbench.registry.semantic import SemanticIndex

        with self._lock:
            if embedder is None:
                self.embedder = self._semantic = None
                return None
            chosen = (
                embedder
                if isinstance(embedder, RegistryEmbedder)
                else RegistryEmbedder(embedder, name)
            )
            self.enable_semantic(SemanticIndex(chosen.encoder, chosen.cache))
            self.embedder = chosen
            return chosen

    # -- changing -----------------------------------------------------------------------

    def add_tools(self, server: str, tools: Iterable[object]) -> list[ToolEntry]:
        """Add or replace the given tools of a server, keeping its other tools."""
        entries = _read_entries(server, tools)
        with self._lock:
            current = dict(self._servers.get(server, {}))
            current.update({entry.name: entry for entry in entries})
            self._install(server, current)
        self._notify(server)
        return entries

    def set_tools(self, server: str, tools: Iterable[object]) -> list[ToolEntry]:
        """Make these the server's only tools (what a fresh ``tools/list`` means)."""
        entries = _read_entries(server, tools)
        with self._lock:
            self._install(server, {entry.name: entry for entry in entries})
        self._notify(server)
        return entries

    def remove_tools(self, server: str, names: Iterable[str]) -> None:
        """Remove some tools of a server; unknown names are ignored."""
        with self._lock:
            current = dict(self._servers.get(server, {}))
            for name in names:
                current.pop(name, None)
            self._install(server, current)
        self._notify(server)

    def remove_server(self, server: str) -> None:
        """Remove every tool of a server."""
        with self._lock:
            if server not in self._servers:
                return
            self._install(server, {})
        self._notify(server)

    def register(
        self,
        tool: ToolDefinition[Any, Any] | type[ToolDefinition[Any, Any]] | Callable[..., Any],
        *,
        server: str = LOCAL_SERVER,
        **params: Any,
    ) -> list[ToolEntry]:
        """Register a tool instance, a ToolDefinition class (through ``create(**params)``),
        or a factory function returning one tool or several."""
        if isinstance(tool, ToolDefinition):
            made: object = tool
        elif inspect.isclass(tool) and issubclass(tool, ToolDefinition):
            made = tool.create(**params)
        elif callable(tool):
            made = tool(**params)
        else:
            raise ToolDefinitionError(f"Cannot register {tool!r}: not a tool, class or factory.")
        definitions = [made] if isinstance(made, ToolDefinition) else list(made)  # type: ignore[call-overload]
        for definition in definitions:
            if not isinstance(definition, ToolDefinition):
                raise ToolDefinitionError(f"Factory returned {definition!r}, not a ToolDefinition.")
        return self.add_tools(server, definitions)

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(server)`` after each change; returns the unsubscribe function.
        A listener that raises is warned about once and never fails the change."""
        return self._listeners.subscribe(listener)

    # -- reading ------------------------------------------------------------------------

    def get(self, ref: str) -> ToolEntry:
        """Resolve ``server.tool`` or a bare tool name that exists on one server only."""
        server, _, name = ref.partition(".")
        with self._lock:
            entry = self._servers.get(server, {}).get(name) if name else None
            if entry is not None:
                return entry
            owners = sorted(self._servers_by_name.get(ref, ()))
            if len(owners) == 1:
                return self._servers[owners[0]][ref]
        if owners:
            raise AmbiguousToolError(ref, [f"{owner}.{ref}" for owner in owners])
        raise ToolNotFoundError(ref, self.suggest(ref))

    def suggest(
        self, ref: str, limit: int = SUGGESTION_LIMIT, among: Iterable[ToolEntry] | None = None
    ) -> list[str]:
        """Up to ``limit`` ids that look like ``ref`` (a typo, a bare name, a fragment), of
        every entry or only of those ``among`` (what a caller may see)."""
        lowered = ref.lower()
        entries = list(self if among is None else among)
        ids = {entry.id.lower(): entry.id for entry in entries}
        names = {entry.name.lower(): entry.id for entry in entries}
        close = difflib.get_close_matches(lowered, list(ids), n=limit, cutoff=0.6)
        close += difflib.get_close_matches(lowered, list(names), n=limit, cutoff=0.6)
        found = [ids.get(item) or names[item] for item in close]
        found += [entry_id for key, entry_id in sorted(ids.items()) if lowered in key]
        return list(dict.fromkeys(found))[:limit]

    def search(self, query: str, limit: int = 15, *, server: str | None = None) -> SearchResults:
        """Rank every tool a model may see for a query (names and descriptions; schemas
        stay unloaded): an App-only tool (``_meta.ui.visibility`` without ``model``) is
        never a hit, though ``get`` and ``tools`` have it."""
        with self._lock:
            if server is not None and server not in self._servers:
                raise UnknownServerError(f"No server named {server!r} in the registry.")
            if self._semantic is not None:
                return self._semantic.search(query, limit, keyword=self._index, server=server)
            return self._index.search(query, limit, server=server)

    def evaluate(
        self, requests: RequestsSource, *, method: str | Method = "search"
    ) -> SearchReport:
        """How well ``search`` finds the expected tools of ``requests`` (dicts, a JSONL or CSV
        path, or a cell's text): top-1, top-5, MRR, per kind, and the misses explained."""
        from workbench.registry.lab import evaluate

        return evaluate(self, requests, method=method)

    def lab(self, requests: RequestsSource) -> SearchLab:
        """A search lab on this catalog: ``.report``, ``.evaluate(method)``, ``.compare()``."""
        from workbench.registry.lab import SearchLab

        return SearchLab(self, requests)

    def servers(self) -> list[str]:
        """Names of servers with at least one tool, sorted."""
        with self._lock:
            return sorted(self._servers)

    def tools(self, server: str | None = None) -> list[ToolEntry]:
        """Entries of one server or of all, sorted by id."""
        with self._lock:
            if server is not None and server not in self._servers:
                raise UnknownServerError(f"No server named {server!r} in the registry.")
            chosen = [server] if server is not None else sorted(self._servers)
            return [self._servers[s][n] for s in chosen for n in sorted(self._servers[s])]

    def __iter__(self) -> Iterator[ToolEntry]:
        return iter(self.tools())

    def __len__(self) -> int:
        return self._size

    def __contains__(self, ref: object) -> bool:
        if not isinstance(ref, str):
            return False
        try:
            self.get(ref)
        except (ToolNotFoundError, AmbiguousToolError):
            return False
        return True

    def __repr__(self) -> str:
        return f"<Registry: {len(self)} tools on {len(self._servers)} servers>"

    # -- internals ----------------------------------------------------------------------

    def _install(self, server: str, entries: dict[str, ToolEntry]) -> None:
        previous = self._servers.get(server, {})
        for name, entry in previous.items():
            if entries.get(name) is not entry:
                self._index.remove(entry.id)
                if self._semantic is not None:
                    self._semantic.remove(entry.id)
                self._servers_by_name[name].discard(server)
                if not self._servers_by_name[name]:
                    del self._servers_by_name[name]
        for name, entry in entries.items():
            if previous.get(name) is not entry:
                if model_visible(entry.meta):  # an App-only tool is never a model's hit
                    self._index.add(entry)
                    if self._semantic is not None:
                        self._semantic.add(entry)
                self._servers_by_name.setdefault(name, set()).add(server)
        self._size += len(entries) - len(previous)
        if entries:
            self._servers[server] = entries
        else:
            self._servers.pop(server, None)

    def _notify(self, server: str) -> None:
        """Tell listeners, outside the lock so they may read the registry from any thread."""
        self._listeners.notify(server)


def _read_entries(server: str, tools: Iterable[object]) -> list[ToolEntry]:
    """Read every tool before touching the registry, so a bad one changes nothing.

    A tool whose name holds a control character (a line break among them) is left out
    with a one-line warning and the rest of the listing kept: its id would be a server's
    text that can end a line wherever an id is written (a cell, a log, a table)."""
    check_server_name(server)
    entries: list[ToolEntry] = []
    for tool in tools:
        entry = ToolEntry.from_tool(server, tool)
        if has_control_characters(entry.name):
            _warn_left_out(server, entry.name)
        else:
            entries.append(entry)
    seen: set[str] = set()
    for entry in entries:
        if entry.name in seen:
            raise ToolListError(f"Server {server!r} lists tool {entry.name!r} twice.")
        seen.add(entry.name)
    return entries


def _warn_left_out(server: str, name: str) -> None:
    shown = repr(name) if len(name) <= SHOWN_NAME else f"{name[:SHOWN_NAME]!r}..."
    warnings.warn(
        f"Server {server!r} lists a tool named {shown}, with a control character or line "
        "break in its name: it is left out.",
        WorkbenchWarning,
        stacklevel=4,
    )
