"""Live updates over 2026-07-28: a Workbench connected to a server speaking the sessionless
protocol hears of its list changes on a ``subscriptions/listen`` stream it opens itself
(SEP-2575: at that version a server sends ``notifications/*/list_changed`` nowhere else).

The server is a served notebook (``Workbench.serve``, the same as ``%mcp serve``) of another
Workbench, on 127.0.0.1 at the default protocol, reached over streamable HTTP.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterator
from typing import Any

import mcp_types
import pytest
from fastmcp import FastMCP
from mcp.server.subscriptions import (
    InMemorySubscriptionBus,
    ListenHandler,
    PromptsListChanged,
    ResourcesListChanged,
)
from mcp.shared.exceptions import MCPError

from tests.polling import eventually
from workbench.mcp.connection import ServerChange
from workbench.serving.handle import ServeHandle
from workbench.session import Workbench
from workbench.tools.from_function import FunctionTool

SESSIONLESS = "2026-07-28"
LISTENING = "workbench-listen:"
"""How a connection's listen task is named (``workbench-listen:NAME``)."""


def echo(x: int) -> int:
    """Echo a number."""
    return x


def double(x: int) -> int:
    """Double a number."""
    return 2 * x


def listen_tasks(wb: Workbench, prefix: str = LISTENING) -> list[str]:
    """The listen tasks (or others named ``prefix...``) alive on ``wb``'s bridge loop."""

    async def alive() -> list[str]:
        return [
            task.get_name()
            for task in asyncio.all_tasks()
            if task.get_name().startswith(prefix) and not task.done()
        ]

    return wb._bridge.run(alive())


@pytest.fixture
def served() -> Iterator[tuple[Workbench, ServeHandle]]:
    """A Workbench serving one notebook tool, ``echo``."""
    with Workbench() as server:
        server.set_owned_tools("cell:1", [FunctionTool(echo)])
        handle = server.serve()
        try:
            yield server, handle
        finally:
            handle.stop()


@pytest.mark.integration
def test_tools_added_and_removed_on_the_server_reach_the_registry(
    wb: Workbench, served: tuple[Workbench, ServeHandle]
) -> None:
    server, handle = served
    wb.connect("served", url=handle.url, token=handle.token)
    assert wb._manager.get("served").protocol_version == SESSIONLESS
    assert "served.echo" in wb.registry and "served.double" not in wb.registry

    server.add_tools(double)  # a new tool on the server side
    assert eventually(lambda: "served.double" in wb.registry), (
        "the registry never heard that 'double' was added"
    )
    assert wb.call("served.double", {"x": 4}).structured_content == {"result": 8}

    server.set_owned_tools("cell:1", [])  # the cell re-run without its function
    assert eventually(lambda: "served.echo" not in wb.registry), (
        "the registry never heard that 'echo' was removed"
    )
    assert {info.name: info.tool_count for info in wb.servers()}["served"] == 1


@pytest.mark.integration
def test_the_stream_lives_and_ends_with_the_connection(
    wb: Workbench, served: tuple[Workbench, ServeHandle]
) -> None:
    server, handle = served
    wb.connect("served", url=handle.url, token=handle.token)
    assert handle.clients == 1 and listen_tasks(wb) == ["workbench-listen:served"]

    wb.reconnect("served")  # the old stream ends, a new one is opened
    assert eventually(lambda: handle.clients == 1)
    assert listen_tasks(wb) == ["workbench-listen:served"]
    server.add_tools(double)
    assert eventually(lambda: "served.double" in wb.registry)

    started = time.perf_counter()
    wb.disconnect("served")
    assert time.perf_counter() - started < 2.0
    assert listen_tasks(wb) == []
    assert eventually(lambda: handle.clients == 0)


