"""The other ``%mcp`` subcommands: servers, tools, search, history, disconnect, reconnect,
help; and the usage ``%mcp?`` shows."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output
from magic_output import bundles, shown

from workbench.kernel import KernelState
from workbench.magics.router import COMMANDS

Mcp = Callable[[str], Any]


def test_servers_table(mcp: Mcp) -> None:
    value, captured = mcp("servers")
    [bundle] = bundles(captured)
    assert value is None
    assert "demo" in bundle["text/plain"] and "in-process" in bundle["text/plain"]
    assert "connected" in bundle["text/html"]


def test_tools_of_all_of_one_server_and_one_card(mcp: Mcp) -> None:
    _, every = mcp("tools")
    _, demo = mcp("tools demo")
    assert "demo.add" in shown(every) and "demo.add" in shown(demo)
    _, card = mcp("tools demo.add")
    [bundle] = bundles(card)
    assert "The first number." in bundle["text/plain"]  # the parameter table
    assert "tool-card" in bundle["text/html"]


def test_search_uses_the_registry(mcp: Mcp) -> None:
    _, captured = mcp("search count slowly with progress --limit 2 --server demo")
    text = shown(captured)
    assert "demo.slow_count" in text.splitlines()[3]  # best first, under the headers
    assert "2 hits" in text or "1 hit" in text


def test_search_says_when_nothing_matches(mcp: Mcp) -> None:
    _, captured = mcp("search quantum teleportation of llamas")
    assert "No good match" in shown(captured)


def test_browse_returns_a_live_browser_with_the_search_typed_in(mcp: Mcp) -> None:
    from workbench.widgets.browser import ToolBrowser

    browser, captured = mcp("browse count slowly --server demo")
    try:
        assert isinstance(browser, ToolBrowser) and captured.outputs == []
        answer = browser.tool_list.answer
        assert (answer["query"], answer["server"]) == ("count slowly", "demo")
        assert answer["rows"][0]["id"] == "demo.slow_count"
        bundle = browser._repr_mimebundle_()
        assert "application/vnd.jupyter.widget-view+json" in bundle
    finally:
        browser.close()


def test_re_running_a_browse_cell_closes_the_browser_it_made_before(
    mcp: Mcp, state: KernelState
) -> None:
    import workbench

    registry = state.workbench.registry
    listeners = len(registry._listeners)
    state.cell_id = "cell-browse"
    first, _ = mcp("browse")
    second = workbench.browse("add")  # the Python way, same cell
    try:
        assert first.closed and not second.closed
        assert state.browsers["cell-browse"] is second
        assert len(registry._listeners) == listeners + 1
    finally:
        state.cell_id = None
        second.close()
        state.browsers.clear()
    assert len(registry._listeners) == listeners


def test_browse_names_the_connected_servers_for_an_unknown_one(mcp: Mcp) -> None:
    with pytest.raises(UsageError, match=r"no server named 'nope' \(connected: .*demo"):
        mcp("browse --server nope")


def test_history_table_and_export(mcp: Mcp, state: KernelState, tmp_path: Path) -> None:
    mcp("call demo.get_time")
    mcp("call demo.add a=1 b=2")
    _, captured = mcp("history --last 1")
    [bundle] = bundles(captured)
    assert "1 call" in bundle["text/plain"] and "demo.add" in bundle["text/plain"]
    target = tmp_path / "calls.json"
    _, captured = mcp(f"history --export {target}")
    assert captured.outputs == []
    assert captured.stdout.startswith(f"Exported {len(state.workbench.history)} calls to ")
    exported = json.loads(target.read_text())
    assert exported[-1]["tool"] == "demo.add" and exported[-1]["arguments"] == {"a": 1, "b": 2}


def test_reconnect_and_disconnect(mcp: Mcp, state: KernelState) -> None:
    mcp(f"connect second -- {sys.executable} -m workbench.mcp.demo")
    try:
        _, captured = mcp("reconnect second")
        assert "second.add" in shown(captured)
        assert mcp("call second.add a=1 b=1")[0].structured_content == {"result": 2.0}
    finally:
        _, captured = mcp("disconnect second")
    assert captured.stdout == "Disconnected second.\n"
    assert "second.add" not in state.workbench.registry


def test_disconnect_all_keeps_the_notebook_server(
    ip: InteractiveShell, mcp: Mcp, state: KernelState
) -> None:
    ip.run_cell("%%tool\ndef kept() -> str:\n    return 'still here'\n", cell_id="kept-cell")
    mcp("connect other -- " + f"{sys.executable} -m workbench.mcp.demo")
    try:
        _, captured = mcp("disconnect --all")
        assert captured.stdout == "Disconnected demo, other.\n"
        assert [info.name for info in state.workbench.servers()] == ["notebook"]
        assert mcp("call kept")[0].text == "still here"
    finally:
        mcp("connect demo")
        ip.run_cell("%%tool\npass\n", cell_id="kept-cell")  # the same cell, emptied
    assert "notebook.kept" not in state.workbench.registry


@pytest.mark.parametrize("name", list(COMMANDS))
def test_help_for_every_subcommand(mcp: Mcp, name: str) -> None:
    _, by_help = mcp(f"help {name}")
    _, by_flag = mcp(f"{name} --help")
    assert by_help.stdout == by_flag.stdout
    assert by_help.stdout.startswith(f"%mcp {name}")
    assert COMMANDS[name].summary in by_help.stdout


def test_question_mark_and_bare_mcp_show_every_usage(ip: InteractiveShell, mcp: Mcp) -> None:
    _, bare = mcp("")
    with capture_output() as pinfo:
        ip.run_line_magic("pinfo", "%mcp")
    for name, command in COMMANDS.items():
        assert f"%mcp {name}" in bare.stdout
        assert command.usage.splitlines()[0] in pinfo.stdout
    assert "%%tool" in bare.stdout


def test_help_of_a_stdio_command_goes_to_the_command(mcp: Mcp, state: KernelState) -> None:
    """``--help`` after ``--`` belongs to the server's command line, not to the magic."""
    with pytest.raises(UsageError, match="no-such-server"):
        mcp("connect helped -- /no-such-server --help")
    mcp("disconnect helped")
