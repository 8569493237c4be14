"""Tool calls run as tasks from the Workbench: against a served notebook (the tasks extension
of 2026-07-28, over HTTP) and against @modelcontextprotocol/server-everything (2025-11-25's
experimental tasks, over stdio): a handle at once, progress while waiting, questions answered
by the Workbench's elicitation handler, cancel, the history, and the kept list of tasks."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.mcp.conftest import everything_js, everything_stdio
from workbench.features.asking import ElicitationRequest
from workbench.mcp.tasks import records_file
from workbench.serving.questions import current_asker
from workbench.serving.tool_context import get_context
from workbench.session import Workbench
from workbench.session.tasks import NoTasksError, TaskHandle
from workbench.tools.from_function import tool
from workbench.tools.schema import ErrorKind, Observation

__all__ = ["everything_js", "everything_stdio"]  # fixtures, shared

STOPPED = threading.Event()


@tool(task=True)
async def slow(seconds: float) -> str:
    """Sleep, saying how far along it is."""
    try:
        for step in range(3):
            get_context().progress(step + 1, 3, f"step {step + 1}")
            await asyncio.sleep(seconds / 3)
    except asyncio.CancelledError:
        STOPPED.set()
        raise
    return f"slept {seconds:g}"


@tool(task=True)
async def pick() -> str:
    """Ask for a colour."""
    asker = current_asker()
    assert asker is not None
    schema = {"type": "object", "properties": {"colour": {"type": "string"}}}
    answer = await asker(ElicitationRequest("notebook", "Which colour?", schema))
    return f"picked {(answer.content or {}).get('colour')} ({answer.action})"


@tool
def plain() -> str:
    """No task."""
    return "plain"


@pytest.fixture
def served() -> Iterator[Workbench]:
    with Workbench() as server:
        server.add_tools(slow, pick, plain)
        handle = server.serve()
        with Workbench() as wb:
            wb.connect("nb", url=handle.url, token=handle.token)
            yield wb


def test_a_task_call_returns_a_handle_at_once_and_its_result_later(served: Workbench) -> None:
    started = time.perf_counter()
    handle = served.call("nb.slow", {"seconds": 0.9}, task=True)
    assert isinstance(handle, TaskHandle)
    assert time.perf_counter() - started < 0.8  # not the tool's 0.9 s
    assert handle.status == "working" and handle.server == "nb"
    assert handle.metadata()["workbench"]["task"]["taskId"] == handle.id
    seen: list[tuple[float, float | None, str | None]] = []
    observation = handle.result(on_progress=lambda *report: seen.append(report))
    assert observation.text == "slept 0.9" and not observation.is_error
    assert any(message and message.startswith("step") for _, _, message in seen), seen
    assert [call.kind for call in served.history][-2:] == ["task", "tool"]
    assert served.history[-1].arguments == {"seconds": 0.9}
    assert (served.history[-1].observation.duration or 0) >= 0.8  # the task's whole run
    assert handle.id in [kept.id for kept in served.tasks()]
    # Without task=True the same tool is a plain call: the client never declares tasks.
    assert served.call("nb.slow", {"seconds": 0}).text == "slept 0"
    kept = json.loads(records_file().read_text())
    assert kept[-1]["taskId"] == handle.id and kept[-1]["status"] == "completed"
    assert set(kept[-1]) == {"taskId", "server", "toolId", "createdAt", "ttlMs", "flavor", "status"}


def test_acall_with_task_and_a_question_answered_through_tasks_update(
    served: Workbench,
) -> None:
    asked: list[ElicitationRequest] = []

    def answer(request: ElicitationRequest) -> dict[str, Any]:
        asked.append(request)
        return {"colour": "teal"}

    served.on_elicitation(answer)

    async def main() -> Observation:
        handle = await served.acall("nb.pick", task=True)
        assert isinstance(handle, TaskHandle)
        return await handle.aresult()

    observation = asyncio.run(main())
    assert observation.text == "picked teal (accept)"
    assert [request.message for request in asked] == ["Which colour?"]
    assert asked[0].tool == "pick" and asked[0].server == "nb"


def test_cancel_reaches_the_served_tool(served: Workbench) -> None:
    STOPPED.clear()
    handle = served.call("nb.slow", {"seconds": 30}, task=True)
    assert isinstance(handle, TaskHandle)
    handle.cancel()
    assert STOPPED.wait(10)
    observation = handle.result()
    assert observation.error_kind is ErrorKind.CANCELLED


def test_task_true_on_a_server_without_tasks_is_a_one_line_error() -> None:
    with Workbench() as wb:
        wb.connect("demo")
        with pytest.raises(NoTasksError, match="offers no tasks"):
            wb.call("demo.add", {"a": 1, "b": 2}, task=True)
        with pytest.raises(NoTasksError, match="No task 'nope' was kept"):
            wb.task("nope")


@pytest.mark.integration
def test_a_2025_11_25_task_of_server_everything_with_its_question(
    everything_stdio: list[str],
) -> None:
    with Workbench() as wb:
        wb.connect("ev", command=everything_stdio[0], args=everything_stdio[1:])
        asked: list[str] = []

        def answer(request: ElicitationRequest) -> dict[str, Any]:
            asked.append(request.message)
            return {"interpretation": "technical"}

        wb.on_elicitation(answer)
        arguments = {"topic": "tasks", "ambiguous": True}
        handle = wb.call("ev.simulate-research-query", arguments, task=True)
        assert isinstance(handle, TaskHandle)
        assert handle.record.flavor == "2025-11-25"
        observation = handle.result()
        assert not observation.is_error, observation.text
        assert "Research Report: tasks" in observation.text
        assert asked and "multiple interpretations" in asked[0]
        assert wb.task(handle.id).status == "completed"


def test_watch_follows_the_task_in_the_background_and_result_shares_its_end(
    served: Workbench,
) -> None:
    handle = served.call("nb.slow", {"seconds": 0.6}, task=True)
    assert isinstance(handle, TaskHandle)
    statuses: list[str | None] = []
    ended = threading.Event()
    ends: list[Observation | None] = []

    def end(observation: Observation | None) -> None:
        ends.append(observation)
        ended.set()

    handle.watch(lambda done, total, status: statuses.append(status), end)
    assert ended.wait(15)
    assert ends[0] is not None and ends[0].text == "slept 0.6"
    assert "working" in statuses or any(s and s.startswith("step") for s in statuses)
    calls = len(served.history)
    assert handle.result() is ends[0]  # the same end, not recorded twice
    assert len(served.history) == calls
