"""The gateway server: the proxy pair (``find_tools``, ``call_tool``) as a FastMCP server.

Serving it hands an outside agent every tool of the kernel through two small tools.
"""

from __future__ import annotations

from fastmcp import FastMCP

from workbench.mcp.local import DefinitionTool
from workbench.registry.proxy import ToolProxy

NAME = "workbench"


def build_gateway_server(proxy: ToolProxy) -> FastMCP:
    """A FastMCP server whose only tools are the proxy pair; its instructions list servers."""
    summary = proxy.server_summary()
    server = FastMCP(
        NAME,
        instructions=(
            "Search the tools of every connected MCP server with find_tools, then call one "
            "with call_tool.\nServers:\n" + (summary or "(none connected yet)")
        ),
    )
    for definition in proxy.definitions():
        server.add_tool(DefinitionTool.wrap(definition))
    return server
