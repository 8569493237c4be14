"""The served notebook's tasks (MCP tasks extension, SEP-2663), from a real outside client
over HTTP: a ``task=True`` tool answers with a task, polled to its end; cancelled; refused to
a client that did not declare the extension when it requires it; advertised only while a
served tool runs as a task."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.serving.task_client import TASKS, TaskClient
from workbench.serving.tool_context import get_context
from workbench.session import Workbench
from workbench.tools.from_function import tool

STOPPED = threading.Event()


@tool(task=True)
async def slow(seconds: float) -> str:
    """Sleep, saying how far along it is."""
    try:
        for step in range(3):
            get_context().progress(step, 3, f"step {step}")
            await asyncio.sleep(seconds / 3)
    except asyncio.CancelledError:
        STOPPED.set()
        raise
    return f"slept {seconds:g}"


@tool(task="required")
def fails() -> str:
    """Always fails."""
    raise RuntimeError("no luck")


@tool(task=True)
async def confirm(filename: str) -> str:
    """Ask before deleting (through whoever called: here, the task's client)."""
    schema = {"type": "object", "properties": {"confirm": {"type": "boolean"}}}
    answer = await get_context().elicit(f"Delete {filename}?", schema, key="confirm")
    if answer.action == "accept" and (answer.content or {}).get("confirm"):
        return f"deleted {filename}"
    return f"kept {filename} ({answer.action})"


@tool
def greet(name: str) -> str:
    """Say hello."""
    return f"Hello, {name}!"


def bare(result: dict[str, Any]) -> dict[str, Any]:
    """A result without its ``_meta`` (the server's identity stamp)."""
    return {key: value for key, value in result.items() if key != "_meta"}


@pytest.fixture
def client(wb: Workbench) -> Iterator[TaskClient]:
    wb.add_tools(slow, fails, confirm, greet)
    handle = wb.serve()
    made = TaskClient(handle.url, handle.token)
    yield made
    made.close()


def test_a_task_tool_answers_with_a_task_polled_to_its_result(
    wb: Workbench, client: TaskClient
) -> None:
    created = client.call("slow", {"seconds": 0.6})
    assert created["resultType"] == "task"
    assert created["status"] == "working"
    assert isinstance(created["ttlMs"], int) and isinstance(created["pollIntervalMs"], int)
    assert "result" not in created and "task" not in created
    seen: list[str] = []
    while (task := client.get(created["taskId"]))["status"] == "working":
        seen.append(task.get("statusMessage", ""))
        time.sleep(0.05)
    assert task["status"] == "completed"
    assert task["resultType"] == "complete"
    assert task["result"]["content"] == [{"type": "text", "text": "slept 0.6"}]
    assert any(message.startswith("step") for message in seen), seen
    record = wb.history[-1]
    assert (record.tool_id, record.source) == ("notebook.slow", "outside")
    # A tool that needs no task still answers at once.
    plain = client.call("greet", {"name": "Ada"})
    assert plain["resultType"] == "complete" and plain["content"][0]["text"] == "Hello, Ada!"


def test_a_tool_error_completes_the_task_with_is_error(client: TaskClient) -> None:
    task = client.until(client.call("fails")["taskId"], set())
    assert task["status"] == "completed"
    assert task["result"]["isError"] is True
    assert "no luck" in task["result"]["content"][0]["text"]


def test_cancel_stops_the_running_tool(client: TaskClient) -> None:
    STOPPED.clear()
    task_id = client.call("slow", {"seconds": 30})["taskId"]
    client.until(task_id, set(), timeout=0.3)
    assert bare(client.result("tasks/cancel", {"taskId": task_id})) == {"resultType": "complete"}
    assert client.get(task_id)["status"] == "cancelled"
    assert STOPPED.wait(10), "the tool was not cancelled"
    # Cancelling again (a terminal task) is the same empty ack.
    assert bare(client.result("tasks/cancel", {"taskId": task_id})) == {"resultType": "complete"}


def test_without_the_extension_calls_are_plain_and_task_methods_refused(
    wb: Workbench, client: TaskClient
) -> None:
    plain = TaskClient(client.url, wb.served.token if wb.served else None, tasks=False)
    try:
        answer = plain.call("slow", {"seconds": 0})
        assert answer["resultType"] == "complete" and "taskId" not in answer
        refused = plain.send("tools/call", {"name": "fails", "arguments": {}})
        assert refused["error"]["code"] == -32021
        assert TASKS in refused["error"]["data"]["requiredCapabilities"]["extensions"]
        for method in ("tasks/get", "tasks/cancel"):
            assert plain.send(method, {"taskId": "x"})["error"]["code"] == -32021
    finally:
        plain.close()
    assert client.send("tasks/get", {"taskId": "no-such-task"})["error"]["code"] == -32602
    assert client.send("tasks/result", {"taskId": "x"})["error"]["code"] == -32601


def test_a_task_is_forgotten_after_its_ttl(wb: Workbench, client: TaskClient) -> None:
    served = wb.served
    assert served is not None
    served._server.tasks.ttl_ms = 2000  # counted from creation: room to see it end under load
    started = time.monotonic()
    created = client.call("slow", {"seconds": 0})
    assert created["ttlMs"] == 2000
    assert client.until(created["taskId"], set())["status"] == "completed"
    time.sleep(max(0.0, started + 2.1 - time.monotonic()))
    assert client.send("tasks/get", {"taskId": created["taskId"]})["error"]["code"] == -32602


def test_the_extension_is_advertised_only_while_a_tool_runs_as_a_task(wb: Workbench) -> None:
    wb.add_tools(greet)
    handle = wb.serve()
    client = TaskClient(handle.url, handle.token)
    try:
        assert "extensions" not in client.result("server/discover", {})["capabilities"]
        wb.add_tools(slow)
        extensions = client.result("server/discover", {})["capabilities"]["extensions"]
        assert extensions == {TASKS: {}}
    finally:
        client.close()
    handle = wb.serve(exclude=["slow"])  # the task tool is not served: nothing to advertise
    client = TaskClient(handle.url, handle.token)
    try:
        assert "extensions" not in client.result("server/discover", {})["capabilities"]
    finally:
        client.close()


def test_a_task_method_whose_mcp_name_header_is_another_task_is_refused(
    client: TaskClient,
) -> None:
    task_id = client.call("slow", {"seconds": 0})["taskId"]
    refused = client.send("tasks/get", {"taskId": task_id}, {"Mcp-Name": "another-task"})
    assert refused["error"]["code"] == -32020
    assert client.send("tasks/get", {"taskId": task_id})["result"]["taskId"] == task_id


def test_a_question_makes_the_task_input_required_until_tasks_update_answers(
    client: TaskClient,
) -> None:
    task_id = client.call("confirm", {"filename": "a.txt"})["taskId"]
    asking = client.until(task_id, {"input_required"})
    assert asking["status"] == "input_required"
    assert asking["statusMessage"] == "Delete a.txt?"
    [(key, wanted)] = asking["inputRequests"].items()
    assert key == "confirm"  # the tool's own name for the question
    assert wanted["method"] == "elicitation/create"
    assert wanted["params"]["requestedSchema"]["properties"] == {"confirm": {"type": "boolean"}}
    # An unknown key is ignored; the right one resumes the tool.
    ack = client.result("tasks/update", {"taskId": task_id, "inputResponses": {"nope": {}}})
    assert bare(ack) == {"resultType": "complete"}
    assert client.get(task_id)["status"] == "input_required"
    answer = {key: {"action": "accept", "content": {"confirm": True}}}
    client.result("tasks/update", {"taskId": task_id, "inputResponses": answer})
    done = client.until(task_id, set())
    assert done["status"] == "completed", done
    assert done["result"]["content"][0]["text"] == "deleted a.txt"
