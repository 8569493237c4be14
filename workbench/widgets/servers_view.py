"""ServersView: every server of a Workbench with its status, and the selected one's detail.

The detail is the ``ServerDetail`` that ``%mcp servers NAME`` shows: the server's row and
what the MCP SDK, FastMCP and httpx logged about it (never printed in a cell). A view of
the Workbench only: it reads ``Workbench.servers()`` and ``Workbench.server_log``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import ipywidgets as widgets

from workbench.display import ServerDetail, markup
from workbench.display.server_detail import has_warnings
from workbench.display.tables import count_noun
from workbench.errors import WorkbenchError

if TYPE_CHECKING:
    from workbench.session import Workbench

ROWS = 8


def server_label(name: str, status: str, tools: int, warned: bool) -> str:
    """One line per server: name, status, tool count, and a mark when its log has warnings."""
    mark = "  ⚠ log" if warned else ""
    return f"{name:<24} {status:<12} {tools:>5}{mark}"


HEADER = f"{'server':<24} {'status':<12} {'tools':>5}"
"""The column names, above the list, aligned with its rows (both monospace)."""


class ServersView:
    """The Servers tab: a list of servers and the selected server's detail and log."""

    def __init__(self, workbench: Workbench) -> None:
        self.workbench = workbench
        self.summary = widgets.HTML()
        self.columns = widgets.HTML(markup.span(HEADER, tone="muted", bold=True))
        self.columns.add_class("wb-columns")
        self.servers = widgets.Select(options=[], rows=ROWS, layout=widgets.Layout(width="100%"))
        self.servers.add_class("wb-servers-list")
        self.servers.observe(lambda _: self.show_selected(), names="value")
        self.refresh_button = widgets.Button(description="Refresh", icon="refresh")
        self.refresh_button.add_class("wb-servers-refresh")
        self.refresh_button.on_click(lambda _: self.refresh())
        self.detail = widgets.HTML()
        self.detail.add_class("wb-server-detail")
        self.widget = widgets.VBox(
            [self.summary, self.columns, self.servers, self.refresh_button, self.detail]
        )
        self.widget.add_class("wb-servers")
        self.refresh()

    def select(self, name: str) -> None:
        """Show this server's detail."""
        self.servers.value = name

    def refresh(self) -> None:
        """Read the servers and their logs again, keeping the selection."""
        if self.workbench.closed:
            self.summary.value = markup.span("This Workbench is closed.", tone="muted")
            return
        infos = self.workbench.servers()
        chosen = self.servers.value
        self.servers.options = [
            (
                server_label(
                    info.name,
                    info.status,
                    info.tool_count,
                    has_warnings(self.workbench.server_log(info.name)),
                ),
                info.name,
            )
            for info in infos
        ]
        names = [info.name for info in infos]
        if chosen in names:
            self.servers.value = chosen
        failed = sum(info.status == "failed" for info in infos)
        text = count_noun(len(infos), "server") + (f", {failed} failed" if failed else "")
        if not infos:
            text = "No servers connected."
        self.summary.value = markup.span(text, tone="muted")
        self.show_selected()

    def show_selected(self) -> None:
        """The selected server's row and recent library log, as ``%mcp servers NAME``."""
        name = self.servers.value
        if name is None:
            self.detail.value = ""
            return
        try:
            log = self.workbench.server_log(name)
            [info] = [info for info in self.workbench.servers() if info.name == name]
        except (WorkbenchError, ValueError):  # gone meanwhile
            self.detail.value = markup.span(f"{name} is no longer listed.", tone="muted")
            return
        everything = f"workbench.current().server_log({name!r})"
        self.detail.value = ServerDetail(info, log, everything=everything).to_html()
