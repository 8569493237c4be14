"""ActionView: tool id and argument table from an Action or a mapping."""

from __future__ import annotations

import json

from workbench.display import OBSERVATION_MIME, ActionView
from workbench.registry.entry import ToolEntry

SCHEMA = {
    "type": "object",
    "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
    "required": ["a", "b"],
}


def test_bundle_from_a_validated_action() -> None:
    entry = ToolEntry.from_tool("demo", {"name": "add", "inputSchema": SCHEMA})
    action = entry.action_from_arguments({"a": 2, "b": 3})
    data = ActionView("demo.add", action)._repr_mimebundle_()
    assert set(data) == {"text/plain", "text/html", OBSERVATION_MIME}
    assert data["text/plain"].splitlines() == ["call demo.add", " a  2", " b  3"]
    assert data["text/html"].startswith('<div class="wb-action"')
    assert data[OBSERVATION_MIME] == {
        "kind": "action",
        "version": 1,
        "toolId": "demo.add",
        "arguments": {"a": 2, "b": 3},
    }


def test_arguments_are_escaped_in_html() -> None:
    html = ActionView("demo.echo", {"<b>": "<script>x</script>"}).to_html()
    assert "<script>" not in html and "<b>" not in html
    assert "&lt;script&gt;x&lt;/script&gt;" in html and "&lt;b&gt;" in html


def test_values_are_json_compact_when_short_and_indented_when_long() -> None:
    plain = ActionView("t.x", {"short": [1, 2], "long": {"k": "v" * 70}}).to_plain()
    assert "[1, 2]" in plain
    assert '"k": "' in plain and "{\n" in plain


def test_long_values_are_cut_with_a_notice() -> None:
    view = ActionView("t.x", {"text": "y" * 3000})
    assert "more characters not shown" in view.to_plain()
    assert "… 1,002 more characters not shown" in view.to_html()
    assert view.to_json()["arguments"]["text"] == "y" * 3000


def test_no_arguments_says_so() -> None:
    view = ActionView("t.x", {})
    assert view.to_plain() == "call t.x\nNo arguments."
    assert "No arguments." in view.to_html()


def test_json_document_survives_values_json_cannot_hold() -> None:
    document = ActionView("t.x", {"when": object()}).to_json()
    json.dumps(document)
    assert document["arguments"]["when"].startswith("<object object")
