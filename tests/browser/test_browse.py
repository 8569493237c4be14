"""The tool browser in a real page: notebooks/browse.ipynb, run all, then used as a person
would use it: search, open, fill a nested form, call (no Cancel left on screen after it),
watch a slow call and cancel it, read the History tab (a cancel counted apart from
failures), and see a re-run %%tool cell land in the open browser.

Each step leaves a screenshot under test-artifacts/browser/<test>/.
"""

from __future__ import annotations

import re

from playwright.sync_api import Locator, expect

from tests.browser.jupyter_browser import LabPage

NOTEBOOK = "notebooks/browse.ipynb"
TOOL_CELL = 7  # the %%tool cell defining greet (markdown cells count)
GREET_AGAIN = '''%%tool
def greet(name: str, excited: bool = False) -> str:
    """Greet someone warmly by name."""
    return f"Hello, dear {name}{'!' if excited else '.'}"
'''


def browser_of(lab: LabPage) -> Locator:
    root = lab.page.locator(".jp-NotebookPanel:visible .wb-browser")
    expect(root).to_have_count(1)
    return root


def search(browser: Locator, words: str) -> Locator:
    """Type a search; returns the result rows once the list answers exactly these words."""
    box = browser.locator(".wb-tl-query")
    box.fill(words)
    expect(browser.locator(".wb-tl-rows")).to_have_attribute("data-query", words)
    return browser.locator(".wb-tl-row")


def field(browser: Locator, path: str) -> Locator:
    """The input of the form field at ``path`` (its class is ``wb-path-`` + the path with
    every character but letters, digits and ``_`` turned into ``-``)."""
    return browser.locator(".wb-call-panel .wb-path-" + re.sub(r"[^A-Za-z0-9_]", "-", path))


def type_into(browser: Locator, path: str, text: str) -> None:
    box = field(browser, path).locator("input, textarea").first
    box.fill(text)
    box.press("Tab")  # ipywidgets syncs text on input; Tab also leaves the field, as people do


def result_of(browser: Locator) -> Locator:
    return browser.locator(".wb-call-panel .wb-result")


def bar_width(browser: Locator) -> float:
    style = browser.locator(".wb-progress .progress-bar").first.get_attribute("style") or ""
    found = re.search(r"width:\s*([\d.]+)%", style)
    return float(found.group(1)) if found else 0.0


