"""An App built in the notebook: its URI, its HTML from a string or a file, its ``_meta.ui``,
and a tool's ``ui=`` naming it."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.errors import ToolDefinitionError
from workbench.tools.app_definition import (
    APP_MIME_TYPE,
    App,
    app_missing,
    app_name_of,
    app_uri,
    tool_app_uri,
)
from workbench.tools.from_function import tool


def test_an_app_is_a_resource_at_its_ui_uri_with_the_apps_mime_type() -> None:
    app = App("clock", html="<p>now</p>")
    assert app.uri == "ui://notebook/clock" == app_uri("clock")
    assert app.mime_type == app.listed_mime_type == APP_MIME_TYPE
    assert app() == app.text == app.html == "<p>now</p>"
    assert app.meta is None  # nothing declared: no _meta.ui
    assert len(app.html_sha256) == 64
    assert app_name_of(app.uri) == "clock"
    assert app_name_of("ui://other/clock") is None


def test_html_from_a_file_and_the_resource_meta(tmp_path: Path) -> None:
    page = tmp_path / "app.html"
    page.write_text("<b>from a file</b>", encoding="utf-8")
    app = App(
        "board",
        path=page,
        csp={"connectDomains": ["https://api.example"]},
        permissions={"clipboardWrite": {}},
        prefers_border=False,
    )
    assert app.html == "<b>from a file</b>"
    assert app.meta == {
        "ui": {
            "csp": {"connectDomains": ["https://api.example"]},
            "permissions": {"clipboardWrite": {}},
            "prefersBorder": False,
        }
    }


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (lambda: App("a b", html="x"), "App name 'a b' is not valid"),
        (lambda: App("a", html="x", path="y"), "html=... or path=..., one"),
        (lambda: App("a"), "html=... or path=..., one"),
        (lambda: App("a", path="/no/such/file.html"), "cannot read"),
        (lambda: App("a", html="x", csp={"connect": ["x"]}), "not connect"),
        (lambda: App("a", html="x", csp={"connectDomains": "x"}), "list of origins"),
        (lambda: App("a", html="x", permissions={"usb": {}}), "not usb"),
    ],
)
def test_mistakes_are_one_line_definition_errors(make: object, says: str) -> None:
    with pytest.raises(ToolDefinitionError, match=says):
        make()  # type: ignore[operator]


def test_a_tool_names_its_app_by_name_or_app() -> None:
    @tool(ui="clock")
    def now() -> str:
        """The time."""
        return "noon"

    @tool(ui=App("panel", html="<p/>"), visibility=["app"], meta={"x": 1})
    def refresh() -> str:
        """Refresh, for the App only."""
        return "ok"

    assert now.meta == {"ui": {"resourceUri": "ui://notebook/clock"}}
    assert refresh.meta == {
        "x": 1,
        "ui": {"resourceUri": "ui://notebook/panel", "visibility": ["app"]},
    }
    assert tool_app_uri(now.meta) == "ui://notebook/clock"
    assert tool_app_uri({"ui": "junk"}) is None


@pytest.mark.parametrize(
    ("options", "says"),
    [
        ({"ui": "bad name"}, "is no App name"),
        ({"ui": "a", "visibility": []}, "non-empty list"),
        ({"ui": "a", "visibility": ["everyone"]}, "non-empty list"),
        ({"visibility": ["app"]}, "goes with ui="),
        ({"ui": "a", "meta": {"ui": {}}}, "not as meta"),
    ],
)
def test_ui_mistakes(options: dict[str, object], says: str) -> None:
    with pytest.raises(ToolDefinitionError, match=says):
        tool(**options)  # type: ignore[call-overload]


def test_the_missing_app_line_names_its_cell() -> None:
    assert app_missing("ui://notebook/clock") == (
        "The App clock is not defined: run its %%app clock cell (or serve "
        "App('clock', html=...)) to serve ui://notebook/clock."
    )
