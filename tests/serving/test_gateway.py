"""The gateway: ``find_tools`` / ``call_tool`` over every connected server on the served
surface, next to the notebook tools or alone; the surface's filters still hold for notebook
tools reached through it, and its calls are recorded as from outside."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastmcp import Client

from tests.serving.conftest import with_client
from workbench.errors import ServeError
from workbench.session import Workbench


def define(wb: Workbench) -> None:
    def alpha_secret(x: int) -> int:
        """Return the launch code for a number."""
        return x

    def beta_echo(x: int) -> int:
        """Echo a number back."""
        return x

    wb.add_tools(alpha_secret, beta_echo)


async def session(client: Client[Any]) -> dict[str, Any]:
    listed = sorted(tool.name for tool in await client.list_tools())
    found = await client.call_tool("find_tools", {"query": "add two numbers launch code"})
    calls = {}
    for name, arguments in (
        ("demo.add", {"a": 2, "b": 3}),
        ("notebook.alpha_secret", {"x": 1}),
        ("alpha_secret", {"x": 1}),
        ("notebook.beta_echo", {"x": 7}),
    ):
        result = await client.call_tool("call_tool", {"name": name, "arguments": arguments})
        calls[name] = result.content[0].text  # type: ignore[union-attr]
    hits = json.loads(found.content[0].text)["tools"]  # type: ignore[union-attr]
    return {"listed": listed, "found": [hit["id"] for hit in hits], "calls": calls}


def test_the_gateway_reaches_every_server_but_hidden_notebook_tools(wb: Workbench) -> None:
    wb.connect("demo")
    define(wb)
    handle = wb.serve(gateway=True, exclude=["alpha_secret"])
    seen = with_client(handle.url, handle.token, session)
    assert seen["listed"] == ["beta_echo", "call_tool", "find_tools"]
    assert "demo.add" in seen["found"]
    assert "notebook.alpha_secret" not in seen["found"]
    assert seen["calls"]["demo.add"] == "5.0"
    assert seen["calls"]["notebook.beta_echo"] == "7"
    for hidden in ("notebook.alpha_secret", "alpha_secret"):
        assert "Unknown tool" in seen["calls"][hidden]
    recorded = [(call.tool_id, call.source) for call in wb.history]
    assert recorded == [("demo.add", "outside"), ("notebook.beta_echo", "outside")]


def test_gateway_only_serves_the_pair_alone(wb: Workbench) -> None:
    wb.connect("demo")
    define(wb)
    handle = wb.serve(gateway="only")
    assert handle.tools() == ["find_tools", "call_tool"]
    seen = with_client(handle.url, handle.token, session)
    assert seen["listed"] == ["call_tool", "find_tools"]
    assert seen["calls"]["notebook.alpha_secret"] == "1"  # not filtered: only the pair is
    assert "notebook.alpha_secret" in seen["found"]  # so the first test's filter is what hid it
    with pytest.raises(ServeError, match="gateway"):
        wb.serve(gateway="sometimes")
