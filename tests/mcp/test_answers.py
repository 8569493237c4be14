"""Who answers a server's questions (workbench/mcp/answers.py): the Workbench's handler,
else the running call's, else the person through the installed Asker, else nobody (declined,
with a warning). Run on a real bridge, as connections run them."""

from __future__ import annotations

import asyncio
import contextvars
import threading
import time
from collections.abc import Coroutine, Iterator
from typing import Any, TypeVar

import mcp_types
import pytest

from workbench.bridge import Bridge
from workbench.errors import UnansweredRequestWarning
from workbench.features.asking import (
    Declined,
    ElicitationAnswer,
    ElicitationRequest,
    SamplingReply,
    SamplingRequest,
)
from workbench.mcp.answers import (
    CALL_HANDLERS,
    CallAnswers,
    ClientAnswers,
    ServerAnswerer,
    elicitation_request,
    sampling_request,
)

T = TypeVar("T")
QUESTION = ElicitationRequest("srv", "Who are you?", {"type": "object", "properties": {}})
PROMPT = SamplingRequest("srv", [])
CELL: contextvars.ContextVar[str] = contextvars.ContextVar("CELL", default="no cell")


@pytest.fixture
def bridge() -> Iterator[Bridge]:
    with Bridge(name="answers-bridge") as b:
        yield b


@pytest.fixture
def answers(bridge: Bridge) -> ClientAnswers:
    return ClientAnswers(bridge, roots=["file:///work"])


def awaited(bridge: Bridge, coro: Coroutine[Any, Any, T]) -> T:
    """Run on the bridge as an awaited call does: the main thread stays free."""
    return asyncio.run(bridge.arun(coro))


class Person:
    """An Asker that answers at once and records how it was asked, and in which thread."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, threading.Thread]] = []

    def _note(self, how: str) -> None:
        self.asked.append((how, threading.current_thread()))

    def elicit_form(self, request: ElicitationRequest, timeout: float) -> ElicitationAnswer:
        self._note("elicit_form")
        return ElicitationAnswer.accept({"via": "form"})

    def elicit_text(self, request: ElicitationRequest) -> ElicitationAnswer:
        self._note("elicit_text")
        return ElicitationAnswer.accept({"via": "input()"})

    def sample_form(self, request: SamplingRequest, timeout: float) -> SamplingReply | None:
        self._note("sample_form")
        return SamplingReply("from the form")

    def sample_text(self, request: SamplingRequest) -> SamplingReply | None:
        self._note("sample_text")
        return None


# -- who answers ----------------------------------------------------------------------------


def test_the_workbench_handler_comes_first(bridge: Bridge, answers: ClientAnswers) -> None:
    answers.elicitation = lambda request: {"who": "workbench"}
    answers.sampling = lambda request: "workbench"
    answers.asker = Person()
    call = CallAnswers(
        "srv.tool",
        contextvars.copy_context(),
        on_elicitation=lambda request: {"who": "call"},
        on_sampling=lambda request: "call",
    )
    assert bridge.run(answers.elicit(QUESTION, call)) == ElicitationAnswer.accept(
        {"who": "workbench"}
    )
    assert bridge.run(answers.sample(PROMPT, call)).text == "workbench"
    assert answers.asker.asked == []


def test_the_call_handler_comes_next(bridge: Bridge, answers: ClientAnswers) -> None:
    answers.asker = Person()
    token = CALL_HANDLERS.set((lambda request: ElicitationAnswer.cancel(), lambda r: "call"))
    try:
        call = CallAnswers.here("srv.tool")
    finally:
        CALL_HANDLERS.reset(token)
    assert call.tool == "srv.tool"
    assert bridge.run(answers.elicit(QUESTION, call)) == ElicitationAnswer.cancel()
    assert bridge.run(answers.sample(PROMPT, call)).text == "call"
    assert answers.asker.asked == []
    assert CallAnswers.here("srv.other").on_elicitation is None  # only inside the block


def test_the_person_answers_a_form_when_the_main_thread_is_free(
    bridge: Bridge, answers: ClientAnswers
) -> None:
    person = Person()
    answers.asker = person
    call = CallAnswers("srv.tool", contextvars.copy_context())  # a call without handlers
    assert awaited(bridge, answers.elicit(QUESTION, call)).content == {"via": "form"}
    assert awaited(bridge, answers.sample(PROMPT, None)).text == "from the form"
    assert [how for how, _ in person.asked] == ["elicit_form", "sample_form"]
    for _, thread in person.asked:  # a worker thread: neither the bridge's nor the main one
        assert thread is not threading.main_thread()
        assert thread.name != "answers-bridge"


def test_the_person_types_in_the_main_thread_a_sync_call_blocks(
    bridge: Bridge, answers: ClientAnswers
) -> None:
    person = Person()
    answers.asker = person
    assert bridge.run(answers.elicit(QUESTION, None)).content == {"via": "input()"}
    with pytest.raises(Declined):  # the person gave no reply
        bridge.run(answers.sample(PROMPT, None))
    assert person.asked == [
        ("elicit_text", threading.main_thread()),
        ("sample_text", threading.main_thread()),
    ]


def test_nobody_there_declines_with_a_warning(bridge: Bridge, answers: ClientAnswers) -> None:
    with pytest.warns(UnansweredRequestWarning, match=r"'srv' asked for input.*on_elicitation"):
        assert bridge.run(answers.elicit(QUESTION, None)) == ElicitationAnswer.decline()
    with (
        pytest.warns(UnansweredRequestWarning, match=r"LLM completion.*on_sampling"),
        pytest.raises(Declined, match="on_sampling"),
    ):
        bridge.run(answers.sample(PROMPT, None))


def test_a_call_without_handlers_falls_through_to_nobody(
    bridge: Bridge, answers: ClientAnswers
) -> None:
    call = CallAnswers("srv.tool", contextvars.copy_context())
    with pytest.warns(UnansweredRequestWarning):
        assert bridge.run(answers.elicit(QUESTION, call)).action == "decline"


def unattended_in(cell: str) -> Any:
    """An ``unattended`` hook: nobody answers while the context's CELL is ``cell``."""
    return lambda: "no input" if CELL.get() == cell else None


