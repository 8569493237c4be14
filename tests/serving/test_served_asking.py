"""A served notebook tool asks the outside client that called it, in that client's era.

Real ``fastmcp.Client``s over real HTTP to ``wb.serve()``: ``mode="legacy"`` (a handshake-era
session: a real ``elicitation/create`` on it) and the default 2026-07-28 mode (rounds of
``InputRequiredResult``, answered by the client's own driver), each with an
``elicitation_handler``.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any, Literal

import mcp_types
import pytest
from fastmcp import Client
from fastmcp.client.elicitation import ElicitResult

from workbench import get_context
from workbench.serving.app import NotebookProvider
from workbench.session import Workbench
from workbench.tools.schema import ErrorKind

NAME = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
MODES: list[Literal["legacy", "auto"]] = ["legacy", "auto"]


def greet() -> str:
    """Ask the caller's name, then greet."""
    answer = get_context().elicit("What is your name?", NAME)
    if not answer.accepted:
        return f"no name ({answer.action})"
    return f"Hello, {answer.content['name']}!"


async def two_questions() -> str:
    """Ask twice in one call (async)."""
    first = await get_context().elicit("First name?", NAME)
    second = await get_context().elicit("Sure?", bool)
    return f"{first.content['name']} {second.value}"


async def both_at_once() -> str:
    """Ask two questions together."""
    context = get_context()
    name, sure = await asyncio.gather(
        context.elicit("Name?", NAME, key="name"), context.elicit("Sure?", bool, key="sure")
    )
    return f"{name.content['name']} {sure.value}"


def open_page() -> str:
    """Ask the caller to open a page."""
    answer = get_context().elicit_url("Sign in, please", "https://example.com/sign-in")
    return str(answer.action)


def ask_model() -> str:
    """Ask the caller's language model."""
    reply = get_context().sample("Capital of France?")
    return str(reply.text)


@dataclass
class Asked:
    questions: list[tuple[str, dict[str, Any]]]


def handler(answers: list[Any], asked: Asked) -> Any:
    async def answer(message: str, response_type: Any, params: Any, context: Any) -> Any:
        asked.questions.append((message, dict(getattr(params, "requested_schema", None) or {})))
        if getattr(params, "url", None):
            asked.questions[-1][1]["url"] = params.url
        return answers.pop(0)

    return answer


def call(
    wb: Workbench, mode: Literal["legacy", "auto"], tool: str, answers: list[Any], **options: Any
) -> tuple[str, Asked]:
    handle = wb.serving or wb.serve()
    asked = Asked([])

    async def main() -> str:
        async with Client(
            handle.url,
            auth=handle.token,
            mode=mode,
            elicitation_handler=handler(answers, asked),
            **options,
        ) as client:
            result = await client.call_tool(tool, {}, raise_on_error=False)
            return str(result.content[0].text)

    return asyncio.run(main()), asked


@pytest.fixture
def asking_wb(wb: Workbench) -> Workbench:
    wb.add_tools(greet, two_questions, both_at_once, open_page, ask_model)
    return wb


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    ("answer", "said"),
    [
        ({"name": "Ada"}, "Hello, Ada!"),
        (ElicitResult(action="decline"), "no name (decline)"),
        (ElicitResult(action="cancel"), "no name (cancel)"),
    ],
)
def test_the_outside_client_answers(
    asking_wb: Workbench, mode: Literal["legacy", "auto"], answer: Any, said: str
) -> None:
    text, asked = call(asking_wb, mode, "greet", [answer])
    assert text == said
    assert asked.questions == [("What is your name?", NAME)]
    last = asking_wb.history.last(1)[0]
    assert last.observation.text == said


@pytest.mark.parametrize("mode", MODES)
def test_two_questions_in_one_call(asking_wb: Workbench, mode: Literal["legacy", "auto"]) -> None:
    text, asked = call(asking_wb, mode, "two_questions", [{"name": "Ada"}, {"value": True}])
    assert text == "Ada True"
    assert [message for message, _ in asked.questions] == ["First name?", "Sure?"]
    assert asked.questions[1][1]["properties"]["value"]["type"] == "boolean"


