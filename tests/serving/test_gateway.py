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
from workbench.tools import tool


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


@pytest.mark.integration
def test_the_gateway_reaches_every_server_but_hidden_notebook_tools(wb: Workbench) -> None:
    wb.connect("demo")
    define(wb)
    handle = wb.serve(gateway=True, exclude=["alpha_secret"])
    seen = with_client(handle.url, handle.token, session)
    assert seen["listed"] == ["beta_echo", "call_tool", "find_tools"]
    assert "demo.add" in seen["found"]
    assert "notebook.alpha_secret" not in seen["found"]
    assert seen["calls"]["demo.add"] == "5"
    assert seen["calls"]["notebook.beta_echo"] == "7"
    for hidden in ("notebook.alpha_secret", "alpha_secret"):  # as if it were not there
        assert f"No tool named {hidden!r}." in seen["calls"][hidden]
    recorded = [(call.tool_id, call.source) for call in wb.history]
    assert recorded == [("demo.add", "outside"), ("notebook.beta_echo", "outside")]


@pytest.mark.integration
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


def define_hidden(wb: Workbench) -> None:
    def public_echo(x: int) -> int:
        """Echo a number back."""
        return x

    def wipe(x: int) -> int:
        """Delete everything."""
        return x

    def aaa_secret_admin(x: int) -> int:
        """Admin secret tool."""
        return x

    def hidden_tool(x: int) -> int:
        """A tool nobody may see."""
        return x

    wb.add_tools(public_echo, wipe, aaa_secret_admin, tool(hidden_tool, enabled=lambda: False))


HIDDEN = ("wipe", "aaa_secret_admin", "hidden_tool")
NOT_THERE = "[Tool error] <asked>: not_found: No tool named '<asked>'."
ASKED = ("notebook.wip", "wip", "hidden", "aaa_secret", "secret", "admin", "notebook.publik_echo",
         "notebook.hidden_tool", "notebook.aaa_secret_admin", "wipe",
         "notebook.no_such_tool")  # fmt: skip


async def gateway_words(client: Client[Any]) -> dict[str, Any]:
    """Everything the gateway says that could name a tool: instructions, suggestions, hits."""
    said = {"instructions": client.instructions}
    for name in ASKED:
        answer = await client.call_tool("call_tool", {"name": name, "arguments": {"x": 1}})
        said[name] = answer.content[0].text.replace(name, "<asked>")  # type: ignore[union-attr]
    query = "wipe delete admin secret hidden"
    found = await client.call_tool("find_tools", {"query": query})
    said["found"] = found.content[0].text.replace(query, "<asked>")  # type: ignore[union-attr]
    return said


@pytest.mark.integration
@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_g9_the_gateway_names_no_hidden_notebook_tool(wb: Workbench, mode: str) -> None:
    wb.connect("demo")
    define_hidden(wb)
    handle = wb.serve(gateway="also", exclude=["wipe", "aaa_secret_admin"])
    said = with_client(handle.url, handle.token, gateway_words, mode=mode)

    for where, text in said.items():
        for name in HIDDEN:
            assert name not in str(text), (where, name, text)
    assert "- notebook (1 tools): public_echo." in said["instructions"]
    assert "- demo (" in said["instructions"]
    assert "Did you mean: notebook.public_echo?" in said["notebook.publik_echo"]
    for name in ("notebook.hidden_tool", "notebook.aaa_secret_admin", "wipe"):  # not there
        assert said[name].startswith(NOT_THERE), (name, said[name])
    assert said["notebook.no_such_tool"].startswith(NOT_THERE)
    ran = [call.tool_id for call in wb.history]
    assert not [tool_id for tool_id in ran if tool_id.partition(".")[2] in HIDDEN], ran