def test_an_unattended_call_is_declined_at_once_with_a_note(
    bridge: Bridge, answers: ClientAnswers, capsys: pytest.CaptureFixture[str]
) -> None:
    person = Person()
    answers.asker = person
    answers.unattended = unattended_in("run by nbclient")
    token = CELL.set("run by nbclient")
    try:
        call = CallAnswers.here("srv.tool")  # the hook is read in the call's context
    finally:
        CELL.reset(token)
    question = ElicitationRequest("srv", "Your\nname,  token=abc123", {"type": "object"})
    assert awaited(bridge, answers.elicit(question, call)) == ElicitationAnswer.decline()
    assert bridge.run(answers.elicit(question, call)) == ElicitationAnswer.decline()  # sync
    with pytest.raises(Declined, match="running unattended"):
        awaited(bridge, answers.sample(PROMPT, call))
    assert person.asked == []
    note = "declined, since this notebook is running unattended (no one can answer: no input)"
    assert capsys.readouterr().out.splitlines() == [
        f"srv asked 'Your name, token=***': {note}",
        f"srv asked 'Your name, token=***': {note}",
        f"srv asked for a language model's reply: {note}",
    ]
    other = CallAnswers("srv.tool", contextvars.copy_context())  # another cell: attended
    assert awaited(bridge, answers.elicit(QUESTION, other)).content == {"via": "form"}


def test_handlers_still_answer_an_unattended_call(bridge: Bridge, answers: ClientAnswers) -> None:
    answers.asker = Person()
    answers.unattended = lambda: "no input"
    call = CallAnswers(
        "srv.tool", contextvars.copy_context(), on_elicitation=lambda request: {"who": "call"}
    )
    assert awaited(bridge, answers.elicit(QUESTION, call)).content == {"who": "call"}
    answers.sampling = lambda request: "workbench"
    assert awaited(bridge, answers.sample(PROMPT, None)).text == "workbench"


def test_a_long_question_is_quoted_on_one_line(
    bridge: Bridge, answers: ClientAnswers, capsys: pytest.CaptureFixture[str]
) -> None:
    answers.asker = Person()
    answers.unattended = lambda: "no input"
    question = ElicitationRequest("srv", "\x1b[31m" + "x" * 200, {"type": "object"})
    bridge.run(answers.elicit(question, None))
    [line] = capsys.readouterr().out.splitlines()
    assert line.startswith("srv asked '\\x1b[31m" + "x" * 74 + "…': declined"), line


