"""What servers offer, as tab completion needs it: prompts and their arguments, resource
URIs and templates, and the values a server suggests for an argument (``completion/complete``).

Completion runs at each Tab, so every answer is kept a few seconds (``TTL``) per Workbench,
and any failure (a server that is gone, slow past its request timeout, or offers nothing)
is no suggestion, kept as long: completion never raises into IPython.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from workbench.features.prompts import Prompt
    from workbench.features.resources import Resource, ResourceTemplate
    from workbench.session import Workbench

T = TypeVar("T")

TTL = 10.0
"""Seconds a listing or a server's suggestions are reused before being asked again."""
KEPT = 256
"""Answers kept at most: past it, the oldest are forgotten."""


class Offers:
    """Listings and suggestions of a Workbench's servers, each kept ``ttl`` seconds."""

    def __init__(self, ttl: float = TTL, clock: Callable[[], float] = time.monotonic) -> None:
        self.ttl = ttl
        self._clock = clock
        self._kept: dict[tuple[Any, ...], tuple[float, Any]] = {}

    def prompts(self, workbench: Workbench, server: str | None = None) -> list[Prompt]:
        found: list[Prompt] = self._cached(
            (id(workbench), "prompts"), lambda: list(workbench.prompts()), []
        )
        return [p for p in found if server is None or p.server == server]

    def resources(self, workbench: Workbench, server: str | None = None) -> list[Resource]:
        found: list[Resource] = self._cached(
            (id(workbench), "resources"), lambda: list(workbench.resources()), []
        )
        return [r for r in found if server is None or r.server == server]

    def templates(self, workbench: Workbench, server: str | None = None) -> list[ResourceTemplate]:
        key = (id(workbench), "templates")
        found: list[ResourceTemplate] = self._cached(
            key, lambda: list(workbench.resource_templates()), []
        )
        return [t for t in found if server is None or t.server == server]

    def prompt_names(self, workbench: Workbench, server: str | None = None) -> list[str]:
        """Each prompt's name; ``server.name`` for a name several servers share."""
        found = self.prompts(workbench, server)
        names = [p.name for p in found]
        return [p.name if names.count(p.name) == 1 else f"{p.server}.{p.name}" for p in found]

    def prompt(self, workbench: Workbench, name: str, server: str | None = None) -> Prompt | None:
        """The prompt a line names (``name`` or ``server.name``), if exactly one fits."""
        found = [
            p for p in self.prompts(workbench, server) if name in (p.name, f"{p.server}.{p.name}")
        ]
        return found[0] if len(found) == 1 else None

    def uris(self, workbench: Workbench, server: str | None = None) -> list[str]:
        """Resource URIs, then template URIs (``{variables}`` and all)."""
        resources = [r.uri for r in self.resources(workbench, server)]
        return resources + [t.uri_template for t in self.templates(workbench, server)]

    def values(
        self,
        workbench: Workbench,
        target: str,
        argument: str,
        typed: str,
        context: Mapping[str, str],
        server: str | None = None,
    ) -> list[str]:
        """What the server suggests for ``argument`` of a prompt or template, given ``typed``
        and the other arguments already written (``context``)."""
        key = (id(workbench), "values", target, argument, typed, tuple(sorted(context.items())))

        def ask() -> list[str]:
            return workbench.complete(target, argument, typed, server=server, context=context)

        found: list[str] = self._cached((*key, server), ask, [])
        return found

    def _cached(self, key: tuple[Any, ...], fetch: Callable[[], T], default: T) -> T:
        now = self._clock()
        kept = self._kept.get(key)
        if kept is not None and now - kept[0] < self.ttl:
            answer: T = kept[1]
            return answer
        try:
            answer = fetch()
        except Exception:  # completion never raises: a failure is no suggestion
            answer = default
        if len(self._kept) >= KEPT:
            del self._kept[min(self._kept, key=lambda k: self._kept[k][0])]
        self._kept[key] = (now, answer)
        return answer
