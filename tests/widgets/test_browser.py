"""ToolBrowser over a real Workbench (the in-process demo server), driven as a page would:
by setting the traits and clicking the buttons the page sends messages for."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.polling import wait_for
from tests.widgets.form.form_screen import field_input
from workbench import tool
from workbench.errors import ConnectionWarning
from workbench.session import Workbench
from workbench.tools import ErrorKind, Observation
from workbench.widgets import history_view
from workbench.widgets.browser import HISTORY_TAB, SERVERS_TAB, TOOLS_TAB, ToolBrowser
from workbench.widgets.call_panel import CallRun


@pytest.fixture
def wb(wb: Workbench) -> Workbench:
    wb.connect("demo")
    return wb


def html_of(run: CallRun) -> str:
    return "\n".join(output["data"]["text/html"] for output in run.output.outputs)


def finished(run: CallRun | None, browser: ToolBrowser | None = None) -> CallRun:
    why = browser.panel.message.value if browser is not None else ""
    assert run is not None, f"the call did not start: {why}"
    assert run.done.wait(15), "the call did not finish"
    return run


def test_clicking_a_row_opens_the_tool_and_calling_shows_action_and_observation(
    wb: Workbench, browser: ToolBrowser
) -> None:
    browser.tool_list.selected = "demo.add"  # what a click on the row sends
    assert browser.panel.entry is not None and browser.panel.entry.id == "demo.add"
    assert "demo.add" in browser.panel.card.value and not browser.panel.call_button.disabled
    assert browser.panel.form is not None
    browser.panel.form.set_arguments({"a": 2, "b": 3.5})
    browser.panel.call_button.click()
    run = finished(browser.panel.run)
    assert run.observation is not None and run.observation.structured_content == {"result": 5.5}
    kinds = [
        output["data"]["application/vnd.workbench.observation+json"]["kind"]
        for output in run.output.outputs
    ]
    assert kinds == ["action", "observation"]
    assert "5.5" in html_of(run)
    # Friction 14: no greyed-out Cancel once the call ended, and one duration (the
    # Observation's), not a second one timed from the click.
    assert run.cancel_button.layout.display == "none"
    assert "finished in" not in run.progress.status.value
    assert [(call.tool_id, call.status) for call in wb.history] == [("demo.add", "ok")]


def test_invalid_form_arguments_are_recorded_as_from_a_magic_and_shown_by_their_field(
    wb: Workbench, browser: ToolBrowser
) -> None:
    browser.open("demo.add")
    form = browser.panel.form
    assert form is not None
    form.set_arguments({"a": 1})  # b is required
    run = finished(browser.panel.call(), browser)
    assert run.observation is not None and run.observation.error_kind is ErrorKind.INVALID_ARGUMENTS
    assert "b: required but missing" in run.observation.text
    assert [(call.tool_id, call.status) for call in wb.history] == [
        ("demo.add", "invalid_arguments")
    ]
    assert form.problems == [("b", "required but missing")]
    assert "1 problem in the form" in browser.panel.message.value
    form.set_arguments({"a": 1, "b": 2})
    assert finished(browser.panel.call(), browser).observation.structured_content == {"result": 3}
    assert form.problems == [] and browser.panel.message.value == ""


def test_a_nested_object_with_an_array_goes_through_the_form(
    wb: Workbench, browser: ToolBrowser
) -> None:
    event = {
        "title": "Workshop",
        "when": {"date": "2026-12-01", "start": "09:30:00", "duration_minutes": 90},
        "attendees": [{"name": "Ada", "email": "ada@example.org"}, {"name": "Grace"}],
        "tags": ["mcp", "jupyter"],
    }
    browser.open("demo.create_event", {"event": event})
    run = finished(browser.panel.call(), browser)
    assert run.observation is not None and not run.observation.is_error, html_of(run)
    stored = run.observation.structured_content
    assert stored is not None
    assert [person["name"] for person in stored["event"]["attendees"]] == ["Ada", "Grace"]
    assert stored["event"]["when"]["duration_minutes"] == 90


def test_one_call_shows_every_problem_of_the_nested_form(
    wb: Workbench, browser: ToolBrowser
) -> None:
    # newcomer-3 friction 12: the first Call named only the whole number, the second the rest.
    event = {
        "title": "MCP workshop",
        "when": {"date": "tomorrow", "start": "9.30"},
        "attendees": [{"name": "Ada", "email": "ada-at-example.org"}],
    }
    browser.open("demo.create_event", {"event": event})
    form = browser.panel.form
    assert form is not None
    field_input(form, "event.when.duration_minutes").value = "ninety"
    assert browser.panel.call() is None
    assert "4 problems in the form" in browser.panel.message.value
    assert sorted(path for path, _ in form.problems) == [
        "event.attendees.0.email",
        "event.when.date",
        "event.when.duration_minutes",
        "event.when.start",
    ]
    assert "e-mail address" in dict(form.problems)["event.attendees.0.email"]
    assert list(wb.history) == []  # nothing was sent


@pytest.mark.integration
def test_a_slow_call_shows_progress_and_logs_and_can_be_cancelled(
    wb: Workbench, browser: ToolBrowser
) -> None:
    browser.open("demo.slow_count", {"seconds": 30, "steps": 60})
    run = browser.panel.call()
    assert run is not None and run.running and run.cancel_button.layout.display != "none"
    bar = run.progress.bar
    wait_for(lambda: bar.value > 0)
    first = bar.value
    wait_for(lambda: bar.value > first)
    assert bar.layout.display != "none" and "/60" in run.progress.status.value
    run.cancel_button.click()
    finished(run)
    assert "Cancelled" in run.progress.status.value and run.observation is None
    assert run.cancel_button.layout.display == "none"
    wait_for(lambda: len(wb.history) == 1)
    assert wb.history[0].status == "cancelled"
    # The session is still usable and the form is still there.
    assert browser.panel.form is not None
    browser.panel.form.set_arguments({"seconds": 0.2, "steps": 2})
    again = finished(browser.panel.call(), browser)
    assert again.observation is not None and not again.observation.is_error
    assert again.progress.bar.value == 1.0 and again.progress.bar.bar_style == "success"


def test_server_log_lines_show_under_the_call(browser: ToolBrowser) -> None:
    browser.open("demo.log_demo", {"message": "disk almost full", "level": "warning"})
    run = finished(browser.panel.call(), browser)
    wait_for(lambda: "disk almost full" in run.progress.logs.value)
    assert "[warning]" in run.progress.logs.value


def test_the_history_tab_lists_every_call_and_runs_one_again(
    wb: Workbench, browser: ToolBrowser
) -> None:
    wb.call("demo.add", {"a": 1, "b": 1})  # a call from Python, not the widget
    wb.call("demo.fail", {"reason": "on purpose"})
    wait_for(lambda: len(browser.history.calls.options) == 2)
    labels = [label for label, _ in browser.history.calls.options]
    assert labels[0].startswith("#2") and "demo.fail" in labels[0] and "tool_error" in labels[0]
    assert "2 calls in this kernel: 1 failed" in browser.history.summary.value
    browser.history.select(1)
    detail = [output["data"]["text/html"] for output in browser.history.detail.outputs]
    assert len(detail) == 2 and "demo.add" in detail[0]
    browser.tabs.selected_index = HISTORY_TAB
    browser.history.run_again.click()
    assert browser.tabs.selected_index == TOOLS_TAB
    assert browser.panel.form is not None and browser.panel.form.arguments() == {"a": 1, "b": 1}


def test_it_follows_new_tools_redefinitions_and_removals(
    wb: Workbench, browser: ToolBrowser
) -> None:
    browser.search("shout")
    assert browser.tool_list.answer["rows"] == []

    def shout(text: str) -> str:
        """Shout a text back in capitals."""
        return text.upper()

    wb.add_tools(tool(shout), owner="cell-1")
    assert [row["id"] for row in browser.tool_list.answer["rows"]] == ["notebook.shout"]
    assert "notebook" in browser.tool_list.servers and "12 tools" in browser.header.value
    browser.open("notebook.shout", {"text": "hi"})

    def shout_loudly(text: str, times: int = 2) -> str:
        """Shout a text back in capitals, several times."""
        return " ".join([text.upper()] * times)

    shout_loudly.__name__ = "shout"
    wb.set_owned_tools("cell-1", [tool(shout_loudly)])
    assert browser.panel.form is not None
    assert browser.panel.form.arguments() == {"text": "hi"}  # kept across the redefinition
    assert "several times" in browser.panel.card.value
    wb.set_owned_tools("cell-1", [])
    assert browser.panel.entry is None and "was removed" in browser.panel.card.value


def test_closing_stops_following(wb: Workbench) -> None:
    browser = ToolBrowser(wb, query="add")
    assert browser.tool_list.answer["rows"][0]["id"] == "demo.add"
    browser.close()
    wb.disconnect("demo")  # would refresh a live browser; a closed one must not be touched
    assert browser.tool_list.answer["rows"][0]["id"] == "demo.add"


def test_the_history_list_stops_at_the_newest_calls(wb: Workbench) -> None:
    for number in range(history_view.SHOWN + 5):
        wb.history.record("demo.add", "demo", {"a": number}, Observation.from_text("ok"))
    view = history_view.HistoryView(wb.history)
    try:
        assert len(view.calls.options) == history_view.SHOWN
        assert view.calls.options[0][1] == history_view.SHOWN + 5  # newest first
        assert "the newest 500 are listed" in view.summary.value
    finally:
        view.close()


@pytest.mark.integration
def test_the_servers_tab_lists_servers_and_shows_a_servers_library_log(
    wb: Workbench, browser: ToolBrowser
) -> None:
    """F20: the libraries' log lines about a server, kept out of cells, show in the widget."""
    assert browser.tabs.titles[SERVERS_TAB] == "Servers"
    view = browser.servers
    assert [name for _, name in view.servers.options] == ["demo"]
    command = f"echo 'Welcome, not JSON-RPC'; exec {sys.executable} -m workbench.demo"
    wb.connect("banner", command="sh", args=["-c", command])
    browser.tabs.selected_index = SERVERS_TAB  # what a click on the tab sends: read again
    labels = {name: label for label, name in view.servers.options}
    assert list(labels) == ["banner", "demo"]
    assert "connected" in labels["banner"] and "⚠ log" in labels["banner"]
    assert "⚠ log" not in labels["demo"]
    view.select("banner")
    assert 'class="wb-server-detail"' in view.detail.value
    assert "Failed to parse JSONRPC message from server" in view.detail.value
    assert "Welcome, not JSON-RPC" in view.detail.value


def test_the_servers_tab_shows_a_refused_config_entry_after_a_refresh(
    wb: Workbench, browser: ToolBrowser, tmp_path: Path
) -> None:
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"broken": {"args": []}}}))
    with pytest.warns(ConnectionWarning):
        wb.connect_config(config)
    browser.servers.refresh_button.click()
    assert "1 failed" in browser.servers.summary.value
    browser.servers.select("broken")
    assert "neither a &#x27;command&#x27; nor a &#x27;url&#x27;" in browser.servers.detail.value
