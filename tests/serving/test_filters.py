"""Filters on a served surface, seen by a real client over HTTP: a hidden tool is neither
listed nor callable, whether hidden by expose/exclude, by its ``enabled`` predicate or at
run time by ``allow_tools``."""

from __future__ import annotations

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
