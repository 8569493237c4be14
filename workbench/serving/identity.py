"""What a served surface says it is and can do: the workbench's name, version and icon
(``workbench/serving/own_icon.py``), and only the capabilities it serves.

FastMCP reports its own version as the server's unless given one, and advertises prompts,
resources (with ``listChanged`` and, on 2026-07-28, ``subscribe``) and the MCP Apps UI
extension on every server, because it registers their handlers on every server and the SDK
derives capabilities from the handlers registered. A served surface serves tools: it says
so, with ``listChanged`` (its tools change as cells re-run and connections relist) and
``logging`` (its tools send log messages through ``get_context()``); and resources, prompts
and completions only while the notebook serves some (cells' ``@resource`` and ``@prompt``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

import mcp_types
from fastmcp import FastMCP

from workbench.__about__ import __version__
from workbench.serving.own_icon import workbench_icons


class Offered(Protocol):
    """What a surface serves besides tools (``OffersProvider``), asked now."""

    def resources(self) -> Sequence[object]: ...
    def prompts(self) -> Sequence[object]: ...
    def any_completions(self) -> bool: ...


VERSION = __version__
"""The ``serverInfo.version`` of every served surface: the workbench's, not FastMCP's."""


def only_what_is_served(
    server: FastMCP[Any],
    offers: Offered | None = None,
    extensions: Callable[[], dict[str, dict[str, Any]]] | None = None,
) -> None:
    """Make ``server`` advertise its tools and logging, nothing else, in both eras; and,
    when ``offers`` serves any now, resources, prompts and completions (asked at each
    ``initialize`` / ``server/discover``: a notebook without them says nothing of them);
    ``extensions()`` says which extensions it serves now (tasks, while a tool runs as one).

    Neither FastMCP nor the SDK has a hook to leave a capability out (the SDK's
    ``get_capabilities`` reads the handler table and FastMCP adds the UI extension on top),
    so the low-level server's ``get_capabilities`` is wrapped: the one place both the
    ``initialize`` result and ``server/discover`` read. The ``listChanged`` flags stay as
    the SDK derives them for each era (``NotificationOptions`` before 2026-07-28, a served
    ``subscriptions/listen`` from then on).
    """
    low_level = server._mcp_server
    low_level.icons = low_level.icons or workbench_icons()  # its serverInfo's, both eras
    derived: Callable[..., mcp_types.ServerCapabilities] = low_level.get_capabilities

    def capabilities(*args: Any, **kwargs: Any) -> mcp_types.ServerCapabilities:
        every = derived(*args, **kwargs)
        resources = prompts = completions = None
        if offers is not None:
            resources = every.resources if offers.resources() else None
            prompts = every.prompts if offers.prompts() else None
            completions = every.completions if offers.any_completions() else None
        return mcp_types.ServerCapabilities(
            tools=every.tools,
            logging=every.logging,
            resources=resources,
            prompts=prompts,
            completions=completions,
            extensions=(extensions() or None) if extensions is not None else None,
        )

    low_level.get_capabilities = capabilities  # type: ignore[method-assign]
