"""Live edits: a change of notebook tools is served at once and announced with
``notifications/tools/list_changed`` to connected clients, in both protocol eras (a
handshake-era session, and a 2026-07-28 client listening with ``subscriptions/listen``)."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.polling import wait_for
from tests.serving.conftest import Outside
from tests.serving.raw_session import RawSession
from tests.serving.test_handle import nothing_listens
from workbench.session import Workbench
from workbench.tools.from_function import FunctionTool


def echo(x: int) -> int:
    """Echo a number."""
    return x


def double(x: int) -> int:
    """Double a number."""
    return 2 * x


@pytest.mark.integration
@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_a_connected_client_hears_of_each_change(
    wb: Workbench, outside: type[Outside], mode: str
) -> None:
    wb.set_owned_tools("cell:1", [FunctionTool(echo)])
    handle = wb.serve()
    client = outside(handle.url, handle.token, mode)
    assert client.ask("list") == {"names": ["echo"]}
    assert client.ask("wait_changed 0.3") == {"changed": False}
    assert handle.clients == 1

    wb.add_tools(double)  # a new tool
    assert client.ask("wait_changed 10") == {"changed": True}
    assert client.ask("list") == {"names": ["double", "echo"]}

    wb.set_owned_tools("cell:1", [])  # the cell re-run without its function
    assert client.ask("wait_changed 10") == {"changed": True}
    assert client.ask("list") == {"names": ["double"]}
    assert client.ask('call echo {"x": 1}')["text"] == "Unknown tool: 'echo'"

    handle.allow_tools([])  # the served surface narrowed at run time
    assert client.ask("wait_changed 10") == {"changed": True}
    assert client.ask("list") == {"names": []}

    # Stopping ends the streams the client holds open, instead of waiting them out.
    started = time.perf_counter()
    handle.stop()
    assert time.perf_counter() - started < 1.5
    assert nothing_listens(handle.port)


def test_a_redefined_tool_is_served_as_redefined(wb: Workbench) -> None:
    wb.set_owned_tools("cell:1", [FunctionTool(echo, name="work")])
    handle = wb.serve()
    assert handle.tools() == ["work"]
    wb.set_owned_tools("cell:1", [FunctionTool(double, name="work")])
    assert handle.tools() == ["work"]
    assert wb.call("notebook.work", {"x": 4}).structured_content == {"result": 8}


@pytest.mark.integration
def test_g17_a_session_that_only_initialized_hears_of_changes(wb: Workbench) -> None:
    """G17: a handshake-era client that initializes, sends notifications/initialized and
    opens its GET stream (no request in between) is told when a notebook tool changes."""
    wb.set_owned_tools("cell:1", [FunctionTool(echo, name="work")])
    handle = wb.serve()
    session = RawSession(handle.url, handle.token)
    try:
        session.initialize()
        session.stream()
        wb.set_owned_tools("cell:1", [FunctionTool(double, name="work")])  # the cell re-run
        heard = session.heard.get(timeout=10)
        assert heard["method"] == "notifications/tools/list_changed"
    finally:
        handle.stop()
        session.close()


def next_line(process: subprocess.Popen[str], timeout: float) -> str:
    """The next line the process prints, or what it said on stderr when none comes."""
    assert process.stdout is not None
    ready, _, _ = select.select([process.stdout], [], [], timeout)
    line = process.stdout.readline() if ready else ""
    if not line:
        process.kill()
        raise AssertionError(f"no line within {timeout} s: {process.communicate()[1][-3000:]}")
    return line.strip()


@pytest.mark.integration
def test_the_printed_fastmcp_snippet_hears_of_each_change(wb: Workbench, tmp_path: Path) -> None:
    """The snippet ``%mcp serve`` prints, run as printed by fastmcp's default client (the
    2026-07-28 era, which hears tools/list_changed only on a listen stream it opens)."""
    wb.set_owned_tools("cell:1", [FunctionTool(echo)])
    handle = wb.serve()
    assert handle.token
    script = tmp_path / "snippet.py"
    script.write_text(handle.client_configs()["Python (fastmcp)"])
    env = os.environ | {handle.token_variable: handle.token, "PYTHONUNBUFFERED": "1"}
    command = [sys.executable, str(script)]
    pipe = subprocess.PIPE
    process = subprocess.Popen(command, stdout=pipe, stderr=pipe, text=True, env=env)
    try:
        assert next_line(process, 60) == "['echo']"
        wait_for(lambda: handle.clients == 1, 10, "the snippet's listen stream")
        wb.add_tools(double)  # a new tool
        assert next_line(process, 10) == "['double', 'echo']"
        wb.set_owned_tools("cell:1", [])  # the cell re-run without its function
        assert next_line(process, 10) == "['double']"
    finally:
        handle.stop()  # ends the listen stream: the snippet ends
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)
