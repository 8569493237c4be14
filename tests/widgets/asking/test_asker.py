"""NotebookAsker in process: a real demo server asks, the panel's widgets are filled and its
buttons clicked as a person would (``button.click()``), while the call waits in the worker
thread ``mcp/answers.py`` runs it in. The typed answers (``input()``) are driven here through
a scripted ``ask``; ``tests/kernel/test_asking_kernel.py`` answers the real ``input()`` of a
kernel over its stdin channel.
"""

from __future__ import annotations

import concurrent.futures
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastmcp import Context, FastMCP
from mcp_types import ElicitRequest, ElicitRequestURLParams, InputRequiredResult

from tests.widgets.form.form_screen import field_input, shown
from workbench.features.asking import (
    ElicitationAnswer,
    ElicitationRequest,
    SamplingMessage,
    SamplingReply,
    SamplingRequest,
)
from workbench.session import Workbench
from workbench.widgets.asking import NotebookAsker
from workbench.widgets.asking.panels import WIDGET_MIME, ElicitationPanel, Panel, SamplingPanel
from workbench.widgets.asking.text import TextAsker, sent_summary
from workbench.widgets.call_panel import CallPanel

BOOKING = {
    "type": "object",
    "properties": {
        "party_size": {"type": "integer", "minimum": 1, "maximum": 12, "title": "Party Size"},
        "time": {"type": "string", "enum": ["18:00", "19:30", "21:00"]},
        "terrace": {"type": "boolean", "default": False},
    },
    "required": ["party_size", "time"],
}


@pytest.fixture
def demo() -> Iterator[tuple[Workbench, NotebookAsker]]:
    wb = Workbench()
    wb.connect("demo")
    asker = NotebookAsker(show=lambda widget: None)
    wb.ask_people_with(asker)
    try:
        yield wb, asker
    finally:
        wb.close()


def asked(asker: NotebookAsker, count: int = 1, timeout: float = 10.0) -> Panel[Any]:
    """The ``count``-th panel, once the worker thread has shown it."""
    deadline = time.monotonic() + timeout
    while len(asker.asked) < count:
        assert time.monotonic() < deadline, "no question was shown"
        time.sleep(0.01)
    return asker.asked[count - 1]


def outcome(future: concurrent.futures.Future[Any]) -> str:
    """The call's text, waited for without blocking the main thread in ``result()`` (which
    would count as a blocked main thread and ask by ``input()`` instead)."""
    deadline = time.monotonic() + 30
    while not future.done():
        assert time.monotonic() < deadline, "the call did not end"
        time.sleep(0.01)
    return str(future.result().text)


def texts(widget: Any) -> str:
    return " ".join(str(getattr(w, "value", "")) for w, _ in shown(widget))


def test_the_booking_form_shows_problems_then_sends_what_was_filled_in(
    demo: tuple[Workbench, NotebookAsker],
) -> None:
    wb, asker = demo
    future = wb.submit("demo.book_table", {"restaurant": "Roma"})
    panel = asked(asker)
    assert isinstance(panel, ElicitationPanel)
    assert "Book a table at Roma" in texts(panel.widget) and "demo" in texts(panel.widget)
    assert field_input(panel.form, "terrace").value == 2  # the default (false), prefilled
    panel.accept_button.click()  # nothing filled in: the validator's words, still open
    assert not panel.answered and "2 problems" in panel.message.value
    assert "required but missing" in texts(panel.form.widget)
    field_input(panel.form, "party_size").value = "thirty"
    panel.accept_button.click()
    assert not panel.answered and "whole number" in texts(panel.form.widget)
    field_input(panel.form, "party_size").value = "3"
    field_input(panel.form, "time").index = 1
    panel.accept_button.click()
    assert outcome(future) == "Booked a table at Roma for 3 people at 19:30, inside."
    assert panel.summary == "demo: accepted, sent party_size=3, time='19:30', terrace=False"
    [line] = panel.widget.children  # the form is gone: one line says what was sent
    assert "wb-ask-summary" in line._dom_classes and "party_size=3" in line.value


@pytest.mark.parametrize(
    ("button", "said"),
    [("decline_button", "Declined: the user said no"), ("cancel_button", "Cancelled: the form")],
)
def test_decline_and_cancel_reach_the_server(
    demo: tuple[Workbench, NotebookAsker], button: str, said: str
) -> None:
    wb, asker = demo
    future = wb.submit("demo.book_table", {"restaurant": "Roma"})
    panel = asked(asker)
    getattr(panel, button).click()
    assert outcome(future).startswith(said)
    assert panel.summary in ("demo: declined", "demo: cancelled")


