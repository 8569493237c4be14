"""Workbench: connecting, calling through one path, notebook tools, failures, closing."""

from __future__ import annotations

import asyncio
import gc
import inspect
import json
import subprocess
import sys
import threading
import time
import warnings
import weakref
from pathlib import Path

import pytest
from fastmcp import Context, FastMCP
from mcp.types import ToolListChangedNotification

from tests.polling import eventually
from tests.processes import children
from workbench import tool
from workbench.errors import (
    ConnectionFailedError,
    ConnectionWarning,
    ListenerWarning,
    UnknownServerError,
    WorkbenchClosedError,
    WorkbenchError,
)
from workbench.mcp.connection import LogRecord
from workbench.session import Workbench
from workbench.tools import ErrorKind

DEMO_STDIO = [sys.executable, "-m", "workbench.demo"]


@pytest.fixture
def demo(wb: Workbench) -> Workbench:
    wb.connect("demo")
    return wb


def test_demo_connects_in_process_and_lists_into_the_registry(demo: Workbench) -> None:
    (info,) = demo.servers()
    assert (info.name, info.transport, info.status) == ("demo", "in-process", "connected")
    assert info.tool_count == len(demo.registry.tools("demo")) >= 8
    assert info.instructions and "demo" in info.instructions
    assert "demo.add" in demo.registry


def test_call_returns_observations_and_records_history(demo: Workbench) -> None:
    observation = demo.call("demo.add", {"a": 2, "b": 3})
    assert not observation.is_error and observation.structured_content == {"result": 5.0}
    assert observation.duration is not None
    stats = demo.call("text_stats", {"text": "one two two"})  # a unique bare name
    assert stats.structured_content is not None and stats.structured_content["words"] == 3
    assert [(c.tool_id, c.status) for c in demo.history] == [
        ("demo.add", "ok"),
        ("demo.text_stats", "ok"),
    ]


def test_bad_arguments_never_reach_the_server(demo: Workbench) -> None:
    observation = demo.call("demo.add", {"a": "two"})
    assert observation.error_kind is ErrorKind.INVALID_ARGUMENTS
    assert "b: required but missing" in observation.text and "a:" in observation.text
    assert demo.history[-1].status == "invalid_arguments"


def test_unknown_tool_suggests_similar_ids(demo: Workbench) -> None:
    observation = demo.call("demo.text_stat")
    assert observation.error_kind is ErrorKind.NOT_FOUND
    assert "Did you mean: demo.text_stats" in observation.text


def test_tool_failure_is_a_tool_error_observation(demo: Workbench) -> None:
    observation = demo.call("demo.fail", {"reason": "on purpose"})
    assert observation.error_kind is ErrorKind.TOOL_ERROR and "on purpose" in observation.text


@pytest.mark.integration
def test_submit_returns_at_once_and_cancelling_stops_the_call(demo: Workbench) -> None:
    quick = demo.submit("demo.add", {"a": 1, "b": 2})
    assert quick.result(timeout=10).structured_content == {"result": 3.0}
    progress: list[float] = []
    started = time.perf_counter()
    slow = demo.submit(
        "demo.slow_count",
        {"seconds": 30, "steps": 60},
        on_progress=lambda done, total, message: progress.append(done),
    )
    assert time.perf_counter() - started < 1.0 and not slow.done()
    deadline = time.monotonic() + 10
    while not progress and time.monotonic() < deadline:
        time.sleep(0.05)
    assert progress, "no progress arrived from the running call"
    assert slow.cancel()
    deadline = time.monotonic() + 10
    while len(demo.history) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [call.status for call in demo.history] == ["ok", "cancelled"]
    assert 0 < (demo.history[1].duration or 0) < 10  # how long it ran before the cancel
    assert time.perf_counter() - started < 10
    assert demo.call("demo.add", {"a": 2, "b": 2}).structured_content == {"result": 4.0}


