"""The gateway on a served surface: the proxy pair ``find_tools`` / ``call_tool`` over every
connected server, so one URL gives an agent the whole deferred registry.

The surface's filters still hold for notebook tools: one it hides is neither found by
``find_tools`` nor reached through ``call_tool``. Calls through ``call_tool`` take the
Workbench's call path (``Workbench.call``) and are recorded as coming from outside.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from fastmcp.tools import ToolResult

from workbench.history import CALL_SOURCE, OUTSIDE
from workbench.mcp.local import DefinitionTool
from workbench.names import LOCAL_SERVER
from workbench.registry.proxy import ToolProxy, error_text
from workbench.tools.definition import ToolDefinition
from workbench.tools.schema import ErrorKind, Observation

ALSO, ONLY = "also", "only"
GATEWAY_MODES = (ALSO, ONLY)


class GuardedProxy(ToolProxy):
    """A ToolProxy that neither finds nor calls the notebook tools the surface hides."""

    def __init__(self, base: ToolProxy, hides: Callable[[str], bool]) -> None:
        super().__init__(
            base.registry, _unused, result_limit=base.result_limit, instructions=base.instructions
        )
        self._base = base
        self._hides = hides

    def find_tools(self, query: str, limit: int = 15) -> dict[str, Any]:
        answer = self._base.find_tools(query, limit)
        answer["tools"] = [hit for hit in answer["tools"] if not self._hides(hit["id"])]
        return answer

    def call_tool(self, name: str, arguments: Mapping[str, Any] | None = None) -> str:
        matches = [entry.id for entry in self.registry if name in (entry.id, entry.name)]
        if any(self._hides(tool_id) for tool_id in matches):
            return error_text(name, ErrorKind.NOT_FOUND, f"Unknown tool: {name!r}")
        return self._base.call_tool(name, arguments)


class GatewayTool(DefinitionTool):
    """One of the proxy pair as served: its inner calls are recorded as from outside."""

    async def run(self, arguments: dict[str, Any]) -> ToolResult:
        CALL_SOURCE.set(OUTSIDE)  # copied into the worker thread, then into the bridge call
        return await super().run(arguments)


def gateway_definitions(
    proxy: ToolProxy, shown: Callable[[], Mapping[str, ToolDefinition[Any, Any]]]
) -> dict[str, ToolDefinition[Any, Any]]:
    """The proxy pair, guarded by what the surface shows (``shown``: the notebook tools
    served now, by name)."""

    def hides(tool_id: str) -> bool:
        server, _, name = tool_id.partition(".")
        return server == LOCAL_SERVER and name not in shown()

    guarded = GuardedProxy(proxy, hides)
    return {definition.name: definition for definition in guarded.definitions()}


def _unused(tool_id: str, arguments: dict[str, Any]) -> Observation:  # pragma: no cover
    """GuardedProxy calls through its base proxy, never through this."""
    raise AssertionError("GuardedProxy calls through its base proxy")