# -- how handlers run -----------------------------------------------------------------------


def test_sync_handlers_run_in_a_worker_thread_with_the_calling_context(
    bridge: Bridge, answers: ClientAnswers
) -> None:
    seen: list[tuple[threading.Thread, str]] = []

    def handler(request: Any) -> dict[str, str]:
        seen.append((threading.current_thread(), CELL.get()))
        time.sleep(0.05)  # a blocking handler never blocks the bridge loop
        return {"ok": "yes"}

    async def bridge_thread() -> threading.Thread:
        return threading.current_thread()

    answers.elicitation = handler
    token = CELL.set("cell 7")
    try:
        call = CallAnswers.here("srv.tool")
    finally:
        CELL.reset(token)
    assert bridge.run(answers.elicit(QUESTION, call)).content == {"ok": "yes"}
    loop_thread = bridge.run(bridge_thread())
    ((thread, cell),) = seen
    assert thread is not loop_thread and thread is not threading.main_thread()
    assert cell == "cell 7"  # what the handler displays lands in the calling cell


def test_async_handlers_are_awaited(bridge: Bridge, answers: ClientAnswers) -> None:
    seen: list[threading.Thread] = []

    async def handler(request: ElicitationRequest) -> ElicitationAnswer:
        seen.append(threading.current_thread())
        await asyncio.sleep(0.01)
        return ElicitationAnswer.accept({"async": True})

    async def reply(request: SamplingRequest) -> str:
        await asyncio.sleep(0.01)
        return "async reply"

    answers.elicitation = handler
    answers.sampling = reply
    assert bridge.run(answers.elicit(QUESTION, None)).content == {"async": True}
    assert bridge.run(answers.sample(PROMPT, None)).text == "async reply"
    assert seen[0].name == "answers-bridge"


def test_a_sync_handler_returning_a_coroutine_is_awaited(
    bridge: Bridge, answers: ClientAnswers
) -> None:
    async def later() -> str:
        return "awaited"

    answers.sampling = lambda request: later()
    assert bridge.run(answers.sample(PROMPT, None)).text == "awaited"


@pytest.mark.integration
@pytest.mark.parametrize("kind", ["sync", "async"])
def test_a_handler_past_the_timeout_declines(
    bridge: Bridge, answers: ClientAnswers, kind: str
) -> None:
    async def slow_async(request: Any) -> dict[str, str]:
        await asyncio.sleep(5)
        return {"late": "yes"}

    def slow_sync(request: Any) -> dict[str, str]:
        time.sleep(0.8)
        return {"late": "yes"}

    answers.timeout = 0.2
    answers.elicitation = slow_async if kind == "async" else slow_sync
    answers.sampling = slow_async if kind == "async" else slow_sync
    started = time.monotonic()
    assert bridge.run(answers.elicit(QUESTION, None)) == ElicitationAnswer.decline()
    with pytest.raises(Declined, match=r"0\.2 s"):
        bridge.run(answers.sample(PROMPT, None))
    assert time.monotonic() - started < 2.5


@pytest.mark.parametrize("wrong", ["yes", 42, ["a"]])
def test_a_handler_returning_a_wrong_type_says_what_it_returned(
    bridge: Bridge, answers: ClientAnswers, wrong: object
) -> None:
    answers.elicitation = lambda request: wrong
    answers.sampling = lambda request: wrong if not isinstance(wrong, str) else 1.5
    with pytest.raises(TypeError, match=f"dict \\(accept\\).*not {type(wrong).__name__}"):
        bridge.run(answers.elicit(QUESTION, None))
    with pytest.raises(TypeError, match="text or a SamplingReply"):
        bridge.run(answers.sample(PROMPT, None))


def test_a_handler_error_goes_to_the_server(bridge: Bridge, answers: ClientAnswers) -> None:
    def broken(request: Any) -> None:
        raise ValueError("handler broke")

    answers.elicitation = broken
    with pytest.raises(ValueError, match="handler broke"):
        bridge.run(answers.elicit(QUESTION, None))