@pytest.mark.integration
def test_nobody_answering_declines_at_the_timeout_and_a_late_click_changes_nothing(
    demo: tuple[Workbench, NotebookAsker],
) -> None:
    wb, asker = demo
    wb.answer_timeout = 1
    started = time.monotonic()
    future = wb.submit("demo.book_table", {"restaurant": "Roma"})
    assert outcome(future).startswith("Declined: the user said no")
    assert time.monotonic() - started < 5
    panel = asked(asker)
    while not panel.answered:  # the core's own deadline may end the call a moment earlier
        assert time.monotonic() - started < 5
        time.sleep(0.01)
    assert panel.summary == "timed out: declined"
    assert isinstance(panel, ElicitationPanel)
    panel.cancel_button.click()
    assert panel.summary == "timed out: declined"


def test_sampling_sends_the_reply_typed_in_the_box(
    demo: tuple[Workbench, NotebookAsker],
) -> None:
    wb, asker = demo
    future = wb.submit("demo.summarize", {"text": "MCP lets tools talk to models."})
    panel = asked(asker)
    assert isinstance(panel, SamplingPanel)
    shown_text = texts(panel.widget)
    assert "Summarize in one sentence" in shown_text and "exactly one plain sentence" in shown_text
    assert "at most 120 tokens" in shown_text
    panel.send_button.click()  # empty: still open
    assert not panel.answered and "Write a reply first" in panel.message.value
    panel.reply.value = "Tools and models talk through MCP."
    panel.send_button.click()
    assert outcome(future) == "Tools and models talk through MCP."
    assert panel.summary == "demo: reply sent (34 characters)"


def test_declined_sampling_is_an_error_result(demo: tuple[Workbench, NotebookAsker]) -> None:
    wb, asker = demo
    future = wb.submit("demo.summarize", {"text": "Some text."})
    panel = asked(asker)
    assert isinstance(panel, SamplingPanel)
    panel.decline_button.click()
    while not future.done():
        time.sleep(0.01)
    assert future.result().is_error
    assert panel.summary == "demo: declined"


def answer_in_a_thread(fn: Any, *args: Any) -> concurrent.futures.Future[Any]:
    """Run a blocking asker method the way ``mcp/answers.py`` does: in a worker thread."""
    pool = concurrent.futures.ThreadPoolExecutor(1)
    future = pool.submit(fn, *args)
    pool.shutdown(wait=False)
    return future


def test_secret_fields_are_sent_but_never_shown() -> None:
    schema = {
        "type": "object",
        "properties": {
            "user": {"type": "string"},
            "pin": {"type": "string", "format": "password"},
            "api_token": {"type": "string"},
        },
        "required": ["user", "pin"],
    }
    asker = NotebookAsker(show=lambda widget: None)
    request = ElicitationRequest(server="bank", message="Log in", schema=schema)
    answer = answer_in_a_thread(asker.elicit_form, request, 30.0)
    panel = asked(asker)
    assert isinstance(panel, ElicitationPanel)
    field_input(panel.form, "user").value = "ada"
    field_input(panel.form, "pin").value = "4711-secret"
    field_input(panel.form, "api_token").value = "tok-123456"
    panel.accept_button.click()
    assert answer.result(10) == ElicitationAnswer.accept(
        {"user": "ada", "pin": "4711-secret", "api_token": "tok-123456"}
    )
    assert panel.summary == "bank: accepted, sent user='ada', pin=***, api_token=***"
    assert "4711" not in texts(panel.widget) and "tok-" not in texts(panel.widget)
    saved = str(panel.bundle())  # what the cell keeps once answered
    assert "pin=***, api_token=***" in saved
    assert "4711" not in saved and "tok-" not in saved


