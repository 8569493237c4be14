"""ToolBrowser: search, open and call every tool of a Workbench, read its servers'
resources, get their prompts, and look back at its calls.

A view of the Workbench, nothing more (it never talks MCP itself): the ToolList searches
the registry, the CallPanel calls through ``Workbench.submit``, the ResourcesView and
PromptsView list, read and get through the Workbench, the HistoryView reads the history,
the ServersView lists the servers and what the MCP libraries logged about each.
It follows the registry, so a new connection, a re-run ``%%tool`` cell or a server's
tools/list_changed updates the open browser in place; and the servers' announcements
(``Workbench.subscribe_changes``), so a changed resource or prompt list is listed again.

Threads: registry changes and announcements arrive on the bridge thread, which may set
traits but never wait for a server. The Resources and Prompts tabs list only when first
opened (on the main thread, where clicks arrive); a change after that marks their list
stale, and the page asks again, which the main thread answers by listing anew.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from workbench.display import markup
from workbench.errors import FormError, ToolNotFoundError
from workbench.widgets.call_panel import CallPanel
from workbench.widgets.history_view import HistoryView
from workbench.widgets.prompts_view import PromptsView
from workbench.widgets.resources_view import ResourcesView
from workbench.widgets.servers_view import ServersView
from workbench.widgets.shutdown import shutting_down
from workbench.widgets.snapshot import BrowserOutput
from workbench.widgets.tool_list import ToolList, registry_summary

if TYPE_CHECKING:
    from collections.abc import Mapping

    from workbench.history import ToolCall
    from workbench.session import Workbench

TOOLS_TAB, RESOURCES_TAB, PROMPTS_TAB, HISTORY_TAB, SERVERS_TAB = range(5)


class ToolBrowser:
    """The browser; ``widget`` is its ipywidgets tree, and ``close()`` stops it following the
    Workbench. It displays (the cell's value, or ``display(browser)``) as its widget plus a
    snapshot of what it shows, kept up to date, for the notebook saved (``output``)."""

    def __init__(self, workbench: Workbench, *, query: str = "", server: str = "") -> None:
        self.workbench = workbench
        self.tool_list = ToolList(workbench.registry, query=query, server=server)
        self.tool_list.layout = widgets.Layout(flex="1 1 40%", min_width="0")
        self.panel = CallPanel(workbench)
        self.history = HistoryView(workbench.history, on_run_again=self.run_again)
        tools = widgets.HBox(
            [self.tool_list, self.panel.widget], layout=widgets.Layout(grid_gap="12px")
        )
        self.servers = ServersView(workbench)
        self.resources = ResourcesView(workbench)
        self.prompts = PromptsView(workbench)
        self.tabs = widgets.Tab(
            children=[
                tools,
                self.resources.widget,
                self.prompts.widget,
                self.history.widget,
                self.servers.widget,
            ]
        )
        self.tabs.titles = ("Tools", "Resources", "Prompts", "History", "Servers")
        self.header = widgets.HTML()
        self.widget = widgets.VBox([self.header, self.tabs])
        self.widget.add_class("wb-browser")
        self.tool_list.observe(self._on_selected, names="selected")
        # A status can change without a registry change (a connection that finishes, fails
        # or is lost): opening the Servers tab reads them again.
        self.tabs.observe(self._on_tab, names="selected_index")
        self._unsubscribe = workbench.registry.subscribe(self._on_registry_change)
        self._unsubscribe_changes = workbench.subscribe_changes(self._on_server_change)
        self._closed = False
        self._update_header()
        self.output = BrowserOutput(self)
        self._follow_for_snapshot()

    def open(self, tool_id: str, arguments: Mapping[str, Any] | None = None) -> None:
        """Show a tool's detail and call form (filled with ``arguments``), in the Tools tab."""
        entry = self.workbench.registry.get(tool_id)
        self.panel.show(entry, arguments)
        self.tabs.selected_index = TOOLS_TAB
        if self.tool_list.selected != entry.id:
            self.tool_list.selected = entry.id

    def search(self, query: str, server: str = "") -> None:
        """Search as if typed in the box."""
        self.tool_list.search(query, server)

    def run_again(self, call: ToolCall) -> None:
        """Re-open a past call's tool with its arguments filled in."""
        try:
            self.open(call.tool_id, call.arguments)
        except ToolNotFoundError:
            self.panel.clear(f"{call.tool_id} is no longer connected.")
            self.tabs.selected_index = TOOLS_TAB

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Stop following the registry and history, and close every widget (idempotent)."""
        if self._closed:
            return
        self._closed = True
        self.output.close()
        self._unsubscribe()
        self._unsubscribe_changes()
        self.history.close()
        self.resources.close()
        self.prompts.close()
        _close_tree(self.widget)

    def _ipython_display_(self) -> None:
        """One display_data with the widget's view and the snapshot, under a display id the
        browser updates as the search, the open tool and its last call change."""
        self.output.show()

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        return self.output.bundle(live=not self._closed)

    def _follow_for_snapshot(self) -> None:
        """What the snapshot shows: the list's answers (coalesced), the open tool's card and
        its runs (at once)."""
        changed = self.output.changed
        self.tool_list.observe(lambda _: changed(), names="answer")
        self.panel.card.observe(lambda _: changed(urgent=True), names="value")

        def on_runs(_: object) -> None:
            run = self.panel.run
            if run is not None:
                run.output.observe(lambda _: changed(urgent=True), names="outputs")
            changed(urgent=True)

        self.panel.run_box.observe(on_runs, names="children")

    def _on_selected(self, change: dict[str, Any]) -> None:
        tool_id = change["new"]
        if tool_id and (self.panel.entry is None or self.panel.entry.id != tool_id):
            self.open(tool_id)

    def _on_tab(self, change: dict[str, Any]) -> None:
        if change["new"] == SERVERS_TAB:
            self.servers.refresh()
        elif change["new"] == RESOURCES_TAB and not self.resources.loaded:
            self.resources.load()
        elif change["new"] == PROMPTS_TAB and not self.prompts.loaded:
            self.prompts.load()

    def _on_server_change(self, change: Any) -> None:
        """A server announced a new list of resources or prompts (on the bridge thread);
        ``change`` is the Workbench's ``ServerChange`` (``what``, ``server``, ``uri``)."""
        if shutting_down():
            return
        if change.what == "resources":
            self.resources.refresh()
        elif change.what == "prompts":
            self.prompts.refresh()

    def _on_registry_change(self, server: str) -> None:
        """The registry changed (on the bridge thread, or in a cell): refresh what shows it.

        A view must never break the connection or cell that changed the registry, so a
        failure here is shown in the browser's header rather than raised. Once the kernel
        is shutting down, its servers going one by one are not news: the browser stays as
        it was (``shutdown.py``).
        """
        if shutting_down():
            return
        try:
            self._follow(server)
        except Exception as error:
            message = f"The browser could not refresh: {type(error).__name__}: {error}"
            self.header.value = markup.span(message, tone="error")

    def _follow(self, server: str) -> None:
        self.tool_list.refresh()
        self._update_header()
        self.servers.refresh()
        self.resources.refresh()
        self.prompts.refresh()
        entry = self.panel.entry
        if entry is None or entry.server != server:
            return
        try:
            fresh = self.workbench.registry.get(entry.id)
        except ToolNotFoundError:
            self.panel.clear(f"{entry.id} was removed.")
            return
        if fresh is not entry:
            self.panel.show(fresh, self._current_arguments())

    def _current_arguments(self) -> dict[str, Any] | None:
        """The open form's arguments, to keep across a tool's redefinition; None if unreadable."""
        form = self.panel.form
        if form is None:
            return None
        try:
            return form.arguments()
        except FormError:
            return None

    def _update_header(self) -> None:
        text = registry_summary(self.workbench.registry)
        self.header.value = markup.line(
            markup.span("MCP tool browser", bold=True), markup.span(text, tone="muted")
        )


def _close_tree(widget: widgets.Widget) -> None:
    """Close a widget and every widget inside it, so the page lets go of their models."""
    for child in getattr(widget, "children", ()):
        _close_tree(child)
    widget.close()