@pytest.mark.integration
def test_a_server_stopping_ends_the_stream_quietly(
    wb: Workbench, served: tuple[Workbench, ServeHandle], caplog: pytest.LogCaptureFixture
) -> None:
    """The stream ends with the server; the listener tries to listen again, finds the
    server gone and reconnects in the background, backing off (debug records only); a
    disconnect meanwhile cancels that at once."""
    _, handle = served
    with caplog.at_level(logging.DEBUG, logger="workbench.mcp.live"):
        wb.connect("served", url=handle.url, token=handle.token)
        handle.stop()
        assert eventually(lambda: "listening again in" in caplog.text)
        assert eventually(lambda: "reconnecting failed" in caplog.text, 10.0)
        assert listen_tasks(wb, "workbench-reconnect:") == ["workbench-reconnect:served"]
        started = time.perf_counter()
        wb.disconnect("served")
        assert time.perf_counter() - started < 2.0
    assert listen_tasks(wb) == [] and listen_tasks(wb, "workbench-reconnect:") == []
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text


def restarted(server: Workbench, handle: ServeHandle) -> ServeHandle:
    """``server`` served again at ``handle``'s URL and token, ``handle`` stopped first (as
    a notebook restarted on the same port is)."""
    handle.stop()
    return server.serve(port=handle.port, token=handle.token)


@pytest.mark.integration
def test_a_restarted_server_is_listened_to_again(
    wb: Workbench, served: tuple[Workbench, ServeHandle]
) -> None:
    """At 2026-07-28 nothing reconnects a client to a restarted server (calls just work):
    the listener opens a new stream itself, so later changes are still heard."""
    server, handle = served
    wb.connect("served", url=handle.url, token=handle.token)
    again = restarted(server, handle)
    try:
        assert eventually(lambda: again.clients == 1, 10.0), "no new listen stream"
        server.add_tools(double)  # a change once the server is back
        assert eventually(lambda: "served.double" in wb.registry, 10.0), (
            "the registry never heard that 'double' was added after the restart"
        )
        assert listen_tasks(wb) == ["workbench-listen:served"]
    finally:
        again.stop()


@pytest.mark.integration
def test_changes_while_the_stream_was_down_are_heard_after_listening_again(
    wb: Workbench, served: tuple[Workbench, ServeHandle]
) -> None:
    """The server replays nothing: after listening again the tools are listed once more.
    A served notebook serves tools only, so no prompt or resource change is made up."""
    server, handle = served
    heard: list[ServerChange] = []
    wb.subscribe_changes(heard.append)
    wb.connect("served", url=handle.url, token=handle.token)
    handle.stop()
    server.add_tools(double)  # while nothing is served: no event carries it
    again = server.serve(port=handle.port, token=handle.token)
    try:
        assert eventually(lambda: "served.double" in wb.registry, 10.0), (
            "the registry never heard of 'double', added while the stream was down"
        )
        assert wb.call("served.double", {"x": 4}).structured_content == {"result": 8}
        assert [change for change in heard if change.what in ("prompts", "resources")] == []
    finally:
        again.stop()


def listening_server(name: str) -> tuple[FastMCP, ListenHandler]:
    """A FastMCP server with one tool that serves ``subscriptions/listen`` itself."""
    server = FastMCP(name)
    listen = ListenHandler(InMemorySubscriptionBus())
    server._mcp_server.add_request_handler(
        "subscriptions/listen", mcp_types.SubscriptionsListenRequestParams, listen
    )

    @server.tool
    def hello() -> str:
        """Say hello."""
        return "hello"

    return server, listen


def close_streams(wb: Workbench, listen: ListenHandler) -> None:
    """End ``listen``'s streams gracefully, on the bridge loop the in-process server uses."""

    async def close() -> None:
        listen.close()

    wb._bridge.run(close())


@pytest.mark.integration
def test_a_stream_the_server_ends_is_opened_again(wb: Workbench) -> None:
    """The server closes its listen streams (gracefully) but stays up."""
    server, listen = listening_server("closing")
    wb.connect("closing", server=server)
    assert listen_tasks(wb) == ["workbench-listen:closing"]
    close_streams(wb, listen)
    server.tool(double)
    assert eventually(lambda: "closing.double" in wb.registry), "no listen after the close"
    assert eventually(lambda: len(listen._streams) == 1)


@pytest.mark.integration
def test_prompt_and_resource_listeners_hear_of_a_stream_opened_again(wb: Workbench) -> None:
    """Changes made while the stream was down went unheard: a server advertising prompts
    and resources has its prompt and resource listeners told their lists may have changed."""
    server, listen = listening_server("offering_both")
    heard: list[ServerChange] = []
    wb.subscribe_changes(heard.append)
    wb.connect("offering_both", server=server)
    close_streams(wb, listen)
    assert eventually(lambda: ServerChange("offering_both", "prompts") in heard)
    assert eventually(lambda: ServerChange("offering_both", "resources") in heard)


