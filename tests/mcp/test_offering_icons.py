"""A connected server's resources, templates and prompts keep their icons (as data), and their
tables draw only the drawable ones: data: images, never the https icon."""

from __future__ import annotations

import pytest
from fastmcp import FastMCP
from mcp.types import Icon as McpIcon

from workbench.display import PromptTable, ResourceTable, TemplateTable
from workbench.session import Workbench
from workbench.tools.icons import Icon

PNG = "data:image/png;base64,iVBORw0KGgo="
REMOTE = "https://icons.example/r.png"
ICONS = [McpIcon(src=REMOTE), McpIcon(src=PNG, theme="dark")]


def iconic_server() -> FastMCP:
    server = FastMCP("offers")

    @server.resource("memo://today", icons=ICONS)
    def today() -> str:
        """Today's memo."""
        return "nothing"

    @server.resource("memo://{day}", icons=ICONS)
    def memo(day: str) -> str:
        """A day's memo."""
        return day

    @server.prompt(icons=ICONS)
    def greet(name: str) -> str:
        """Greet someone."""
        return f"Hello {name}"

    return server


@pytest.mark.integration
def test_offerings_keep_their_icons_and_tables_draw_only_data_images(wb: Workbench) -> None:
    wb.connect("offers", server=iconic_server())
    kept = (Icon(REMOTE), Icon(PNG, theme="dark"))
    [resource] = wb.resources("offers")
    [template] = wb.resource_templates("offers")
    [prompt] = wb.prompts("offers")
    assert resource.icons == template.icons == prompt.icons == kept
    for table in (ResourceTable([resource]), TemplateTable([template]), PromptTable([prompt])):
        html = table.to_html()
        assert f'src="{PNG}"' in html and REMOTE not in html, type(table).__name__
        [icon] = [cell["icon"] for row in table.to_json()["rows"] for cell in row if "icon" in cell]
        assert icon == {"any": PNG}
