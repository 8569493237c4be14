"""ConnectionManager: named connections, kept in step with the registry."""

from __future__ import annotations

import contextvars
import json
import logging
import sys
from pathlib import Path

import pytest
from fastmcp import FastMCP

from workbench.demo import build_demo_server
from workbench.errors import (
    ConfigError,
    ConnectionFailedError,
    ConnectionWarning,
    UnknownServerError,
)
from workbench.mcp import quiet
from workbench.session import Workbench


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


# -- F8: a refused config entry is listed by servers() -----------------------------------

DEMO_ENTRY = {"command": sys.executable, "args": ["-m", "workbench.demo"]}


def write_config(path: Path, servers: dict[str, object]) -> Path:
    path.write_text(json.dumps({"mcpServers": servers}))
    return path


@pytest.mark.integration
def test_f8_a_refused_entry_is_a_failed_row_of_servers_until_disconnected(
    wb: Workbench, tmp_path: Path
) -> None:
    """connect_config listed a wrong entry as failed, but servers() (and so %mcp servers)
    did not: it was never a connection."""
    config = write_config(tmp_path / "mcp.json", {"good": DEMO_ENTRY, "bad": {"timeout": 1}})
    with pytest.warns(ConnectionWarning, match="'bad'"):
        wb.connect_config(config)
    rows = {info.name: info for info in wb.servers()}
    assert sorted(rows) == ["bad", "good"]
    bad = rows["bad"]
    assert (bad.status, bad.tool_count, bad.transport, bad.target) == (
        "failed", 0, "config", str(config)
    )  # fmt: skip
    assert bad.last_error is not None and "neither a 'command' nor a 'url'" in bad.last_error
    wb.disconnect("bad")
    assert [info.name for info in wb.servers()] == ["good"]
    with pytest.raises(UnknownServerError):
        wb.disconnect("bad")


@pytest.mark.integration
def test_f8_reconnect_reads_a_refused_entry_again(wb: Workbench, tmp_path: Path) -> None:
    config = write_config(tmp_path / "mcp.json", {"later": {"command": "x", "timeout": "a"}})
    with pytest.warns(ConnectionWarning):
        wb.connect_config(config)
    with pytest.raises(ConfigError, match="timeout must be a number"):
        wb.reconnect("later")
    assert [(i.name, i.status) for i in wb.servers()] == [("later", "failed")]
    write_config(config, {"later": DEMO_ENTRY})
    assert wb.reconnect("later").status == "connected"
    assert [(i.name, i.status, i.transport) for i in wb.servers()] == [
        ("later", "connected", "stdio")
    ]
    assert wb.call("later.add", {"a": 1, "b": 2}).structured_content == {"result": 3.0}


@pytest.mark.integration
def test_f8_reading_the_file_again_replaces_its_refused_rows(wb: Workbench, tmp_path: Path) -> None:
    config = write_config(tmp_path / "mcp.json", {"a": "text", "b": ["list"]})
    with pytest.warns(ConnectionWarning):
        wb.connect_config(config)
    assert [(i.name, i.status) for i in wb.servers()] == [("a", "failed"), ("b", "failed")]
    write_config(config, {"a": DEMO_ENTRY})  # a fixed, b gone from the file
    assert [(i.name, i.status) for i in wb.connect_config(config)] == [("a", "connected")]
    assert [(i.name, i.status) for i in wb.servers()] == [("a", "connected")]


def test_f8_a_refused_entry_keeps_a_working_connection_of_that_name(
    wb: Workbench, tmp_path: Path
) -> None:
    wb.connect("calc", server=build_demo_server())
    config = write_config(tmp_path / "mcp.json", {"calc": {"command": "x", "env": ["K"]}})
    with pytest.warns(ConnectionWarning, match="env must be an object"):
        [row] = wb.connect_config(config)
    assert row.status == "failed"
    [info] = wb.servers()
    assert (info.name, info.status) == ("calc", "connected")
    assert wb.call("calc.add", {"a": 1, "b": 2}).structured_content == {"result": 3.0}


def test_a_new_server_starts_with_an_empty_library_log(wb: Workbench) -> None:
    """What the libraries logged about an earlier server of the same name is not shown as
    the new one's (it made a fresh demo look warned in the Servers tab)."""

    def log_for_an_earlier_demo() -> None:
        quiet.working_for("demo")
        logging.getLogger("mcp.client").error("an earlier demo's trouble")

    contextvars.copy_context().run(log_for_an_earlier_demo)
    assert "an earlier demo's trouble" in str(quiet.recent("demo"))
    wb.connect("demo")
    assert "an earlier demo's trouble" not in str(wb.server_log("demo"))
