"""The MCP sidebar in a real page, JupyterLab and Notebook 7: a kernel without the workbench
(the panel says so and its button loads it), servers listed live as a cell connects the
demo server, a search, a click that inserts a ``%mcp call`` cell that runs, a ``%%tool`` cell
that shows up in the open panel, and what ``%mcp serve`` serves (never its token).

Each step leaves a screenshot under test-artifacts/browser/<test>/, and ``sidebar.png`` is
the panel alone (the README's picture).
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Locator, expect

from tests.browser.jupyter_browser import UI, LabPage

NOTEBOOK = "sidebar.ipynb"
CELLS = ["%mcp connect demo", "x = 1"]
SHOUT = '''%%tool
def shout(text: str) -> str:
    """Say it louder, in capitals."""
    return text.upper()
'''
PANEL = "#jp-wb-sidebar"


def write_notebook(lab: LabPage) -> None:
    cells: list[dict[str, object]] = [
        {"cell_type": "code", "execution_count": None, "id": f"c{i}", "metadata": {},
         "outputs": [], "source": source}
        for i, source in enumerate(CELLS)
    ]  # fmt: skip
    notebook = {
        "cells": cells,
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                    "language": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }  # fmt: skip
    (lab.workdir / NOTEBOOK).write_text(json.dumps(notebook))


def open_panel(lab: LabPage, ui: UI) -> Locator:
    """Click the panel's tab (JupyterLab) or View > Left Sidebar (Notebook 7)."""
    if ui == "lab":
        lab.page.locator(f'.jp-SideBar li[data-id="{PANEL[1:]}"]').click()
    else:
        lab.menu("View", "Left Sidebar", "Show MCP servers and tools")
    panel = lab.page.locator(PANEL)
    expect(panel).to_be_visible()
    return panel


def search(panel: Locator, words: str) -> Locator:
    """Type a search; the hits once the list answers exactly these words."""
    panel.locator(".jp-wb-sidebar-search").fill(words)
    expect(panel.locator(".jp-wb-sidebar-hits")).to_have_attribute("data-query", words)
    return panel.locator(".jp-wb-sidebar-hit")


def restart_during_a_call(lab: LabPage) -> None:
    """A restart while a call reports progress: its line says it stopped (newcomer-3
    friction 20: it stayed frozen at "2/10 Counted 2 of 10" with no word of the restart)."""
    count = lab.cells().count()
    lab.cells().nth(count - 1).locator(".jp-InputPrompt").click()
    lab.page.keyboard.press("Escape")
    lab.page.keyboard.press("b")
    cell = lab.cells().nth(count)
    cell.locator(".cm-content").click()
    lab.page.keyboard.insert_text("%mcp call demo.slow_count seconds=60 steps=30")
    lab.page.keyboard.press("Control+Enter")
    progress = cell.locator(".jp-wb-progress")
    expect(progress.locator(".jp-wb-counts")).to_contain_text("/30", timeout=30_000)
    lab.menu("Kernel", "Restart Kernel…")
    lab.page.locator(".jp-Dialog .jp-mod-accept").click()
    expect(progress).to_contain_text("stopped: the kernel restarted at ", timeout=30_000)
    expect(progress).to_have_class(re.compile(r"\bjp-wb-is-cancelled\b"))
    lab.screenshot("stopped by a restart")
    lab.wait_for_kernel()


@pytest.mark.parametrize("ui", ["lab", "notebook"])
def test_sidebar_lists_searches_inserts_and_follows(lab: LabPage, ui: UI) -> None:
    write_notebook(lab)
    lab.open_notebook(NOTEBOOK, ui=ui)
    panel = open_panel(lab, ui)

    # A kernel without the workbench: the panel says so; its button loads it there.
    expect(panel).to_have_attribute("data-status", "missing")
    expect(panel).to_contain_text("not loaded in this kernel")
    lab.screenshot("not loaded")
    panel.locator(".jp-wb-sidebar-load").click()
    expect(panel).to_have_attribute("data-status", "ready")
    expect(panel.locator(".jp-wb-sidebar-servers")).to_contain_text("No server connected")

    # A cell connects the demo server: the open panel lists it with its status.
    lab.run_cell_with(CELLS[0], index=0)
    demo = panel.locator('.jp-wb-sidebar-server[data-name="demo"]')
    expect(demo).to_have_attribute("data-status", "connected")
    expect(demo).to_contain_text("11 tools")
    expect(panel.locator(".jp-wb-sidebar-hit")).to_have_count(11)  # every tool, unsearched

    # Search, then a click inserts a ready-to-run call cell below the active one.
    hits = search(panel, "add numbers")
    expect(hits.first).to_have_attribute("data-id", "demo.add")
    lab.screenshot("searched")
    before = lab.cell_count()
    hits.first.locator(".jp-wb-sidebar-hit-call").click()
    lab.page.wait_for_function(
        f"() => document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell')"
        f".length > {before}"
    )
    sources = lab.cell_sources()
    [inserted] = [i for i, source in enumerate(sources) if "%mcp call demo.add" in source]
    assert inserted == 1, sources  # below the active cell (the one that connected)
    assert sources[inserted].endswith("%mcp call demo.add a=0 b=0"), sources[inserted]
    lab.cells().nth(inserted).locator(".jp-InputPrompt").click()
    lab.page.keyboard.press("Control+Enter")
    lab.wait_for_idle()
    output = lab.wait_for_output("demo.add", index=inserted)
    assert "ok" in output and '"result": 0' in output, output

    # A %%tool cell run later shows up in the open panel, without reopening it.
    lab.run_cell_with(SHOUT)
    notebook = panel.locator('.jp-wb-sidebar-server[data-name="notebook"]')
    expect(notebook).to_contain_text("1 tool")
    hits = search(panel, "shout in capitals")
    expect(hits.first).to_have_attribute("data-id", "notebook.shout")

    # Browse inserts a cell that opens the tool browser on that tool.
    before = lab.cell_count()
    hits.first.locator(".jp-wb-sidebar-hit-browse").click()
    expect(lab.cells()).to_have_count(before + 1)
    sources = lab.cell_sources()
    assert sources[before] == "%mcp browse --server notebook shout", sources
    lab.cells().nth(before).locator(".jp-InputPrompt").click()
    lab.page.keyboard.press("Control+Enter")
    lab.wait_for_idle()
    row = lab.cells().nth(before).locator('.wb-tl-row[data-id="notebook.shout"]')
    expect(row).to_be_visible()

    # What is served: the URL and the tool count; the token stays masked.
    lab.run_cell_with("%mcp serve")
    served = panel.locator(".jp-wb-sidebar-served")
    expect(served).to_contain_text("http://127.0.0.1:")
    expect(served).to_contain_text("1 notebook tools")
    expect(served).to_contain_text("token ***")
    token = lab.run_cell_with(
        "import workbench, hashlib\n"
        "print(hashlib.sha256(workbench.current().served.token.encode()).hexdigest())"
    ).strip()
    assert token and token not in panel.inner_text()
    lab.run_cell_with("%mcp serve --stop")
    expect(served).to_be_hidden()

    search(panel, "")
    panel.screenshot(path=str(lab.artifacts / "sidebar.png"))
    lab.page.screenshot(  # the panel beside the notebook it serves: the README's picture
        path=str(lab.artifacts / "sidebar-beside-notebook.png"),
        clip={"x": 0, "y": 0, "width": 1100, "height": 760},
    )
    lab.screenshot("done")

    restart_during_a_call(lab)
    expect(panel).to_have_attribute("data-status", "missing")  # the new kernel has no workbench
