"""A served notebook tool closes its own SSE stream mid-call, and nothing is lost (SEP-1699).

Real ``fastmcp.Client``s over real HTTP to ``wb.serve()``: a handshake-era client
(``mode="legacy"``, 2025-11-25) is sent a priming event with an id and a ``retry``, sees
its response stream end before the answer, reconnects with ``Last-Event-ID`` and gets the
progress and the result it missed from the served app's event store. Every other caller
(a 2026-07-28 client, the notebook itself, a plain function call) finds ``close_stream()``
a no-op.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, Literal

import pytest
from fastmcp import Client

from workbench import get_context
from workbench.session import Workbench

RECONNECTED = "Reconnected to SSE stream"


def closes_midway() -> str:
    """Report, close the stream, report again, answer."""
    context = get_context()
    context.progress(1, 3, "before")
    context.close_stream()
    time.sleep(0.2)
    context.progress(2, 3, "after")
    context.progress(3, 3, "last")
    return "done"


async def closes_midway_async() -> str:
    """The same, from an async tool (close_stream is awaited)."""
    context = get_context()
    context.progress(1, 2, "before")
    await context.close_stream()
    await asyncio.sleep(0.2)
    context.progress(2, 2, "after")
    return "done async"


def call(wb: Workbench, tool: str, mode: Literal["legacy", "auto"]) -> tuple[str, list[Any]]:
    handle = wb.serving or wb.serve()
    seen: list[Any] = []

    async def progress(done: float, total: float | None, message: str | None) -> None:
        seen.append((done, total, message))

    async def main() -> str:
        async with Client(handle.url, auth=handle.token, mode=mode) as client:
            result = await client.call_tool(tool, {}, progress_handler=progress)
            return str(result.content[0].text)

    return asyncio.run(main()), seen


@pytest.fixture
def polling_wb(wb: Workbench) -> Workbench:
    wb.add_tools(closes_midway, closes_midway_async)
    return wb


@pytest.mark.parametrize(
    ("tool", "said", "reports"),
    [
        ("closes_midway", "done", [(1, 3, "before"), (2, 3, "after"), (3, 3, "last")]),
        ("closes_midway_async", "done async", [(1, 2, "before"), (2, 2, "after")]),
    ],
)
def test_a_handshake_era_client_resumes_and_misses_nothing(
    polling_wb: Workbench,
    caplog: pytest.LogCaptureFixture,
    tool: str,
    said: str,
    reports: list[Any],
) -> None:
    with caplog.at_level(logging.INFO, logger="mcp.client.streamable_http"):
        text, seen = call(polling_wb, tool, "legacy")
    assert text == said
    assert seen == reports
    assert RECONNECTED in caplog.text  # the stream did close mid-call
    assert polling_wb.history.last(1)[0].observation.text == said


def test_a_2026_client_keeps_its_one_response(
    polling_wb: Workbench, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="mcp.client.streamable_http"):
        text, seen = call(polling_wb, "closes_midway", "auto")
    assert text == "done"
    assert seen == [(1, 3, "before"), (2, 3, "after"), (3, 3, "last")]
    assert RECONNECTED not in caplog.text


def test_close_stream_is_a_no_op_for_the_notebook_and_plain_calls(polling_wb: Workbench) -> None:
    seen: list[Any] = []
    observation = polling_wb.call(
        "notebook.closes_midway", on_progress=lambda *report: seen.append(report)
    )
    assert observation.text == "done"
    assert [report[0] for report in seen] == [1, 2, 3]
    assert closes_midway() == "done"
    assert asyncio.run(closes_midway_async()) == "done async"
