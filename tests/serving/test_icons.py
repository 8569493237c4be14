"""Icons over real transports: a notebook tool's icons reach an outside fastmcp.Client of
``%mcp serve`` in both eras, and a connected server's tool icons are kept in the registry."""

from __future__ import annotations

from typing import Any

import pytest
from fastmcp import Client, FastMCP
from mcp.types import Icon as McpIcon

from tests.serving.conftest import Outside, with_client
from workbench.display import ServerTable
from workbench.display.schemas import validator_for_def
from workbench.lab.state import state_document
from workbench.serving.own_icon import SRC
from workbench.session import Workbench
from workbench.tools import tool
from workbench.tools.icons import Icon, icons_of, shown_icon

PNG = "data:image/png;base64,iVBORw0KGgo="
REMOTE = "https://icons.example/dark.png"


@pytest.mark.integration
@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_an_outside_client_sees_a_served_tools_icons(
    wb: Workbench, outside: type[Outside], mode: str
) -> None:
    @tool(icons=[PNG, {"src": REMOTE, "theme": "dark", "sizes": ["32x32"]}])
    def shout(text: str) -> str:
        """Upper-case a text."""
        return text.upper()

    wb.add_tools(shout)
    handle = wb.serve()
    listed = outside(handle.url, handle.token, mode).ask("describe")
    assert listed["shout"]["icons"] == [
        {"src": PNG, "mimeType": None, "sizes": None, "theme": None},
        {"src": REMOTE, "mimeType": None, "sizes": ["32x32"], "theme": "dark"},
    ]


@pytest.mark.integration
def test_the_registry_keeps_a_connected_servers_tool_icons(wb: Workbench) -> None:
    server = FastMCP("iconic")

    @server.tool(icons=[McpIcon(src=REMOTE, theme="dark"), McpIcon(src=PNG, mime_type="image/png")])
    def ping() -> str:
        """Answer pong."""
        return "pong"

    wb.connect("iconic", server=server)
    entry = wb.registry.get("iconic.ping")
    assert entry.icons == (Icon(REMOTE, theme="dark"), Icon(PNG, mime_type="image/png"))
    assert shown_icon(entry.icons, "dark") == PNG  # the https icon is never the one drawn


@pytest.mark.integration
def test_a_connected_servers_own_icons_are_kept_and_shown_only_when_drawable(
    wb: Workbench,
) -> None:
    server = FastMCP("badged", icons=[McpIcon(src=REMOTE), McpIcon(src=PNG, theme="light")])
    wb.connect("badged", server=server)
    [info] = [info for info in wb.servers() if info.name == "badged"]
    assert info.icons == (Icon(REMOTE), Icon(PNG, theme="light"))
    assert info.drawable_icons(65536) == {"any": PNG}
    table = ServerTable(wb.servers())
    assert table.to_json()["servers"][0]["icon"] == {"any": PNG}
    assert f'src="{PNG}"' in table.to_html() and REMOTE not in table.to_html()
    state = state_document(wb, None)
    check = validator_for_def("sidebar", "reply")
    assert not [error.message for error in check.iter_errors(state)]
    assert [row.get("icon") for row in state["servers"]] == [{"any": PNG}]


async def _server_icons(client: Client[Any]) -> list[dict[str, Any]]:
    info = client.server_info
    assert info is not None
    return [icon.model_dump(by_alias=True, exclude_none=True) for icon in info.icons or []]


@pytest.mark.integration
@pytest.mark.parametrize("mode", ["legacy", "auto"])  # initialize, then server/discover
def test_a_served_surface_lists_the_workbenchs_own_icon(wb: Workbench, mode: str) -> None:
    wb.add_tools(tool(lambda: "", name="noop"))
    handle = wb.serve()
    seen = with_client(handle.url, handle.token, _server_icons, mode=mode)
    assert seen == [{"src": SRC, "mimeType": "image/svg+xml", "sizes": ["any"]}]
    assert shown_icon(icons_of(seen)) == SRC  # the workbench itself would draw it
