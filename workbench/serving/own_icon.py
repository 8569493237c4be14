"""The workbench's own icon, listed in every served surface's ``serverInfo`` (SEP-973).

Inline, as a ``data:`` SVG: a client drawing it fetches nothing, and it is the one kind of
icon the workbench itself draws (``workbench/tools/icons.py``). The picture is the MCP
panel's (``labextension/src/sidebar/icon.ts``): three linked nodes, in a grey that reads on
light and dark themes alike.
"""

from __future__ import annotations

import base64

import mcp_types

SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24">'
    '<g fill="#808080">'
    '<path d="M6 4a3 3 0 1 1-.001 6.001A3 3 0 0 1 6 4zm12 0a3 3 0 1 1-.001 6.001A3 3 0 0 1 '
    '18 4zM12 14a3 3 0 1 1-.001 6.001A3 3 0 0 1 12 14z"/>'
    '<path d="M8.5 7.25h7v1.5h-7zM7.1 9.4l1.3-.75 3.1 5.4-1.3.75zm9.8 0-1.3-.75-3.1 5.4 '
    '1.3.75z"/></g></svg>'
)
SRC = "data:image/svg+xml;base64," + base64.b64encode(SVG.encode()).decode("ascii")


def workbench_icons() -> list[mcp_types.Icon]:
    """The icons a served surface lists as its own: a fresh list each time (the SDK keeps
    what it is given)."""
    return [mcp_types.Icon(src=SRC, mime_type="image/svg+xml", sizes=["any"])]
