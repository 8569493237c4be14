"""The tool browser's snapshot (workbench/widgets/snapshot.py, display/browser_snapshot.py):
the document and the HTML a saved notebook shows for a browser, over a real Workbench with the
in-process demo server."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

from workbench import tool
from workbench.display.browser_snapshot import NOT_FINISHED, RUN_HINT
from workbench.display.mime import BROWSER_MIME
from workbench.display.schemas import validator_for_mime
from workbench.session import Workbench
from workbench.widgets.browser import ToolBrowser
from workbench.widgets.snapshot import WIDGET_MIME

SECRET = "sk-snapshot-test-0123456789abcdef"
HOSTILE = '<img src=x onerror="alert(1)"><script>alert(2)</script>'


@pytest.fixture
def wb(wb: Workbench) -> Workbench:
    wb.connect("demo")
    return wb


def document(browser: ToolBrowser) -> dict[str, Any]:
    """The browser's snapshot document, checked against its JSON Schema first (the shape the
    extension's generated types read: workbench/display/schemas/browser.schema.json)."""
    doc: dict[str, Any] = browser._repr_mimebundle_()[BROWSER_MIME]
    check = validator_for_mime(BROWSER_MIME)
    errors = [f"{error.instance_path}: {error.message}" for error in check.iter_errors(doc)]
    assert not errors, errors
    return doc


def called(browser: ToolBrowser, tool_id: str, arguments: dict[str, object]) -> None:
    """Open a tool with its form filled and click Call, as a person would; wait for the end."""
    browser.open(tool_id, arguments)
    run = browser.panel.call()
    assert run is not None and run.done.wait(15), "the call did not finish"


def test_the_bundle_holds_the_live_view_the_document_the_html_and_one_line(
    browser: ToolBrowser,
) -> None:
    bundle = browser._repr_mimebundle_()
    assert set(bundle) == {WIDGET_MIME, BROWSER_MIME, "text/html", "text/plain"}
    assert bundle[WIDGET_MIME]["model_id"] == browser.widget.model_id
    assert "\n" not in bundle["text/plain"] and "VBox(" not in bundle["text/plain"]
    assert bundle["text/plain"].endswith("run the cell for the live widget.")
    assert RUN_HINT in bundle["text/html"]
    json.dumps(bundle)  # what a notebook saves must be plain JSON


def test_the_document_has_the_search_the_results_the_open_tool_and_its_last_call(
    browser: ToolBrowser,
) -> None:
    browser.search("add numbers")
    called(browser, "demo.add", {"a": 2, "b": 40})
    doc = document(browser)
    assert doc["kind"] == "browser" and doc["version"] == 1
    assert doc["query"] == "add numbers"
    assert doc["results"][0]["id"] == "demo.add"
    assert doc["results"][0]["badges"] == ["read-only", "idempotent"]
    assert doc["note"].startswith(f"best 1 of {doc['total']} tools; ")  # and the weak hits
    assert [row["id"] for row in doc["results"]] == ["demo.add"]
    assert doc["open"]["id"] == "demo.add"
    assert [p["name"] for p in doc["open"]["parameters"]] == ["a", "b"]
    action, observation = doc["lastCall"]["action"], doc["lastCall"]["observation"]
    assert action == {
        "kind": "action",
        "version": 1,
        "toolId": "demo.add",
        "arguments": {"a": 2, "b": 40},
    }
    assert observation["kind"] == "observation" and observation["structuredContent"] == {
        "result": 42
    }
    assert observation["isError"] is False
    html = browser._repr_mimebundle_()["text/html"]
    for shown in ("add numbers", "demo.add", "The first number.", "42"):
        assert shown in html


def test_before_anything_is_opened_the_snapshot_lists_every_tool_and_no_call(
    browser: ToolBrowser,
) -> None:
    doc = document(browser)
    assert doc["query"] == "" and doc["open"] is None and doc["lastCall"] is None
    assert {row["id"] for row in doc["results"]} >= {"demo.add", "demo.create_event"}
    assert doc["total"] == len(browser.workbench.registry)


def test_a_failed_call_is_kept_with_its_error(browser: ToolBrowser) -> None:
    called(browser, "demo.add", {"a": "two"})
    observation = document(browser)["lastCall"]["observation"]
    assert observation["isError"] is True and observation["errorKind"] == "invalid_arguments"


def test_a_call_still_running_is_shown_as_not_finished(browser: ToolBrowser) -> None:
    browser.open("demo.slow_count", {"seconds": 5, "steps": 5})
    run = browser.panel.call()
    assert run is not None
    bundle = browser._repr_mimebundle_()
    assert document(browser)["lastCall"]["observation"] is None
    assert NOT_FINISHED in bundle["text/html"]
    run.cancel()
    assert run.done.wait(15)


@pytest.mark.integration
def test_text_from_tools_and_results_is_escaped_in_the_html(
    wb: Workbench, browser: ToolBrowser
) -> None:
    @tool
    def hostile(text: str) -> str:
        """<b>Bold</b> claims: <img src=x onerror="alert(1)"><script>alert(2)</script>"""
        return text

    wb.add_tools(hostile)
    browser.search("bold claims")
    called(browser, "notebook.hostile", {"text": HOSTILE})
    bundle = browser._repr_mimebundle_()
    html = bundle["text/html"]
    assert "<script" not in html and "<img" not in html and "<b>" not in html
    assert "&lt;script&gt;" in html
    doc = bundle[BROWSER_MIME]
    assert doc["results"][0]["id"] == "notebook.hostile"
    assert doc["lastCall"]["action"]["arguments"] == {"text": HOSTILE}  # data, kept as text


@pytest.mark.integration
def test_no_secret_of_a_server_reaches_the_snapshot(wb: Workbench, browser: ToolBrowser) -> None:
    wb.connect(
        "secretive",
        command=sys.executable,
        args=["-m", "workbench.demo", f"--api-key={SECRET}"],
        env={"API_TOKEN": SECRET},
    )
    browser.search("server:secretive add")
    called(browser, "secretive.add", {"a": 1, "b": 2})
    browser.servers.refresh()
    bundle = browser._repr_mimebundle_()
    assert bundle[BROWSER_MIME]["lastCall"]["observation"]["isError"] is False
    assert SECRET not in json.dumps(bundle)


def test_outside_a_kernel_displaying_follows_nothing(browser: ToolBrowser) -> None:
    browser._ipython_display_()  # no kernel: nothing can be updated in place
    browser.search("add")
    browser.open("demo.add")
    assert browser.output.updates == 0


def test_a_closed_browser_displays_the_snapshot_alone(browser: ToolBrowser) -> None:
    browser.search("calendar")
    browser.close()
    bundle = browser._repr_mimebundle_()
    assert WIDGET_MIME not in bundle and bundle[BROWSER_MIME]["query"] == "calendar"
