"""A served call of a notebook tool skips the MCP hop inside the kernel (``serving/direct.py``)
and answers exactly as that hop did: the same Observation, progress and log lines."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any

import pytest
from fastmcp import Client
from fastmcp.client.logging import LogMessage
from fastmcp.server.middleware import CallNext, Middleware, MiddlewareContext

from workbench import ProtocolError, get_context
from workbench.history import OUTSIDE
from workbench.serving.direct import DirectCalls
from workbench.session import Workbench


class Hops(Middleware):
    """Counts the calls that cross the in-kernel notebook server."""

    def __init__(self) -> None:
        self.calls = 0

    async def on_call_tool(
        self, context: MiddlewareContext[Any], call_next: CallNext[Any, Any]
    ) -> Any:
        self.calls += 1
        return await call_next(context)


def crunch(steps: int) -> str:
    """Crunch in steps, reporting each."""
    context = get_context()
    for step in range(1, steps + 1):
        context.progress(step, steps, f"step {step}")
    context.warning("crunched")
    context.debug("quietly")
    return "done"


@dataclass
class Point:
    x: int
    y: int


def point(n: int) -> Point:
    """A structured answer."""
    return Point(n, -n)


def boom(n: int) -> int:
    """Fails."""
    raise ValueError(f"no {n}")


def refuse(n: int) -> int:
    """Refuses with a JSON-RPC error."""
    raise ProtocolError("not today", -32042, data={"why": ("late", n)})


async def later(n: int) -> dict[str, int]:
    """An async tool."""
    await asyncio.sleep(0)
    return {"n": n}


def slow(seconds: float) -> int:
    """Takes its time."""
    time.sleep(seconds)
    return 1


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_a_served_call_skips_the_notebook_servers_hop(wb: Workbench, mode: str) -> None:
    wb.add_tools(crunch)
    hops = Hops()
    assert wb._local is not None
    wb._local.server.add_middleware(hops)
    handle = wb.serve()
    progress: list[tuple[float, float | None, str | None]] = []
    logs: list[Any] = []

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        progress.append((done, total, message))

    async def on_log(message: LogMessage) -> None:
        logs.append(message.data)

    async def main() -> str:
        async with Client(handle.url, auth=handle.token, mode=mode, log_handler=on_log) as client:
            result = await client.call_tool("crunch", {"steps": 2}, progress_handler=on_progress)
            return str(result.content[0].text)  # type: ignore[union-attr]

    assert asyncio.run(main()) == "done"
    assert hops.calls == 0
    assert progress == [(1, 2, "step 1"), (2, 2, "step 2")]
    assert [data["msg"] for data in logs] == ["crunched"]  # the Workbench's level: info
    [entry] = [entry for entry in wb.history if entry.tool_id == "notebook.crunch"]
    assert entry.source == OUTSIDE and not entry.observation.is_error
    wb.call("notebook.crunch", {"steps": 1})  # the notebook's own calls keep the hop
    assert hops.calls == 1


CASES = [
    ("crunch", {"steps": 2}, None),
    ("point", {"n": 3}, None),
    ("boom", {"n": 1}, None),
    ("refuse", {"n": 2}, None),
    ("later", {"n": 5}, None),
    ("slow", {"seconds": 0.5}, 0.1),
    ("point", {"n": "three"}, None),  # refused by the definition's own model
]


def test_a_direct_answer_is_the_one_the_hop_gave(wb: Workbench) -> None:
    wb.add_tools(crunch, point, boom, refuse, later, slow)
    local, connection = wb._local, wb._manager.get("notebook")
    assert local is not None

    def answer(tool: str, arguments: dict[str, Any], limit: float | None, direct: bool) -> Any:
        reported: list[Any] = []
        logged: list[Any] = []
        stop = wb.subscribe_logs(logged.append)
        call = connection.call(
            tool,
            arguments,
            timeout=limit,
            on_progress=lambda *report: reported.append(report),
            direct=DirectCalls(local) if direct else None,
        )
        try:
            observation = wb._bridge.run(call)
        finally:
            stop()
        return observation.model_dump(exclude={"duration"}), reported, logged

    for tool, arguments, limit in CASES:
        hop = answer(tool, arguments, limit, direct=False)
        assert answer(tool, arguments, limit, direct=True) == hop, tool
    assert hop[0]["error_kind"] == "tool_error"  # the last case did fail


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_a_served_call_looks_its_tool_up_once(
    wb: Workbench, mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tasks extension asks for the tool only when it may run as a task."""
    from workbench.serving.app import NotebookProvider

    wb.add_tools(point)
    looked_up: list[str] = []
    get_tool = NotebookProvider._get_tool

    async def counted(self: NotebookProvider, name: str, version: Any = None) -> Any:
        looked_up.append(name)
        return await get_tool(self, name, version)

    monkeypatch.setattr(NotebookProvider, "_get_tool", counted)
    handle = wb.serve()

    async def main() -> Any:
        async with Client(handle.url, auth=handle.token, mode=mode) as client:
            return (await client.call_tool("point", {"n": 2})).structured_content

    assert asyncio.run(main()) == {"x": 2, "y": -2}
    assert looked_up == ["point"]
