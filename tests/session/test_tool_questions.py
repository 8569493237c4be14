"""A notebook tool called from the notebook asks the Workbench's answer chain.

Real calls through the in-process ``notebook`` server: ``wb.on_elicitation`` answers, then a
call's own handler (``wb.answering``, the browser's form); the question shows as asked by
server ``notebook``, tool = the tool's name. Outside any call a question is an error.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any

import pytest

from workbench import get_context, tool
from workbench.features.asking import ElicitationAnswer, ElicitationRequest
from workbench.serving.questions import NoOneToAsk
from workbench.session import Workbench


@dataclass
class Person:
    name: str
    age: int


@tool
def who() -> str:
    """Ask for a person (a dataclass form)."""
    answer = get_context().elicit("Who are you?", Person)
    return f"{answer.action}: {answer.value}"


@tool
async def confirm() -> str:
    """Ask yes or no (async)."""
    answer = await get_context().elicit("Go ahead?", bool)
    return f"{answer.action}: {answer.value}"


@tool
def summarize(text: str) -> str:
    """Ask the caller's model."""
    return str(get_context().sample(f"Summarize: {text}").text)


@pytest.fixture
def asked(wb: Workbench) -> list[ElicitationRequest]:
    wb.add_tools(who, confirm, summarize)
    return []


def test_wb_on_elicitation_answers_a_sync_tool(wb: Workbench, asked: list[Any]) -> None:
    def answer(request: ElicitationRequest) -> dict[str, Any]:
        asked.append(request)
        return {"name": "Ada", "age": 36}

    wb.on_elicitation(answer)
    assert wb.call("notebook.who").text == "accept: Person(name='Ada', age=36)"
    (request,) = asked
    assert (request.server, request.tool, request.message) == ("notebook", "who", "Who are you?")
    assert request.fields == ["name", "age"]


def test_an_awaited_call_of_an_async_tool_is_answered(wb: Workbench, asked: list[Any]) -> None:
    async def decline(request: ElicitationRequest) -> ElicitationAnswer:
        asked.append(request)
        return ElicitationAnswer.decline()

    wb.on_elicitation(decline)
    assert asyncio.run(wb.acall("notebook.confirm")).text == "decline: None"
    assert asked[0].tool == "confirm"


def test_the_calls_own_handler_answers_when_the_workbench_has_none(
    wb: Workbench, asked: list[Any]
) -> None:
    with wb.answering(on_elicitation=lambda request: {"value": True}):
        assert wb.call("notebook.confirm").text == "accept: True"


def test_wb_on_sampling_answers(wb: Workbench, asked: list[Any]) -> None:
    wb.on_sampling(lambda request: f"short ({request.last_text})")
    assert wb.call("notebook.summarize", {"text": "long"}).text == "short (Summarize: long)"


def test_outside_any_call_a_question_is_a_one_line_error() -> None:
    with pytest.raises(NoOneToAsk, match="called as a plain function there is no caller"):
        who.fn()


ENDED: list[str] = []


@tool
def waits() -> str:
    """Ask, and note how the wait ended."""
    try:
        get_context().elicit("Slow?", bool)
    except BaseException as error:
        ENDED.append(type(error).__name__)
        raise
    ENDED.append("answered")
    return "answered"


def test_a_call_that_times_out_while_asking_frees_its_worker_thread(wb: Workbench) -> None:
    """The question is cancelled with the call, so the tool's thread stops waiting."""

    async def slow(request: ElicitationRequest) -> dict[str, Any]:
        await asyncio.sleep(10)
        return {"value": True}

    wb.add_tools(waits)
    wb.on_elicitation(slow)
    ENDED.clear()
    assert "did not answer within 0.5 s" in wb.call("notebook.waits", timeout=0.5).text
    deadline = time.monotonic() + 5
    while not ENDED and time.monotonic() < deadline:
        time.sleep(0.02)
    assert ENDED == ["CancelledError"]