def test_the_saved_output_is_a_static_summary_with_the_servers_text_escaped() -> None:
    """Waiting: the widget's view and a note (never the raw ``VBox(...)`` repr); answered:
    HTML and text only, saying who asked what and what was answered, the server's words as
    data (escaped in HTML, control characters shown in text)."""
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}}
    asker = NotebookAsker(show=lambda widget: None)
    request = ElicitationRequest(
        server="evil",
        message="<img src=x onerror=alert(1)>\x1b[2J How many?",
        schema=schema,
        tool="count",
    )
    answer = answer_in_a_thread(asker.elicit_form, request, 30.0)
    panel = asked(asker)
    waiting = panel.bundle()
    assert WIDGET_MIME in waiting
    assert "VBox(" not in waiting["text/plain"]
    assert "answer in the panel" in waiting["text/plain"]
    assert isinstance(panel, ElicitationPanel)
    field_input(panel.form, "n").value = "3"
    updated: list[dict[str, Any]] = []
    panel.when_finished(lambda: updated.append(panel.bundle()))
    panel.accept_button.click()
    assert answer.result(10) == ElicitationAnswer.accept({"n": 3})
    [saved] = updated
    assert set(saved) == {"text/plain", "text/html"}
    assert saved["text/plain"] == (
        "evil asks (calling count): <img src=x onerror=alert(1)>\u241b[2J How many?\n"
        "evil: accepted, sent n=3"
    )
    assert "<img" not in saved["text/html"] and "&lt;img src=x" in saved["text/html"]
    assert "evil: accepted, sent n=3" in saved["text/html"]


def test_one_accept_shows_every_problem_of_the_answer() -> None:
    """A value that does not convert and one that breaks a format show together, in one
    round (newcomer-3 friction 12: the form said one, and the other only on the next try)."""
    schema = {
        "type": "object",
        "properties": {
            "guests": {"type": "integer"},
            "email": {"type": "string", "format": "email"},
        },
        "required": ["guests", "email"],
    }
    asker = NotebookAsker(show=lambda widget: None)
    request = ElicitationRequest(server="demo", message="Who comes?", schema=schema)
    answer = answer_in_a_thread(asker.elicit_form, request, 30.0)
    panel = asked(asker)
    assert isinstance(panel, ElicitationPanel)
    field_input(panel.form, "guests").value = "ninety"
    field_input(panel.form, "email").value = "ada-at-example.org"
    panel.accept_button.click()
    assert not panel.answered and "2 problems" in panel.message.value
    assert sorted(path for path, _ in panel.form.problems) == ["email", "guests"]
    assert "e-mail address" in dict(panel.form.problems)["email"]
    panel.decline_button.click()
    assert answer.result(10) == ElicitationAnswer.decline()


def test_url_mode_shows_the_link_and_done_accepts() -> None:
    asker = NotebookAsker(show=lambda widget: None)
    request = ElicitationRequest(
        server="auth", message="Sign in", mode="url", url="https://example.test/login?a=1&b=2"
    )
    answer = answer_in_a_thread(asker.elicit_form, request, 30.0)
    panel = asked(asker)
    assert 'href="https://example.test/login?a=1&amp;b=2"' in texts(panel.widget)
    assert isinstance(panel, ElicitationPanel)
    panel.accept_button.click()
    assert answer.result(10).action == "accept"
    assert panel.summary == "auth: accepted (opened https://example.test/login?a=1&b=2)"


def test_the_panel_is_displayed_where_the_call_was_made() -> None:
    shown_widgets: list[Any] = []
    asker = NotebookAsker(show=shown_widgets.append)
    request = SamplingRequest(server="s", messages=[SamplingMessage("user", "hi")])
    reply = answer_in_a_thread(asker.sample_form, request, 30.0)
    panel = asked(asker)
    assert shown_widgets == [panel.widget]
    assert isinstance(panel, SamplingPanel)
    panel.decline_button.click()
    assert reply.result(10) is None


def test_the_call_panel_asks_inside_its_run(demo: tuple[Workbench, NotebookAsker]) -> None:
    """The browser's call: its run's own panel answers, not the asker the kernel installed."""
    wb, kernel_asker = demo
    panel = CallPanel(wb)
    panel.show(wb.registry.get("demo.book_table"), {"restaurant": "Roma"})
    run = panel.call()
    assert run is not None
    question = asked(run.asker)
    assert run.questions.children == (question.widget,)
    assert isinstance(question, ElicitationPanel)
    field_input(question.form, "party_size").value = "2"
    field_input(question.form, "time").index = 0
    question.accept_button.click()
    assert run.done.wait(30)
    assert run.observation is not None
    assert run.observation.text == "Booked a table at Roma for 2 people at 18:00, inside."
    assert kernel_asker.asked == []
    assert "accepted, sent party_size=2" in texts(run.questions)


# -- typed answers -------------------------------------------------------------------------


