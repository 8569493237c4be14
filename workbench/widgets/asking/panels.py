"""The panels of ``NotebookAsker`` (``asker.py``): one question on screen, as ipywidgets.

A worker thread waits on the panel (``Panel.wait``) while the kernel handles the clicks; the
first answer wins, a timeout declines. Once answered, the panel shrinks to one line saying
what was sent, secrets masked. A saved notebook keeps outputs, not widget models, so the
panel's own display (``NotebookAsker``) holds ``bundle()``: the widget's view and a short
text while it waits, then a static summary (what was asked, by whom, what was answered) in
HTML and text, which any copy, trusted or not, and any export shows.

CSS classes, for styling and browser tests: ``wb-ask`` (the panel), ``wb-ask-accept``,
``wb-ask-decline``, ``wb-ask-cancel``, ``wb-ask-send`` (buttons), ``wb-ask-reply`` (the
sampling reply), ``wb-ask-message`` (what is wrong), ``wb-ask-summary`` (the line after);
``wb-ask-answered`` frames the static summary the display becomes.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Callable
from typing import Any, Generic, TypeVar

import ipywidgets as widgets

from workbench.display import markup
from workbench.display.content import is_web_address, uri_html
from workbench.display.style import Tone
from workbench.display.visible import visible
from workbench.errors import FormError
from workbench.features.asking import (
    ElicitationAnswer,
    ElicitationRequest,
    SamplingReply,
    SamplingRequest,
)
from workbench.registry import ToolEntry
from workbench.widgets.asking.settling import Settling
from workbench.widgets.asking.text import answer_line
from workbench.widgets.form import FormView

A = TypeVar("A")
TIMED_OUT = "timed out: declined"
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
LIVE_NOTE = "answer in the panel, which needs the notebook open with its kernel running"


class Panel(Generic[A]):
    """One question on screen: the first answer (a click, or the timeout) wins and the
    panel becomes one line; ``wait`` blocks a worker thread until then."""

    def __init__(self, header: str, asked: str) -> None:
        """``header`` is the question as HTML, ``asked`` the same as plain text."""
        self.message = widgets.HTML(_dom_classes=("wb-ask-message",))
        self.widget = widgets.VBox(_dom_classes=("wb-ask",))
        self._header = widgets.HTML(header)
        self._header_html = header
        self.asked = asked
        self._answered = threading.Event()
        self._lock = threading.Lock()
        self._answer: A | None = None
        self._finished: list[Callable[[], object]] = []
        self.summary = ""
        self._tone: Tone = "muted"

    @property
    def answered(self) -> bool:
        return self._answered.is_set()

    def wait(self, timeout: float, on_timeout: A) -> A:
        """The answer, or ``on_timeout`` when nobody answered within ``timeout`` seconds."""
        if not self._answered.wait(timeout):
            self.finish(on_timeout, TIMED_OUT)
        return self._answer  # type: ignore[return-value]  # set before the event

    def finish(self, answer: A, line: str, tone: Tone = "muted") -> bool:
        """Answer (once; a late click after the timeout changes nothing) and shrink."""
        with self._lock:
            if self._answered.is_set():
                return False
            self._answer = answer
            self.summary = line
            self._tone = tone
            self._answered.set()
        summary = widgets.HTML(markup.span(line, tone=tone), _dom_classes=("wb-ask-summary",))
        self.widget.children = (summary,)
        for then in self._finished:
            # A display that cannot be updated must not lose the answer.
            with contextlib.suppress(Exception):
                then()
        return True

    def when_finished(self, then: Callable[[], object]) -> None:
        """Call ``then()`` once the panel is answered, in the answering thread."""
        self._finished.append(then)

    def bundle(self) -> dict[str, Any]:
        """The panel's output: while it waits, the widget's view and a note in plain text
        (never the raw ``VBox(...)`` repr); once answered, a static summary, no widget."""
        if self.answered:
            return {
                "text/plain": visible(f"{self.asked}\n{self.summary}"),
                "text/html": markup.box(
                    "ask-answered",
                    self._header_html + markup.block(markup.span(self.summary, tone=self._tone)),
                    tone=self._tone if self._tone != "muted" else None,
                ),
            }
        bundle: dict[str, Any] = {"text/plain": visible(f"{self.asked}\n({LIVE_NOTE})")}
        view = self.widget._repr_mimebundle_() or {}
        if WIDGET_MIME in view:
            bundle[WIDGET_MIME] = view[WIDGET_MIME]
        return bundle

    def _lay_out(self, body: tuple[Any, ...], buttons: tuple[widgets.Button, ...]) -> None:
        self.widget.children = (self._header, *body, widgets.HBox(buttons), self.message)
        self._settling = Settling(self.widget)

    def _once_settled(self, action: Callable[[], object]) -> Callable[[], object]:
        """``action`` run once the form's last keystrokes have reached the kernel."""
        return lambda: self._settling.then(action)

    def _complain(self, text: str) -> None:
        self.message.value = markup.span(text, tone="error")


def _button(description: str, css: str, on_click: Callable[[], object], **kw: Any) -> Any:
    button = widgets.Button(description=description, _dom_classes=(css,), **kw)
    button.on_click(lambda _: on_click())
    return button


