"""``%mcp call --task`` and ``%mcp tasks`` in the magics' shell: against a served notebook,
and the one-line errors (a server without tasks, a task nobody kept)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from IPython.core.error import UsageError

from tests.magics.magic_output import shown
from workbench.kernel import KernelState
from workbench.session import Workbench
from workbench.session.tasks import TaskHandle
from workbench.tools.from_function import tool

Mcp = Callable[[str], Any]


@tool(task=True)
async def steep(seconds: float) -> str:
    """Steep."""
    await asyncio.sleep(seconds)
    return f"steeped {seconds:g}"


@pytest.fixture
def kettle(mcp: Mcp) -> Iterator[str]:
    with Workbench() as server:
        server.add_tools(steep)
        handle = server.serve()
        mcp(f"connect kettle {handle.url} --token={handle.token}")
        yield "kettle"
        mcp("disconnect kettle")


def test_call_task_then_tasks_result(mcp: Mcp, state: KernelState, kettle: str) -> None:
    handle, _ = mcp(f"call --task {kettle}.steep seconds=0.2")
    assert isinstance(handle, TaskHandle)
    text, metadata = handle._repr_mimebundle_()
    assert handle.id in text["text/plain"] and "%mcp tasks --result" in text["text/plain"]
    assert metadata["workbench"]["task"]["server"] == kettle
    _, listed = mcp("tasks")
    assert handle.id in shown(listed)
    observation, _ = mcp(f"tasks --result {handle.id}")
    assert observation.text == "steeped 0.2"
    _, refreshed = mcp("tasks --refresh")
    assert f"| {handle.id} | {kettle}.steep | completed |" in shown(refreshed)


def test_one_line_errors(mcp: Mcp) -> None:
    with pytest.raises(UsageError, match="'demo' offers no tasks"):
        mcp("call --task demo.add a=1 b=2")
    with pytest.raises(UsageError, match="No task 'nope' was kept"):
        mcp("tasks --result nope")
