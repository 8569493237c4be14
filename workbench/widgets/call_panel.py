"""CallPanel: one tool's detail, its call form, and its calls as they run and finish.

A call never blocks the kernel: ``Workbench.submit`` starts it on the bridge and returns a
future, whose callbacks (on the bridge thread) update this run's widgets. Each call gets a
``CallRun`` of its own, so a call still running when the user opens another tool keeps
writing to its own widgets, never to the new tool's.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import threading
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from workbench.display import (
    ActionView,
    CallProgress,
    ObservationView,
    ProgressView,
    ToolCard,
    markup,
)
from workbench.display.style import level_tone
from workbench.errors import FormError, WorkbenchError
from workbench.widgets.asking import NotebookAsker
from workbench.widgets.form import FormView

if TYPE_CHECKING:
    from collections.abc import Mapping

    from workbench.display.mime import Displayable
    from workbench.registry import ToolEntry
    from workbench.session import Workbench
    from workbench.tools.schema import Observation

EMPTY_HINT = "Pick a tool on the left to see its parameters and call it."


def output_of(*views: Displayable) -> tuple[dict[str, Any], ...]:
    """Output-widget outputs for views, rendered as the magics render them (their mime
    bundles); set from any thread, unlike ``with output:``, which needs the cell's context."""
    return tuple(
        {"output_type": "display_data", "data": view._repr_mimebundle_(), "metadata": {}}
        for view in views
    )


class ProgressWidgets:
    """``CallProgress``'s display, as widgets: a real progress bar, a status line, log lines.

    ``CallProgress`` throttles and calls ``update`` from the bridge thread.
    """

    def __init__(self) -> None:
        self.bar = widgets.FloatProgress(
            value=0.0, min=0.0, max=1.0, layout=widgets.Layout(display="none", width="45%")
        )
        self.bar.add_class("wb-progress")
        self.status = widgets.HTML(layout=widgets.Layout(flex="1 1 auto"))
        self.status.add_class("wb-status")
        self.logs = widgets.HTML()
        self.logs.add_class("wb-log")
        row = widgets.HBox([self.bar, self.status], layout=widgets.Layout(align_items="center"))
        self.widget = widgets.VBox([row, self.logs], layout=widgets.Layout(flex="1 1 auto"))

    def update(self, obj: Any, **kwargs: Any) -> None:
        """Show a ``ProgressView`` snapshot (``DisplayHandle.update``'s signature)."""
        if not isinstance(obj, ProgressView):
            return
        view = obj
        if view.done is not None:
            self.bar.layout.display = ""
            fraction = view.fraction
            self.bar.value = fraction if fraction is not None else 0.0
            self.bar.bar_style = "success" if view.elapsed is not None else "info"
        if view.elapsed is not None and not view.cancelled:
            # The Observation below says how long the call took, measured where it ran; a
            # second figure here, timed from the click, would contradict it.
            view = dataclasses.replace(view, elapsed=None)
        text = " · ".join(part for part in (view.counts(), view.status()) if part)
        self.status.value = markup.span(text, tone="muted") if text else ""
        self.logs.value = "".join(
            markup.block(
                markup.span(f"[{level}]", tone=level_tone(level), mono=True)
                + " "
                + markup.esc(message)
            )
            for level, _server, message in view.logs
        )


