"""HistoryView: every call made in this Workbench, from magics, Python or the browser.

It follows ``History.subscribe``, so calls appear as they finish, from whichever thread made
them. Selecting one shows its Action and Observation; "Run again" hands the call to the
browser, which opens the tool's form filled in with its arguments.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import ipywidgets as widgets

from workbench.display import ActionView, ObservationView, markup
from workbench.display.formatting import format_duration, format_time
from workbench.display.observation import NEVER_RAN
from workbench.display.tables import count_noun
from workbench.tools.schema import ErrorKind
from workbench.widgets.call_panel import output_of

if TYPE_CHECKING:
    from workbench.history import History, ToolCall

ROWS = 12
SHOWN = 500
"""Newest calls listed at most: the list is rebuilt at every call, from any thread."""


def _columns(number: str, tool: str, status: str, duration: str, time: str) -> str:
    return f"{number:<5} {tool:<32} {status:<17} {duration:>9}  {time}"


HEADER = _columns("#", "tool", "status", "duration", "time")
"""The column names, above the list, aligned with its rows (both monospace)."""


def call_label(call: ToolCall) -> str:
    """One line per call: number, tool, status, duration and local time (no duration for
    a call refused before it ran, as its Observation shows none)."""
    ran = call.observation.error_kind not in NEVER_RAN
    duration = (format_duration(call.duration) if ran else "") or "–"
    return _columns(
        f"#{call.id}", call.tool_id, call.status, duration, format_time(call.started_at)
    )


def summary(calls: Sequence[ToolCall], shown: int) -> str:
    """How many calls, and how many failed and were cancelled (a cancel is no failure)."""
    if not calls:
        return "No calls yet."
    cancelled = sum(call.status == ErrorKind.CANCELLED.value for call in calls)
    failed = sum(call.observation.is_error for call in calls) - cancelled
    ended = [f"{failed} failed"] if failed else []
    ended += [f"{cancelled} cancelled"] if cancelled else []
    text = f"{count_noun(len(calls), 'call')} in this kernel" + (
        f": {', '.join(ended)}" if ended else ""
    )
    if shown < len(calls):
        text += f"; the newest {shown} are listed"
    return text


class HistoryView:
    """The History tab: a list of calls, newest first, and the selected call's details."""

    def __init__(
        self, history: History, *, on_run_again: Callable[[ToolCall], None] | None = None
    ) -> None:
        self.history = history
        self.on_run_again = on_run_again
        self.summary = widgets.HTML()
        self.columns = widgets.HTML(markup.span(HEADER, tone="muted", bold=True))
        self.columns.add_class("wb-columns")
        self.calls = widgets.Select(options=[], rows=ROWS, layout=widgets.Layout(width="100%"))
        self.calls.add_class("wb-history-list")
        self.calls.observe(lambda _: self._show_selected(), names="value")
        self.run_again = widgets.Button(description="Run again", icon="redo", disabled=True)
        self.run_again.add_class("wb-run-again")
        self.run_again.on_click(lambda _: self._run_again())
        self.detail = widgets.Output()
        self.detail.add_class("wb-history-detail")
        self.widget = widgets.VBox(
            [self.summary, self.columns, self.calls, self.run_again, self.detail]
        )
        self.widget.add_class("wb-history")
        self._unsubscribe = history.subscribe(lambda _: self.refresh())
        self.refresh()

    @property
    def selected(self) -> ToolCall | None:
        number = self.calls.value
        if number is None:
            return None
        return next((call for call in self.history if call.id == number), None)

    def select(self, number: int) -> None:
        """Show the call with this number (``ToolCall.id``)."""
        self.calls.value = number

    def refresh(self) -> None:
        """Re-read the history, keeping the selection."""
        calls = self.history.last()
        shown = calls[-SHOWN:]
        chosen = self.calls.value
        self.calls.options = [(call_label(call), call.id) for call in reversed(shown)]
        if chosen is not None and any(call.id == chosen for call in shown):
            self.calls.value = chosen
        self.summary.value = markup.span(summary(calls, len(shown)), tone="muted")

    def close(self) -> None:
        """Stop following the history."""
        self._unsubscribe()

    def _show_selected(self) -> None:
        call = self.selected
        self.run_again.disabled = call is None or self.on_run_again is None
        if call is None:
            self.detail.outputs = ()
            return
        self.detail.outputs = output_of(
            ActionView(call.tool_id, call.arguments),
            ObservationView(call.observation, tool_id=call.tool_id),
        )

    def _run_again(self) -> None:
        call = self.selected
        if call is not None and self.on_run_again is not None:
            self.on_run_again(call)
