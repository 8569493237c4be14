"""The browser's Resources tab over a real Workbench: the demo server in process, and
server-everything over stdio for following a resource. Driven as a page would: setting the
synced traits and clicking the buttons the page sends messages for."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.polling import wait_for
from tests.widgets.offerings_helpers import (
    everything_command,
    html_of,
    labels,
    page_asks,
)
from workbench.mcp.connection import ServerChange
from workbench.session import Workbench
from workbench.widgets.browser import HISTORY_TAB, RESOURCES_TAB, ToolBrowser
from workbench.widgets.offering_list import MAX_QUERY


@pytest.fixture
def wb(wb: Workbench) -> Workbench:
    wb.connect("demo")
    return wb


def opened(browser: ToolBrowser) -> ToolBrowser:
    browser.tabs.selected_index = RESOURCES_TAB  # what a click on the tab sends
    return browser


def test_the_tab_lists_only_when_first_opened_then_searches(browser: ToolBrowser) -> None:
    view = browser.resources
    assert not view.list.loaded and view.list.answer["rows"] == []
    opened(browser)
    assert view.loaded
    assert labels(view.list.answer) == ["demo://guide", "demo://chart.png", "demo://numbers/{n}"]
    assert view.list.answer["note"] == "3 resources"
    assert labels(page_asks(view.list, "number")) == ["demo://numbers/{n}"]
    assert labels(page_asks(view.list, "GUIDE demo")) == ["demo://guide"]  # every word
    assert labels(page_asks(view.list, "PNG")) == ["demo://chart.png"]  # the mime type
    answer = page_asks(view.list, "nothing like this")
    assert answer["rows"] == [] and "Nothing matches" in answer["note"]
    # Bounded whatever is pasted: the kernel reads at most MAX_QUERY characters.
    assert page_asks(view.list, "x" * 100_000)["query"] == "x" * MAX_QUERY


def test_selecting_a_resource_reads_it_and_the_history_lists_the_read(
    wb: Workbench, browser: ToolBrowser
) -> None:
    view = opened(browser).resources
    view.list.selected = "resource:demo:demo://guide"  # a click on the row
    assert view.observation is not None and not view.observation.is_error
    shown = html_of(view.output.outputs)
    assert "The demo server" in shown and "demo://guide" in shown
    assert "Guide to the demo server" in view.card.value
    [call] = wb.history
    assert (call.kind, call.tool_id, call.status) == ("resource", "demo://guide", "ok")
    assert "demo://guide" in browser.history.calls.options[0][0]
    browser.tabs.selected_index = HISTORY_TAB
    browser.history.select(call.id)
    assert "The demo server" in html_of(browser.history.detail.outputs)


def test_a_blob_resource_shows_as_an_image(browser: ToolBrowser) -> None:
    view = opened(browser).resources
    view.select("demo://chart.png")
    assert view.observation is not None and not view.observation.is_error
    assert "data:image/png;base64," in html_of(view.output.outputs)


def test_a_template_is_a_form_with_the_servers_completions_and_a_read_button(
    wb: Workbench, browser: ToolBrowser
) -> None:
    view = opened(browser).resources
    view.select("demo://numbers/{n}")
    assert view.form is not None and view.suggestions is not None
    assert view.output.outputs == () and view.follow.disabled
    # Opening suggests for the empty field; typing narrows it down.
    assert view.suggestions.values[:3] == ["1", "2", "3"]
    [field] = view.suggestions.fields
    view.suggestions._inputs[field].value = "7"  # a keystroke in the field
    assert view.suggestions.field == "n"
    assert view.suggestions.values == ["7", *(str(n) for n in range(70, 80))]
    [button] = [b for b in view.suggestions.buttons.children if b.description == "71"]
    button.click()
    assert view.form.arguments() == {"n": "71"}
    view.form.set_arguments({"n": "7"})
    view.read_button.click()
    assert view.observation is not None and not view.observation.is_error
    [block] = view.observation.content
    assert json.loads(block.resource.text)["square"] == 49  # type: ignore[union-attr]
    assert (wb.history[-1].tool_id, wb.history[-1].kind) == ("demo://numbers/7", "resource")
    assert "square" in html_of(view.output.outputs)


def test_a_template_read_without_its_variable_says_so_under_the_field(
    wb: Workbench, browser: ToolBrowser
) -> None:
    view = opened(browser).resources
    view.select("demo://numbers/{n}")
    assert view.form is not None
    observation = view.read()
    assert observation is not None and observation.is_error
    assert view.form.problems == [("n", "required but missing")]
    assert "required but missing" in html_of(view.output.outputs)
    assert wb.history[-1].status == "invalid_arguments"  # refused, recorded like a call


def test_completion_failures_show_no_suggestions(wb: Workbench, browser: ToolBrowser) -> None:
    view = opened(browser).resources
    view.select("demo://numbers/{n}")
    assert view.suggestions is not None

    def broken(*args: object, **kwargs: object) -> list[str]:
        raise RuntimeError("the server fell over")

    view.suggestions._complete = lambda *args: broken()
    view.suggestions._inputs["n"].value = "4"
    assert view.suggestions.values == [] and view.suggestions.buttons.children == ()


def test_following_on_a_server_without_subscriptions_says_so(browser: ToolBrowser) -> None:
    view = opened(browser).resources
    view.select("demo://guide")
    assert not view.follow.disabled
    view.follow.value = True
    assert view.follow.value is False and view.follow.disabled
    assert "does not offer resource subscriptions" in view.message.value
    assert view.subscription is None


@pytest.mark.integration
def test_a_server_announcing_new_resources_and_a_new_connection_are_listed_again(
    wb: Workbench, browser: ToolBrowser
) -> None:
    view = opened(browser).resources
    before = view.list.stale
    wb._changes.notify(ServerChange("demo", "resources"))  # as the bridge thread announces
    assert view.list.stale == before + 1
    calls: list[str] = []
    real = wb.resources

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append("listed")
        return real(*args, **kwargs)

    wb.resources = counted  # type: ignore[method-assign]
    page_asks(view.list)  # the page answers the bump; the kernel lists again
    assert calls == ["listed"]
    page_asks(view.list)  # a plain search does not list again
    assert calls == ["listed"]
    wb.connect("everything", command=everything_command()[0], args=everything_command()[1:])
    assert view.list.stale >= before + 2  # the registry changed
    answer = page_asks(view.list, "")
    assert "demo://guide" in labels(answer)
    assert any(label.startswith("demo://resource/static/document/") for label in labels(answer))
    assert "demo://resource/dynamic/text/{resourceId}" in labels(answer)


@pytest.mark.integration
def test_following_a_resource_of_server_everything_updates_it_in_place(
    wb: Workbench, browser: ToolBrowser
) -> None:
    command = everything_command()
    wb.connect("everything", command=command[0], args=command[1:])
    view = opened(browser).resources
    page_asks(view.list, "architecture")
    uri = "demo://resource/static/document/architecture.md"
    view.select(uri, server="everything")
    assert view.observation is not None and not view.observation.is_error
    assert not view.follow.disabled
    view.follow.value = True
    assert view.subscription is not None, view.message.value
    assert "following" in view.message.value
    wb.call("everything.toggle-subscriber-updates")
    wait_for(lambda: view.subscription is not None and view.subscription.updates >= 1)
    wait_for(lambda: "update" in view.message.value and "following: " in view.message.value)
    assert uri in html_of(view.output.outputs)
    view.follow.value = False  # unfollow
    assert browser.resources.subscription is None  # (not narrowed by the asserts above)
    assert "not following" in view.message.value
