"""Which notebook tools an outside client sees: the served surface, as plain rules.

A tool is served when the whitelist (``expose``) names it, or there is none; the blacklist
(``exclude``) does not name it (it wins over the whitelist); the run-time allow-list
(``allow_tools``) names it, or there is none; and its own ``enabled`` predicate, if it has
one, says yes now. The rules are asked at every ``tools/list`` and every ``tools/call``, so
a hidden tool is neither listed nor callable. No MCP here.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from typing import Any

from workbench.errors import ServeWarning
from workbench.tools.definition import ToolDefinition


class Surface:
    """The filters of one served surface; ``allow`` changes it while it is served."""

    def __init__(
        self,
        expose: Iterable[str] | None = None,
        exclude: Iterable[str] = (),
        *,
        what: str = "notebook tool",
        appears: str = "once its cell runs",
    ) -> None:
        self.expose = None if expose is None else frozenset(expose)
        self.exclude = frozenset(exclude)
        self.allowed: frozenset[str] | None = None
        self.what = what
        """What the served tools are, in warnings (``notebook tool``, ``tool of demo``)."""
        self.appears = appears
        """When a tool of that name would be there (``once its cell runs``)."""

    def check(self, known: Iterable[str], stacklevel: int = 3) -> list[str]:
        """Warn (ServeWarning) about filter names that are no tool yet, and return the
        warnings: the filters are asked at each request, so they apply to tools defined
        later."""
        names = set(known)
        notes = []
        for option, given in (("expose", self.expose), ("exclude", self.exclude)):
            unknown = sorted(set(given or ()) - names)
            if unknown:
                later = "served" if option == "expose" else "kept out"
                notes.append(
                    f"{option}: no {self.what} named {', '.join(unknown)} yet; it is {later} "
                    f"{self.appears} (connected clients are told)."
                )
        for note in notes:
            warnings.warn(note, ServeWarning, stacklevel=stacklevel)
        return notes

    def allow(self, names: Iterable[str] | None, known: Iterable[str]) -> None:
        """Serve only ``names`` from now on (None: every tool the filters let through)."""
        if names is None:
            self.allowed = None
            return
        wanted = frozenset(names)
        unknown = sorted(wanted - set(known))
        if unknown:
            warnings.warn(
                f"allow_tools: no {self.what} named {', '.join(unknown)}; skipped.",
                ServeWarning,
                stacklevel=3,
            )
        self.allowed = wanted

    def passes_filters(self, name: str) -> bool:
        """Whether the whitelist, the blacklist and the allow-list let ``name`` through."""
        if self.expose is not None and name not in self.expose:
            return False
        if name in self.exclude:
            return False
        return self.allowed is None or name in self.allowed

    def shows(self, definition: ToolDefinition[Any, Any]) -> bool:
        """Whether ``definition`` is served now (filters, then its ``enabled`` predicate)."""
        return self.passes_filters(definition.name) and is_enabled(definition)


def is_enabled(definition: ToolDefinition[Any, Any]) -> bool:
    """The definition's ``enabled`` predicate asked now; one that raises hides the tool."""
    predicate = definition.enabled
    if predicate is None:
        return True
    try:
        return bool(predicate())
    except Exception:
        return False
