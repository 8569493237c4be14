"""A notebook-built MCP App served to a real outside client over HTTP, in both eras: the UI
tool is listed with ``_meta.ui.resourceUri``, its ``ui://notebook/`` resource is listed and
readable as ``text/html;profile=mcp-app`` with its ``_meta.ui``, the surface declares the
``io.modelcontextprotocol/ui`` extension, an App goes with the tools that name it, a tool
naming an App not defined yet gets a line saying so, and a re-run App tells subscribers."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from fastmcp import Client
from mcp.shared.exceptions import MCPError

from tests.serving.conftest import with_client
from tests.serving.test_offers import Heard, _collect
from workbench.session import Workbench
from workbench.tools.app_definition import APP_MIME_TYPE, UI_EXTENSION, App
from workbench.tools.from_function import tool

MODES = pytest.mark.parametrize("mode", ["legacy", "auto"])
CSP = {"connectDomains": ["https://api.example"]}


def clock_app(html: str = "<p>clock</p>") -> App:
    return App("clock", html=html, csp=CSP, prefers_border=True)


@pytest.fixture
def built(wb: Workbench) -> Workbench:
    @tool(ui="clock")
    def now() -> str:
        """The time."""
        return "noon"

    @tool(ui="clock", visibility=["app"])
    def tick() -> str:
        """Advance the clock (for the App)."""
        return "tick"

    @tool(ui="later")
    def soon() -> str:
        """Its App comes in a later cell."""
        return "soon"

    @tool
    def plain() -> str:
        """No App."""
        return "plain"

    wb.set_owned_tools("cell:tools", [now, tick, soon, plain])
    wb.set_owned_offers("cell:app", [clock_app(), App("orphan", html="<p/>")])
    return wb


@pytest.mark.integration
@MODES
def test_an_outside_client_gets_the_ui_tool_and_reads_its_app(built: Workbench, mode: str) -> None:
    handle = built.serve()

    async def work(client: Client[Any]) -> dict[str, Any]:
        tools = {t.name: (t.meta or {}).get("ui") for t in await client.list_tools()}
        resources = {
            str(r.uri): (r.mime_type, (r.meta or {}).get("ui"))
            for r in await client.list_resources()
        }
        read = (await client.read_resource("ui://notebook/clock"))[0]
        with pytest.raises(MCPError) as missing:
            await client.read_resource("ui://notebook/later")
        extensions = (
            client.server_capabilities.extensions if client.server_capabilities else None
        ) or {}
        return {
            "tools": tools,
            "resources": resources,
            "read": (read.mime_type, getattr(read, "text", None), (read.meta or {}).get("ui")),
            "missing": missing.value.error.message,
            "extensions": extensions,
        }

    seen = with_client(handle.url, handle.token, work, mode)
    tools = seen["tools"]
    assert tools["now"] == {"resourceUri": "ui://notebook/clock"}
    assert tools["soon"] == {"resourceUri": "ui://notebook/later"}
    assert tools["plain"] is None
    # an app-only tool: listed with its visibility, or hidden from a model-facing listing
    assert tools.get("tick", {"visibility": ["app"]})["visibility"] == ["app"]
    ui = {"csp": CSP, "prefersBorder": True}
    assert seen["resources"] == {"ui://notebook/clock": (APP_MIME_TYPE, ui)}  # no orphan
    assert seen["read"] == (APP_MIME_TYPE, "<p>clock</p>", ui)
    assert "The App later is not defined: run its %%app later cell" in seen["missing"]
    # SEP-2133 extensions are declared from 2026-07-28 on (the handshake era has no field)
    assert seen["extensions"].get(UI_EXTENSION) == ({} if mode == "auto" else None)


@pytest.mark.integration
def test_the_app_goes_with_the_tools_that_name_it(built: Workbench) -> None:
    async def work(client: Client[Any]) -> tuple[list[str], list[str], bool]:
        resources = sorted(str(r.uri) for r in await client.list_resources())
        tools = sorted(t.name for t in await client.list_tools())
        extensions = (
            client.server_capabilities.extensions if client.server_capabilities else None
        ) or {}
        return resources, tools, UI_EXTENSION in extensions

    handle = built.serve(expose=["plain"])
    assert with_client(handle.url, handle.token, work) == ([], ["plain"], False)

    async def hidden(client: Client[Any]) -> str:
        with pytest.raises(MCPError) as refused:
            await client.read_resource("ui://notebook/clock")
        return refused.value.error.message

    said = with_client(handle.url, handle.token, hidden)  # hidden, not "not defined"
    assert "not defined" not in said and "ui://notebook/clock" in said
    handle = built.serve(expose=["plain", "orphan"])  # named itself: served
    assert with_client(handle.url, handle.token, work)[0] == ["ui://notebook/orphan"]
    handle = built.serve(exclude=["clock"])  # excluded by name: kept out, its tools stay
    resources, tools, declared = with_client(handle.url, handle.token, work)
    assert resources == [] and "now" in tools and declared


@pytest.mark.integration
def test_a_re_run_app_tells_its_subscriber_and_serves_the_new_html(built: Workbench) -> None:
    handle = built.serve()
    heard = Heard()

    async def main() -> tuple[list[str], str | None]:
        legacy = Client(handle.url, auth=handle.token, mode="legacy", message_handler=heard)
        async with legacy as client:
            await client.session.subscribe_resource("ui://notebook/clock")
            fresh = clock_app("<p>clock, again</p>")
            await asyncio.to_thread(built.set_owned_offers, "cell:app", [fresh])
            said = await _collect(heard.methods, 2)
            read = (await client.read_resource("ui://notebook/clock"))[0]
            return said, getattr(read, "text", None)

    said, text = asyncio.run(main())
    assert said == ["resources/list_changed", "resources/updated ui://notebook/clock"]
    assert text == "<p>clock, again</p>"
