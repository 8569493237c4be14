"""The MCP Apps notebook runs top to bottom in a real kernel: it hosts the App of the real
``server-basic-vanillajs`` (npm, over stdio), builds one from a ``%%app`` and a ``%%tool --ui``
cell, serves it and reads it back with fastmcp's Client. (That the Apps draw is the browser
tests' part: tests/browser/test_lab_apps.py.)"""

from __future__ import annotations

from typing import Any

import pytest

from tests.app_servers import APP_MIME_TYPE, BASIC, BASIC_URI, app_server
from tests.notebooks.executed import by_cell, documents, execute, read, shown_by
from workbench.display.mime import APP_MIME

pytestmark = pytest.mark.kernel


@pytest.fixture(scope="module")
def cells() -> dict[str, list[dict[str, Any]]]:
    app_server(BASIC)  # installed at the pin, or fail saying how to install it
    notebook = read("apps.ipynb")
    outputs = execute(notebook)
    errors = [out for out in outputs if out["output_type"] == "error"]
    assert not errors, errors
    return by_cell(notebook)


def test_a_real_servers_app_comes_with_its_call(cells: dict[str, list[dict[str, Any]]]) -> None:
    [doc] = documents(cells["call"], APP_MIME)
    assert (doc["server"], doc["tool"], doc["uri"]) == ("basic", "get-time", BASIC_URI)
    assert doc["live"] is True and len(doc["html_sha256"]) == 64
    assert doc["result"]["structuredContent"]["time"][:2] == "20"
    assert f"App: {BASIC_URI}" in shown_by(cells["call"])  # for frontends without the extension


def test_an_app_built_in_cells_shows_its_tools_result(
    cells: dict[str, list[dict[str, Any]]],
) -> None:
    assert "Serving App dice at ui://notebook/dice" in shown_by(cells["app"])
    [doc] = documents(cells["roll"], APP_MIME)
    assert (doc["server"], doc["tool"], doc["uri"]) == (
        "notebook",
        "roll_dice",
        "ui://notebook/dice",
    )
    assert "McpApps" in doc["html"]  # the SDK, inlined where the page asked for it
    rolls = doc["result"]["structuredContent"]["rolls"]
    assert len(rolls) == 3 and doc["input"] == {"count": 3}


def test_the_served_app_is_listed_and_read_by_an_outside_client(
    cells: dict[str, list[dict[str, Any]]],
) -> None:
    shown = shown_by(cells["client"])
    assert "roll_dice shows ui://notebook/dice" in shown
    assert f"served as {APP_MIME_TYPE}" in shown
    assert "Stopped serving" in shown_by(cells["stop"])