@pytest.mark.parametrize("mode", MODES)
def test_url_mode(asking_wb: Workbench, mode: Literal["legacy", "auto"]) -> None:
    text, asked = call(asking_wb, mode, "open_page", [ElicitResult(action="accept")])
    assert text == "accept"
    assert asked.questions == [("Sign in, please", {"url": "https://example.com/sign-in"})]


def test_a_handshake_era_client_samples(asking_wb: Workbench) -> None:
    async def sampler(messages: Any, params: Any, context: Any) -> str:
        return f"Paris (asked: {messages[0].content.text})"

    text, _ = call(asking_wb, "legacy", "ask_model", [], sampling_handler=sampler)
    assert text == "Paris (asked: Capital of France?)"


def test_a_client_without_elicitation_is_never_asked(asking_wb: Workbench) -> None:
    handle = asking_wb.serve()

    async def main() -> str:
        async with Client(handle.url, auth=handle.token, mode="legacy") as client:
            result = await client.call_tool("greet", {}, raise_on_error=False)
            return str(result.content[0].text)

    assert "did not declare the elicitation capability" in asyncio.run(main())


def rounds_of(wb: Workbench) -> Any:
    provider = wb.served._provider
    assert isinstance(provider, NotebookProvider)
    return provider.rounds


def test_an_abandoned_round_ends_the_call_with_a_clear_error(asking_wb: Workbench) -> None:
    """A 2026-07-28 client that never comes back: the question fails in the tool after the
    TTL, the history says why, and nothing stays suspended."""
    handle = asking_wb.serve()
    rounds = rounds_of(asking_wb)
    rounds.ttl = 0.5

    async def main() -> mcp_types.InputRequiredResult:
        never = handler([], Asked([]))  # declares elicitation; this client never retries
        async with Client(handle.url, auth=handle.token, elicitation_handler=never) as client:
            first = await client.session.call_tool("greet", {}, allow_input_required=True)
            assert isinstance(first, mcp_types.InputRequiredResult), first
            return first

    first = asyncio.run(main())
    assert first.request_state and list(first.input_requests or {}) == ["ask-1"]
    assert len(rounds) == 1
    deadline = time.monotonic() + 10
    while len(rounds) and time.monotonic() < deadline:
        time.sleep(0.05)
    while not asking_wb.history.last() and time.monotonic() < deadline:
        time.sleep(0.05)
    last = asking_wb.history.last(1)[0]
    assert len(rounds) == 0
    assert last.observation.error_kind is ErrorKind.TOOL_ERROR
    assert "did not answer within 0.5 s; the call was abandoned" in last.observation.text


def first_round(wb: Workbench, tool: str, count: int = 1) -> list[Any]:
    """``count`` 2026-07-28 calls of ``tool`` that stop at their first answer; never retried."""
    handle = wb.served

    async def main() -> list[Any]:
        never = handler([], Asked([]))
        async with Client(handle.url, auth=handle.token, elicitation_handler=never) as client:
            return [
                await client.session.call_tool(tool, {}, allow_input_required=True)
                for _ in range(count)
            ]

    return asyncio.run(main())


def test_at_most_limit_calls_wait_for_answers(asking_wb: Workbench) -> None:
    asking_wb.serve()
    rounds_of(asking_wb).limit = 1
    waiting, refused = first_round(asking_wb, "greet", 2)
    assert isinstance(waiting, mcp_types.InputRequiredResult)
    assert isinstance(refused, mcp_types.CallToolResult) and refused.is_error
    assert "1 served calls already wait for their clients' answers" in str(refused.content)
    assert len(rounds_of(asking_wb)) == 1


