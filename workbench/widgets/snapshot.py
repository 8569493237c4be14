"""The tool browser's output: its live widget and a snapshot of it, in one display kept current.

A saved notebook keeps outputs, not widget models: re-opened without the kernel, a widget-only
output reads "Error displaying widget: model not found" (or a raw ``VBox(...)`` repr when
untrusted). So the browser displays ONE bundle holding the widget's view and a
``BrowserSnapshot`` of what it shows (``display/browser_snapshot.py``), under a display id,
and refreshes the snapshot with ``update_display`` as the search, the open tool or its last
call change. The JupyterLab extension shows the live widget while it lives and the snapshot
otherwise; other front ends show the snapshot's HTML.

Where updates go: the display's cell is named by the parent header of the message that made
it, which ipykernel keeps in a contextvar. Changes arrive from widget messages (the main
thread, another parent) and from the bridge thread (a call finished, a registry change), so
each display keeps a copy of its cell's context and every update runs inside it (one thread
at a time: a context cannot be entered twice).

Coalescing: typing must not flood the notebook with updates. A search result is published
at once when the last update is ``MIN_INTERVAL`` old, else marked pending; the page's
``SnapshotClock`` answers ``QUIET_MS`` after the last pending mark (the kernel has no timer
thread of its own), and the end of a cell flushes too (for kernels driven with no page, such
as nbclient). Opening a tool and a call that starts or ends publish at once. An unchanged
snapshot is never sent again.
"""

from __future__ import annotations

import contextlib
import contextvars
import threading
import time
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anywidget
import traitlets

from workbench.display.action import ActionView
from workbench.display.browser_snapshot import BrowserSnapshot, LastCall, ResultRow
from workbench.display.mime import BROWSER_MIME
from workbench.display.observation import ObservationView
from workbench.display.tool_card import ToolCard
from workbench.widgets.shutdown import shutting_down
from workbench.widgets.tool_list import registry_summary

if TYPE_CHECKING:
    from workbench.registry import ToolEntry
    from workbench.tools.schema import Observation
    from workbench.widgets.browser import ToolBrowser
    from workbench.widgets.call_panel import CallRun

STATIC = Path(__file__).parent / "static"
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
MIN_INTERVAL = 0.3
"""Seconds between two search-driven updates at most; the rest wait for the quiet clock."""
QUIET_MS = 300
"""Milliseconds without a change after which the page asks for the pending update."""
MAX_DISPLAYS = 8
"""Displays of one browser kept up to date (each ``display(browser)`` adds one)."""


class SnapshotClock(anywidget.AnyWidget):
    """A view-less widget whose page side answers ``{"settled": pending}`` after a quiet spell."""

    _esm = STATIC / "snapshot_clock.js"

    pending = traitlets.Int(0).tag(sync=True)
    quiet_ms = traitlets.Int(QUIET_MS).tag(sync=True)


class SnapshotSource:
    """Builds a browser's snapshot, keeping the open tool's card and last call views between
    snapshots (an Observation's view is measured and cut once, not at every keystroke)."""

    def __init__(self, browser: ToolBrowser) -> None:
        self._browser = browser
        self._card: tuple[ToolEntry, ToolCard] | None = None
        self._call: tuple[CallRun, Observation | None, LastCall] | None = None

    def take(self) -> BrowserSnapshot:
        browser = self._browser
        answer = browser.tool_list.answer or {}
        registry = browser.workbench.registry
        servers = registry.servers()
        count = len(registry)
        header = registry_summary(registry)
        server = str(answer.get("server") or "")
        rows = answer.get("rows")
        entry = browser.panel.entry
        return BrowserSnapshot(
            header=header,
            query=str(answer.get("query") or ""),
            server=server,
            note=str(answer.get("note") or ""),
            total=len(registry.tools(server)) if server in servers else count,
            results=tuple(ResultRow.from_row(row) for row in rows or () if isinstance(row, dict)),
            card=self._card_of(entry) if entry is not None else None,
            last_call=self._last_call(),
            selected=entry.id if entry is not None else "",
        )

    def _card_of(self, entry: ToolEntry) -> ToolCard:
        if self._card is None or self._card[0] is not entry:
            self._card = (entry, ToolCard(entry))
        return self._card[1]

    def _last_call(self) -> LastCall | None:
        run = self._browser.panel.run
        if run is None:
            return None
        observation = run.observation
        if self._call is None or self._call[0] is not run or self._call[1] is not observation:
            view = (
                ObservationView(observation, tool_id=run.entry.id)
                if observation is not None
                else None
            )
            self._call = (run, observation, LastCall(ActionView(run.entry.id, run.arguments), view))
        return self._call[2]


