"""The gateway on a served surface: the proxy pair ``find_tools`` / ``call_tool`` over every
connected server, so one URL gives an agent the whole deferred registry.

The surface's filters still hold for notebook tools: one it hides is neither found by
``find_tools``, reached through ``call_tool``, suggested by its "Did you mean", nor named or
counted in the initialize instructions (``guarded``: a proxy that sees only what the surface
shows). Calls through ``call_tool`` take the Workbench's call path (``Workbench.call``) and
are recorded as coming from outside.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from fastmcp.tools import ToolResult

from workbench.history import CALL_SOURCE, OUTSIDE
from workbench.names import LOCAL_SERVER
from workbench.registry.proxy import ToolProxy
from workbench.serving.notebook_server import DefinitionTool
from workbench.tools.definition import ToolDefinition

ALSO, ONLY = "also", "only"
GATEWAY_MODES = (ALSO, ONLY)


class GatewayTool(DefinitionTool):
    """One of the proxy pair as served: its inner calls are recorded as from outside."""

    async def run(self, arguments: dict[str, Any]) -> ToolResult:
        CALL_SOURCE.set(OUTSIDE)  # copied into the worker thread, then into the bridge call
        return await super().run(arguments)


def guarded(
    proxy: ToolProxy, shown: Callable[[], Mapping[str, ToolDefinition[Any, Any]]]
) -> ToolProxy:
    """``proxy`` seeing every connected server's tools but only the notebook tools the
    surface shows now (``shown``: the notebook tools served, by name)."""

    def visible(tool_id: str) -> bool:
        server, _, name = tool_id.partition(".")
        return server != LOCAL_SERVER or name in shown()

    return proxy.limited_to(visible)


def gateway_definitions(proxy: ToolProxy) -> dict[str, ToolDefinition[Any, Any]]:
    """The proxy pair of a (``guarded``) proxy, by name."""
    return {definition.name: definition for definition in proxy.definitions()}
