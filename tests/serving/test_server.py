"""``serve(server=NAME)``: one connection's tools served through the workbench. An outside
client (another process) sees them as the registry knows them, and its calls take the
Workbench's one call path: validation, the history (marked as from outside), errors."""

from __future__ import annotations

import pytest

from tests.serving.conftest import Outside
from workbench.errors import ServeError, ServerNameError, ServeWarning, UnknownServerError
from workbench.session import Workbench


def echo(x: int) -> int:
    """Echo a number back."""
    return x


@pytest.mark.integration
def test_an_outside_client_lists_and_calls_a_connections_tools(
    wb: Workbench, outside: type[Outside]
) -> None:
    wb.connect("demo")
    handle = wb.serve(server="demo")
    assert handle.server == "demo"
    entries = {entry.name: entry for entry in wb.registry.tools("demo")}
    assert handle.tools() == sorted(entries)
    client = outside(handle.url, handle.token)
    listed = client.ask("describe")
    assert sorted(listed) == sorted(entries)
    for name, entry in entries.items():
        tool = listed[name]
        assert tool["description"] == entry.description
        assert tool["inputSchema"] == entry.input_schema
        assert tool["outputSchema"] == entry.output_schema
    hints = listed["add"]["annotations"]
    assert hints["readOnlyHint"] is True and hints["destructiveHint"] is False

    added = client.ask('call add {"a": 2, "b": 3}')
    assert added["is_error"] is False and added["structured"] == {"result": 5}
    bad = client.ask('call add {"a": "x", "b": 3}')
    assert bad["is_error"] is True
    assert bad["text"] == "Invalid arguments for demo.add: a: must be a number"

    recorded = [(call.tool_id, call.source, call.observation.error_kind) for call in wb.history]
    assert [(tool_id, source) for tool_id, source, _ in recorded] == [
        ("demo.add", "outside"),
        ("demo.add", "outside"),
    ]
    assert recorded[1][2] is not None and recorded[1][2].value == "invalid_arguments"
    assert wb.history[0].arguments == {"a": 2, "b": 3}


@pytest.mark.integration
def test_expose_and_exclude_apply_to_a_connections_tools(
    wb: Workbench, outside: type[Outside]
) -> None:
    wb.connect("demo")
    handle = wb.serve(server="demo", expose=["add", "get_time", "fail"], exclude=["fail"])
    assert handle.tools() == ["add", "get_time"]
    client = outside(handle.url, handle.token)
    assert client.ask("list") == {"names": ["add", "get_time"]}
    hidden = client.ask('call fail {"message": "x"}')
    assert hidden["is_error"] is True and "Unknown tool" in hidden["text"]
    assert len(wb.history) == 0
    with pytest.warns(ServeWarning, match="no tool of demo named nope"):
        wb.serve(server="demo", exclude=["nope"])


@pytest.mark.integration
def test_clients_hear_when_the_connections_tools_change(
    wb: Workbench, outside: type[Outside]
) -> None:
    wb.connect("demo")
    handle = wb.serve(server="demo", expose=["add"])
    client = outside(handle.url, handle.token)
    assert client.ask("list") == {"names": ["add"]}
    wb.add_tools(echo)  # a notebook tool: not the served server, nothing to tell
    assert client.ask("wait_changed 1") == {"changed": False}
    wb.reconnect("demo")  # the demo server lists its tools again
    assert client.ask("wait_changed 10") == {"changed": True}
    assert client.ask('call add {"a": 2, "b": 3}')["structured"] == {"result": 5}
    wb.disconnect("demo")
    assert client.ask("wait_changed 10") == {"changed": True}
    assert client.ask("list") == {"names": []}


@pytest.mark.integration
def test_an_unknown_server_is_refused_before_anything_is_served(wb: Workbench) -> None:
    wb.add_tools(echo)
    first = wb.serve()
    with pytest.raises(UnknownServerError, match="No server named 'nope'"):
        wb.serve(server="nope")
    with pytest.raises(ServerNameError, match="letters, digits"):
        wb.serve(server="a.b")
    wb.connect("demo")
    with pytest.raises(ServeError, match="do not combine"):
        wb.serve(server="demo", gateway=True)
    assert wb.served is first and first.running  # nothing replaced it
    assert wb.serve(server="notebook").tools() == ["echo"]  # the default, named
    assert not first.running