class BrowserOutput:
    """The displays of one browser: shows the bundle, follows changes, updates in place."""

    def __init__(self, browser: ToolBrowser) -> None:
        self._browser = browser
        self.source = SnapshotSource(browser)
        self.clock = SnapshotClock()
        self.clock.on_msg(self._on_clock)
        self.updates = 0
        """Updates published so far (for tests and measurements)."""
        self._targets: list[tuple[str, contextvars.Context]] = []
        self._lock = threading.Lock()
        self._seq = self._flushed = 0
        self._sent_at = 0.0
        self._last: dict[str, Any] | None = None
        self._closed = False
        self._hooked: Any = None

    def bundle(self, *, live: bool = True) -> dict[str, Any]:
        """The whole output: the widget's view (while ``live``) and the snapshot."""
        bundle = self.source.take().bundle()
        if live:
            view = self._browser.widget._repr_mimebundle_() or {}
            if WIDGET_MIME in view:
                bundle[WIDGET_MIME] = view[WIDGET_MIME]
        return bundle

    def show(self) -> None:
        """Display the bundle in the running cell, remembering where, to update it later."""
        from IPython.display import display

        bundle = self.bundle(live=not self._closed)
        if not _in_a_kernel() or self._closed:
            display(bundle, raw=True)  # type: ignore[no-untyped-call]
            return
        display_id = uuid.uuid4().hex
        with self._lock:
            display(bundle, raw=True, display_id=display_id)  # type: ignore[no-untyped-call]
            self._targets = [*self._targets, (display_id, contextvars.copy_context())][
                -MAX_DISPLAYS:
            ]
            self._last = bundle[BROWSER_MIME]
            self._sent_at = time.monotonic()
        self._hook_cells()

    def changed(self, *, urgent: bool = False) -> None:
        """Something the snapshot shows changed (any thread); never raises. Nothing is
        published once the kernel is shutting down: the display keeps its last live state."""
        if self._closed or not self._targets or shutting_down():
            return
        try:
            with self._lock:
                self._seq += 1
                if urgent or time.monotonic() - self._sent_at >= MIN_INTERVAL:
                    self._flush()
                else:
                    self.clock.pending = self._seq
        except Exception:  # a view must never break the cell or call that changed it
            return

    def flush(self) -> None:
        """Publish a pending change now, if there is one (any thread); never raises."""
        try:
            with self._lock:
                if self._flushed < self._seq and not self._closed and not shutting_down():
                    self._flush()
        except Exception:
            return

    def close(self) -> None:
        """Leave every display showing the final snapshot alone, without the widget, whose
        model is going away: front ends without the extension then show the HTML too."""
        if self._closed:
            return
        try:
            with self._lock:
                self._closed = True
                if not shutting_down():
                    self._publish(self.bundle(live=False))
        except Exception:
            pass
        finally:
            self._unhook_cells()
            self.clock.close()

    def _flush(self) -> None:
        """Publish the current snapshot (the lock held), unless it is the one last sent."""
        self._flushed = self._seq
        self._sent_at = time.monotonic()
        bundle = self.bundle()
        if bundle[BROWSER_MIME] == self._last:
            return
        self._publish(bundle)

    def _publish(self, bundle: dict[str, Any]) -> None:
        from IPython.display import update_display

        self._last = bundle[BROWSER_MIME]
        self.updates += 1
        for display_id, context in self._targets:
            context.run(update_display, bundle, raw=True, display_id=display_id)

    def _on_clock(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if isinstance(content, dict) and "settled" in content:
            self.flush()

    def _hook_cells(self) -> None:
        """Flush at the end of each cell: a kernel driven with no page has no clock."""
        if self._hooked is not None:
            return
        from IPython import get_ipython

        shell = get_ipython()
        if shell is None:
            return
        self._hooked = (shell, self._after_cell)
        shell.events.register("post_run_cell", self._after_cell)

    def _after_cell(self, *_args: Any) -> None:
        self.flush()

    def _unhook_cells(self) -> None:
        if self._hooked is None:
            return
        shell, callback = self._hooked
        self._hooked = None
        with contextlib.suppress(ValueError):
            shell.events.unregister("post_run_cell", callback)


def _in_a_kernel() -> bool:
    """Whether displays can be updated in place (a terminal would print each update anew)."""
    from IPython import get_ipython

    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None