class Typist:
    """Scripted ``input()``: answers in order, the prompts kept."""

    def __init__(self, *answers: str) -> None:
        self.answers = list(answers)
        self.prompts: list[str] = []
        self.said: list[str] = []

    def ask(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.answers:
            raise EOFError
        return self.answers.pop(0)

    def asker(self) -> TextAsker:
        return TextAsker(ask=self.ask, say=self.said.append)


BOOK = ElicitationRequest(server="demo", message="Book?", schema=BOOKING, tool="book_table")


def test_typed_answers_are_converted_and_defaults_taken() -> None:
    typist = Typist("3", "19:30", "")
    assert typist.asker().elicit(BOOK) == ElicitationAnswer.accept(
        {"party_size": 3, "time": "19:30", "terrace": False}
    )
    assert typist.prompts == [
        "Party Size (integer, required): ",
        "time (one of 18:00, 19:30, 21:00, required): ",
        "terrace (y/n) [n]: ",
    ]
    assert typist.said[0] == "demo asks (calling book_table): Book?"
    assert typist.said[-1] == "demo: accepted, sent party_size=3, time='19:30', terrace=False"


def test_a_prompt_reads_cleanly_and_shows_a_servers_control_characters() -> None:
    """The description's own full stop never meets the prompt's colon ("1 to 12.:"), and the
    server's words on the input() path pass through ``visible`` like all server text."""
    schema = {
        "type": "object",
        "properties": {
            "party_size": {
                "type": "integer",
                "title": "Party Size",
                "description": "How many people,\n1 to 12.",
            },
            "note": {"type": "string", "description": "Say \x1b]0;pwned\x07 hi", "default": "x"},
        },
        "required": ["party_size"],
    }
    typist = Typist("4", "")
    request = ElicitationRequest(server="demo", message="Book?\x1b[2J", schema=schema)
    assert typist.asker().elicit(request) == ElicitationAnswer.accept(
        {"party_size": 4, "note": "x"}
    )
    assert typist.prompts == [
        "Party Size - How many people, 1 to 12 (integer, required): ",
        "note - Say \u241b]0;pwned\u2407 hi (string) [x]: ",
    ]
    assert typist.said[0] == "demo asks: Book?\u241b[2J"
    sampling = SamplingRequest(
        server="s", messages=[SamplingMessage("user", "hi\x1b[8m")], system_prompt="sys\x07"
    )
    typist = Typist("ok")
    assert typist.asker().sample(sampling) == SamplingReply("ok")
    assert typist.said[1:3] == ["system: sys\u2407", "user: hi\u241b[8m"]


def test_a_bad_value_is_asked_again_once_then_declined() -> None:
    typist = Typist("lots", "2", "9pm", "21:00", "yes")
    answer = typist.asker().elicit(BOOK)
    assert answer == ElicitationAnswer.accept({"party_size": 2, "time": "21:00", "terrace": True})
    assert typist.said[1] == "party_size: not a whole number; try again (/decline to decline)."
    assert (
        typist.said[2] == "time: not one of 18:00, 19:30, 21:00; try again (/decline to decline)."
    )
    typist = Typist("13", "12", "18:00", "")
    assert typist.asker().elicit(BOOK).content == {
        "party_size": 12,
        "time": "18:00",
        "terrace": False,
    }
    assert typist.said[1].startswith("party_size: must be at most 12; try again")
    typist = Typist("lots", "many")
    assert typist.asker().elicit(BOOK) == ElicitationAnswer.decline()
    assert typist.said[-1] == "party_size: not a whole number again: declined"


@pytest.mark.parametrize(
    ("typed", "action"), [("/decline", "decline"), ("/cancel", "cancel"), (None, "decline")]
)
def test_decline_cancel_or_no_input_at_any_prompt(typed: str | None, action: str) -> None:
    typist = Typist("4", *([typed] if typed else []))
    assert typist.asker().elicit(BOOK).action == action
    assert len(typist.prompts) == 2


def test_arrays_numbers_and_titled_choices() -> None:
    schema = {
        "type": "object",
        "properties": {
            "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b", "c"]}},
            "ratio": {"type": "number"},
            "size": {"oneOf": [{"const": "s", "title": "Small"}, {"const": "l", "title": "Large"}]},
            "note": {"type": "string"},
        },
        "required": ["tags"],
    }
    typist = Typist("a, c", "0.5", "large", "")
    request = ElicitationRequest(server="x", message="?", schema=schema)
    answer = typist.asker().elicit(request)
    assert answer.content == {"tags": ["a", "c"], "ratio": 0.5, "size": "l"}
    assert typist.prompts[0] == "tags (some of a, b, c, required): "
    assert typist.prompts[2] == "size (one of s (Small), l (Large)): "