@pytest.mark.integration
def test_timeout_cancels_promptly_and_the_session_stays_usable(demo: Workbench) -> None:
    started = time.perf_counter()
    observation = demo.call("demo.slow_count", {"seconds": 30, "steps": 30}, timeout=0.5)
    assert observation.error_kind is ErrorKind.TIMEOUT
    assert time.perf_counter() - started < 5
    assert "0.5 s" in observation.text
    assert demo.call("demo.add", {"a": 1, "b": 1}).structured_content == {"result": 2.0}


def test_per_connection_timeout_applies(wb: Workbench) -> None:
    wb.connect("demo", timeout=0.3)
    observation = wb.call("demo.slow_count", {"seconds": 10, "steps": 10})
    assert observation.error_kind is ErrorKind.TIMEOUT and "0.3 s" in observation.text


@pytest.mark.integration
def test_progress_and_logs_reach_their_callbacks(demo: Workbench) -> None:
    progress: list[float] = []
    demo.call(
        "demo.slow_count",
        {"seconds": 0.4, "steps": 4},
        on_progress=lambda done, total, message: progress.append(done),
    )
    assert progress == sorted(progress) and len(progress) == 4
    records: list[LogRecord] = []
    stop = demo.subscribe_logs(records.append)
    demo.call("demo.log_demo", {"message": "hello logs", "level": "warning"})
    stop()
    demo.call("demo.log_demo", {"message": "unheard", "level": "warning"})
    assert [(r.server, r.level, r.message) for r in records] == [("demo", "warning", "hello logs")]


@pytest.mark.integration
def test_a_calls_on_log_gets_its_servers_records_during_the_call_only(demo: Workbench) -> None:
    from workbench.demo import build_demo_server

    demo.connect("other", server=build_demo_server())
    mine: list[LogRecord] = []
    everything: list[LogRecord] = []
    demo.subscribe_logs(everything.append)
    demo.call("other.log_demo", {"message": "elsewhere", "level": "warning"})
    demo.call("demo.log_demo", {"message": "mine", "level": "warning"}, on_log=mine.append)
    demo.call("demo.log_demo", {"message": "after", "level": "warning"})
    assert [(r.server, r.message) for r in mine] == [("demo", "mine")]
    assert [r.message for r in everything] == ["elsewhere", "mine", "after"]


def test_a_raising_history_listener_never_fails_a_good_call(demo: Workbench) -> None:
    calls: list[int] = []

    def broken(call: object) -> None:
        calls.append(1)
        raise ZeroDivisionError("view gone")

    demo.history.subscribe(broken)
    with pytest.warns(ListenerWarning, match=r"ZeroDivisionError: view gone"):
        first = demo.call("demo.add", {"a": 1, "b": 2})
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # reported once: the second call warns no more
        second = demo.call("demo.add", {"a": 2, "b": 2})
    assert not first.is_error and not second.is_error and calls == [1, 1]
    assert [call.status for call in demo.history.last(2)] == ["ok", "ok"]


def test_a_raising_registry_listener_never_fails_a_connection(wb: Workbench) -> None:
    wb.registry.subscribe(lambda server: 1 / 0)
    with pytest.warns(ListenerWarning, match="the registry"):
        wb.connect("demo")
    assert "demo.add" in wb.registry


@pytest.mark.integration
def test_awaited_calls_run_concurrently(demo: Workbench) -> None:
    async def twenty() -> list[str]:
        observations = await asyncio.gather(
            *(demo.acall("demo.slow_count", {"seconds": 0.5, "steps": 1}) for _ in range(20))
        )
        return [o.text for o in observations]

    started = time.perf_counter()
    texts = asyncio.new_event_loop().run_until_complete(twenty())
    assert len(texts) == 20 and all("Counted" in text for text in texts)
    assert time.perf_counter() - started < 5  # 20 x 0.5 s one after another would be 10 s


@pytest.mark.integration
def test_demo_over_stdio(wb: Workbench) -> None:
    info = wb.connect("demo_stdio", command=DEMO_STDIO[0], args=DEMO_STDIO[1:])
    assert info.transport == "stdio" and info.tool_count >= 8
    assert wb.call("demo_stdio.add", {"a": 1, "b": 2}).structured_content == {"result": 3.0}


