"""``NotebookAsker``: the person at the notebook answers a server's questions.

A server may ask, during a call, for input (elicitation: a form, or a URL to open) or for a
language model's reply (sampling). ``mcp/answers.py`` decides where the question goes: while
the kernel's main thread is free (an awaited call, a widget call) a panel
(``asking_panels.py``) is shown where the call was made and a worker thread waits for a
click, or for the timeout, which declines; while a sync call blocks the main thread,
``input()`` asks instead (``asking_text.py``). Signing in to a server (OAuth) is asked the
same two ways (``sign_in_panel.py``, ``sign_in_text.py``). The kernel installs one on its
Workbench, so this module stays cheap to import: ipywidgets load with the first panel.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from workbench.features.asking import (
    ElicitationAnswer,
    ElicitationRequest,
    SamplingReply,
    SamplingRequest,
)
from workbench.widgets.asking_text import TextAsker
from workbench.widgets.sign_in_text import SignInLink, ask_for_redirect

if TYPE_CHECKING:
    from workbench.widgets.asking_panels import Panel

A = TypeVar("A")


def _display(widget: Any) -> None:
    from IPython.display import display

    display(widget)  # type: ignore[no-untyped-call]


class NotebookAsker:
    """The person at the notebook (``mcp.answers.Asker``): panels shown by ``show``
    (``display`` in the calling cell by default), typed answers through ``text``."""

    def __init__(
        self, show: Callable[[Any], object] | None = None, text: TextAsker | None = None
    ) -> None:
        self._show = show or _display
        self.text = text or TextAsker()
        self.asked: list[Panel[Any]] = []
        """Every panel shown, oldest first (the newest is the one waiting)."""

    def elicit_form(self, request: ElicitationRequest, timeout: float) -> ElicitationAnswer:
        from workbench.widgets.asking_panels import ElicitationPanel, UrlPanel

        panel = UrlPanel(request) if request.mode == "url" else ElicitationPanel(request)
        return self._ask(panel, timeout, ElicitationAnswer.decline())

    def elicit_text(self, request: ElicitationRequest) -> ElicitationAnswer:
        return self.text.elicit(request)

    def sample_form(self, request: SamplingRequest, timeout: float) -> SamplingReply | None:
        from workbench.widgets.asking_panels import SamplingPanel

        return self._ask(SamplingPanel(request), timeout, None)

    def sample_text(self, request: SamplingRequest) -> SamplingReply | None:
        return self.text.sample(request)

    def sign_in_form(
        self, server: str, url: str, listening: bool, done: threading.Event, timeout: float
    ) -> str | None:
        """Show the sign-in link and a box for the address the browser ended on; the pasted
        address, or None when ``done`` is set (the listener caught it) or at the timeout."""
        from workbench.widgets.sign_in_panel import SignInPanel

        panel = SignInPanel(server, url, listening=listening)
        self.asked.append(panel)
        self._show(panel.widget)
        return panel.wait_for(done, timeout)

    def sign_in_text(self, server: str, url: str, paste: bool) -> str | None:
        """Show the link (a button in a notebook, text in a terminal: plain output works
        while a sync call blocks the kernel); with ``paste``, ask (hidden) for the address
        the browser ended on."""
        self._show(SignInLink(server, url))
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
        self.asked.append(panel)
        self._show(panel.widget)
        return panel.wait(timeout, on_timeout)
