"""ToolCard: header, badges, description and the parameter table."""

from __future__ import annotations

from typing import Any

from workbench.display import OBSERVATION_MIME, ToolCard
from workbench.display.mime import TOOL_MIME
from workbench.registry.entry import ToolEntry

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "shape": {"$ref": "#/$defs/Shape"},
        "items": {"type": "array", "items": {"$ref": "#/$defs/Item"}},
        "note": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
        "mode": {"enum": ["fast", "slow"], "default": "fast", "description": "How to <run>."},
    },
    "required": ["shape", "items"],
    "$defs": {
        "Shape": {"enum": ["circle", "square"], "type": "string", "description": "The shape."},
        "Item": {"type": "object", "properties": {"name": {"type": "string"}}},
    },
}


def entry(**extra: Any) -> ToolEntry:
    data = {
        "name": "draw",
        "title": "Draw shapes",
        "description": "Draws shapes. <script>alert(1)</script>",
        "inputSchema": SCHEMA,
        "annotations": {"readOnlyHint": True, "openWorldHint": True},
        **extra,
    }
    return ToolEntry.from_tool("art", data)


def test_bundle_has_plain_html_and_the_tool_document() -> None:
    data = ToolCard(entry())._repr_mimebundle_()
    assert set(data) == {"text/plain", "text/html", TOOL_MIME}
    assert OBSERVATION_MIME not in data


def test_plain_text_shows_header_badges_description_and_rows() -> None:
    lines = ToolCard(entry()).to_plain().splitlines()
    assert lines[0] == "art.draw  Draw shapes"
    assert lines[1] == "read-only · open-world"
    assert lines[2] == "Draws shapes. <script>alert(1)</script>"
    rows = [line.split() for line in lines[5:]]
    assert rows[0][:4] == ["shape", '"circle"', "|", '"square"']
    assert rows[0][4:] == ["yes", "The", "shape."]
    assert rows[1] == ["items", "array[object]", "yes"]
    assert rows[2] == ["note", "string", "|", "null", "null"]
    assert rows[3][-4:] == ['"fast"', "How", "to", "<run>."]


def test_html_escapes_description_and_shows_badges_and_rows() -> None:
    html = ToolCard(entry()).to_html()
    assert html.startswith('<div class="wb-tool-card"')
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "How to &lt;run&gt;." in html
    assert ">read-only</span>" in html and ">open-world</span>" in html
    assert "&quot;circle&quot; | &quot;square&quot;" in html
    assert "array[object]" in html and "string | null" in html
    assert html.count("<tr ") == 5  # header + four parameters


def test_title_equal_to_name_is_not_repeated_and_no_parameters_is_said() -> None:
    card = ToolCard(ToolEntry.from_tool("s", {"name": "ping", "inputSchema": {"type": "object"}}))
    assert card.to_plain() == "s.ping\nNo parameters."
    assert "No parameters." in card.to_html()
