"""Filters on a served surface, seen by a real client over HTTP: a hidden tool is neither
listed nor callable, whether hidden by expose/exclude, by its ``enabled`` predicate or at
run time by ``allow_tools``."""

from __future__ import annotations

import concurrent.futures
import time
from typing import Any

import pytest
from fastmcp import Client

from tests.serving.conftest import with_client
from workbench.errors import ServeWarning
from workbench.session import Workbench
from workbench.tools.from_function import tool

SWITCH = {"on": False}


def define(wb: Workbench, ran: list[str]) -> None:
    def alpha(x: int) -> int:
        """Alpha."""
        ran.append("alpha")
        return x

    def beta(x: int) -> int:
        """Beta."""
        ran.append("beta")
        return x

    def gamma(x: int) -> int:
        """Gamma."""
        ran.append("gamma")
        return x

    wb.add_tools(alpha, beta, tool(enabled=lambda: SWITCH["on"])(gamma))


async def names_and_calls(client: Client[Any]) -> dict[str, Any]:
    listed = sorted(tool.name for tool in await client.list_tools())
    called = {}
    for name in ("alpha", "beta", "gamma"):
        result = await client.call_tool(name, {"x": 1}, raise_on_error=False)
        called[name] = " ".join(getattr(block, "text", "") for block in result.content)
    return {"listed": listed, "called": called}


@pytest.mark.integration
def test_exclude_wins_over_expose_and_hidden_tools_are_unknown(wb: Workbench) -> None:
    ran: list[str] = []
    define(wb, ran)
    with pytest.warns(ServeWarning, match="ghost"):
        handle = wb.serve(expose=["alpha", "beta", "ghost"], exclude=["beta"])
    seen = with_client(handle.url, handle.token, names_and_calls)
    assert seen["listed"] == ["alpha"]
    assert seen["called"]["alpha"] == "1"
    assert seen["called"]["beta"] == "Unknown tool: 'beta'"
    assert seen["called"]["gamma"] == "Unknown tool: 'gamma'"
    assert ran == ["alpha"]
    assert [call.tool_id for call in wb.history] == ["notebook.alpha"]


@pytest.mark.integration
def test_enabled_is_evaluated_at_list_and_call_time(wb: Workbench) -> None:
    ran: list[str] = []
    define(wb, ran)
    handle = wb.serve()
    SWITCH["on"] = False
    try:
        off = with_client(handle.url, handle.token, names_and_calls)
        SWITCH["on"] = True
        on = with_client(handle.url, handle.token, names_and_calls)
    finally:
        SWITCH["on"] = False
    assert off["listed"] == ["alpha", "beta"]
    assert off["called"]["gamma"] == "Unknown tool: 'gamma'"
    assert on["listed"] == ["alpha", "beta", "gamma"]
    assert on["called"]["gamma"] == "1"
    assert ran.count("gamma") == 1
    assert wb.call("notebook.gamma", {"x": 2}).structured_content == {"result": 2}  # still defined


@pytest.mark.integration
def test_allow_tools_changes_the_surface_at_run_time(wb: Workbench) -> None:
    ran: list[str] = []
    define(wb, ran)
    handle = wb.serve()
    handle.allow_tools(["beta"])
    narrowed = with_client(handle.url, handle.token, names_and_calls)
    assert narrowed["listed"] == ["beta"]
    assert narrowed["called"]["alpha"] == "Unknown tool: 'alpha'"
    assert handle.tools() == ["beta"]
    handle.allow_tools(None)
    assert handle.tools() == ["alpha", "beta"]


@pytest.mark.integration
def test_a_slow_enabled_predicate_never_holds_the_bridge_loop(wb: Workbench) -> None:
    """enabled() is notebook code: it runs in a worker thread, like the tools themselves."""

    def slowly_enabled() -> bool:
        time.sleep(1.5)
        return True

    def ping() -> str:
        """Answer."""
        return "pong"

    def pong() -> str:
        """Answer too."""
        return "ping"

    wb.add_tools(tool(enabled=slowly_enabled)(ping), pong)
    handle = wb.serve()

    async def listing(client: Client[Any]) -> list[str]:
        return sorted(t.name for t in await client.list_tools())

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        listed = pool.submit(with_client, handle.url, handle.token, listing)
        time.sleep(0.5)  # the listing is waiting on the predicate now
        started = time.perf_counter()
        assert wb.call("notebook.pong").text == "ping"
        assert time.perf_counter() - started < 1.0
        assert listed.result(timeout=30) == ["ping", "pong"]
