"""A notebook tool's progress and log messages (``workbench.get_context()``) reach an outside
client of the served notebook as MCP progress and log notifications, before the result."""

from __future__ import annotations

import asyncio
from typing import Any

from fastmcp import Client
from fastmcp.client.logging import LogMessage

from workbench import get_context
from workbench.session import Workbench


def crunch(steps: int) -> str:
    """Crunch in steps, reporting each."""
    context = get_context()
    for step in range(1, steps + 1):
        context.progress(step, steps, f"step {step}")
    context.info("crunched")
    return "done"


def test_progress_and_logs_reach_the_outside_client(wb: Workbench) -> None:
    wb.add_tools(crunch)
    handle = wb.serve()
    events: list[tuple[str, Any]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        events.append(("progress", (progress, total, message)))

    async def on_log(message: LogMessage) -> None:
        events.append(("log", message.data))

    async def main() -> str:
        async with Client(handle.url, auth=handle.token, log_handler=on_log) as client:
            result = await client.call_tool("crunch", {"steps": 3}, progress_handler=on_progress)
            text = result.content[0].text  # type: ignore[union-attr]
            events.append(("result", text))
            return str(text)

    assert asyncio.run(main()) == "done"
    progress = [value for kind, value in events if kind == "progress"]
    assert progress == [(1, 3, "step 1"), (2, 3, "step 2"), (3, 3, "step 3")]
    logs = [value for kind, value in events if kind == "log"]
    assert any("crunched" in str(data) for data in logs), logs
    assert events[-1][0] == "result"  # nothing after the result
