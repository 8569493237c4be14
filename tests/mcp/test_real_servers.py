"""The Workbench against real MCP servers nobody here wrote, over stdio.

- mcp-server-time (PyPI; Python, on the same SDK as FastMCP), in a venv of its own;
- @modelcontextprotocol/server-everything (npm; TypeScript SDK), run as ``node <bin js>``.

`make test` installs both into .cache/servers (see tests/mcp/conftest.py).
"""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from tests.polling import eventually, wait_for
from tests.processes import children
from workbench.mcp.connection import LOG_LEVELS, Connection, LogRecord
from workbench.session import Workbench
from workbench.tools.schema import ErrorKind

pytestmark = pytest.mark.integration

TIME = "time"
EVERYTHING = "everything"


# -- helpers ------------------------------------------------------------------------------


def connect_new_process(wb: Workbench, name: str, command: list[str], matching: str) -> int:
    """Connect a stdio server and return the pid of the child process that appeared."""
    before = children(matching)
    wb.connect(name, command=command[0], args=command[1:])
    (pid,) = children(matching) - before
    return pid


def kill(pid: int, matching: str) -> None:
    os.kill(pid, signal.SIGKILL)
    wait_for(lambda: pid not in children(matching), 5, f"process {pid} died")


def server_info(wb: Workbench, name: str) -> Any:
    (info,) = [info for info in wb.servers() if info.name == name]
    return info


@contextmanager
def connected(command: list[str], name: str, **kwargs: Any) -> Iterator[Workbench]:
    """A Workbench connected to one stdio server, closed on leaving."""
    wb = Workbench(**kwargs)
    try:
        wb.connect(name, command=command[0], args=command[1:])
        yield wb
    finally:
        wb.close()


@pytest.fixture(scope="module")
def time_wb(time_server: list[str]) -> Iterator[Workbench]:
    """One Workbench connected to mcp-server-time for the read-only tests of this module."""
    with connected(time_server, TIME) as wb:
        yield wb


@pytest.fixture(scope="module")
def everything_wb(everything_stdio: list[str]) -> Iterator[Workbench]:
    """One Workbench connected to server-everything for the read-only tests of this module."""
    with connected(everything_stdio, EVERYTHING) as wb:
        yield wb


# -- mcp-server-time ----------------------------------------------------------------------


def test_time_server_lists_its_tools_into_the_registry(time_wb: Workbench) -> None:
    info = server_info(time_wb, TIME)
    assert (info.transport, info.status, info.tool_count, info.last_error) == (
        "stdio",
        "connected",
        2,
        None,
    )
    assert {entry.id for entry in time_wb.registry.tools(TIME)} == {
        "time.get_current_time",
        "time.convert_time",
    }
    entry = time_wb.registry.get("time.get_current_time")
    assert entry.input_schema["required"] == ["timezone"]
    assert entry.annotations is not None and entry.annotations.read_only_hint is True
    assert entry.output_schema is not None and "datetime" in entry.output_schema["properties"]
    assert time_wb.registry.get("convert_time") is time_wb.registry.get("time.convert_time")


def test_time_get_current_time_in_utc(time_wb: Workbench) -> None:
    observation = time_wb.call("time.get_current_time", {"timezone": "UTC"})

    assert not observation.is_error, observation.error_message
    assert observation.structured_content is not None
    result = observation.structured_content
    assert result["timezone"] == "UTC"
    moment = datetime.fromisoformat(result["datetime"])
    assert moment.utcoffset() == timedelta(0)
    assert abs(datetime.now(timezone.utc) - moment) < timedelta(minutes=10)
    assert result["datetime"] in observation.text
    assert observation.duration is not None and observation.duration > 0
    (call,) = time_wb.history.last(1)
    assert (call.tool_id, call.server, call.arguments, call.status) == (
        "time.get_current_time",
        TIME,
        {"timezone": "UTC"},
        "ok",
    )


def test_time_convert_time(time_wb: Workbench) -> None:
    observation = time_wb.call(
        "time.convert_time",
        {"source_timezone": "UTC", "time": "12:00", "target_timezone": "Asia/Tokyo"},
    )

    assert not observation.is_error, observation.error_message
    result = observation.structured_content
    assert result is not None
    assert datetime.fromisoformat(result["source"]["datetime"]).hour == 12
    assert datetime.fromisoformat(result["target"]["datetime"]).hour == 21
    assert result["time_difference"] == "+9.0h"


def test_time_invalid_timezone_is_a_tool_error(time_wb: Workbench) -> None:
    observation = time_wb.call("time.get_current_time", {"timezone": "Mars/Olympus_Mons"})

    assert observation.is_error
    assert observation.error_kind is ErrorKind.TOOL_ERROR
    assert "Mars/Olympus_Mons" in (observation.error_message or "")
    assert time_wb.history.last(1)[0].status == "tool_error"
    # A tool error does not touch the connection.
    assert server_info(time_wb, TIME).status == "connected"


