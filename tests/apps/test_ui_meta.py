"""``_meta.ui`` read as data (workbench/apps/ui_meta.py): what is well formed is kept as
given, junk of any type is left out, and nothing a server writes raises."""

from __future__ import annotations

from typing import Any

import pytest

from workbench.apps.cache import AppHtml, Refusal, html_of
from workbench.apps.ui_meta import ResourceUi, ToolUi, is_app_mime_type, resource_ui, tool_ui


@pytest.mark.parametrize(
    ("meta", "expected"),
    [
        (None, ToolUi(None, ("model", "app"))),
        ({"ui": {"resourceUri": "ui://a/b.html"}}, ToolUi("ui://a/b.html", ("model", "app"))),
        ({"ui/resourceUri": "ui://a/b.html"}, ToolUi("ui://a/b.html", ("model", "app"))),
        ({"ui": {"resourceUri": "ui://a", "visibility": ["app"]}}, ToolUi("ui://a", ("app",))),
        ({"ui": {"visibility": "app"}}, ToolUi(None, ("model", "app"))),
        ({"ui": {"visibility": ["bogus"]}}, ToolUi(None, ("model", "app"))),
        ({"ui": {"visibility": []}}, ToolUi(None, ("model", "app"))),
        ({"ui": "junk"}, ToolUi(None, ("model", "app"))),
        (["not", "a", "mapping"], ToolUi(None, ("model", "app"))),
    ],
)
def test_a_tools_ui(meta: object, expected: ToolUi) -> None:
    assert tool_ui(meta) == expected


@pytest.mark.parametrize("uri", ["https://x.example/app.html", 42, "file:///etc/passwd", ""])
def test_a_uri_that_is_no_ui_uri_is_a_problem_line(uri: object) -> None:
    found = tool_ui({"ui": {"resourceUri": uri}})
    assert found.resource_uri is None
    assert found.problem is not None and "\n" not in found.problem
    assert "is not a ui:// URI" in found.problem


def test_a_resources_ui_keeps_what_is_well_formed() -> None:
    given: dict[str, Any] = {
        "ui": {
            "csp": {"connectDomains": ["https://a.example", 3], "frameDomains": "x", "other": []},
            "permissions": {"camera": {}},
            "prefersBorder": False,
            "domain": "a.example",
        }
    }
    assert resource_ui(given) == ResourceUi(
        csp={"connectDomains": ["https://a.example"]},
        permissions={"camera": {}},
        prefers_border=False,
        domain="a.example",
    )
    junk = {"ui": {"csp": [], "permissions": "all", "prefersBorder": "yes", "domain": 1}}
    assert resource_ui(junk) == ResourceUi()
    assert resource_ui(None) == ResourceUi()


@pytest.mark.parametrize(
    ("mime_type", "app"),
    [
        ("text/html;profile=mcp-app", True),
        ("text/html; profile=mcp-app", True),
        ('TEXT/HTML; charset=utf-8; profile="mcp-app"', True),
        ("text/html", False),
        ("text/html;profile=other", False),
        ("text/plain;profile=mcp-app", False),
        (None, False),
        (7, False),
    ],
)
def test_an_apps_mime_type(mime_type: object, app: bool) -> None:
    assert is_app_mime_type(mime_type) is app


def test_html_from_a_base64_blob_and_from_junk() -> None:
    blob = {"uri": "ui://a", "mimeType": "text/html;profile=mcp-app", "blob": "PHA+aGk8L3A+"}
    found = html_of("s", "ui://a", blob)
    assert isinstance(found, AppHtml) and found.html == "<p>hi</p>"
    refused = html_of("s", "ui://a", {**blob, "blob": "%%%"})
    assert isinstance(refused, Refusal) and "base64" in refused.line
    empty = html_of("s", "ui://a", {"uri": "ui://a", "mimeType": "text/html;profile=mcp-app"})
    assert isinstance(empty, Refusal) and "no text" in empty.line