def _asks(server: str, tool: str | None, what: str) -> tuple[str, str]:
    """The question's header for ``Panel``, as HTML (the server's words escaped) and as text."""
    where = f" (calling {tool})" if tool else ""
    question = f" asks{where}: {what}"
    return markup.block(markup.span(server, bold=True) + markup.esc(question)), server + question


class ElicitationPanel(Panel[ElicitationAnswer]):
    """The requested schema as a form (defaults filled in): Accept, Decline, Cancel."""

    def __init__(self, request: ElicitationRequest) -> None:
        super().__init__(*_asks(request.server, request.tool, request.message))
        self.request = request
        # The one validator judges the answer, as it judges call arguments: given to the
        # form, it shows every problem in one round, values that do not convert included.
        self._judge = ToolEntry(
            server=request.server, name="elicitation", input_schema=self.form_schema
        )
        self.form = FormView(self.form_schema, validate=self._judge.problems)
        self.accept_button = _button(
            "Accept",
            "wb-ask-accept",
            self._once_settled(self.accept),
            button_style="primary",
            icon="check",
        )
        self.decline_button = _button("Decline", "wb-ask-decline", self.decline)
        self.cancel_button = _button("Cancel", "wb-ask-cancel", self.cancel)
        self._lay_out(
            (self.form.widget,), (self.accept_button, self.decline_button, self.cancel_button)
        )

    @property
    def form_schema(self) -> dict[str, Any]:
        return dict(self.request.schema or {"type": "object"})

    def accept(self) -> None:
        """Send the form's values; what does not convert or validate stays on screen."""
        try:
            content = self.form.arguments()
        except FormError as error:
            self._complain(str(error))
            return
        problems = self._judge.problems(content)
        self.form.show_problems(problems)
        if problems:
            count = f"{len(problems)} problem{'s' if len(problems) != 1 else ''}"
            self._complain(f"{count} in the form: see under the fields.")
            return
        answer = ElicitationAnswer.accept(content)
        self.finish(answer, answer_line(self.request, answer), "ok")

    def decline(self) -> None:
        answer = ElicitationAnswer.decline()
        self.finish(answer, answer_line(self.request, answer))

    def cancel(self) -> None:
        answer = ElicitationAnswer.cancel()
        self.finish(answer, answer_line(self.request, answer))


class UrlPanel(ElicitationPanel):
    """URL mode: the link to open, then Done (accept), Decline or Cancel."""

    def __init__(self, request: ElicitationRequest) -> None:
        Panel.__init__(self, *_asks(request.server, request.tool, request.message))
        self.request = request
        link = widgets.HTML(markup.block(_open_line(request.url or "")))
        self.accept_button = _button(
            "Done", "wb-ask-accept", self.accept, button_style="primary", icon="external-link"
        )
        self.accept_button.tooltip = "I opened the link and finished there"
        self.decline_button = _button("Decline", "wb-ask-decline", self.decline)
        self.cancel_button = _button("Cancel", "wb-ask-cancel", self.cancel)
        self._lay_out((link,), (self.accept_button, self.decline_button, self.cancel_button))

    def accept(self) -> None:
        answer = ElicitationAnswer.accept()
        self.finish(answer, answer_line(self.request, answer), "ok")


def _open_line(url: str) -> str:
    """The "Open" line: a link for a web address; any other URL (``javascript:``,
    ``data:``) quoted, as text, with a note: a server's words never become a link that runs."""
    if is_web_address(url):
        return f"Open {uri_html(url)}"
    quoted = markup.code(json.dumps(url, ensure_ascii=False))
    note = markup.span(
        "(not a web address, so not made a link: copy it only if you trust this server)",
        tone="muted",
    )
    return f"Open {quoted} {note}"


class SamplingPanel(Panel[SamplingReply | None]):
    """What the server would send a model, and a box for the person's reply: Send, Decline."""

    def __init__(self, request: SamplingRequest) -> None:
        server, tool, what = request.server, request.tool, "a language model's reply"
        super().__init__(*_asks(server, tool, what))
        self.request = request
        lines = []
        if request.system_prompt:
            lines.append(_said("system", request.system_prompt))
        lines += [_said(message.role, message.text) for message in request.messages]
        if request.max_tokens:
            lines.append(
                markup.block(markup.span(f"at most {request.max_tokens} tokens", tone="muted"))
            )
        self.reply = widgets.Textarea(
            placeholder="Your reply, as the model would answer",
            layout=widgets.Layout(width="min(100%, 40em)", height="6em"),
            _dom_classes=("wb-ask-reply",),
        )
        self.send_button = _button(
            "Send", "wb-ask-send", self._once_settled(self.send), button_style="primary"
        )
        self.decline_button = _button("Decline", "wb-ask-decline", self.decline)
        self._lay_out(
            (widgets.HTML("".join(lines)), self.reply), (self.send_button, self.decline_button)
        )

    def send(self) -> None:
        text = self.reply.value
        if not text.strip():
            self._complain("Write a reply first, or Decline.")
            return
        line = f"{self.request.server}: reply sent ({len(text)} characters)"
        self.finish(SamplingReply(text), line, "ok")

    def decline(self) -> None:
        self.finish(None, f"{self.request.server}: declined")


def _said(role: str, text: str) -> str:
    return markup.block(
        markup.span(f"{role}:", bold=True) + " " + f'<span style="white-space: pre-wrap">'
        f"{markup.esc(text)}</span>"
    )