def test_notebook_tools_take_the_same_path(wb: Workbench) -> None:
    def shout(text: str) -> str:
        """Upper-case a text."""
        return text.upper()

    @tool
    async def later(n: int) -> int:
        await asyncio.sleep(0)
        return n + 1

    entries = wb.add_tools(shout, later)
    assert [e.id for e in entries] == ["notebook.shout", "notebook.later"]
    assert wb.call("notebook.shout", {"text": "hi"}).text == "HI"
    assert wb.call("later", {"n": 1}).structured_content == {"result": 2}
    assert wb.call("shout", {}).error_kind is ErrorKind.INVALID_ARGUMENTS
    assert wb.remove_tool("shout") and not wb.remove_tool("shout")
    assert [e.id for e in wb.registry.tools("notebook")] == ["notebook.later"]


def test_owned_tools_are_replaced_as_a_group(wb: Workbench) -> None:
    def one() -> str:
        return "1"

    def two() -> str:
        return "2"

    wb.set_owned_tools("cell-a", [tool(one), tool(two)])
    wb.set_owned_tools("cell-a", [tool(two)])
    assert [e.name for e in wb.registry.tools("notebook")] == ["two"]


@pytest.mark.integration
def test_connect_failures_are_clear_and_stay_listed(wb: Workbench) -> None:
    with pytest.raises(ConnectionFailedError, match="not found on PATH"):
        wb.connect("ghost", command="no-such-command-anywhere")
    with pytest.raises(ConnectionFailedError, match=r"exited while starting(.|\n)*API key"):
        wb.connect(
            "crash",
            command=sys.executable,
            args=["-c", "import sys; print('missing API key', file=sys.stderr); sys.exit(2)"],
        )
    with pytest.raises(ConnectionFailedError, match="could not be reached"):
        wb.connect("nowhere", url="http://127.0.0.1:9/mcp", connect_timeout=5)
    with pytest.raises(ConnectionFailedError, match="within 1 s"):
        wb.connect("sleepy", command=sys.executable, args=["-c", "import time; time.sleep(30)"],
                   connect_timeout=1)  # fmt: skip
    statuses = {info.name: (info.status, bool(info.last_error)) for info in wb.servers()}
    assert statuses == dict.fromkeys(("crash", "ghost", "nowhere", "sleepy"), ("failed", True))


def test_a_call_to_a_failed_server_is_a_connection_observation(wb: Workbench) -> None:
    wb.registry.add_tools("gone", [{"name": "t"}])
    observation = wb.call("gone.t")
    assert observation.error_kind is ErrorKind.CONNECTION


@pytest.mark.integration
def test_config_connects_each_server_concurrently(wb: Workbench, tmp_path: Path) -> None:
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {
        "one": {"command": DEMO_STDIO[0], "args": DEMO_STDIO[1:]},
        "two": {"command": DEMO_STDIO[0], "args": DEMO_STDIO[1:]},
        "broken": {"command": "no-such-command-anywhere"},
    }}))  # fmt: skip
    with pytest.warns(ConnectionWarning, match="broken"):
        infos = wb.connect_config(config)
    assert {(i.name, i.status) for i in infos} == {
        ("one", "connected"), ("two", "connected"), ("broken", "failed")
    }  # fmt: skip
    assert "one.add" in wb.registry and "two.add" in wb.registry
    wb.disconnect("one")
    assert "one.add" not in wb.registry and [i.name for i in wb.servers()] == ["broken", "two"]


def test_config_names_select_servers_and_unknown_names_are_errors(
    wb: Workbench, tmp_path: Path
) -> None:
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"servers": {"a": {"command": "x"}, "b": {"command": "y"}}}))
    with pytest.raises(WorkbenchError, match="No server named 'c'"):
        wb.connect_config(config, ["c"])


