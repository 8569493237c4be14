"""ConnectionManager: named connections, kept in step with the registry."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastmcp import FastMCP

from workbench.errors import ConnectionFailedError
from workbench.mcp.demo import build_demo_server
from workbench.session import Workbench


@pytest.fixture
def wb() -> Iterator[Workbench]:
    workbench = Workbench()
    yield workbench
    workbench.close()


def test_f7_a_failed_reconnect_keeps_the_working_connection(wb: Workbench) -> None:
    wb.connect("calc", server=build_demo_server())
    tools = [entry.id for entry in wb.registry.tools("calc")]
    with pytest.raises(ConnectionFailedError, match="no-such-cmd-xyz"):
        wb.connect("calc", command="no-such-cmd-xyz")
    (info,) = wb.servers()
    assert (info.name, info.status, info.tool_count) == ("calc", "connected", len(tools))
    assert [entry.id for entry in wb.registry.tools("calc")] == tools
    assert wb.call("calc.add", {"a": 1, "b": 2}).structured_content == {"result": 3.0}


def test_f7_a_reconnect_that_works_replaces_the_tools_and_leaves_none_stale(
    wb: Workbench,
) -> None:
    wb.connect("calc", server=build_demo_server())
    smaller = FastMCP("smaller")

    @smaller.tool
    def add(a: float, b: float) -> float:
        """Add two numbers."""
        return a + b

    wb.connect("calc", server=smaller)
    assert [entry.id for entry in wb.registry.tools("calc")] == ["calc.add"]
    assert wb.servers()[0].tool_count == 1
    assert wb.call("calc.add", {"a": 1, "b": 2}).structured_content == {"result": 3.0}


def test_f7_a_failed_first_connect_stays_listed_without_tools(wb: Workbench) -> None:
    with pytest.raises(ConnectionFailedError):
        wb.connect("calc", command="no-such-cmd-xyz")
    (info,) = wb.servers()
    assert (info.status, info.tool_count) == ("failed", 0)
    assert "calc" not in wb.registry.servers()
