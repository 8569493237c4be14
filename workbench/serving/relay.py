"""One connection's tools served through the workbench (``serve(server=NAME)``).

The tools are the registry's entries of that server, read at each request (name, title,
description, input and output schemas, annotations, as the registry knows them), so a
reconnect or a ``tools/list_changed`` of that server is served at once. The surface's
filters apply by name. Each call goes through the Workbench's one call path by tool id
(``server.tool``): validation, timeouts, the history (marked as from outside) and error
Observations all apply, as for notebook tools.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import mcp_types
from fastmcp.server.providers import Provider
from fastmcp.tools import Tool, ToolResult
from fastmcp.utilities.versions import VersionSpec
from pydantic import PrivateAttr

from workbench.errors import AmbiguousToolError, ToolNotFoundError, UnknownServerError
from workbench.registry import Registry, ToolEntry
from workbench.serving.app import CallFn, reporters, tool_result
from workbench.serving.surface import Surface
from workbench.tools.from_function import WRAP_MARKER


class RelayedTool(Tool):
    """A registry entry as served: listed as the registry knows it, called by its id."""

    _call: CallFn = PrivateAttr()
    _tool_id: str = PrivateAttr()

    @classmethod
    def of(cls, entry: ToolEntry, call: CallFn) -> RelayedTool:
        annotations = entry.annotations.to_mcp() if entry.annotations else None
        made = cls(
            name=entry.name,
            title=entry.title,
            description=entry.description or None,
            parameters=entry.input_schema,
            output_schema=entry.output_schema,
            annotations=(None if annotations is None else mcp_types.ToolAnnotations(**annotations)),
            icons=[mcp_types.Icon.model_validate(icon.to_mcp()) for icon in entry.icons] or None,
            tags=set(entry.tags),
            meta=entry.meta,
        )
        made._call = call
        made._tool_id = entry.id
        return made

    async def run(self, arguments: dict[str, Any]) -> ToolResult:
        reports: list[asyncio.Task[None]] = []
        progress, log = reporters(reports)
        observation = await self._call(self._tool_id, arguments, progress, log)
        await asyncio.gather(*reports, return_exceptions=True)  # none after the result
        schema = self.output_schema or {}
        return tool_result(observation, bool(schema.get(WRAP_MARKER)))


class ServerProvider(Provider):
    """The registry's tools of one server that the surface's filters let through, read at
    each request."""

    def __init__(self, server: str, registry: Registry, surface: Surface, call: CallFn) -> None:
        super().__init__()
        self.server = server
        self._registry = registry
        self._surface = surface
        self._call = call
        self._made: dict[str, tuple[ToolEntry, RelayedTool]] = {}

    def entries(self) -> list[ToolEntry]:
        """The server's entries now (none while it is disconnected or has no tools)."""
        try:
            return self._registry.tools(self.server)
        except UnknownServerError:
            return []

    def names(self) -> list[str]:
        """The tools served now, sorted."""
        return [entry.name for entry in self._shown()]

    def known(self) -> list[str]:
        """Every tool of the server now, served or filtered out (filters name these)."""
        return [entry.name for entry in self.entries()]

    async def _list_tools(self) -> Sequence[Tool]:
        return [self._served(entry) for entry in self._shown()]

    async def _get_tool(self, name: str, version: VersionSpec | None = None) -> Tool | None:
        if not self._surface.passes_filters(name):
            return None
        try:
            entry = self._registry.get(f"{self.server}.{name}")
        except (ToolNotFoundError, AmbiguousToolError):
            return None
        return self._served(entry) if entry.server == self.server else None

    def _shown(self) -> list[ToolEntry]:
        return [entry for entry in self.entries() if self._surface.passes_filters(entry.name)]

    def _served(self, entry: ToolEntry) -> RelayedTool:
        made = self._made.get(entry.name)
        if made is None or made[0] is not entry:  # the server listed its tools again
            made = (entry, RelayedTool.of(entry, self._call))
            self._made[entry.name] = made
        return made[1]
