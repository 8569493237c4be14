"""Tasks from a real kernel: ``%mcp call --task`` returns the handle at once with the task in
the output's metadata; after a kernel restart ``%mcp tasks`` lists it from what was kept and
``%mcp tasks --result`` resumes waiting for it. The served notebook runs in this process."""

from __future__ import annotations

import asyncio
import queue
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.kernel.conftest import KernelSession
from workbench.session import Workbench
from workbench.tools.from_function import tool

pytestmark = pytest.mark.kernel


@tool(task=True)
async def brew(minutes: float) -> str:
    """Brew tea (a second stands for a minute)."""
    await asyncio.sleep(minutes)
    return f"tea after {minutes:g}"


@pytest.fixture
def server() -> Iterator[tuple[str, str]]:
    with Workbench() as wb:
        wb.add_tools(brew)
        handle = wb.serve()
        assert handle.token is not None
        yield handle.url, handle.token


def run_cell(kernel: KernelSession, code: str, timeout: float = 60) -> dict[str, Any]:
    """Run a cell; its stdout, errors and execute_result (data and metadata)."""
    msg_id = kernel.send(code)
    found: dict[str, Any] = {"stdout": "", "error": "", "result": None}
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            msg = kernel.kc.get_iopub_msg(timeout=1.0)
        except queue.Empty:
            continue
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        kind, content = msg["msg_type"], msg["content"]
        if kind == "stream":
            found["stdout" if content["name"] == "stdout" else "error"] += content["text"]
        elif kind == "error":
            found["error"] += f"{content['ename']}: {content['evalue']}"
        elif kind == "execute_result" or (kind == "display_data" and found["result"] is None):
            # The cell's own result wins: a task's progress display may land after it.
            found["result"] = content
        elif kind == "status" and content["execution_state"] == "idle":
            return found
    raise TimeoutError(code)


def test_a_task_started_in_one_kernel_is_listed_and_resumed_in_the_next(
    kernel_launcher: Callable[..., KernelSession], server: tuple[str, str]
) -> None:
    url, token = server
    connect = f"%load_ext workbench\nimport workbench\n%mcp connect teapot {url} --token={token}"
    first = kernel_launcher()
    try:
        assert not run_cell(first, connect)["error"]
        started = time.monotonic()
        cell = run_cell(first, "%mcp call --task teapot.brew minutes=3")
        assert time.monotonic() - started < 3, "the cell waited for the tool"
        assert not cell["error"], cell["error"]
        kept = cell["result"]["metadata"]["workbench"]["task"]
        assert kept["server"] == "teapot" and kept["toolId"] == "teapot.brew"
        assert kept["ttlMs"] > 0 and kept["status"] == "working"
        assert kept["taskId"] in cell["result"]["data"]["text/plain"]
    finally:
        first.shutdown()

    second = kernel_launcher()
    try:
        assert not run_cell(second, connect)["error"]
        listed = run_cell(second, "%mcp tasks")
        table = listed["result"]["data"]["text/plain"] + listed["stdout"]
        assert kept["taskId"] in table and "teapot.brew" in table, listed
        done = run_cell(second, f"%mcp tasks --result {kept['taskId']}")
        assert not done["error"], done["error"]
        assert "tea after 3" in done["result"]["data"]["text/plain"]
        status = run_cell(second, f"print(workbench.current().task({kept['taskId']!r}).status)")
        assert re.search(r"^completed$", status["stdout"], re.M), status
    finally:
        second.shutdown()
