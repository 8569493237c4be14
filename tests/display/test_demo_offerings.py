"""The views of what the demo server offers, read through a real Workbench: what a notebook
shows after ``wb.resources()``, ``wb.read_resource(...)``, ``wb.get_prompt(...)``."""

from __future__ import annotations

import json

import pytest

import workbench.display  # noqa: F401  (installs the views)
from workbench.display import HistoryTable, ServerTable
from workbench.display.content import MAX_BYTES
from workbench.session import Workbench


@pytest.fixture
def demo(wb: Workbench) -> Workbench:
    wb.connect("demo")
    return wb


def test_listings_are_tables_with_the_demo_rows(demo: Workbench) -> None:
    resources = demo.resources()._repr_mimebundle_()
    assert resources["text/html"].startswith('<div class="wb-resource-table"')
    assert "demo://guide" in resources["text/plain"] and "image/png" in resources["text/plain"]
    assert resources["text/plain"].startswith("2 resources from 1 server")
    templates = demo.resource_templates()._repr_mimebundle_()["text/plain"]
    assert "demo://numbers/{n}" in templates and "{n}" in templates.split("demo://numbers")[1]
    prompts = demo.prompts()._repr_mimebundle_()["text/plain"]
    assert "explain_tool" in prompts and "tool*, level" in prompts


def test_reads_show_the_chart_inline_and_the_numbers_as_pretty_json(demo: Workbench) -> None:
    chart = demo.read_resource("demo://chart.png")
    html = chart._repr_mimebundle_()["text/html"]
    assert '<img src="data:image/png;base64,' in html and "<a download" not in html
    numbers = demo.read_resource("demo://numbers/{n}", n=12)
    plain = numbers._repr_mimebundle_()["text/plain"]
    assert plain.splitlines()[0].startswith("demo://numbers/12  ")
    body = plain.split("application/json", 1)[1]
    assert json.loads(body)["n"] == 12 and '\n  "n": 12' in body
    history = HistoryTable(demo.history).to_plain()
    assert "read demo://chart.png" in history and "read demo://numbers/12" in history


def test_a_prompt_is_a_conversation(demo: Workbench) -> None:
    result = demo.get_prompt("explain_tool", {"tool": "add", "level": "expert"})
    data = result._repr_mimebundle_()
    assert data["text/plain"].startswith("demo.explain_tool  2 messages  ")
    assert "tool=add  level=expert" in data["text/plain"]
    html = data["text/html"]
    assert 'wb-role-user"' in html and 'wb-role-assistant"' in html
    assert "Explain the MCP tool `add`" in html
    assert sum(len(value.encode()) for value in data.values()) <= MAX_BYTES


def test_servers_pinged_show_a_ping_column(demo: Workbench) -> None:
    table = ServerTable(demo.servers(ping=True))
    assert "ping" in table.headers
    assert table.rows[0][table.headers.index("ping")].text.endswith(" ms")
    assert "ping" not in ServerTable(demo.servers()).headers
