"""Quiet cells (F20): what the MCP SDK, FastMCP and httpx log about a server is kept with that
server, never printed where a cell would show it; the user's own logging is left alone."""

from __future__ import annotations

import logging
import sys
import uuid

import pytest
from fastmcp import FastMCP

from workbench.errors import ListenerWarning, ServerNameError, UnknownServerError
from workbench.mcp import quiet
from workbench.session import Workbench

DEMO = f"exec {sys.executable} -m workbench.demo"
BANNER_THEN_DEMO = f"echo 'Welcome, this banner is not JSON-RPC'; {DEMO}"


@pytest.mark.integration
def test_f20_sdk_tracebacks_never_reach_the_cell(
    wb: Workbench, capfd: pytest.CaptureFixture[str]
) -> None:
    """A banner on stdout made the SDK log a ten-line traceback into the cell (the kernel
    test shows the cell; pytest's own log handlers hide what a kernel would print)."""
    wb.connect("banner", command="sh", args=["-c", BANNER_THEN_DEMO])
    assert wb.call("banner.add", {"a": 1, "b": 2}).structured_content == {"result": 3.0}
    kept = [str(record) for record in quiet.recent("banner")]
    assert any("Failed to parse JSONRPC message" in line and "Traceback" in line for line in kept)
    out, err = capfd.readouterr()
    assert "JSONRPC" not in out + err


def test_f20_fastmcp_tool_errors_stay_in_the_server_log(
    wb: Workbench, capfd: pytest.CaptureFixture[str]
) -> None:
    """An in-process tool error printed a coloured "Error calling tool" line in the cell."""
    wb.connect("demo")
    observation = wb.call("demo.get_time", {"timezone": "Mars/Olympus"})
    assert observation.is_error
    # In-process requests run in the caller's task: kept, in the unnamed buffer if need be.
    kept = quiet.recent("demo") + quiet.recent()
    assert any("Error calling tool" in record.message for record in kept)
    out, err = capfd.readouterr()
    assert "Error calling tool" not in out + err


def test_f20_a_raising_progress_callback_is_warned_about_once(
    wb: Workbench, caplog: pytest.LogCaptureFixture
) -> None:
    """It logged a "progress callback raised" traceback at every step."""
    wb.connect("demo")

    def broken(done: float, total: float | None, message: str | None) -> None:
        raise ZeroDivisionError("division by zero")

    with pytest.warns(ListenerWarning, match=r"progress callback \(.*broken\) raised") as caught:
        observation = wb.call("demo.slow_count", {"seconds": 0.2, "steps": 4}, on_progress=broken)
    assert not observation.is_error
    assert len([w for w in caught if issubclass(w.category, ListenerWarning)]) == 1
    assert not [r for r in caplog.records if "progress callback" in r.getMessage()]


class Counted(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def test_the_users_own_library_logging_is_left_alone() -> None:
    quiet.install()
    counted = Counted()
    root = logging.getLogger()
    root.addHandler(counted)
    try:
        logging.getLogger("mcp.client.stdio").warning("the user's own client")
    finally:
        root.removeHandler(counted)
    assert counted.messages == ["the user's own client"]
    assert all("the user's own" not in str(record) for record in quiet.recent())


def test_f20_records_logged_during_a_call_are_the_called_servers(wb: Workbench) -> None:
    """An in-process server's records during a call went to the unnamed buffer: the call
    path did not say whom the workbench was working for."""
    server = FastMCP("chatty")
    marker = f"chatty-{uuid.uuid4().hex}"

    @server.tool
    def speak() -> str:
        """Log through FastMCP's logger, as a library inside a tool would."""
        logging.getLogger("fastmcp.chatty").warning(marker)
        return "said"

    wb.connect("chatty", server=server)
    assert wb.call("chatty.speak").text == "said"
    assert [record.message for record in quiet.recent("chatty")] == [marker]
    assert all(marker not in record.message for record in quiet.recent())
    [record] = wb.server_log("chatty")
    assert (record.level, record.logger, record.message) == ("warning", "fastmcp.chatty", marker)


@pytest.mark.integration
def test_server_log_masks_what_the_settings_know_is_secret(wb: Workbench) -> None:
    """A banner echoing a token the server was given: kept raw, shown masked."""
    secret = "sekrit-" + uuid.uuid4().hex
    name = "leaky" + uuid.uuid4().hex[:8]
    wb.connect(name, command="sh", args=["-c", f'echo "hello $MY_VALUE"; {DEMO}'],
               env={"MY_VALUE": secret})  # fmt: skip
    assert any(secret in record.message for record in quiet.recent(name))  # kept raw
    log = wb.server_log(name)
    assert any("Failed to parse JSONRPC message" in record.message for record in log)
    assert all(secret not in record.message for record in log)
    assert any("hello ***" in record.message for record in log)


def test_server_log_of_an_unknown_or_impossible_name_is_a_one_line_error(
    wb: Workbench,
) -> None:
    with pytest.raises(UnknownServerError, match=r"^No server named 'nope' \(connected: none"):
        wb.server_log("nope")
    with pytest.raises(ServerNameError, match=r"no '\.'"):
        wb.server_log("a.b")
