"""The JSON documents of the tool card and the server table: what the JupyterLab extension
draws in a saved notebook, so their shape is a contract and no secret may reach them."""

from __future__ import annotations

import json
from typing import Any

from workbench.display import ServerTable, ToolCard
from workbench.display.mime import OBSERVATION_MIME, SERVERS_MIME, TOOL_MIME, Displayable
from workbench.display.schemas import validator_for_mime
from workbench.mcp.manager import ServerInfo
from workbench.registry.entry import ToolEntry

SECRET = "s3cr3t-t0ken-value"


def assert_schema(mime: str, doc: dict[str, Any]) -> None:
    """The document matches its JSON Schema (workbench/display/schemas/), the shape the
    extension's generated types read; the checks below are about the values."""
    errors = [f"{e.instance_path}: {e.message}" for e in validator_for_mime(mime).iter_errors(doc)]
    assert not errors, errors


def card() -> ToolCard:
    schema = {
        "type": "object",
        "properties": {
            "city": {"type": "string", "description": "Where."},
            "days": {"type": "integer", "default": 3},
        },
        "required": ["city"],
    }
    entry = ToolEntry.from_tool(
        "weather",
        {
            "name": "forecast",
            "title": "Forecast",
            "description": "  The weather. <b>bold</b>\n",
            "inputSchema": schema,
            "annotations": {"readOnlyHint": True},
            "_meta": {"fastmcp": {"tags": ["sky"]}},
        },
    )
    return ToolCard(entry)


def test_each_view_names_its_mime_type() -> None:
    assert ToolCard.json_mime == TOOL_MIME == "application/vnd.workbench.tool+json"
    assert ServerTable.json_mime == SERVERS_MIME == "application/vnd.workbench.servers+json"
    assert Displayable.json_mime == OBSERVATION_MIME


def test_tool_card_bundle_and_document() -> None:
    bundle = card()._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html", TOOL_MIME}
    doc: dict[str, Any] = bundle[TOOL_MIME]
    assert json.loads(json.dumps(doc)) == doc
    assert_schema(TOOL_MIME, doc)
    assert (doc["id"], doc["server"], doc["name"], doc["title"]) == (
        "weather.forecast",
        "weather",
        "forecast",
        "Forecast",
    )
    assert doc["description"] == "The weather. <b>bold</b>"
    assert doc["badges"] == ["read-only"] and doc["tags"] == ["sky"]
    assert doc["parameters"] == [
        {
            "name": "city",
            "type": "string",
            "required": True,
            "default": "",
            "description": "Where.",
        },
        {"name": "days", "type": "integer", "required": False, "default": "3", "description": ""},
    ]
    assert TOOL_MIME not in card()._repr_mimebundle_(exclude={TOOL_MIME})


def test_tool_card_without_title_or_parameters() -> None:
    doc = ToolCard(ToolEntry.from_tool("s", {"name": "x", "inputSchema": {}})).to_json()
    assert_schema(TOOL_MIME, doc)
    assert doc["title"] is None and doc["parameters"] == [] and doc["tags"] == []


def server(name: str, target: str, status: str, error: str | None = None) -> ServerInfo:
    return ServerInfo(name, "http", target, status, 2, error, None)


def test_server_table_document_rows_and_hints() -> None:
    hint = "Warnings were logged for a: %mcp servers a shows them."
    table = ServerTable(
        [
            server("a", "http://127.0.0.1:9/mcp", "connected"),
            server("b", "http://h/mcp", "failed", "refused\nTraceback (most recent call last)"),
        ],
        hints=[hint],
    )
    bundle = table._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html", SERVERS_MIME}
    doc = bundle[SERVERS_MIME]
    assert json.loads(json.dumps(doc)) == doc
    assert_schema(SERVERS_MIME, doc)
    assert doc["title"] == "2 servers"
    assert doc["servers"][0] == {
        "name": "a",
        "transport": "http",
        "target": "http://127.0.0.1:9/mcp",
        "status": "connected",
        "toolCount": 2,
        "lastError": None,
        "ping": None,
    }
    assert doc["servers"][1]["lastError"] == "refused"
    assert doc["hints"] == [hint]


def test_server_table_document_masks_secrets_as_the_html_does() -> None:
    target = f"http://user:{SECRET}@h/mcp?api_key={SECRET}"
    error = f"401 for Authorization: Bearer {SECRET}"
    table = ServerTable([server("a", target, "failed", error)])
    text = json.dumps(table.to_json())
    assert_schema(SERVERS_MIME, table.to_json())
    assert SECRET not in text and SECRET not in table.to_html()
    row = table.to_json()["servers"][0]
    assert row["target"] == table.rows[0][2].text
    assert row["lastError"] == table.rows[0][-1].text


def test_empty_server_table_document() -> None:
    doc = ServerTable([]).to_json()
    assert_schema(SERVERS_MIME, doc)
    assert doc["servers"] == [] and doc["title"] == "0 servers"
