"""The browser's Prompts tab over a real Workbench: the demo server in process, and
server-everything over stdio. Driven as a page would: setting the synced traits and
clicking the buttons the page sends messages for."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.widgets.offerings_helpers import everything_command, html_of, labels, page_asks
from workbench.features.prompts import PromptResult
from workbench.mcp.connection import ServerChange
from workbench.session import Workbench
from workbench.widgets.browser import PROMPTS_TAB, ToolBrowser


@pytest.fixture
def wb(wb: Workbench) -> Workbench:
    wb.connect("demo")
    return wb


def opened(browser: ToolBrowser) -> ToolBrowser:
    browser.tabs.selected_index = PROMPTS_TAB  # what a click on the tab sends
    return browser


def test_the_tab_lists_prompts_when_first_opened_and_searches_them(browser: ToolBrowser) -> None:
    view = browser.prompts
    assert not view.loaded
    opened(browser)
    assert labels(view.list.answer) == ["explain_tool"]
    assert labels(page_asks(view.list, "EXPLAIN demo")) == ["explain_tool"]
    assert page_asks(view.list, "resource")["rows"] == []


def test_a_prompt_shows_its_description_and_a_form_with_the_servers_completions(
    browser: ToolBrowser,
) -> None:
    view = opened(browser).prompts
    view.list.selected = "prompt:demo:explain_tool"  # a click on the row
    assert "Explain a demo tool" in view.card.value
    assert "beginner or an expert" in view.card.value
    assert view.form is not None and view.suggestions is not None
    labels_html = [w.value for w in _walk(view.form.widget) if "wb-label" in w._dom_classes]
    assert any("tool" in html and "required" in html for html in labels_html)  # starred
    assert view.suggestions.field == "tool" and "add" in view.suggestions.values
    view.suggestions._inputs["tool"].value = "su"
    assert view.suggestions.values == ["summarize"]
    view.suggestions._inputs["level"].value = "e"
    assert (view.suggestions.field, view.suggestions.values) == ("level", ["expert"])


def test_get_without_a_required_argument_shows_the_workbenchs_message(
    browser: ToolBrowser,
) -> None:
    view = opened(browser).prompts
    view.select("explain_tool")
    assert view.form is not None
    view.get_button.click()
    assert view.result is None and view.output.outputs == ()
    assert "Invalid arguments for demo.explain_tool" in view.message.value
    assert "tool: required but missing" in view.message.value
    assert view.form.problems == [("tool", "required but missing")]


def test_get_shows_the_conversation(browser: ToolBrowser) -> None:
    view = opened(browser).prompts
    view.select("explain_tool")
    assert view.form is not None
    view.form.set_arguments({"tool": "add"})
    view.get_button.click()
    assert isinstance(view.result, PromptResult), view.message.value
    assert "Explain the MCP tool `add`" in view.result.text
    [output] = view.output.outputs
    assert output["data"] == view.result._repr_mimebundle_()
    assert "add" in html_of(view.output.outputs) or "add" in output["data"]["text/plain"]


def test_a_server_announcing_new_prompts_is_listed_again(
    wb: Workbench, browser: ToolBrowser
) -> None:
    view = opened(browser).prompts
    before = view.list.stale
    wb._changes.notify(ServerChange("demo", "resources"))  # not the prompts
    assert view.list.stale == before
    wb._changes.notify(ServerChange("demo", "prompts"))
    assert view.list.stale == before + 1
    assert labels(page_asks(view.list)) == ["explain_tool"]


@pytest.mark.integration
def test_server_everythings_prompts_complete_with_context_and_get(
    wb: Workbench, browser: ToolBrowser
) -> None:
    command = everything_command()
    wb.connect("everything", command=command[0], args=command[1:])
    view = opened(browser).prompts
    assert {"args-prompt", "completable-prompt", "explain_tool"} <= set(labels(view.list.answer))
    view.select("completable-prompt", server="everything")
    assert view.suggestions is not None and view.form is not None
    view.suggestions._inputs["department"].value = "E"
    assert view.suggestions.values == ["Engineering"]
    view.suggestions.buttons.children[0].click()
    view.suggestions.suggest("name")  # completed in the context of the department
    assert view.suggestions.values and all(
        name in ("Alice", "Bob", "Charlie") for name in view.suggestions.values
    )
    view.select("args-prompt", server="everything")
    view.get_button.click()
    assert "city: required but missing" in view.message.value
    assert view.form is not None
    view.form.set_arguments({"city": "Paris"})
    result = view.get()
    assert result is not None and "Paris" in result.text


def _walk(widget: Any) -> Iterator[Any]:
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _walk(child)