def test_roots_offers_none_by_default(bridge: Bridge) -> None:
    assert ClientAnswers(bridge).roots == []  # a server keeps its own folders


# -- the fastmcp callbacks of one connection ------------------------------------------------


def test_server_answerer_turns_mcp_requests_into_plain_data(
    bridge: Bridge, answers: ClientAnswers
) -> None:
    got: list[Any] = []

    def elicited(request: ElicitationRequest) -> dict[str, Any]:
        got.append(request)
        return {"name": "Ada"}

    def sampled(request: SamplingRequest) -> SamplingReply:
        got.append(request)
        return SamplingReply("Paris.", model="tester", stop_reason="maxTokens")

    answers.elicitation, answers.sampling = elicited, sampled
    running = CallAnswers("srv.book", contextvars.copy_context())
    answerer = ServerAnswerer("srv", answers, lambda: running)
    assert set(answerer.client_options()) == {"elicitation_handler", "sampling_handler", "roots"}
    schema = {"type": "object", "properties": {"name": {"type": "string"}}}
    form = mcp_types.ElicitRequestFormParams(message="Name?", requested_schema=schema)
    result = bridge.run(answerer.elicit("Name?", None, form, None))
    assert (result.action, result.content) == ("accept", {"name": "Ada"})
    messages = [
        mcp_types.SamplingMessage(
            role="user", content=mcp_types.TextContent(type="text", text="Capital of France?")
        )
    ]
    params = mcp_types.CreateMessageRequestParams(
        messages=messages, max_tokens=20, system_prompt="Be brief."
    )
    created = bridge.run(answerer.sample(messages, params, None))
    assert (created.model, created.stop_reason, created.content.text) == (
        "tester",
        "maxTokens",
        "Paris.",
    )
    asked, prompted = got
    assert (asked.server, asked.tool, asked.fields, asked.mode) == ("srv", "srv.book", ["name"],
                                                                    "form")  # fmt: skip
    assert (prompted.last_text, prompted.max_tokens, prompted.system_prompt) == (
        "Capital of France?",
        20,
        "Be brief.",
    )
    assert answerer.roots(None) == ["file:///work"]
    answers.roots = ["file:///elsewhere"]
    assert answerer.roots(None) == ["file:///elsewhere"]  # read at each roots/list


def test_declined_content_never_reaches_the_server(bridge: Bridge, answers: ClientAnswers) -> None:
    answers.elicitation = lambda request: ElicitationAnswer("decline", {"secret": "x"})
    answerer = ServerAnswerer("srv", answers, lambda: None)
    form = mcp_types.ElicitRequestFormParams(message="?", requested_schema={"type": "object"})
    result = bridge.run(answerer.elicit("?", None, form, None))
    assert (result.action, result.content) == ("decline", None)


def test_a_declined_sample_is_an_error_with_the_reason(
    bridge: Bridge, answers: ClientAnswers
) -> None:
    answers.sampling = lambda request: None
    answerer = ServerAnswerer("srv", answers, lambda: None)
    params = mcp_types.CreateMessageRequestParams(messages=[], max_tokens=5)
    with pytest.raises(RuntimeError, match="declined"):
        bridge.run(answerer.sample([], params, None))


def test_url_mode_and_non_text_sampling_content() -> None:
    url = mcp_types.ElicitRequestURLParams(
        message="Sign in", url="https://example.test/auth", elicitation_id="e1"
    )
    request = elicitation_request("srv", url, None)
    assert (request.mode, request.url, request.schema, request.tool) == (
        "url",
        "https://example.test/auth",
        {},
        None,
    )
    image = mcp_types.SamplingMessage(
        role="user",
        content=mcp_types.ImageContent(type="image", data="AA==", mime_type="image/png"),
    )
    params = mcp_types.CreateMessageRequestParams(
        messages=[image],
        max_tokens=5,
        model_preferences=mcp_types.ModelPreferences(speed_priority=0.9),
    )
    prompt = sampling_request("srv", [image], params, "srv.tool")
    assert prompt.messages[0].text == "[image image/png]"
    assert prompt.messages[0].content["mimeType"] == "image/png"
    assert prompt.model_preferences == {"speed_priority": 0.9}