def test_reconnect_and_programming_errors(demo: Workbench) -> None:
    assert demo.reconnect("demo").status == "connected"
    with pytest.raises(UnknownServerError, match="No server named 'nope'"):
        demo.reconnect("nope")
    with pytest.raises(WorkbenchError, match="contain no"):
        demo.connect("a.b", server=object())
    with pytest.raises(WorkbenchError, match="one of command, url or server"):
        demo.connect("x", command="a", url="http://b")
    with pytest.raises(WorkbenchError, match="Nothing to connect"):
        demo.connect("empty")


def test_closed_workbench_refuses_work() -> None:
    workbench = Workbench()
    workbench.connect("demo")
    workbench.close()
    workbench.close()  # idempotent
    with pytest.raises(WorkbenchClosedError):
        workbench.call("demo.add", {"a": 1, "b": 2})
    with pytest.raises(WorkbenchClosedError):
        workbench.servers()


def test_proxy_pair_calls_through_the_workbench(demo: Workbench) -> None:
    proxy = demo.proxy
    found = proxy.find_tools("add two numbers")
    assert found["tools"][0]["id"] == "demo.add"
    assert proxy.call_tool("demo.add", {"a": 1, "b": 2}) == "3"
    assert proxy.call_tool("demo.add", {"a": "x"}).startswith(
        "[Tool error] demo.add: invalid_arguments:"
    )
    assert "demo (" in proxy.server_summary() and "demo server" in proxy.server_summary()


def test_observations_know_their_tool_for_display(demo: Workbench) -> None:
    observation = demo.call("demo.add", {"a": 1, "b": 1})
    assert observation.tool_id == "demo.add"
    bundle = observation._repr_mimebundle_()
    assert bundle["application/vnd.workbench.observation+json"]["toolId"] == "demo.add"
    assert "tool_id" not in observation.model_dump()


def test_fastmcp_tags_reach_the_registry(demo: Workbench) -> None:
    assert demo.registry.get("demo.add").tags


def test_disconnecting_the_notebook_server_drops_every_notebook_tool_for_good(
    wb: Workbench,
) -> None:
    """F21: the next cell brought back every tool of every cell after a disconnect."""

    def alpha() -> str:
        return "a"

    def delta() -> str:
        return "d"

    wb.set_owned_tools("cell-a", [tool(alpha)])
    wb.set_owned_tools("cell-b", [tool(delta)])
    wb.disconnect("notebook")
    assert [entry.id for entry in wb.registry] == []
    wb.set_owned_tools("cell-a", [tool(alpha)])  # cell A runs again; cell B does not
    assert [entry.id for entry in wb.registry] == ["notebook.alpha"]
    assert wb.tool_owner("delta") is None


def test_disconnect_checks_every_name_before_closing_any(wb: Workbench) -> None:
    wb.connect("demo")
    with pytest.raises(UnknownServerError):
        wb.disconnect("demo", "nosuch")
    assert "demo" in [info.name for info in wb.servers()]


def test_set_owned_tools_says_what_it_removed_and_who_owns_what(wb: Workbench) -> None:
    def one() -> str:
        return "1"

    def two() -> str:
        return "2"

    first = wb.set_owned_tools("cell-a", [tool(one), tool(two)])
    assert [entry.id for entry in first.entries] == ["notebook.one", "notebook.two"]
    assert first.removed == []
    again = wb.set_owned_tools("cell-a", [tool(two)])
    assert [entry.id for entry in again.entries] == ["notebook.two"] and again.removed == ["one"]
    assert wb.tool_owner("two") == "cell-a" and wb.tool_owner("one") is None


def test_a_tool_put_straight_on_the_registry_is_not_called_around_the_servers(
    wb: Workbench,
) -> None:
    def shout(text: str) -> str:
        return text.upper()

    wb.registry.register(tool(shout))
    observation = wb.call("notebook.shout", {"text": "hi"})
    assert observation.error_kind is ErrorKind.CONNECTION
    assert "add_tools" in observation.text