@pytest.mark.parametrize(
    ("arguments", "field"),
    [({}, "timezone"), ({"timezone": 5}, "timezone"), ({"tz": "UTC"}, "timezone")],
    ids=["missing", "wrong-type", "misspelt"],
)
def test_time_bad_arguments_are_rejected_before_any_round_trip(
    time_wb: Workbench, monkeypatch: pytest.MonkeyPatch, arguments: dict[str, Any], field: str
) -> None:
    sent: list[str] = []
    real_call = Connection.call

    async def spy(self: Connection, tool: str, *args: Any, **kwargs: Any) -> Any:
        sent.append(tool)
        return await real_call(self, tool, *args, **kwargs)

    monkeypatch.setattr(Connection, "call", spy)

    observation = time_wb.call("time.get_current_time", arguments)

    assert observation.is_error
    assert observation.error_kind is ErrorKind.INVALID_ARGUMENTS
    assert field in (observation.error_message or "")
    assert sent == []
    assert time_wb.history.last(1)[0].status == "invalid_arguments"


def test_time_unknown_tool_is_not_found_with_suggestions(time_wb: Workbench) -> None:
    observation = time_wb.call("time.get_curent_time", {"timezone": "UTC"})

    assert observation.is_error
    assert observation.error_kind is ErrorKind.NOT_FOUND
    assert "time.get_current_time" in (observation.error_message or "")
    assert time_wb.history.last(1)[0].status == "not_found"


# -- server-everything --------------------------------------------------------------------


def test_everything_lists_its_tools_with_titles_and_annotations(everything_wb: Workbench) -> None:
    info = server_info(everything_wb, EVERYTHING)
    assert (info.transport, info.status) == ("stdio", "connected")
    assert info.instructions and "Everything Server" in info.instructions
    entries = {entry.name: entry for entry in everything_wb.registry.tools(EVERYTHING)}
    assert info.tool_count == len(entries) >= 13
    assert {
        "echo",
        "get-sum",
        "get-structured-content",
        "get-resource-reference",
        "toggle-simulated-logging",
        "trigger-long-running-operation",
    } <= set(entries)
    for entry in entries.values():
        assert entry.title, entry.id
        assert entry.annotations is not None, entry.id
    echo = entries["echo"]
    assert echo.title == "Echo Tool"
    assert echo.annotations is not None
    assert (
        echo.annotations.read_only_hint,
        echo.annotations.destructive_hint,
        echo.annotations.idempotent_hint,
        echo.annotations.open_world_hint,
    ) == (True, False, True, False)
    gzip = entries["gzip-file-as-resource"].annotations
    assert gzip is not None and (gzip.read_only_hint, gzip.open_world_hint) == (False, True)
    assert everything_wb.registry.search("echoes back the input")[0].id == "everything.echo"


def test_everything_plain_calls(everything_wb: Workbench) -> None:
    echo = everything_wb.call("everything.echo", {"message": "hello from the workbench"})
    assert not echo.is_error, echo.error_message
    assert echo.text == "Echo: hello from the workbench"
    assert echo.structured_content is None

    total = everything_wb.call("everything.get-sum", {"a": 2, "b": 40.5})
    assert total.text == "The sum of 2 and 40.5 is 42.5."


def test_everything_structured_output_with_an_output_schema(everything_wb: Workbench) -> None:
    entry = everything_wb.registry.get("everything.get-structured-content")
    assert entry.output_schema is not None
    assert set(entry.output_schema["properties"]) == {"temperature", "conditions", "humidity"}

    observation = everything_wb.call("everything.get-structured-content", {"location": "Chicago"})

    assert not observation.is_error, observation.error_message
    expected = {"temperature": 36, "conditions": "Light rain / drizzle", "humidity": 82}
    assert observation.structured_content == expected
    assert json.loads(observation.text) == expected

    outside_the_enum = everything_wb.call(
        "everything.get-structured-content", {"location": "Paris"}
    )
    assert outside_the_enum.error_kind is ErrorKind.INVALID_ARGUMENTS
    assert "location" in (outside_the_enum.error_message or "")


def test_everything_progress_notifications_reach_on_progress(everything_wb: Workbench) -> None:
    progress: list[tuple[float, float | None, str | None]] = []

    observation = everything_wb.call(
        "everything.trigger-long-running-operation",
        {"duration": 0.4, "steps": 4},
        on_progress=lambda done, total, message: progress.append((done, total, message)),
    )

    assert not observation.is_error, observation.error_message
    assert "Steps: 4" in observation.text
    assert [(done, total) for done, total, _ in progress] == [(1, 4), (2, 4), (3, 4), (4, 4)]


def test_everything_error_result_is_a_tool_error(everything_wb: Workbench) -> None:
    # The schema says "number"; the tool itself refuses ids below 1 with isError.
    observation = everything_wb.call("everything.get-resource-reference", {"resourceId": -1})

    assert observation.is_error
    assert observation.error_kind is ErrorKind.TOOL_ERROR
    assert "Invalid resourceId: -1" in (observation.error_message or "")
    assert server_info(everything_wb, EVERYTHING).status == "connected"