@pytest.mark.integration
def test_a_server_refusing_to_listen_again_is_left_alone(
    wb: Workbench, caplog: pytest.LogCaptureFixture
) -> None:
    """A server that no longer serves the listen (method not found) is not asked again."""
    server, listen = listening_server("forgetting")
    asked: list[int] = []

    async def once(ctx: Any, params: Any) -> Any:
        asked.append(1)
        if len(asked) > 1:
            raise MCPError(mcp_types.METHOD_NOT_FOUND, "Method not found")
        return await listen(ctx, params)

    server._mcp_server.add_request_handler(
        "subscriptions/listen", mcp_types.SubscriptionsListenRequestParams, once
    )
    with caplog.at_level(logging.DEBUG, logger="workbench.mcp.live"):
        wb.connect("forgetting", server=server)
        close_streams(wb, listen)
        assert eventually(lambda: listen_tasks(wb) == [])
    assert len(asked) == 2
    assert "no live updates (subscriptions/listen: Method not found)" in caplog.text
    assert wb.call("forgetting.hello").text == "hello"


def test_prompt_and_resource_list_changes_reach_change_listeners(wb: Workbench) -> None:
    """The served notebook has tools only: a FastMCP server of the test's own serves
    ``subscriptions/listen`` for its prompts and resources (as our served notebook does)."""
    server = FastMCP("offering")
    bus = InMemorySubscriptionBus()
    server._mcp_server.add_request_handler(
        "subscriptions/listen", mcp_types.SubscriptionsListenRequestParams, ListenHandler(bus)
    )

    @server.prompt
    def greet() -> str:
        """A greeting."""
        return "hello"

    @server.resource("test://note")
    def note() -> str:
        """A note."""
        return "a note"

    heard: list[ServerChange] = []
    wb.subscribe_changes(heard.append)
    wb.connect("offering", server=server)
    assert wb._manager.get("offering").protocol_version == SESSIONLESS
    assert listen_tasks(wb) == ["workbench-listen:offering"]

    wb._bridge.run(bus.publish(PromptsListChanged()))
    assert eventually(lambda: ServerChange("offering", "prompts") in heard)
    wb._bridge.run(bus.publish(ResourcesListChanged()))
    assert eventually(lambda: ServerChange("offering", "resources") in heard)


def test_a_server_refusing_to_listen_is_tolerated(
    wb: Workbench, caplog: pytest.LogCaptureFixture
) -> None:
    """A server that advertises list changes at 2026-07-28 but answers the listen request
    with an error: the connection works as before (no warning: warnings fail tests)."""
    server = FastMCP("refusing")

    @server.tool
    def hello() -> str:
        """Say hello."""
        return "hello"

    async def refuse(ctx: Any, params: Any) -> Any:
        raise MCPError(mcp_types.METHOD_NOT_FOUND, "Method not found")

    server._mcp_server.add_request_handler(
        "subscriptions/listen", mcp_types.SubscriptionsListenRequestParams, refuse
    )
    with caplog.at_level(logging.DEBUG, logger="workbench.mcp.live"):
        wb.connect("refusing", server=server)
    assert "no live updates (subscriptions/listen: Method not found)" in caplog.text
    connection = wb._manager.get("refusing")
    assert connection.protocol_version == SESSIONLESS
    assert connection.capabilities["tools"] == {"listChanged": True}
    assert listen_tasks(wb) == []
    assert wb.call("refusing.hello").text == "hello"


def test_a_server_without_list_changes_is_not_asked(wb: Workbench) -> None:
    """Plain FastMCP serves no listen at 2026-07-28 and says so (``listChanged`` false)."""
    server = FastMCP("plain")

    @server.tool
    def hello() -> str:
        """Say hello."""
        return "hello"

    wb.connect("plain", server=server)
    connection = wb._manager.get("plain")
    assert connection.protocol_version == SESSIONLESS
    assert not connection.capabilities["tools"].get("listChanged")
    assert listen_tasks(wb) == []
    assert wb.call("plain.hello").text == "hello"
