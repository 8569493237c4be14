"""A task tool that asks before its task begins (``@asks_before_task``): to a 2026-07-28
client with the tasks extension its first questions go by ``InputRequiredResult`` rounds and
the round that reaches ``begin_task()`` answers with the ``CreateTaskResult``; questions
after that make the task ``input_required``. Other callers just get the result. A real
outside client over HTTP."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.serving.task_client import TaskClient
from workbench import asks_before_task, get_context
from workbench.session import Workbench
from workbench.tools.from_function import tool

NAME = {"type": "object", "properties": {"name": {"type": "string"}}}
SURE = {"type": "object", "properties": {"confirm": {"type": "boolean"}}}


@tool(task=True)
@asks_before_task
async def greet_later(then_ask: bool = False) -> str:
    """Ask a name, begin the task, maybe ask again, then greet."""
    context = get_context()
    answer = await context.elicit("Your name?", NAME, key="user_name")
    name = (answer.content or {}).get("name")
    began = context.begin_task()
    if then_ask:
        sure = await context.elicit("Sure?", SURE, key="sure")
        return f"Hello, {name}! (began {began}, sure {(sure.content or {}).get('confirm')})"
    return f"Hello, {name}! (began {began})"


@tool(task=True)
@asks_before_task
async def never_begins() -> str:
    """Ask, then end without a task."""
    answer = await get_context().elicit("Your name?", NAME, key="user_name")
    return f"Bye, {(answer.content or {}).get('name')}"


def accept(content: dict[str, Any]) -> dict[str, Any]:
    return {"action": "accept", "content": content}


@pytest.fixture
def client(wb: Workbench) -> Iterator[TaskClient]:
    wb.add_tools(greet_later, never_begins)
    handle = wb.serve()
    made = TaskClient(handle.url, handle.token)
    yield made
    made.close()


def again(client: TaskClient, name: str, first: dict[str, Any], answers: dict[str, Any]) -> Any:
    params = {"name": name, "arguments": {}, "inputResponses": answers}
    return client.result("tools/call", params | {"requestState": first["requestState"]})


def test_questions_go_by_rounds_then_the_final_round_is_a_task(client: TaskClient) -> None:
    first = client.call("greet_later")
    assert first["resultType"] == "input_required", first
    assert "taskId" not in first
    assert list(first["inputRequests"]) == ["user_name"]
    created = again(client, "greet_later", first, {"user_name": accept({"name": "Alice"})})
    assert created["resultType"] == "task", created
    assert "requestState" not in created and "inputRequests" not in created
    task = client.until(created["taskId"], set())
    assert task["status"] == "completed"
    assert task["result"]["content"][0]["text"] == "Hello, Alice! (began True)"


def test_a_question_after_the_task_began_makes_it_input_required(client: TaskClient) -> None:
    first = client.call("greet_later", {"then_ask": True})
    params = {"name": "greet_later", "arguments": {"then_ask": True}}
    answers = {"user_name": accept({"name": "Bob"})}
    created = client.result(
        "tools/call", params | {"inputResponses": answers, "requestState": first["requestState"]}
    )
    assert created["resultType"] == "task", created
    waiting = client.until(created["taskId"], {"input_required"})
    assert waiting["status"] == "input_required"
    assert list(waiting["inputRequests"]) == ["sure"]
    update = {"taskId": created["taskId"], "inputResponses": {"sure": accept({"confirm": True})}}
    client.result("tasks/update", update)
    task = client.until(created["taskId"], set())
    assert task["result"]["content"][0]["text"] == "Hello, Bob! (began True, sure True)"


def test_a_tool_that_never_begins_its_task_answers_the_round(client: TaskClient) -> None:
    first = client.call("never_begins")
    answer = again(client, "never_begins", first, {"user_name": accept({"name": "Cy"})})
    assert answer["resultType"] == "complete" and "taskId" not in answer
    assert answer["content"][0]["text"] == "Bye, Cy"


def test_without_the_extension_it_is_a_plain_served_call(wb: Workbench, client: TaskClient) -> None:
    plain = TaskClient(client.url, wb.served.token if wb.served else None, tasks=False)
    try:  # this client declares nothing: the plain path's capability check answers
        refused = plain.send("tools/call", {"name": "greet_later", "arguments": {}})
    finally:
        plain.close()
    assert refused["error"]["code"] == -32021
    assert "elicitation" in refused["error"]["data"]["requiredCapabilities"]


def test_the_notebooks_own_call_runs_through(wb: Workbench) -> None:
    wb.add_tools(greet_later)
    wb.on_elicitation(lambda request: {"name": "Ed"})
    assert wb.call("greet_later").text == "Hello, Ed! (began False)"