# Each switch-on of toggle-simulated-logging sends one message at a random level at once
# (then one every 5 s, which switching off again at once prevents).
LOG_TOGGLES = 40


def toggle_logging(wb: Workbench, times: int) -> None:
    for _ in range(times):
        for _switch in ("on", "off"):
            observation = wb.call("everything.toggle-simulated-logging")
            assert not observation.is_error, observation.error_message


def test_everything_log_messages_reach_listeners_at_the_workbench_log_level(
    everything_stdio: list[str],
) -> None:
    records: list[LogRecord] = []

    def note(record: LogRecord) -> None:
        # The server also logs that it read the roots the workbench offers, once, at start.
        if not record.message.startswith("Roots updated"):
            records.append(record)

    with connected(everything_stdio, EVERYTHING, log_level="debug") as wb:
        wb.subscribe_logs(note)

        toggle_logging(wb, LOG_TOGGLES)

        # At level debug every message the server sends is delivered, debug ones included.
        eventually(lambda: len(records) >= LOG_TOGGLES, 3)
        time.sleep(0.1)
        assert len(records) == LOG_TOGGLES, (
            f"{len(records)} of {LOG_TOGGLES} log messages reached the listeners of "
            f"Workbench(log_level='debug'); levels received: {sorted({r.level for r in records})}"
        )
    assert {record.server for record in records} == {EVERYTHING}
    assert {record.level for record in records} <= set(LOG_LEVELS)
    assert all(record.message.lower().endswith("message") for record in records), records


def test_everything_log_messages_below_the_default_level_are_dropped(
    everything_wb: Workbench,
) -> None:
    records: list[LogRecord] = []
    stop = everything_wb.subscribe_logs(records.append)
    try:
        toggle_logging(everything_wb, LOG_TOGGLES)
        # With 8 levels drawn at random, 40 messages hold some at info or above.
        wait_for(lambda: len(records) > 0, 5, "a log record arrived")
        time.sleep(0.2)
    finally:
        stop()
    assert everything_wb.log_level == "info"
    assert 0 < len(records) <= LOG_TOGGLES
    assert "debug" not in {record.level for record in records}


# -- a server that dies -------------------------------------------------------------------


def test_f11_a_server_killed_between_calls_is_restarted_by_the_next_call(
    workbench: Workbench, everything_stdio: list[str], everything_js: Path
) -> None:
    script = str(everything_js)
    others = children(script)  # e.g. the module's shared connection
    pid = connect_new_process(workbench, EVERYTHING, everything_stdio, script)
    assert workbench.call("everything.echo", {"message": "alive"}).text == "Echo: alive"
    kill(pid, script)
    time.sleep(0.5)  # between calls, at a person's pace (the session learns it in ms)

    back = workbench.call("everything.echo", {"message": "back"})

    assert not back.is_error, back.error_message
    assert back.text == "Echo: back"
    assert server_info(workbench, EVERYTHING).status == "connected"
    assert [call.status for call in workbench.history] == ["ok", "ok"]
    (restarted,) = children(script) - others
    assert restarted != pid

    workbench.disconnect(EVERYTHING)

    assert EVERYTHING not in {info.name for info in workbench.servers()}
    assert EVERYTHING not in workbench.registry.servers()
    wait_for(lambda: children(script) == others, 5, "the server process stopped")
    gone = workbench.call("everything.echo", {"message": "still there?"})
    assert gone.error_kind is ErrorKind.NOT_FOUND


def test_reconnect_after_a_kill_starts_a_new_process(
    workbench: Workbench, everything_stdio: list[str], everything_js: Path
) -> None:
    script = str(everything_js)
    others = children(script)
    pid = connect_new_process(workbench, EVERYTHING, everything_stdio, script)
    kill(pid, script)

    info = workbench.reconnect(EVERYTHING)

    assert (info.status, info.last_error) == ("connected", None)
    assert info.tool_count >= 13
    (restarted,) = children(script) - others
    assert restarted != pid
    assert workbench.call("everything.echo", {"message": "again"}).text == "Echo: again"


def test_f11_a_killed_time_server_is_restarted_by_the_next_call(
    workbench: Workbench, time_server: list[str]
) -> None:
    """The Python time server too (the test above runs a Node one): before F11 the first
    call after the death failed as a lost connection."""
    script = time_server[0]
    pid = connect_new_process(workbench, TIME, time_server, script)
    kill(pid, script)
    time.sleep(0.5)  # between calls, at a person's pace

    back = workbench.call("time.get_current_time", {"timezone": "UTC"})

    assert not back.is_error, back.error_message
    assert back.structured_content and back.structured_content["timezone"] == "UTC"
    assert [call.status for call in workbench.history] == ["ok"]


def test_close_stops_every_server_process(everything_stdio: list[str], everything_js: Path) -> None:
    script = str(everything_js)
    others = children(script)
    wb = Workbench()
    try:
        started = {
            connect_new_process(wb, name, everything_stdio, script) for name in ("one", "two")
        }
        assert len(started) == 2
    finally:
        wb.close()

    assert children(script) == others