def test_tools_list_changed_notification_refreshes_the_registry(wb: Workbench) -> None:
    server = FastMCP("growing")

    def extra() -> str:
        """A tool that appears later."""
        return "here"

    @server.tool
    async def grow(ctx: Context) -> str:
        """Add a tool and tell the client so."""
        server.add_tool(extra)
        await ctx.send_notification(ToolListChangedNotification())
        return "grown"

    wb.connect("growing", server=server)
    assert "growing.extra" not in wb.registry
    assert wb.call("growing.grow").text == "grown"
    deadline = time.monotonic() + 5
    while "growing.extra" not in wb.registry and time.monotonic() < deadline:
        time.sleep(0.05)
    assert wb.call("growing.extra").text == "here"
    assert {info.name: info.tool_count for info in wb.servers()}["growing"] == 2


@pytest.mark.integration
def test_interpreter_exit_leaves_no_server_process(tmp_path: Path) -> None:
    script = tmp_path / "script.py"
    marker = tmp_path / "child.pid"
    script.write_text(
        "import os, sys\n"
        "from workbench import Workbench\n"
        "wb = Workbench()\n"
        # The shell outlives the server's end of stdin, as a careless server would: only
        # the Workbench closing it at exit stops it.
        "wb.connect('child', command='/bin/sh', "
        f"args=['-c', '{' '.join(DEMO_STDIO)}; sleep 60'])\n"
        + inspect.getsource(children)
        + "kids = ' '.join(map(str, children()))\n"
        f"open({str(marker)!r}, 'w').write(kids)\n"
        "# no close(): the interpreter's exit must stop the server\n"
    )
    subprocess.run([sys.executable, str(script)], check=True, timeout=60)
    pids = marker.read_text().split()
    assert pids, "the script should have seen its server process"
    time.sleep(0.5)
    for pid in pids:
        alive = (
            Path(f"/proc/{pid}").exists()
            and "Z" not in (Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[:1])
        )
        assert not alive, f"server process {pid} outlived the interpreter"


@pytest.mark.integration
@pytest.mark.parametrize(
    ("arguments", "says"),
    [
        ([1, 2], "(arguments): must be a JSON object"),
        ("a=1", "(arguments): must be a JSON object"),
        ({1: 1, "a": 1, "b": 2}, "1: a name must be text, not int"),
        ({"a": object(), "b": 2}, "a: object <object object"),
        ({"a": {1, 2}, "b": 2}, "a: set {1, 2} is not a JSON value"),
        ({"a": b"1", "b": 2}, "a: bytes b'1' is not a JSON value"),
        ({"a": float("nan"), "b": 2}, "a: NaN is not a number JSON can hold"),
        ({"a": float("-inf"), "b": 2}, "a: an infinity is not a number JSON can hold"),
    ],
)
def test_f4_arguments_that_are_not_a_json_object_are_recorded_invalid_arguments(
    demo: Workbench, arguments: object, says: str
) -> None:
    observation = demo.call("demo.add", arguments)  # type: ignore[arg-type]
    assert observation.error_kind is ErrorKind.INVALID_ARGUMENTS
    assert says in observation.text and "\n" not in observation.text
    (recorded,) = demo.history
    assert (recorded.tool_id, recorded.status) == ("demo.add", "invalid_arguments")
    json.dumps(recorded.arguments)  # kept as data the history can export


@pytest.mark.parametrize("tool_id", [None, 5, ["demo.add"]])
def test_f4_a_tool_id_that_is_not_text_is_recorded_with_a_readable_id(
    demo: Workbench, tool_id: object
) -> None:
    observation = demo.call(tool_id, {"a": 1, "b": 2})  # type: ignore[arg-type]
    assert observation.error_kind is ErrorKind.INVALID_ARGUMENTS
    assert "A tool id is text" in observation.text
    (recorded,) = demo.history
    assert recorded.tool_id == repr(tool_id) and recorded.status == "invalid_arguments"


def test_f4_every_way_of_calling_answers_bad_input_with_an_observation(demo: Workbench) -> None:
    submitted = demo.submit("demo.add", [1, 2])  # type: ignore[arg-type]
    awaited = asyncio.run(demo.acall(None, {}))  # type: ignore[arg-type]
    assert submitted.result(timeout=10).error_kind is ErrorKind.INVALID_ARGUMENTS
    assert awaited.error_kind is ErrorKind.INVALID_ARGUMENTS
    assert [call.status for call in demo.history] == ["invalid_arguments"] * 2