def test_secret_fields_are_asked_without_echo_and_never_said() -> None:
    schema = {"type": "object", "properties": {"password": {"type": "string", "default": "x1"}}}
    hidden: list[str] = []

    def ask_secret(prompt: str) -> str:
        hidden.append(prompt)
        return "hunter22"

    said: list[str] = []
    asker = TextAsker(ask=lambda p: "", ask_secret=ask_secret, say=said.append)
    answer = asker.elicit(ElicitationRequest(server="x", message="?", schema=schema))
    assert answer.content == {"password": "hunter22"}
    assert hidden == ["password (string): "]  # the default is not shown either
    assert "hunter22" not in " ".join(said) and said[-1] == "x: accepted, sent password=***"
    assert sent_summary({"password": "p"}, schema) == "password=***"


def test_typed_sampling_shows_the_messages_and_takes_one_reply() -> None:
    request = SamplingRequest(
        server="demo",
        messages=[SamplingMessage("user", "Summarize: tea")],
        system_prompt="Be brief.",
        max_tokens=50,
    )
    typist = Typist("Tea is good.")
    reply = typist.asker().sample(request)
    assert reply is not None and reply.text == "Tea is good."
    assert typist.said[1:4] == ["system: Be brief.", "user: Summarize: tea", "(at most 50 tokens)"]
    assert Typist("/decline").asker().sample(request) is None
    assert Typist().asker().sample(request) is None


def test_a_late_answer_after_the_timeout_is_ignored() -> None:
    panel = ElicitationPanel(ElicitationRequest(server="x", message="?", schema=BOOKING))
    done = threading.Event()
    result: list[ElicitationAnswer] = []

    def wait() -> None:
        result.append(panel.wait(0.2, ElicitationAnswer.decline()))
        done.set()

    threading.Thread(target=wait).start()
    assert done.wait(5)
    panel.cancel()
    assert result == [ElicitationAnswer.decline()] and panel.summary == "timed out: declined"


def url_asking_server(url: str) -> FastMCP:
    """A FastMCP server whose tool asks the client to open ``url`` (URL-mode elicitation)."""
    server = FastMCP("asks")

    @server.tool
    def open_page(ctx: Context) -> str | InputRequiredResult:
        answer = (ctx.input_responses or {}).get("open")
        if answer is None:
            params = ElicitRequestURLParams(message="Open this", url=url, elicitation_id="e1")
            return InputRequiredResult(input_requests={"open": ElicitRequest(params=params)})
        return f"answered {answer.action}"

    return server


@pytest.mark.integration
@pytest.mark.parametrize(
    "url",
    [
        "javascript:window.__xss=1;alert('xss')",
        "JavaScript:alert(1)",
        "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
        "file:///etc/passwd",
    ],
)
def test_g8_a_url_that_is_no_web_address_is_shown_not_linked(url: str) -> None:
    wb = Workbench()
    try:
        asker = NotebookAsker(show=lambda widget: None)
        wb.ask_people_with(asker)
        wb.connect("asks", server=url_asking_server(url))
        future = wb.submit("asks.open_page", {})
        panel = asked(asker)
        html = texts(panel.widget)
        assert "<a" not in html and "href" not in html
        assert url.split(":")[0] in html and "not a web address" in html
        assert isinstance(panel, ElicitationPanel)
        panel.decline_button.click()
        assert outcome(future) == "answered decline"
    finally:
        wb.close()


def test_g8_a_web_address_from_a_server_is_still_a_link() -> None:
    wb = Workbench()
    try:
        asker = NotebookAsker(show=lambda widget: None)
        wb.ask_people_with(asker)
        wb.connect("asks", server=url_asking_server("https://example.test/sign-in?a=1&b=2"))
        future = wb.submit("asks.open_page", {})
        panel = asked(asker)
        assert 'href="https://example.test/sign-in?a=1&amp;b=2"' in texts(panel.widget)
        assert isinstance(panel, ElicitationPanel)
        panel.accept_button.click()
        assert outcome(future) == "answered accept"
    finally:
        wb.close()
