"""Small helpers that pick the view several subcommands show (the views live in
``workbench.display``; this only gathers what goes in them)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from IPython.display import DisplayHandle

    from workbench.display import ToolTable
    from workbench.registry import ToolEntry
    from workbench.session import Workbench


def server_tools(workbench: Workbench, server: str) -> list[ToolEntry]:
    """A server's tools; none (not an error) for a connected server that lists no tools."""
    from workbench.errors import UnknownServerError

    try:
        return workbench.registry.tools(server)
    except UnknownServerError:
        return []


def tool_table(workbench: Workbench, servers: Iterable[str]) -> ToolTable:
    """One table of the tools of these servers, in the order given."""
    from workbench.display import ToolTable

    return ToolTable([entry for name in servers for entry in server_tools(workbench, name)])


def show(view: object) -> None:
    """Display a view in the running cell (IPython's ``display``, typed)."""
    from IPython.display import display

    display(view)  # type: ignore[no-untyped-call]


def display_handle() -> DisplayHandle:
    """A display to redraw in place (``handle.display(view)``, then ``handle.update``),
    from any thread: a subscription's updates come on the bridge thread."""
    from IPython.display import DisplayHandle

    return DisplayHandle()  # type: ignore[no-untyped-call]
