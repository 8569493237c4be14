"""Serving notebook tools over HTTP: a real uvicorn on the bridge loop, real clients."""

from __future__ import annotations

import asyncio
import socket
import stat
import traceback
from typing import Any

import httpx
import pytest
from fastmcp import Client

from tests.processes import port_is_free
from tests.serving.conftest import Outside, with_client
from workbench.display import HistoryTable
from workbench.errors import ConnectionFailedError, NotServedError, ServeError, ServeWarning
from workbench.session import Workbench

ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
LIST = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}


def add_tools(wb: Workbench, ran: list[str] | None = None) -> None:
    def add(a: int, b: int) -> int:
        """Add two numbers."""
        if ran is not None:
            ran.append("add")
        return a + b

    def shout(text: str) -> str:
        """Upper-case a text."""
        return text.upper()

    wb.add_tools(add, shout)


def call_body(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": 2,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    }


def nothing_listens(port: int) -> bool:
    """Whether a connection to the port is refused (a port a client was connected to may
    still be in TIME_WAIT, so binding it can fail for a while; listening is what counts)."""
    try:
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
    except ConnectionRefusedError:
        return True
    return False


@pytest.mark.integration
def test_an_outside_client_lists_and_calls_notebook_tools(
    wb: Workbench, outside: type[Outside]
) -> None:
    add_tools(wb)
    handle = wb.serve()
    assert handle.url.startswith("http://127.0.0.1:")
    assert wb.served is handle

    client = outside(handle.url, handle.token)
    assert client.ask("list") == {"names": ["add", "shout"]}
    answer = client.ask('call add {"a": 2, "b": 3}')
    assert answer["is_error"] is False
    assert answer["text"] == "5"
    assert handle.clients == 1

    wb.call("notebook.shout", {"text": "hi"})
    served, local = wb.history[-2], wb.history[-1]
    assert (served.tool_id, served.source, served.arguments) == (
        "notebook.add",
        "outside",
        {"a": 2, "b": 3},
    )
    assert local.source == "kernel"
    table = HistoryTable(wb.history).to_plain()
    assert "outside" in table and "kernel" in table


def test_a_missing_or_wrong_token_is_401_and_runs_nothing(wb: Workbench) -> None:
    ran: list[str] = []
    add_tools(wb, ran)
    handle = wb.serve()
    assert handle.token
    body = call_body("add", {"a": 1, "b": 2})
    for headers in ({}, {"Authorization": "Bearer not-the-token"}):
        response = httpx.post(handle.url, json=body, headers=ACCEPT | headers, timeout=10)
        assert response.status_code == 401
    assert ran == []
    assert len(wb.history) == 0
    right = {"Authorization": f"Bearer {handle.token}"}
    # Past the guard, the MCP layer answers (here: a JSON-RPC error, there is no session).
    assert httpx.post(handle.url, json=LIST, headers=ACCEPT | right, timeout=10).status_code == 400


def test_host_and_origin_are_checked_against_dns_rebinding(wb: Workbench) -> None:
    add_tools(wb)
    handle = wb.serve()
    right = ACCEPT | {"Authorization": f"Bearer {handle.token}"}
    rebound = httpx.post(handle.url, json=LIST, headers=right | {"Host": "evil.example"})
    assert rebound.status_code == 421
    foreign = httpx.post(handle.url, json=LIST, headers=right | {"Origin": "http://evil.example"})
    assert foreign.status_code == 403
    local = httpx.post(handle.url, json=LIST, headers=right | {"Origin": "http://localhost:8888"})
    assert local.status_code == 400  # past the guards: the MCP layer's own answer


def test_stop_closes_the_port(wb: Workbench) -> None:
    add_tools(wb)
    handle = wb.serve()
    assert not port_is_free(handle.port)
    handle.stop()
    assert port_is_free(handle.port)
    assert not handle.running
    handle.stop()  # idempotent
    with pytest.raises(httpx.ConnectError):
        httpx.post(handle.url, json=LIST, headers=ACCEPT, timeout=5)


def test_closing_the_workbench_stops_serving() -> None:
    wb = Workbench()
    add_tools(wb)
    handle = wb.serve()
    wb.close()
    assert port_is_free(handle.port)


@pytest.mark.integration
def test_connecting_without_the_token_fails_in_one_line_without_the_bridge_frames(
    wb: Workbench,
) -> None:
    """Exercise 5's mistake: IPython shows the message alone (``_render_traceback_``);
    plain Python a traceback from the caller's line, with nothing chained before it."""
    handle = wb.serve()
    with Workbench() as other, pytest.raises(ConnectionFailedError, match="HTTP 401") as caught:
        other.connect("mine", url=handle.url)
    error = caught.value
    assert error._render_traceback_() == [f"ConnectionFailedError: {error}"]
    assert "pass token=..." in str(error)
    assert error.__cause__ is None and error.__context__ is None
    files = [frame.filename for frame in traceback.extract_tb(error.__traceback__)]
    assert not [name for name in files if "bridge" in name or "concurrent" in name], files

    async def awaited() -> BaseException:
        with Workbench() as other, pytest.raises(ConnectionFailedError) as caught:
            await other.aconnect("mine", url=handle.url)
        return caught.value

    # Awaited too: nothing chained, or IPython would render the context's group instead.
    assert asyncio.run(awaited()).__context__ is None


@pytest.mark.integration
def test_served_is_a_clear_error_while_nothing_is_served(wb: Workbench) -> None:
    with pytest.raises(NotServedError, match=r"^Nothing is served: run %mcp serve \(or wb"):
        _ = wb.served.url
    assert wb.serving is None and getattr(wb, "served", None) is None
    handle = wb.serve()
    assert wb.served is handle and wb.serving is handle
    handle.stop()
    assert wb.serving is None
    with pytest.raises(NotServedError):
        _ = wb.served


@pytest.mark.integration
def test_serving_again_keeps_the_address_and_the_token_unless_told(wb: Workbench) -> None:
    add_tools(wb)
    first = wb.serve()
    second = wb.serve()
    assert not first.running and second.running
    assert (second.url, second.token) == (first.url, first.token)
    assert second.notes == [
        "Still serving at the same address, with the same token: configs pasted before "
        "keep working."
    ]
    second.stop()
    third = wb.serve(new_token=True)  # after a stop too: the same address
    assert third.url == first.url and third.token != first.token
    assert third.notes == ["Still serving at the same address, with a new token: clients need it."]
    fourth = wb.serve(port=first.port)
    assert fourth.port == first.port and fourth.token == third.token


@pytest.mark.integration
def test_the_token_is_in_a_file_only_its_owner_reads_while_served(
    wb: Workbench, monkeypatch: pytest.MonkeyPatch
) -> None:
    handle = wb.serve()
    path = handle.token_file
    assert path is not None and handle.token and path.read_text() == handle.token
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert str(path) in handle.client_configs()["VS Code (.vscode/mcp.json)"]
    handle.stop()
    assert not path.exists()

    # Set before starting Jupyter, $WORKBENCH_TOKEN is the default: the configs read it.
    monkeypatch.setenv("WORKBENCH_TOKEN", "set-before-starting-lab")
    assert wb.serve().token == handle.token  # but serving again keeps the token first
    fresh = Workbench()
    try:
        served = fresh.serve()
        assert served.token == "set-before-starting-lab"
        assert served.token_shown == "${env:WORKBENCH_TOKEN}" and served.token_file is None
    finally:
        fresh.close()


def test_an_exposed_name_no_tool_has_yet_is_said_and_served_once_defined(wb: Workbench) -> None:
    expected = "expose: no notebook tool named add yet; it is served once its cell runs"
    with pytest.warns(ServeWarning, match=expected) as caught:
        handle = wb.serve(expose=["add"])
    assert caught[0].filename == __file__  # the caller's line, not the workbench's
    assert handle.notes == [str(caught[0].message)]
    add_tools(wb)
    assert handle.tools() == ["add"]


def test_a_given_port_in_use_is_refused(wb: Workbench) -> None:
    add_tools(wb)
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    try:
        with pytest.raises(ServeError, match="Cannot listen"):
            wb.serve(port=busy.getsockname()[1])
    finally:
        busy.close()


def test_a_remote_address_needs_allow_remote(wb: Workbench) -> None:
    add_tools(wb)
    with pytest.raises(ServeError, match="allow_remote"):
        wb.serve(host="0.0.0.0")
    handle = wb.serve(host="0.0.0.0", allow_remote=True)
    assert handle.running
    handle.stop()


@pytest.mark.integration
def test_no_auth_only_when_asked_and_with_a_warning(wb: Workbench, outside: type[Outside]) -> None:
    add_tools(wb)
    with pytest.warns(ServeWarning, match="without auth"):
        handle = wb.serve(auth=False)
    assert handle.token is None
    client = outside(handle.url, None)
    assert client.ask('call shout {"text": "hi"}')["text"] == "HI"


@pytest.mark.integration
def test_the_token_is_shown_masked_and_may_come_from_the_environment(
    wb: Workbench, outside: type[Outside], monkeypatch: pytest.MonkeyPatch
) -> None:
    add_tools(wb)
    monkeypatch.setenv("SERVE_TEST_TOKEN", "s3cret-value-for-the-test")
    handle = wb.serve(token="${env:SERVE_TEST_TOKEN}")
    assert handle.token == "s3cret-value-for-the-test"
    shown = repr(handle) + repr(wb) + "".join(handle.client_configs().values())
    assert "s3cret" not in shown
    assert "${env:SERVE_TEST_TOKEN}" in repr(handle)
    assert "SERVE_TEST_TOKEN" in handle.client_configs()["Python (fastmcp)"]
    client = outside(handle.url, "s3cret-value-for-the-test")
    assert client.ask("list") == {"names": ["add", "shout"]}

    random = wb.serve(new_token=True)  # serving again keeps the token unless told
    assert random.token and random.token not in repr(random)
    assert "***" in repr(random)


def test_an_unset_token_variable_is_refused(wb: Workbench) -> None:
    add_tools(wb)
    with pytest.raises(ServeError, match="NO_SUCH_SERVE_VARIABLE"):
        wb.serve(token="${env:NO_SUCH_SERVE_VARIABLE}")


@pytest.mark.integration
def test_serving_before_any_notebook_tool_serves_the_ones_defined_later(wb: Workbench) -> None:
    handle = wb.serve()
    assert handle.tools() == []

    async def names(client: Client[Any]) -> list[str]:
        return sorted(tool.name for tool in await client.list_tools())

    assert with_client(handle.url, handle.token, names) == []
    add_tools(wb)
    assert with_client(handle.url, handle.token, names) == ["add", "shout"]


def test_a_wrapped_result_is_unwrapped_by_fastmcp_clients(wb: Workbench) -> None:
    add_tools(wb)
    handle = wb.serve()

    async def data(client: Client[Any]) -> Any:
        return (await client.call_tool("add", {"a": 2, "b": 3})).data

    assert with_client(handle.url, handle.token, data) == 5
