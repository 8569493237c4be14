"""Notebook tools report progress and log lines to whoever called them (``get_context``).

The calls go through the real path: the local ``notebook`` FastMCP server, its in-memory
client, the Workbench's progress and log callbacks. Sync tools report from a worker thread,
async ones from a worker loop (a sync call) or from the caller's own loop (awaited).
"""

from __future__ import annotations

import asyncio
import warnings
from typing import Any

import pytest

from workbench import Workbench, get_context, tool
from workbench.mcp.connection import LogRecord
from workbench.serving.tool_context import LEVELS


@tool
def count(n: int = 3) -> str:
    """Count to n, reporting each step."""
    context = get_context()
    for step in range(1, n + 1):
        context.progress(step, n, f"step {step}")
        context.info(f"counted {step}")
    return "active" if context.active else "silent"


@tool
async def acount(n: int = 3) -> str:
    """Count to n asynchronously, reporting each step."""
    context = get_context()
    for step in range(1, n + 1):
        await asyncio.sleep(0)
        context.progress(step, n)
    context.warning("counted")
    return "active" if context.active else "silent"


@pytest.fixture
def workbench(wb: Workbench) -> Workbench:
    wb.add_tools(count, acount)
    return wb


class Reports:
    def __init__(self) -> None:
        self.progress: list[tuple[float, float | None, str | None]] = []
        self.logs: list[tuple[str, str]] = []

    def on_progress(self, progress: float, total: float | None, message: str | None) -> None:
        self.progress.append((progress, total, message))

    def on_log(self, record: LogRecord) -> None:
        self.logs.append((record.level, record.message))

    @property
    def callbacks(self) -> dict[str, Any]:
        return {"on_progress": self.on_progress, "on_log": self.on_log}


def test_called_as_a_plain_function_the_context_is_silent() -> None:
    assert count.fn(2) == "silent"
    context = get_context()
    assert not context.active
    context.progress(1, 2)  # no call to report to: nothing happens, nothing raises
    assert repr(context) == "<ToolContext silent: not in a call>"


def test_an_unknown_level_is_a_one_line_error() -> None:
    with pytest.raises(ValueError, match="Unknown log level 'loud': use one of debug, info"):
        get_context().log("x", "loud")
    assert LEVELS[0] == "debug" and LEVELS[-1] == "emergency"


def test_a_sync_tool_reports_every_step_before_the_answer(workbench: Workbench) -> None:
    reports = Reports()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        observation = workbench.call("notebook.count", {"n": 3}, **reports.callbacks)
    assert observation.text == "active"
    # Every report made before the tool returned has arrived by the time the call returns.
    assert reports.progress == [(1, 3, "step 1"), (2, 3, "step 2"), (3, 3, "step 3")]
    assert reports.logs == [("info", "counted 1"), ("info", "counted 2"), ("info", "counted 3")]
    assert not [w for w in caught if "logging capability" in str(w.message)]


def test_an_async_tool_reports_from_a_worker_loop(workbench: Workbench) -> None:
    reports = Reports()
    observation = workbench.call("notebook.acount", {"n": 2}, **reports.callbacks)
    assert observation.text == "active"
    assert reports.progress == [(1, 2, None), (2, 2, None)]
    assert reports.logs == [("warning", "counted")]


def test_an_awaited_async_tool_reports_from_the_callers_loop(workbench: Workbench) -> None:
    reports = Reports()

    async def awaited() -> str:
        observation = await workbench.acall("notebook.acount", {"n": 2}, **reports.callbacks)
        return observation.text

    assert asyncio.run(awaited()) == "active"
    assert reports.progress == [(1, 2, None), (2, 2, None)]
    assert reports.logs == [("warning", "counted")]