def test_browse_search_fill_call_cancel_history_and_live_tools(lab: LabPage) -> None:
    lab.open_notebook(NOTEBOOK)
    lab.run_all()
    browser = browser_of(lab)
    expect(browser.locator(".wb-tl-row").first).to_be_visible()
    browser.scroll_into_view_if_needed()
    lab.screenshot("ran")

    # Search: the right tool first.
    rows = search(browser, "draw a bar chart")
    expect(rows.first).to_have_attribute("data-id", "demo.draw_chart")
    # A row's badges wrap as one unit, never one by one under the title (friction 15).
    for row in browser.locator(".wb-tl-row").all():
        tops = row.locator(".wb-badge").evaluate_all(
            "badges => [...new Set(badges.map(b => Math.round(b.getBoundingClientRect().top)))]"
        )
        assert len(tops) <= 1, f"{row.get_attribute('data-id')}: badges on {len(tops)} lines"
    lab.screenshot("searched")

    # Open create_event and fill its nested object, including an array of objects.
    rows = search(browser, "calendar event")
    browser.locator('.wb-tl-row[data-id="demo.create_event"]').click()
    expect(browser.locator(".wb-card")).to_contain_text("demo.create_event")
    type_into(browser, "event.title", "Workshop")
    type_into(browser, "event.when.date", "2026-12-01")
    type_into(browser, "event.when.start", "09:30")
    field(browser, "event.attendees").click()  # "Add item"
    field(browser, "event.attendees").click()
    type_into(browser, "event.attendees[0].name", "Ada")
    type_into(browser, "event.attendees[1].name", "Grace")
    field(browser, "event.tags").click()
    type_into(browser, "event.tags[0]", "jupyter")
    lab.screenshot("form-filled")
    browser.locator(".wb-call").click()
    result = result_of(browser)
    expect(result).to_contain_text("Workshop", timeout=20_000)
    expect(result).to_contain_text("Grace")
    expect(result).not_to_contain_text("Error")
    expect(result).to_contain_text(re.compile(r"call\s*demo\.create_event"))  # the Action
    # Friction 14: no greyed-out Cancel once the call ended, and one duration: the
    # Observation's, with no "finished in" timed from the click beside it.
    expect(browser.locator(".wb-cancel")).to_be_hidden()
    expect(browser.locator(".wb-call-panel")).not_to_contain_text("finished in")
    lab.screenshot("called")

    # A slow call: the progress bar moves; Cancel stops it.
    search(browser, "count slowly")
    browser.locator('.wb-tl-row[data-id="demo.slow_count"]').click()
    type_into(browser, "seconds", "20")
    type_into(browser, "steps", "40")
    browser.locator(".wb-call").click()
    expect(browser.locator(".wb-progress .progress-bar")).to_be_visible(timeout=20_000)
    lab.page.wait_for_function(
        "() => { const bar = document.querySelector('.wb-progress .progress-bar');"
        " return bar && parseFloat(bar.style.width) > 0; }",
        timeout=20_000,
    )
    first = bar_width(browser)
    lab.page.wait_for_function(
        f"() => parseFloat(document.querySelector('.wb-progress .progress-bar').style.width)"
        f" > {first}",
        timeout=20_000,
    )
    assert bar_width(browser) > first
    expect(browser.locator(".wb-status")).to_contain_text("/40")
    lab.screenshot("progress")
    browser.locator(".wb-cancel").click()
    expect(browser.locator(".wb-status")).to_contain_text("Cancelled", timeout=20_000)
    expect(browser.locator(".wb-cancel")).to_be_hidden()
    assert bar_width(browser) < 100
    lab.screenshot("cancelled")

    # The History tab: every call of this kernel, with status.
    browser.locator(".lm-TabBar-tab", has_text="History").click()
    calls = browser.locator(".wb-history-list option")
    expect(calls.first).to_contain_text("demo.slow_count", timeout=20_000)
    expect(calls.first).to_contain_text("cancelled")
    expect(calls.nth(1)).to_contain_text("demo.create_event")
    expect(calls.nth(1)).to_contain_text("ok")
    history = browser.locator(".wb-history")
    expect(history).to_contain_text("2 calls in this kernel: 1 cancelled")  # not "1 failed"
    expect(history.locator(".wb-columns")).to_contain_text(re.compile(r"#\s+tool\s+status"))
    browser.locator(".wb-history-list select").select_option(index=1)
    expect(browser.locator(".wb-history-detail")).to_contain_text("Workshop")
    lab.screenshot("history")
    browser.locator(".wb-run-again").click()  # back to Tools, the event's form filled in
    title = field(browser, "event.title").locator("input").first
    expect(title).to_have_value("Workshop")
    lab.screenshot("run-again")

    # Re-running a %%tool cell updates the open browser, with no new search typed.
    rows = search(browser, "greet")
    greet = browser.locator('.wb-tl-row[data-id="notebook.greet"]')
    expect(greet).to_contain_text("Greet someone by name.")
    lab.run_cell_with(GREET_AGAIN, index=TOOL_CELL)
    expect(greet).to_contain_text("Greet someone warmly by name.", timeout=20_000)
    browser.scroll_into_view_if_needed()
    lab.screenshot("tool-cell-rerun")

    lab.assert_no_errors()


def test_browse_in_notebook_7(lab: LabPage) -> None:
    lab.open_notebook(NOTEBOOK, ui="notebook")
    lab.run_all()
    browser = browser_of(lab)
    rows = search(browser, "add two numbers")
    expect(rows.first).to_have_attribute("data-id", "demo.add")
    rows.first.click()
    type_into(browser, "a", "2")
    type_into(browser, "b", "40")
    browser.locator(".wb-call").click()
    expect(result_of(browser)).to_contain_text("42", timeout=20_000)
    browser.scroll_into_view_if_needed()
    lab.screenshot("called")

    # F10: a 100,000-character paste is cut to the 1,000 the box takes (all search reads);
    # only those cross the wire, and the box answers them like any query.
    box = browser.locator(".wb-tl-query")
    box.fill("")
    box.focus()
    lab.page.keyboard.insert_text("a" * 100_000)  # as a paste: one input event
    expect(browser.locator(".wb-tl-rows")).to_have_attribute("data-query", "a" * 1_000)
    assert len(box.input_value()) == 1_000
    expect(browser.locator(".wb-tl-status")).to_contain_text("Nothing matches 'aaaa")
    lab.screenshot("pasted")
    lab.assert_no_errors()
