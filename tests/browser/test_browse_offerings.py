"""The browser's Resources and Prompts tabs in a real page (JupyterLab, Chromium): read a
resource, fill a resource template and read it, get a prompt and see its conversation, then
find the reads in the History tab, as a person would.

The notebook is written by the test (three cells: load, connect the demo, browse). Each step
leaves a screenshot under test-artifacts/browser/<test>/.
"""

from __future__ import annotations

import json

from playwright.sync_api import Locator, expect

from tests.browser.jupyter_browser import LabPage

NOTEBOOK = "notebooks/offerings.ipynb"
CELLS = (
    "%load_ext workbench",
    "%mcp connect demo",
    "import workbench\n\nbrowser = workbench.browse()\nbrowser",
)


def write_notebook(lab: LabPage) -> None:
    cell: dict[str, object] = {
        "cell_type": "code",
        "execution_count": None,
        "metadata": {},
        "outputs": [],
    }
    notebook = {
        "cells": [{**cell, "source": source} for source in CELLS],
        "metadata": {
            "kernelspec": {
                "name": "python3",
                "display_name": "Python 3 (ipykernel)",
                "language": "python",
            }
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (lab.workdir / NOTEBOOK).write_text(json.dumps(notebook, indent=1))


def browser_of(lab: LabPage) -> Locator:
    root = lab.page.locator(".jp-NotebookPanel:visible .wb-browser")
    expect(root).to_have_count(1)
    return root


def open_tab(browser: Locator, title: str) -> None:
    browser.locator(".lm-TabBar-tab", has_text=title).click()


def row(tab: Locator, label: str) -> Locator:
    return tab.locator(f'.wb-ol-row[data-label="{label}"]')


def type_into(tab: Locator, name: str, text: str) -> None:
    box = tab.locator(f".wb-path-{name}").locator("input, textarea").first
    box.fill(text)
    box.press("Tab")


def test_read_resources_fill_a_template_get_a_prompt_and_see_the_history(lab: LabPage) -> None:
    write_notebook(lab)
    lab.open_notebook(NOTEBOOK)
    lab.run_all()
    browser = browser_of(lab)
    browser.scroll_into_view_if_needed()

    # Resources: listed on first open; a click reads the guide.
    open_tab(browser, "Resources")
    resources = browser.locator(".wb-resources")
    expect(row(resources, "demo://guide")).to_be_visible(timeout=20_000)
    expect(resources.locator(".wb-ol-status")).to_contain_text("3 resources")
    row(resources, "demo://guide").click()
    result = resources.locator(".wb-resource-result")
    expect(result).to_contain_text("The demo server", timeout=20_000)
    expect(result).to_contain_text("Each part shows one feature")
    lab.screenshot("guide-read")

    # Search, then the template: its form, the server's suggestions, Read.
    resources.locator(".wb-ol-query").fill("numbers")
    expect(resources.locator(".wb-ol-rows")).to_have_attribute("data-query", "numbers")
    expect(resources.locator(".wb-ol-row")).to_have_count(1)
    row(resources, "demo://numbers/{n}").click()
    expect(resources.locator(".wb-resource-card")).to_contain_text("Facts about a number")
    suggestions = resources.locator(".wb-suggestions .wb-suggestion")
    expect(suggestions.first).to_have_text("1", timeout=20_000)  # n, completed from nothing
    type_into(resources, "n", "7")
    expect(suggestions.first).to_have_text("7", timeout=20_000)
    expect(suggestions.nth(1)).to_have_text("70")
    lab.screenshot("template-filled")
    resources.locator(".wb-read").click()
    expect(result).to_contain_text("demo://numbers/7", timeout=20_000)
    expect(result).to_contain_text('"square": 49')
    lab.screenshot("template-read")

    # Prompts: pick explain_tool, fill tool=add, Get: the conversation.
    open_tab(browser, "Prompts")
    prompts = browser.locator(".wb-prompts")
    expect(row(prompts, "explain_tool")).to_be_visible(timeout=20_000)
    row(prompts, "explain_tool").click()
    expect(prompts.locator(".wb-prompt-card")).to_contain_text("Explain a demo tool")
    prompts.locator(".wb-get-prompt").click()  # tool is required
    expect(prompts.locator(".wb-prompt-message")).to_contain_text(
        "tool: required but missing", timeout=20_000
    )
    type_into(prompts, "tool", "add")
    prompts.locator(".wb-get-prompt").click()
    conversation = prompts.locator(".wb-prompt-result")
    expect(conversation).to_contain_text("Explain the MCP tool", timeout=20_000)
    expect(conversation).to_contain_text("add")
    expect(prompts.locator(".wb-prompt-message")).to_have_text("")
    lab.screenshot("prompt-got")

    # History: both reads, newest first.
    open_tab(browser, "History")
    calls = browser.locator(".wb-history-list option")
    expect(calls.first).to_contain_text("demo://numbers/7", timeout=20_000)
    expect(calls.first).to_contain_text("ok")
    expect(calls.nth(1)).to_contain_text("demo://guide")
    browser.locator(".wb-history-list select").select_option(index=0)
    expect(browser.locator(".wb-history-detail")).to_contain_text("square")
    lab.screenshot("history")
    lab.assert_no_errors()
