"""What a served surface says it is and can do: the workbench's name and version, and only
the capabilities it serves.

FastMCP reports its own version as the server's unless given one, and advertises prompts,
resources (with ``listChanged`` and, on 2026-07-28, ``subscribe``) and the MCP Apps UI
extension on every server, because it registers their handlers on every server and the SDK
derives capabilities from the handlers registered. A served surface serves tools only: it
says so, with ``listChanged`` (its tools change as cells re-run and connections relist) and
``logging`` (its tools send log messages through ``get_context()``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import mcp_types
from fastmcp import FastMCP

from workbench.__about__ import __version__

VERSION = __version__
"""The ``serverInfo.version`` of every served surface: the workbench's, not FastMCP's."""


def only_what_is_served(server: FastMCP[Any]) -> None:
    """Make ``server`` advertise its tools and logging, nothing else, in both eras.

    Neither FastMCP nor the SDK has a hook to leave a capability out (the SDK's
    ``get_capabilities`` reads the handler table and FastMCP adds the UI extension on top),
    so the low-level server's ``get_capabilities`` is wrapped: the one place both the
    ``initialize`` result and ``server/discover`` read. The ``listChanged`` flags stay as
    the SDK derives them for each era (``NotificationOptions`` before 2026-07-28, a served
    ``subscriptions/listen`` from then on).
    """
    low_level = server._mcp_server
    derived: Callable[..., mcp_types.ServerCapabilities] = low_level.get_capabilities

    def capabilities(*args: Any, **kwargs: Any) -> mcp_types.ServerCapabilities:
        every = derived(*args, **kwargs)
        return mcp_types.ServerCapabilities(tools=every.tools, logging=every.logging)

    low_level.get_capabilities = capabilities  # type: ignore[method-assign]
