"""The sign-in panel of ``NotebookAsker``: a link button, a note, a box for the address.

Shown in the calling cell while an awaited connection waits for OAuth (``mcp/oauth/``). It
races the one-shot listener on 127.0.0.1: the core sets ``done`` when the listener caught the
redirect, and the panel says "signed in"; otherwise the person pastes the address the browser
ended on and clicks Done. The address holds a one-time code: it is cleared from the box at
once and never shown in the one-line summary the panel becomes.

CSS classes, for styling and browser tests: ``wb-sign-in`` (the link button),
``wb-sign-in-paste`` (the box), ``wb-sign-in-done`` (its button), plus ``Panel``'s.
"""

from __future__ import annotations

import threading
import time

import ipywidgets as widgets

from workbench.display import markup
from workbench.widgets.asking.panels import Panel, _button
from workbench.widgets.asking.sign_in_text import (
    LISTENING_NOTE,
    PASTE_NOTE,
    link_button,
    not_completed,
    redirect_problem,
)

SLICE = 0.1
"""Seconds between looks at ``done`` while nobody has pasted anything."""


class SignInPanel(Panel[str | None]):
    """The sign-in link as a button, a note, and a box for the address the browser ended on:
    Done sends it; the listener catching the redirect (``done``) or the timeout ends it
    with None."""

    def __init__(self, server: str, url: str, *, listening: bool) -> None:
        header = markup.block(markup.span(server, bold=True) + " asks you to sign in.")
        super().__init__(header, f"{server} asks you to sign in.")
        self.server = server
        self.url = url
        note = LISTENING_NOTE if listening else PASTE_NOTE
        self.paste = widgets.Text(
            placeholder="http://127.0.0.1/callback?code=…&state=…",
            layout=widgets.Layout(width="min(100%, 40em)"),
            _dom_classes=("wb-sign-in-paste",),
        )
        self.done_button = _button(
            "Done", "wb-sign-in-done", self.send, button_style="primary", icon="check"
        )
        self.done_button.tooltip = "Send the address your browser ended on"
        body = (
            widgets.HTML(link_button(server, url)),
            widgets.HTML(markup.block(markup.span(note, tone="muted"))),
            self.paste,
        )
        self._lay_out(body, (self.done_button,))

    def send(self) -> None:
        """Hand the pasted address to the waiting core; it is cleared at once, never shown."""
        text = self.paste.value.strip()
        problem = redirect_problem(text)
        if problem is not None:
            self._complain(problem)
            return
        self.paste.value = ""
        self.finish(text, f"{self.server}: sign-in address received", "ok")

    def wait_for(self, done: threading.Event, timeout: float) -> str | None:
        """The pasted address; None once ``done`` is set (the listener caught the redirect)
        or after ``timeout`` seconds. Blocks a worker thread, looking at ``done`` often."""
        deadline = time.monotonic() + timeout
        while not self._answered.wait(SLICE):
            if done.is_set():
                self.finish(None, f"{self.server}: signed in", "ok")
            elif time.monotonic() >= deadline:
                self.finish(None, f"{self.server}: {not_completed(timeout)}", "warn")
        self.paste.value = ""
        return self._answer
