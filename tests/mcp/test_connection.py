"""Connection: a named server's calls, straight through the facade (no Workbench checks)."""

from __future__ import annotations

import os
import signal
import sys
import time

import pytest

from tests.processes import children
from workbench.session import Workbench
from workbench.tools import ErrorKind


@pytest.fixture
def wb(wb: Workbench) -> Workbench:
    wb.connect("demo")
    return wb


@pytest.mark.parametrize("timeout", [0, -1, float("nan"), "1", False])
def test_f5_a_connection_refuses_a_timeout_that_is_no_limit(wb: Workbench, timeout: object) -> None:
    connection = wb._manager.get("demo")
    started = time.perf_counter()
    observation = wb._bridge.run(
        connection.call("slow_count", {"seconds": 5, "steps": 5}, timeout=timeout)  # type: ignore[arg-type]
    )
    assert time.perf_counter() - started < 2  # 0 is never "no limit"
    assert observation.error_kind is ErrorKind.INVALID_ARGUMENTS
    assert "demo.slow_count: timeout:" in observation.text


DEMO_STDIO = [sys.executable, "-m", "workbench.demo"]


@pytest.mark.integration
def test_f11_a_dead_stdio_server_is_restarted_before_the_call() -> None:
    with Workbench() as wb:
        before = children(DEMO_STDIO[-1])
        wb.connect("p", command=DEMO_STDIO[0], args=DEMO_STDIO[1:])
        assert wb.call("p.add", {"a": 1, "b": 2}).text == "3"
        (server,) = children(DEMO_STDIO[-1]) - before
        os.kill(server, signal.SIGKILL)  # it dies between calls, nothing in flight
        deadline = time.monotonic() + 10
        while server in children():
            assert time.monotonic() < deadline, "the killed server never went away"
            time.sleep(0.05)
        time.sleep(0.5)  # between calls, at a person's pace (the session learns it in ms)

        observation = wb.call("p.add", {"a": 1, "b": 2})
        assert not observation.is_error, observation.text
        assert observation.text == "3"
        (restarted,) = children(DEMO_STDIO[-1]) - before
        assert restarted != server
        assert [call.status for call in wb.history] == ["ok", "ok"]


@pytest.mark.integration
def test_a_server_killed_during_a_call_is_a_lost_connection_and_the_next_call_reconnects() -> None:
    with Workbench() as wb:
        before = children(DEMO_STDIO[-1])
        wb.connect("p", command=DEMO_STDIO[0], args=DEMO_STDIO[1:])
        (server,) = children(DEMO_STDIO[-1]) - before
        counting: list[float] = []
        future = wb.submit(
            "p.slow_count",
            {"seconds": 30, "steps": 60},
            on_progress=lambda done, total, message: counting.append(done),
        )
        deadline = time.monotonic() + 20
        while not counting:
            assert time.monotonic() < deadline, "the call never started"
            time.sleep(0.05)
        os.kill(server, signal.SIGKILL)

        lost = future.result(timeout=20)
        assert lost.error_kind is ErrorKind.CONNECTION
        assert "lost during the call" in lost.text
        assert [info.status for info in wb.servers()] == ["disconnected"]
        assert wb.call("p.add", {"a": 1, "b": 2}).text == "3"
        assert [call.status for call in wb.history] == ["connection", "ok"]
