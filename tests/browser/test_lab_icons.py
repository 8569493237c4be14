"""A tool's icons in a real JupyterLab page: its card, the sidebar's hit, the ``%mcp tools``
table and the tool browser's row draw its data: image, and the page never requests the https
icon the tool also names (a server's URL fetched by the page would tell that third party who
is looking).

One test, JupyterLab only: the sidebar's other behaviour is test_lab_sidebar.py's.
"""

from __future__ import annotations

import base64
import json

from playwright.sync_api import Request, expect

from tests.browser.jupyter_browser import LabPage
from tests.browser.test_lab_sidebar import PANEL

NOTEBOOK = "icons.ipynb"
REMOTE = "https://icons.invalid/tool.png"
PIXEL = (  # a 1x1 PNG
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5E"
    "rkJggg=="
)
ICON = f"data:image/png;base64,{PIXEL}"
DEFINE = f"""%load_ext workbench
import workbench
@workbench.tool(icons=[{REMOTE!r}, {ICON!r}])
def iconic(text: str) -> str:
    \"\"\"Echo a text, with an icon.\"\"\"
    return text
workbench.current().add_tools(iconic)
workbench.display.ToolCard(workbench.current().registry.get("notebook.iconic"))
"""


def write_notebook(lab: LabPage) -> None:
    notebook = {
        "cells": [{"cell_type": "code", "execution_count": None, "id": "c0", "metadata": {},
                   "outputs": [], "source": "x = 1"}],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                    "language": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }  # fmt: skip
    (lab.workdir / NOTEBOOK).write_text(json.dumps(notebook))


def test_a_tools_data_icon_is_drawn_and_its_https_icon_never_requested(lab: LabPage) -> None:
    assert base64.b64decode(PIXEL).startswith(b"\x89PNG")
    requested: list[str] = []

    def record(request: Request) -> None:
        requested.append(request.url)

    lab.page.on("request", record)
    write_notebook(lab)
    lab.open_notebook(NOTEBOOK, ui="lab")
    lab.run_cell_with(DEFINE, index=0)
    lab.page.locator(f'.jp-SideBar li[data-id="{PANEL[1:]}"]').click()
    panel = lab.page.locator(PANEL)
    expect(panel).to_have_attribute("data-status", "ready")

    card_icon = lab.cells().nth(0).locator(".jp-wb-tool-card img.jp-wb-icon")
    expect(card_icon).to_have_attribute("src", ICON)
    hit = panel.locator('.jp-wb-sidebar-hit[data-id="notebook.iconic"]')
    icon = hit.locator("img.jp-wb-icon")
    expect(icon).to_have_attribute("src", ICON)
    expect(icon).to_have_js_property("naturalWidth", 1)  # decoded: a real image, drawn

    lab.run_cell_with("%mcp tools")
    table_icon = lab.cells().nth(1).locator("img.jp-wb-icon")
    expect(table_icon).to_have_attribute("src", ICON)
    lab.run_cell_with("%mcp browse")
    row = lab.cells().nth(2).locator('.wb-tl-row[data-id="notebook.iconic"]')
    expect(row.locator("img.wb-tl-icon")).to_have_attribute("src", ICON)
    lab.screenshot("icons")

    assert lab.page.locator('img[src*="icons.invalid"]').count() == 0
    assert not [url for url in requested if "icons.invalid" in url], requested