class CallRun:
    """One call of one tool: its progress, logs, Cancel button, Action and Observation."""

    def __init__(self, workbench: Workbench, entry: ToolEntry, arguments: dict[str, Any]) -> None:
        self.entry = entry
        self.arguments = arguments
        self.progress = ProgressWidgets()
        self.cancel_button = widgets.Button(
            description="Cancel", icon="stop", layout=widgets.Layout(display="none")
        )  # on screen only while the call runs: a greyed-out Cancel after it says nothing
        self.cancel_button.add_class("wb-cancel")
        self.cancel_button.on_click(lambda _: self.cancel())
        self.output = widgets.Output()
        self.output.add_class("wb-result")
        self.output.outputs = output_of(ActionView(entry.id, arguments))
        self.questions = widgets.VBox()
        """The server's questions during this call, each a NotebookAsker panel."""
        self.widget = widgets.VBox(
            [widgets.HBox([self.cancel_button, self.progress.widget]), self.questions, self.output]
        )
        self.observation: Observation | None = None
        self.done = threading.Event()
        self.asker = NotebookAsker(show=self._show_question)
        self._workbench = workbench
        self._tracker = CallProgress(entry.id, handle=self.progress)
        self._future: concurrent.futures.Future[Observation] | None = None

    def start(self) -> None:
        """Submit the call; returns at once."""
        self.cancel_button.layout.display = ""
        self.progress.status.value = markup.span(f"calling {self.entry.id}…", tone="muted")
        on_elicitation, on_sampling = self.asker.handlers(lambda: self._workbench.answer_timeout)
        try:
            # The server's questions during this call are asked here, in this run's box.
            with self._workbench.answering(on_elicitation=on_elicitation, on_sampling=on_sampling):
                self._future = self._workbench.submit(
                    self.entry.id,
                    self.arguments,
                    on_progress=self._tracker.on_progress,
                    on_log=self._tracker.on_log,
                )
        except WorkbenchError as error:
            self._finish(None, str(error))
            return
        self._future.add_done_callback(self._on_done)

    def cancel(self) -> None:
        """Cancel the call on the server (the history records it as cancelled); the future's
        done callback shows it, at once, on this thread."""
        if self._future is not None:
            self._future.cancel()

    def _show_question(self, panel: widgets.Widget) -> None:
        """A question's panel, under the earlier ones (set from a worker thread)."""
        self.questions.children = (*self.questions.children, panel)

    @property
    def running(self) -> bool:
        return self._future is not None and not self.done.is_set()

    def _on_done(self, future: concurrent.futures.Future[Observation]) -> None:
        if future.cancelled():
            self._finish(None, "Cancelled.")
            return
        error = future.exception()
        if error is not None:
            self._finish(None, f"{type(error).__name__}: {error}")
            return
        self._finish(future.result(), None)

    def _finish(self, observation: Observation | None, problem: str | None) -> None:
        """Show the outcome; runs on the bridge thread (or at once when submit failed)."""
        self._tracker.finish()
        self.cancel_button.layout.display = "none"
        self.observation = observation
        if observation is not None:
            self.output.outputs = output_of(
                ActionView(self.entry.id, self.arguments),
                ObservationView(observation, tool_id=self.entry.id),
            )
        if problem is not None:
            self.progress.bar.bar_style = "warning"
            self.progress.status.value = markup.span(problem, tone="error")
        self.done.set()


class CallPanel:
    """The right-hand side of the browser: the open tool's card, form, Call button and runs."""

    def __init__(self, workbench: Workbench) -> None:
        self.workbench = workbench
        self.entry: ToolEntry | None = None
        self.form: FormView | None = None
        self.run: CallRun | None = None
        self.card = widgets.HTML(markup.notice(EMPTY_HINT))
        self.card.add_class("wb-card")
        self.call_button = widgets.Button(
            description="Call", icon="play", button_style="primary", disabled=True
        )
        self.call_button.add_class("wb-call")
        self.call_button.on_click(lambda _: self.call())
        self.message = widgets.HTML()
        self.message.add_class("wb-message")
        self.form_box = widgets.VBox()
        self.run_box = widgets.VBox()
        self.widget = widgets.VBox(
            [
                self.card,
                self.form_box,
                widgets.HBox([self.call_button, self.message]),
                self.run_box,
            ],
            layout=widgets.Layout(min_width="0", flex="1 1 60%"),
        )
        self.widget.add_class("wb-call-panel")

    def show(self, entry: ToolEntry, arguments: Mapping[str, Any] | None = None) -> None:
        """Open a tool: its card and a fresh form (filled with ``arguments`` if given)."""
        same_tool = self.entry is not None and self.entry.id == entry.id
        self.entry = entry
        self.card.value = ToolCard(entry).to_html()
        self.form = FormView(entry.input_schema, arguments=arguments, validate=entry.problems)
        self.form_box.children = (self.form.widget,)
        self.call_button.disabled = False
        self.message.value = ""
        if not same_tool:
            self.run = None
            self.run_box.children = ()

    def clear(self, note: str = EMPTY_HINT) -> None:
        """Close the open tool (it was removed, say), leaving a note."""
        self.entry = self.form = self.run = None
        self.card.value = markup.notice(note)
        self.form_box.children = self.run_box.children = ()
        self.call_button.disabled = True
        self.message.value = ""

    def call(self) -> CallRun | None:
        """Read the form and start the call; the validator's problems show under their
        fields. Invalid arguments still go to ``Workbench.submit``, which refuses them
        without a round trip and records them, as it does for a magic or Python."""
        if self.entry is None or self.form is None:
            return None
        try:
            arguments = self.form.arguments()
        except FormError as error:  # not arguments at all (text in a number field, bad JSON)
            self.message.value = markup.span(str(error), tone="error")
            return None
        problems = self.entry.problems(arguments)
        self.form.show_problems(problems)
        count = f"{len(problems)} problem{'s' if len(problems) != 1 else ''}"
        self.message.value = (
            markup.span(f"{count} in the form: see under the fields.", tone="error")
            if problems
            else ""
        )
        self.run = CallRun(self.workbench, self.entry, arguments)
        self.run_box.children = (self.run.widget,)
        self.run.start()
        return self.run
