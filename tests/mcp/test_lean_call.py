"""The short ``tools/call`` (workbench/mcp/lean_call.py): FastMCP's own result, its questions
answered in both protocol eras, a session that ends failing the call at once with its reason,
and the long way (``call_tool_mcp``) wherever FastMCP lacks what the short way reads."""

from __future__ import annotations

import asyncio
import inspect
import os
import signal
import sys
import time
from typing import Any, Literal

import mcp_types
import pytest
from fastmcp import Client
from fastmcp.client.transports import StdioTransport

from tests.processes import children
from workbench.demo import build_demo_server
from workbench.mcp import lean_call

LIMIT = 30.0


async def long_way_refused(*_: Any, **__: Any) -> Any:
    raise AssertionError("the call went through call_tool_mcp, the long way")


def test_this_fastmcp_takes_the_short_way_and_answers_as_call_tool_mcp() -> None:
    async def main() -> tuple[Any, Any, Any]:
        async with Client(build_demo_server()) as client:
            assert lean_call.short_way(client) is not None
            expected = await client.call_tool_mcp("add", {"a": 2, "b": 40}, timeout=LIMIT)
            failed_expected = await client.call_tool_mcp("add", {"a": "x"}, timeout=LIMIT)
            client.call_tool_mcp = long_way_refused
            got = await lean_call.call_tool(client, "add", {"a": 2, "b": 40}, timeout=LIMIT)
            failed = await lean_call.call_tool(client, "add", {"a": "x"}, timeout=LIMIT)
            return expected, got, (failed_expected, failed)

    expected, got, (failed_expected, failed) = asyncio.run(main())
    assert got.model_dump() == expected.model_dump()
    assert got.structured_content == {"result": 42}
    assert failed.is_error and failed.model_dump() == failed_expected.model_dump()


def test_progress_reaches_the_given_handler() -> None:
    seen: list[tuple[float, float | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append((progress, total))

    async def main() -> Any:
        async with Client(build_demo_server()) as client:
            arguments = {"seconds": 0.3}
            return await lean_call.call_tool(
                client, "slow_count", arguments, timeout=LIMIT, progress=on_progress
            )

    result = asyncio.run(main())
    assert not result.is_error, result
    assert seen and seen[-1][0] == seen[-1][1], seen


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_a_tool_that_asks_is_answered_in_both_eras(mode: Literal["auto", "legacy"]) -> None:
    """``auto``: 2026-07-28, the question comes back as an InputRequiredResult round;
    ``legacy``: the handshake era, a server-to-client request during the call."""
    asked: list[str] = []

    async def answer(message: str, response_type: Any, params: Any, context: Any) -> Any:
        asked.append(message)
        return {"party_size": 2, "time": "19:30"}

    async def main() -> Any:
        async with Client(build_demo_server(), mode=mode, elicitation_handler=answer) as client:
            client.call_tool_mcp = long_way_refused
            return await lean_call.call_tool(
                client, "book_table", {"restaurant": "Chez Ada"}, timeout=LIMIT
            )

    result = asyncio.run(main())
    assert isinstance(result, mcp_types.CallToolResult), result
    text = [block.text for block in result.content]  # type: ignore[union-attr]
    assert text == ["Booked a table at Chez Ada for 2 people at 19:30, inside."], text
    assert asked == ["Book a table at Chez Ada: how many people, and when?"]


@pytest.mark.integration
def test_a_server_that_dies_mid_call_fails_it_at_once_not_at_its_timeout() -> None:
    """A real stdio server killed while a 30 s tool runs: the call fails within seconds."""
    command = [sys.executable, "-m", "workbench.demo"]

    async def main() -> tuple[BaseException | None, float]:
        before = children(command[-1])
        transport = StdioTransport(command[0], command[1:], keep_alive=False)
        async with Client(transport) as client:
            (server,) = children(command[-1]) - before
            call = asyncio.ensure_future(
                lean_call.call_tool(client, "slow_count", {"seconds": 30}, timeout=LIMIT)
            )
            await asyncio.sleep(1.0)
            started = time.monotonic()
            os.kill(server, signal.SIGKILL)
            try:
                await asyncio.wait_for(call, timeout=15)
            except asyncio.TimeoutError:
                raise AssertionError("the call still waited 15 s after its server died") from None
            except Exception as error:
                return error, time.monotonic() - started
            return None, time.monotonic() - started

    error, seconds = asyncio.run(main())
    assert error is not None, "a call whose server died returned a result"
    assert seconds < 10, seconds


def test_the_session_ending_cancels_the_wait_and_raises_its_reason() -> None:
    async def main() -> tuple[str, int]:
        async def session() -> None:
            await asyncio.sleep(0.05)
            raise ConnectionError("server went away")

        session_task = asyncio.create_task(session())
        try:
            await lean_call.watching(session_task, asyncio.sleep(30))
        except ConnectionError as error:
            task = asyncio.current_task()
            assert task is not None
            left = task.cancelling() if sys.version_info >= (3, 11) else 0  # type: ignore[attr-defined,unused-ignore]
            return str(error), left
        raise AssertionError("the wait outlived its session")

    said, left_cancelling = asyncio.run(asyncio.wait_for(main(), timeout=5))
    assert said == "server went away"
    assert left_cancelling == 0  # the task is not left half-cancelled for its next await


def test_a_session_ending_just_after_the_call_cancels_nothing_later() -> None:
    async def main() -> str:
        async def session() -> None:
            await asyncio.sleep(0)  # ends while the call's result is on its way back

        session_task = asyncio.create_task(session())
        got = await lean_call.watching(session_task, asyncio.sleep(0, "answered"))
        await asyncio.sleep(0.05)  # a stale callback would cancel this
        return got

    assert asyncio.run(main()) == "answered"


def test_an_outside_cancel_wins_over_the_session_ending() -> None:
    async def main() -> None:
        session_task = asyncio.create_task(asyncio.sleep(0.05))
        waiting = asyncio.create_task(lean_call.watching(session_task, asyncio.sleep(30)))
        await asyncio.sleep(0.01)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting

    asyncio.run(main())


def test_a_session_already_ended_fails_at_once_and_closes_the_call() -> None:
    async def main() -> None:
        session_task = asyncio.create_task(asyncio.sleep(0))
        await session_task
        call = asyncio.sleep(30)
        with pytest.raises(RuntimeError, match="Session task completed unexpectedly"):
            await lean_call.watching(session_task, call)
        assert inspect.getcoroutinestate(call) == inspect.CORO_CLOSED  # no never-awaited warning

    asyncio.run(main())


def test_a_client_that_claims_results_takes_the_long_way() -> None:
    async def main() -> None:
        async with Client(build_demo_server()) as client:
            client._claim_by_model = {object: object()}
            assert lean_call.short_way(client) is None
            took: list[str] = []
            long_way = client.call_tool_mcp

            async def recorded(*args: Any, **kwargs: Any) -> Any:
                took.append("call_tool_mcp")
                return await long_way(*args, **kwargs)

            client.call_tool_mcp = recorded
            client._claim_by_model = {}
            await lean_call.call_tool(client, "add", {"a": 1, "b": 1}, timeout=LIMIT)
            assert took == []
            client._claim_by_model = {object: object()}
            result = await lean_call.call_tool(client, "add", {"a": 1, "b": 1}, timeout=LIMIT)
            assert took == ["call_tool_mcp"] and not result.is_error

    asyncio.run(main())