@pytest.mark.integration
@pytest.mark.parametrize(
    ("timeout", "says"),
    [
        (0, "timeout: must be more than 0 seconds, not 0"),
        (-1, "timeout: must be more than 0 seconds, not -1"),
        (float("nan"), "timeout: NaN is not a number of seconds"),
        (float("inf"), "timeout: must be a finite number"),
        ("1", "timeout: must be a number of seconds, not str '1'"),
        (True, "timeout: must be a number of seconds, not bool True"),
    ],
)
def test_f5_a_bad_per_call_timeout_is_a_recorded_invalid_arguments_observation(
    demo: Workbench, timeout: object, says: str
) -> None:
    started = time.perf_counter()
    observation = demo.call(
        "demo.slow_count",
        {"seconds": 5, "steps": 5},
        timeout=timeout,  # type: ignore[arg-type]
    )
    assert time.perf_counter() - started < 2  # refused at once: 0 is never "no limit"
    assert observation.error_kind is ErrorKind.INVALID_ARGUMENTS and says in observation.text
    assert [call.status for call in demo.history] == ["invalid_arguments"]


@pytest.mark.integration
def test_f16_closing_with_calls_in_flight_gives_cancelled_observations(wb: Workbench) -> None:
    wb.connect("demo")
    wb.connect("stdio", command=DEMO_STDIO[0], args=DEMO_STDIO[1:])
    progress: list[str] = []
    futures = [
        wb.submit(
            tool,
            {"seconds": 30, "steps": 60},
            on_progress=lambda done, total, message, tool=tool: progress.append(tool),
        )
        for tool in ("demo.slow_count", "stdio.slow_count")
    ]
    deadline = time.monotonic() + 20
    while set(progress) != {"demo.slow_count", "stdio.slow_count"}:
        assert time.monotonic() < deadline, "the calls never started"
        time.sleep(0.05)
    wb.close()
    for future in futures:
        observation = future.result(timeout=10)
        assert observation.error_kind is ErrorKind.CANCELLED
        assert "cancelled when the Workbench was closed" in observation.text
    assert sorted(call.status for call in wb.history) == ["cancelled", "cancelled"]


def bridge_threads() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread.name == "workbench-bridge"]


@pytest.mark.integration
def test_f14_a_workbench_nobody_references_releases_its_thread_and_servers() -> None:
    threads, kids = len(bridge_threads()), children(DEMO_STDIO[-1])
    wb: Workbench | None = None
    for _ in range(5):  # a re-run `wb = Workbench(); wb.connect(...)` cell
        wb = Workbench()
        wb.connect("x", command=DEMO_STDIO[0], args=DEMO_STDIO[1:])
        assert wb.call("x.add", {"a": 1, "b": 2}).text == "3"
        gc.collect()
    assert eventually(lambda: len(bridge_threads()) == threads + 1), bridge_threads()
    assert eventually(lambda: len(children(DEMO_STDIO[-1]) - kids) == 1)
    wb = None
    gc.collect()
    assert eventually(lambda: len(bridge_threads()) == threads), bridge_threads()
    assert eventually(lambda: children(DEMO_STDIO[-1]) == kids)


@pytest.mark.integration
def test_f14_a_workbench_let_go_during_a_call_is_released_when_the_call_ends() -> None:
    threads = len(bridge_threads())
    wb = Workbench()
    wb.connect("demo")
    future = wb.submit("demo.slow_count", {"seconds": 0.3, "steps": 3})
    released = weakref.ref(wb)
    del wb
    gc.collect()
    # The call holds the Workbench; its last reference goes on the bridge's own thread.
    assert future.result(timeout=10).text.startswith("Counted")
    assert eventually(lambda: released() is None)
    assert eventually(lambda: len(bridge_threads()) == threads), bridge_threads()
