"""Pinned tools on the gateway (``serve(gateway=..., pin=[...])``, ``%mcp serve --pin``):
listed directly beside ``find_tools`` / ``call_tool`` with their full schemas, called by
name through the one call path (recorded as from outside), counted by the token meter;
refused when unknown, ambiguous, clashing, or without the gateway."""

from __future__ import annotations

from typing import Any

import pytest
from fastmcp import Client

from tests.serving.conftest import with_client
from workbench.errors import ServeError
from workbench.session import Workbench


async def pinned_session(client: Client[Any]) -> dict[str, Any]:
    listed = {tool.name: tool for tool in await client.list_tools()}
    added = await client.call_tool("add", {"a": 2, "b": 3})
    return {
        "listed": list(listed),
        "add_schema": listed["add"].input_schema,
        "added": added.content[0].text,  # type: ignore[union-attr]
    }


@pytest.mark.integration
def test_pinned_tools_are_listed_beside_the_pair_and_called_directly(wb: Workbench) -> None:
    wb.connect("demo")
    handle = wb.serve(gateway="only", pin=["demo.add", "get_time"])  # an id, a bare name
    assert handle.tools() == ["find_tools", "call_tool", "add", "get_time"]
    seen = with_client(handle.url, handle.token, pinned_session)
    assert seen["listed"] == ["find_tools", "call_tool", "add", "get_time"]
    assert seen["add_schema"] == wb.registry.get("demo.add").input_schema  # the full schema
    assert seen["added"] == "5"
    assert [(call.tool_id, call.source) for call in wb.history] == [("demo.add", "outside")]

    assert handle.pins is not None
    meter = handle.pins.token_report()
    bare = wb.proxy.token_report()
    assert meter.pinned == ("demo.add", "demo.get_time") and meter.pinned_schemas > 0
    assert meter.proxy_total == bare.proxy_total + meter.pinned_schemas
    assert f"{meter.pinned_schemas:,} for 2 pinned tools, " in str(meter)

    unpinned = wb.serve(gateway="only")  # serving again without pins lists the pair alone
    assert unpinned.tools() == ["find_tools", "call_tool"]
    assert unpinned.pins is not None and unpinned.pins.token_report().pinned == ()


@pytest.mark.integration
def test_pins_that_cannot_be_served_are_refused_before_serving(wb: Workbench) -> None:
    wb.connect("demo")

    def add(a: int, b: int) -> int:
        """A notebook tool whose bare name the demo server has too."""
        return a + b

    wb.add_tools(add)
    with pytest.raises(ServeError, match="pin lists tools beside the gateway's pair"):
        wb.serve(pin=["demo.add"])
    with pytest.raises(ServeError, match=r"Cannot pin demo\.ad: .*Did you mean: demo\.add"):
        wb.serve(gateway=True, pin=["demo.ad"])
    with pytest.raises(ServeError, match="Cannot pin add: "):  # two servers have it
        wb.serve(gateway=True, pin=["add"])
    with pytest.raises(ServeError, match="would both be served as 'add'"):
        wb.serve(gateway="only", pin=["demo.add", "notebook.add"])
    with pytest.raises(ServeError, match=r"demo\.add: the notebook tool 'add' is served too"):
        wb.serve(gateway=True, pin=["demo.add"])
    assert wb.serve(gateway="only", pin=["demo.add"]).tools()[-1] == "add"  # none served
    wb.served.stop()
    assert wb.serving is None
