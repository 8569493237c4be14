"""G13: handshake-era sessions are bounded: an idle one ends after ``session_idle_timeout``
(a killed client's too, once its call is over), and past ``max_sessions`` the one idle the
longest makes room. Sessions here are raw httpx ones (``RawSession``) or a real fastmcp
client in another process (``Outside``)."""

from __future__ import annotations

import threading
import time

import httpx
import pytest

from tests.polling import wait_for
from tests.serving.conftest import Outside
from tests.serving.raw_session import ACCEPT, RawSession
from workbench.errors import ServeError
from workbench.session import Workbench

pytestmark = pytest.mark.integration


def echo(x: int) -> int:
    """Echo a number."""
    return x


def opened(url: str, token: str | None) -> RawSession:
    session = RawSession(url, token)
    session.initialize()
    return session


def test_g13_an_idle_session_is_dropped_after_the_idle_timeout(wb: Workbench) -> None:
    wb.add_tools(echo)
    handle = wb.serve(session_idle_timeout=1)
    session = opened(handle.url, handle.token)
    try:
        assert handle.clients == 1
        assert session.request("tools/list").status_code == 200  # used: idle from now on
        wait_for(lambda: handle.clients == 0, 10, "the idle session to end")
        assert session.request("tools/list").status_code == 404
    finally:
        session.close()


def test_g13_a_killed_clients_session_ends_once_its_call_is_over(
    wb: Workbench, outside: type[Outside]
) -> None:
    started, finished = threading.Event(), threading.Event()

    def slow() -> str:
        """Take two seconds."""
        started.set()
        time.sleep(2)
        finished.set()
        return "done"

    wb.add_tools(slow)
    handle = wb.serve(session_idle_timeout=1)
    client = outside(handle.url, handle.token, "legacy")
    assert handle.clients == 1
    assert client.process.stdin is not None
    client.process.stdin.write("call slow {}\n")
    client.process.stdin.flush()
    assert started.wait(30)
    client.process.kill()  # SIGKILL mid-call
    client.process.wait(10)
    assert finished.wait(10)  # the call runs to its end (recorded) ...
    wait_for(lambda: handle.clients == 0, 10, "the killed client's session to end")
    assert wb.history[-1].tool_id == "notebook.slow"


def test_g13_past_max_sessions_the_one_idle_the_longest_ends(wb: Workbench) -> None:
    wb.add_tools(echo)
    handle = wb.serve(max_sessions=2)
    first = opened(handle.url, handle.token)
    second = opened(handle.url, handle.token)
    try:
        assert first.request("tools/list").status_code == 200  # first: used last ...
        third = opened(handle.url, handle.token)  # ... so second, idle longest, ends
        wait_for(lambda: handle.clients == 2, 10, "two sessions")
        assert second.request("tools/list").status_code == 404
        assert first.request("tools/list").status_code == 200
        assert third.request("tools/list").status_code == 200
        third.close()
    finally:
        first.close()
        second.close()


def test_g13_without_the_token_no_session_ends_and_busy_ones_are_kept(wb: Workbench) -> None:
    wb.add_tools(echo)
    handle = wb.serve(max_sessions=1)
    session = opened(handle.url, handle.token)
    try:
        initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}
        refused = httpx.post(handle.url, json=initialize, headers=ACCEPT, timeout=10)
        assert refused.status_code == 401
        assert session.request("tools/list").status_code == 200  # still there

        session.stream()  # a GET stream open: the session is busy, not idle
        other = RawSession(handle.url, handle.token)
        with pytest.raises(AssertionError, match="Too many open sessions"):
            other.initialize()
        other.close()
        assert handle.clients == 1
    finally:
        handle.stop()
        session.close()


def test_g13_the_session_options_are_checked(wb: Workbench) -> None:
    for bad in ({"session_idle_timeout": 0}, {"session_idle_timeout": float("inf")}):
        with pytest.raises(ServeError, match="session_idle_timeout"):
            wb.serve(**bad)  # type: ignore[arg-type]
    with pytest.raises(ServeError, match="max_sessions"):
        wb.serve(max_sessions=0)
