"""``NotebookAsker``: the person at the notebook answers a server's questions.

A server may ask, during a call, for input (elicitation: a form, or a URL to open) or for a
language model's reply (sampling). ``mcp/answers.py`` decides where the question goes: while
the kernel's main thread is free (an awaited call, a widget call) a panel
(``panels.py``) is shown where the call was made and a worker thread waits for a
click, or for the timeout, which declines; while a sync call blocks the main thread,
``input()`` asks instead (``text.py``). Signing in to a server (OAuth) is asked the
same two ways (``sign_in.py``, ``sign_in_text.py``). The kernel installs one on its
Workbench, so this module stays cheap to import: ipywidgets load with the first panel.
"""

from __future__ import annotations

import contextvars
import threading
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from workbench.features.asking import (
    ElicitationAnswer,
    ElicitationRequest,
    SamplingReply,
    SamplingRequest,
)
from workbench.widgets.asking.sign_in_text import SignInLink, ask_for_redirect
from workbench.widgets.asking.text import TextAsker

if TYPE_CHECKING:
    from workbench.widgets.asking.panels import Panel

A = TypeVar("A")


EARLY = 1.0
"""Seconds before the caller's deadline at which a panel nobody answers gives up: its
summary must reach the cell while the cell still runs (JupyterLab drops display updates
for a cell that has finished)."""


def _display(item: Any) -> None:
    from IPython.display import display

    display(item)  # type: ignore[no-untyped-call]


def display_panel(panel: Panel[Any]) -> None:
    """Show a panel in the running cell under a display id, and replace that display with
    the panel's static summary once it is answered: a saved notebook then holds what was
    asked and answered, not a widget view nobody can load again. The update runs in a copy
    of this cell's context (answers come from a widget message or a worker thread), so its
    parent is this cell's request."""
    from IPython.display import display, update_display

    display_id = uuid.uuid4().hex
    display(panel.bundle(), raw=True, display_id=display_id)  # type: ignore[no-untyped-call]
    context = contextvars.copy_context()
    panel.when_finished(
        lambda: context.copy().run(update_display, panel.bundle(), raw=True, display_id=display_id)
    )


class NotebookAsker:
    """The person at the notebook (``mcp.answers.Asker``): panels shown in the calling cell
    (``display_panel``), or given as widgets to ``show`` (the call panel's questions box);
    typed answers through ``text``."""

    def __init__(
        self, show: Callable[[Any], object] | None = None, text: TextAsker | None = None
    ) -> None:
        self._show = show
        self.text = text or TextAsker()
        self.asked: list[Panel[Any]] = []
        """Every panel shown, oldest first (the newest is the one waiting)."""

    def elicit_form(self, request: ElicitationRequest, timeout: float) -> ElicitationAnswer:
        from workbench.widgets.asking.panels import ElicitationPanel, UrlPanel

        panel = UrlPanel(request) if request.mode == "url" else ElicitationPanel(request)
        return self._ask(panel, timeout, ElicitationAnswer.decline())

    def elicit_text(self, request: ElicitationRequest) -> ElicitationAnswer:
        return self.text.elicit(request)

    def sample_form(self, request: SamplingRequest, timeout: float) -> SamplingReply | None:
        from workbench.widgets.asking.panels import SamplingPanel

        return self._ask(SamplingPanel(request), timeout, None)

    def sample_text(self, request: SamplingRequest) -> SamplingReply | None:
        return self.text.sample(request)

    def sign_in_form(
        self, server: str, url: str, listening: bool, done: threading.Event, timeout: float
    ) -> str | None:
        """Show the sign-in link and a box for the address the browser ended on; the pasted
        address, or None when ``done`` is set (the listener caught it) or at the timeout."""
        from workbench.widgets.asking.sign_in import SignInPanel

        panel = SignInPanel(server, url, listening=listening)
        self._present(panel)
        return panel.wait_for(done, timeout)

    def sign_in_text(self, server: str, url: str, paste: bool) -> str | None:
        """Show the link (a button in a notebook, text in a terminal: plain output works
        while a sync call blocks the kernel); with ``paste``, ask (hidden) for the address
        the browser ended on."""
        (self._show or _display)(SignInLink(server, url))
        return ask_for_redirect(server, paste, self.text.ask_secret, self.text.say)

    def handlers(
        self, timeout: Callable[[], float]
    ) -> tuple[
        Callable[[ElicitationRequest], ElicitationAnswer],
        Callable[[SamplingRequest], SamplingReply | None],
    ]:
        """Form handlers for ``Workbench.answering`` (the browser's call panel), waiting
        ``timeout()`` seconds, read at each question."""
        return (
            lambda request: self.elicit_form(request, timeout()),
            lambda request: self.sample_form(request, timeout()),
        )

    def _ask(self, panel: Panel[A], timeout: float, on_timeout: A) -> A:
        self._present(panel)
        return panel.wait(_early(timeout), on_timeout)

    def _present(self, panel: Panel[Any]) -> None:
        self.asked.append(panel)
        if self._show is None:
            display_panel(panel)
        else:
            self._show(panel.widget)


def _early(timeout: float) -> float:
    """A panel's own deadline: a moment before the caller's (at most a tenth of it)."""
    return max(timeout - min(EARLY, timeout / 10), 0.0)