def test_a_round_answered_twice_is_refused_with_a_clear_error(asking_wb: Workbench) -> None:
    """The retry ends the call; the same requestState again finds no call waiting."""
    handle = asking_wb.serve()

    async def main() -> tuple[Any, Any]:
        never = handler([], Asked([]))
        async with Client(handle.url, auth=handle.token, elicitation_handler=never) as client:
            first = await client.session.call_tool("greet", {}, allow_input_required=True)
            assert isinstance(first, mcp_types.InputRequiredResult)
            answers: mcp_types.InputResponses = {
                "ask-1": mcp_types.ElicitResult(action="accept", content={"name": "Ada"})
            }
            retries = [
                await client.session.call_tool(
                    "greet", {}, input_responses=answers, request_state=first.request_state
                )
                for _ in range(2)
            ]
            return retries[0], retries[1]

    done, late = asyncio.run(main())
    assert done.content[0].text == "Hello, Ada!"
    assert late.is_error and "no longer waits for answers" in late.content[0].text


def test_questions_asked_together_go_in_one_round(asking_wb: Workbench) -> None:
    asking_wb.serve()
    (first,) = first_round(asking_wb, "both_at_once")
    assert isinstance(first, mcp_types.InputRequiredResult)
    assert sorted(first.input_requests or {}) == ["name", "sure"]
    text, asked = call(asking_wb, "auto", "both_at_once", [{"name": "Ada"}, {"value": True}])
    assert text == "Ada True" and len(asked.questions) == 2


def ask_then_count() -> str:
    """Report, ask, report again."""
    context = get_context()
    context.progress(1, 2, "before")
    answer = context.elicit("Go on?", bool)
    context.progress(2, 2, "after")
    context.info("logged after")
    return f"done {answer.value}"


@pytest.mark.parametrize("mode", MODES)
def test_progress_and_logs_after_an_answer_reach_the_client(
    wb: Workbench, mode: Literal["legacy", "auto"]
) -> None:
    """A 2026-07-28 call spans two requests: what the tool reports after the answer goes
    with the retry, before its result."""
    wb.add_tools(ask_then_count)
    handle = wb.serve()
    seen: list[Any] = []

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        seen.append(message)

    async def on_log(message: Any) -> None:
        seen.append(message.data["msg"])

    async def main() -> str:
        async with Client(
            handle.url,
            auth=handle.token,
            mode=mode,
            elicitation_handler=handler([{"value": True}], Asked([])),
            log_handler=on_log,
        ) as client:
            result = await client.call_tool("ask_then_count", {}, progress_handler=on_progress)
            seen.append("result")
            return str(result.content[0].text)

    assert asyncio.run(main()) == "done True"
    assert seen == ["before", "after", "logged after", "result"]


async def ask_then_sleep() -> str:
    """Ask, then take long."""
    await get_context().elicit("Go on?", bool, key="go")
    await asyncio.sleep(30)
    return "late"


def test_a_retry_the_client_gives_up_on_leaves_the_call_to_its_ttl(wb: Workbench) -> None:
    """The second round's request times out while the tool still runs: the call is not left
    suspended for ever, it is abandoned after the TTL and cancelled after the grace."""
    wb.add_tools(ask_then_sleep)
    handle = wb.serve()
    rounds = rounds_of(wb)
    rounds.ttl, rounds.grace = 0.5, 0.2
    yes: mcp_types.InputResponses = {
        "go": mcp_types.ElicitResult(action="accept", content={"value": True})
    }

    async def main() -> None:
        never = handler([], Asked([]))
        async with Client(handle.url, auth=handle.token, elicitation_handler=never) as client:
            first = await client.session.call_tool("ask_then_sleep", {}, allow_input_required=True)
            assert isinstance(first, mcp_types.InputRequiredResult)
            with pytest.raises(Exception, match="timed out"):
                await client.session.call_tool(
                    "ask_then_sleep", {}, read_timeout_seconds=0.5,
                    input_responses=yes, request_state=first.request_state,
                )  # fmt: skip

    asyncio.run(main())
    deadline = time.monotonic() + 10
    while (len(rounds) or not wb.history.last()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(rounds) == 0
    assert [call.observation.error_kind for call in wb.history.last()] == [ErrorKind.CANCELLED]
