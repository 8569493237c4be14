"""Serving the notebook's tools (or one connection's) to outside MCP clients
(``Workbench.serve``, ``%mcp serve``).

- ``surface``: which tools are served (whitelist, blacklist, allow-list, ``enabled``);
- ``cursor``: signed ``tools/list`` cursors;
- ``app``: the served FastMCP server (tools through the Workbench's call path, bearer auth,
  ``tools/list_changed`` in both protocol eras);
- ``relay``: one connection's tools served instead (``server=NAME``);
- ``handle``: uvicorn on the bridge loop, and ``ServeHandle``;
- ``guard``: connections bounded below the app (header deadline, a cap on those without
  the token, running out of file descriptors said once);
- ``sessions``: handshake-era sessions end when idle, and are capped;
- ``clients``: ready-to-paste client configurations, the token a placeholder.
"""

from workbench.serving.handle import ServeHandle, ServeOptions, serve

__all__ = ["ServeHandle", "ServeOptions", "serve"]
