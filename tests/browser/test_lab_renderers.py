"""The extension's renderers in a real page: a notebook of workbench outputs is run, saved and
closed, its kernel shut down, and re-opened without running (trusted, then as an untrusted
copy), in JupyterLab and Notebook 7: every output is drawn by the renderer from its JSON.
The light and dark themes are checked for readable contrast, computed from the page's colours.

Screenshots: test-artifacts/browser/<test>/ (``*-reopened*.png``, ``*-light.png``, ``*-dark.png``).
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from playwright.sync_api import Locator, expect

from tests.browser.jupyter_browser import VIEWPORT, LabPage
from tests.browser.outputs import (
    OBSERVATION_MIME,
    PROGRESS_MIME,
    SERVERS_MIME,
    TABLE_MIME,
    TOOL_MIME,
    workbench_outputs,
)

NOTEBOOK = "renderers.ipynb"
UNTRUSTED = "renderers-untrusted.ipynb"
DURATION = re.compile(r"^\d+(\.\d+)? (ms|s)$")
THEMES = "/lab/api/settings/@jupyterlab/apputils-extension:themes"

CELLS = [
    "%load_ext workbench",
    "%mcp connect demo",
    "%mcp servers",
    "%mcp tools demo.add",
    'from workbench.display import ActionView\nActionView("demo.add", {"a": 2, "b": 3})',
    "%mcp call demo.add a=2 b=3",
    '%mcp call demo.draw_chart values=[3,1,4,1,5] title="Digits of pi"',
    '%mcp call demo.fail reason="Nothing is wrong, this is a drill."',
    "from workbench import Observation\nfrom workbench.display import ObservationView\n"
    'ObservationView(Observation.from_text("a line of text\\n" * 3000),'
    ' tool_id="notebook.long", max_text=2000)',
    '%%tool\ndef measure(text: str) -> dict:\n    """Measure a text."""\n'
    '    return {"words": len(text.split()), "letters": sum(c.isalpha() for c in text)}',
    '%mcp call measure text="hello brave new world"',
    "from IPython.display import display\n"  # a document from a later version of the workbench
    f'display({{"{OBSERVATION_MIME}": {{"kind": "observation", "version": 99}},'
    ' "text/plain": "a later document", "text/html": "<b>a later document</b>"}, raw=True)',
]


def write_notebook(path: Path) -> None:
    """The notebook, unrun, as plain nbformat 4 JSON."""
    cells: list[dict[str, object]] = [
        {"id": "title", "cell_type": "markdown", "metadata": {}, "source": "# Outputs, re-opened"}
    ]
    cells += [
        {
            "id": f"cell-{index}",
            "cell_type": "code",
            "metadata": {},
            "source": source,
            "outputs": [],
            "execution_count": None,
        }
        for index, source in enumerate(CELLS)
    ]
    kernelspec = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    notebook = {"nbformat": 4, "nbformat_minor": 5, "metadata": {"kernelspec": kernelspec}}
    path.write_text(json.dumps({**notebook, "cells": cells}, indent=1))


def run_in_kernel(path: Path) -> None:
    """Run the notebook in a real kernel outside the page (nbclient) and save its outputs."""
    notebook = nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]
    NotebookClient(notebook, timeout=120, kernel_name="python3").execute()
    nbformat.write(notebook, path)  # type: ignore[no-untyped-call]


def reopen(lab: LabPage, path: str, ui: str) -> Locator:
    """Re-open ``path`` and wait until its first workbench output is drawn."""
    panel = lab.reopen(path, ui)  # type: ignore[arg-type]
    expect(panel.locator(".jp-wb-observation").first).to_be_visible(timeout=60_000)
    return panel


def check_drawn(panel: Locator, counts: dict[str, int]) -> None:
    """Every workbench output drawn by its renderer, with the text it had when it ran."""
    for mime, count in counts.items():
        drawn = panel.locator(f'[data-mime-type="{mime}"] > .jp-wb-box')
        expect(drawn).to_have_count(count)
    expect(panel.locator(".jp-wb-rendered")).to_have_count(sum(counts.values()))
    expect(panel.locator(".wb-observation, .wb-action, .wb-tool-card")).to_have_count(0)  # HTML
    expect(panel.locator(".jp-wb-observation")).to_have_count(counts[OBSERVATION_MIME] - 2)
    expect(panel.locator(".jp-wb-fallback")).to_have_count(1)  # drawn as a line, never thrown
    expect(panel.locator(".jp-wb-fallback")).to_contain_text("version 99")
    expect(panel.locator(".jp-wb-action")).to_have_count(1)

    servers = panel.locator(".jp-wb-servers")
    expect(servers).to_have_count(1)
    expect(servers).to_contain_text("demo")
    expect(servers.locator(".jp-wb-tone-ok")).to_have_text("connected")

    tools = panel.locator(".jp-wb-tool-table")  # %mcp connect's table of the demo's tools
    expect(tools).to_have_count(1)
    expect(tools.locator("caption")).to_have_text("11 tools")
    expect(tools).to_contain_text("demo.draw_chart")
    expect(tools.locator(".jp-wb-badge", has_text="read-only").first).to_be_visible()

    cards = panel.locator(".jp-wb-tool-card")
    expect(cards).to_have_count(2)
    expect(cards.nth(0)).to_contain_text("demo.add")
    expect(cards.nth(1)).to_contain_text("notebook.measure")
    expect(cards.nth(1)).to_contain_text("Measure a text.")

    action = panel.locator(".jp-wb-action")
    expect(action).to_contain_text("demo.add")
    expect(action.locator(".jp-wb-arg-name")).to_have_text(["a", "b"])

    def observation(tool: str) -> Locator:
        found = panel.locator(".jp-wb-observation").filter(
            has=panel.page.locator(".jp-wb-tool-id", has_text=tool)
        )
        expect(found).to_have_count(1)
        return found

    add = observation("demo.add")
    expect(add.locator(".jp-wb-status")).to_have_text("ok")
    expect(add.locator(".jp-wb-duration")).to_have_text(DURATION)
    expect(add.locator(".jp-wb-structured")).to_contain_text('"result": 5')

    chart = observation("demo.draw_chart").locator("img.jp-wb-image")
    expect(chart).to_have_count(1)
    chart.scroll_into_view_if_needed()
    assert chart.evaluate("img => img.complete && img.naturalWidth > 0")
    assert (chart.get_attribute("src") or "").startswith("data:image/png;base64,")

    fail = observation("demo.fail")
    expect(fail).to_have_class(re.compile(r"\bjp-wb-is-error\b"))
    expect(fail.locator(".jp-wb-status")).to_have_text("Error · tool_error")
    expect(fail.locator(".jp-wb-error-line")).to_contain_text("this is a drill")

    long = observation("notebook.long")
    expect(long.locator(".jp-wb-truncated")).to_contain_text("wb.history[-1].observation")
    expect(long.locator(".jp-wb-text")).to_contain_text("a line of text")

    measure = observation("notebook.measure").locator(".jp-wb-structured")
    expect(measure).to_contain_text('"letters": 18')
    expect(measure).to_contain_text('"words": 4')

    shown = "\n".join(panel.locator(".jp-OutputArea").all_inner_texts())
    for raw in ('"kind": "observation"', '"kind":"observation"', "model not found"):
        assert raw not in shown


@pytest.mark.parametrize("ui", ["lab", "notebook"])
def test_a_saved_notebook_shows_every_output_reopened_trusted_or_not(lab: LabPage, ui: str) -> None:
    path = lab.workdir / NOTEBOOK
    write_notebook(path)
    lab.open_notebook(NOTEBOOK, ui=ui)  # type: ignore[arg-type]
    lab.run_all()
    assert "Traceback" not in lab.output_text()
    saved = lab.save(NOTEBOOK, until=lambda notebook: any(workbench_outputs(notebook).values()))
    counts = workbench_outputs(saved)
    assert counts == {
        OBSERVATION_MIME: 7,
        TOOL_MIME: 2,
        SERVERS_MIME: 1,
        TABLE_MIME: 1,
        PROGRESS_MIME: 0,
    }

    # Close the page, shut the kernel down, re-open without running.
    lab.leave_and_stop_kernel()
    started = time.monotonic()
    panel = reopen(lab, NOTEBOOK, ui)
    lab.record_timing(f"{lab.name}: re-open until drawn", time.monotonic() - started)
    check_drawn(panel, counts)
    lab.screenshot("reopened")

    # An untrusted copy: changed (a signature is of the content) and written through the
    # contents API, which signs nothing with rich outputs that no page marked trusted.
    notebook = json.loads(path.read_text())
    notebook["metadata"]["copied"] = "by a test, so its signature is unknown"
    lab.server.api(
        "PUT",
        f"/api/contents/{lab.notebook_path(UNTRUSTED)}",
        {"type": "notebook", "format": "json", "content": notebook},
    )
    listed = lab.server.api("GET", f"/api/contents/{lab.notebook_path(UNTRUSTED)}?content=1")
    shown_cells = [c for c in listed["content"]["cells"] if c["cell_type"] == "code"]
    assert not any(cell["metadata"].get("trusted") for cell in shown_cells)  # untrusted
    lab.leave_and_stop_kernel()
    panel = reopen(lab, UNTRUSTED, ui)
    if ui == "notebook":  # Notebook 7 says so in its header; JupyterLab 4 shows no indicator
        expect(lab.page.get_by_text("Not Trusted", exact=True)).to_be_visible()
    check_drawn(panel, counts)
    lab.screenshot("reopened-untrusted")
    lab.assert_no_errors()


# -- contrast -------------------------------------------------------------------------------

_CONTRAST_JS = """(selectors) => {
  const parse = text => {  // rgb(), rgba() and color(srgb ...) (what color-mix() computes to)
    const srgb = text.match(/color\\(srgb ([^)]+)\\)/);
    const m = srgb ?? text.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    const scale = srgb ? 255 : 1;
    return [p[0] * scale, p[1] * scale, p[2] * scale, p.length > 3 ? p[3] : 1];
  };
  const over = (top, below) => {
    const a = top[3];
    return [0, 1, 2].map(i => top[i] * a + below[i] * (1 - a)).concat([1]);
  };
  const background = node => {
    const layers = [];
    for (let n = node; n; n = n.parentElement) {
      const c = parse(getComputedStyle(n).backgroundColor);
      if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
    }
    let color = [255, 255, 255, 1];
    for (const layer of layers.reverse()) color = over(layer, color);
    return color;
  };
  const lum = c => {
    const [r, g, b] = c.slice(0, 3).map(v => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const out = {};
  for (const [name, selector] of Object.entries(selectors)) {
    const node = document.querySelector(selector);
    if (!node) { out[name] = null; continue; }
    const bg = background(node);
    const fg = over(parse(getComputedStyle(node).color), bg);
    const [hi, lo] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    out[name] = Math.round(((hi + 0.05) / (lo + 0.05)) * 100) / 100;
  }
  return out;
}"""

_PANEL = ".jp-NotebookPanel:not(.lm-mod-hidden)"
BODY = {  # body text: WCAG AA, 4.5
    "text": f"{_PANEL} .jp-wb-observation .jp-wb-text",
    "tool id": f"{_PANEL} .jp-wb-observation .jp-wb-tool-id",
    "structured": f"{_PANEL} .jp-wb-observation .jp-wb-structured",
    "error line": f"{_PANEL} .jp-wb-is-error .jp-wb-error-line",
    "table cell": f"{_PANEL} .jp-wb-servers td span",
    "tool table": f"{_PANEL} .jp-wb-tool-table td .jp-wb-tone-accent",
    "argument": f"{_PANEL} .jp-wb-action .jp-wb-arg-name",
}
UI_TEXT = {  # small labels (status pills, durations, notes): 4.5 too, as they are text
    "status ok": f"{_PANEL} .jp-wb-status-ok",
    "status error": f"{_PANEL} .jp-wb-status-error",
    "duration": f"{_PANEL} .jp-wb-duration",
    "truncation note": f"{_PANEL} .jp-wb-truncated",
}


# Every word of a table cell on one line, and a cell's badges side by side (newcomer-3
# friction 15: "demo.book_tab|le", "statu|s", "112|.5 ms" at 1280 px with the file browser).
_BROKEN_WORDS_JS = """(selector) => {
  const broken = [];
  for (const td of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const word of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        if (range.getClientRects().length > 1) broken.push(word[0]);
      }
    }
    const tops = new Set([...td.querySelectorAll('.jp-wb-badge')].map(
      badge => Math.round(badge.getBoundingClientRect().top)));
    if (tops.size > 1) broken.push(`badges: ${td.textContent}`);
  }
  return broken;
}"""
NARROW = {"width": 1280, "height": 800}


def check_words_whole_at_1280_with_the_file_browser(lab: LabPage) -> None:
    page = lab.page
    page.set_viewport_size(NARROW)  # type: ignore[arg-type]
    if not page.locator("#filebrowser").is_visible():
        page.locator('.jp-SideBar li[data-id="filebrowser"]').click()
    expect(page.locator("#filebrowser")).to_be_visible()
    tables = f"{_PANEL} .jp-wb-tool-table td, {_PANEL} .jp-wb-servers td"
    expect(page.locator(f"{_PANEL} .jp-wb-tool-table td.jp-wb-prose").first).to_be_visible()
    page.locator(f"{_PANEL} .jp-wb-tool-table").scroll_into_view_if_needed()
    lab.screenshot("tables-1280-file-browser")
    assert page.evaluate(_BROKEN_WORDS_JS, tables) == []
    page.set_viewport_size(VIEWPORT)


def set_theme(lab: LabPage, theme: str) -> None:
    lab.server.api("PUT", THEMES, {"raw": json.dumps({"theme": theme})})


def test_contrast_is_readable_in_the_light_dark_and_high_contrast_themes(lab: LabPage) -> None:
    path = lab.workdir / NOTEBOOK
    write_notebook(path)
    run_in_kernel(path)
    ratios: dict[str, dict[str, float]] = {}
    try:
        for theme, step in (
            ("JupyterLab Light", "light"),
            ("JupyterLab Dark", "dark"),
            ("JupyterLab Dark High Contrast", "dark-high-contrast"),
        ):
            set_theme(lab, theme)
            lab.page.goto("about:blank")
            reopen(lab, NOTEBOOK, "lab")
            expect(lab.page.locator("body")).to_have_attribute("data-jp-theme-name", theme)
            lab.page.locator(f"{_PANEL} .jp-wb-observation").first.scroll_into_view_if_needed()
            lab.screenshot(step)
            ratios[step] = lab.page.evaluate(_CONTRAST_JS, {**BODY, **UI_TEXT})
            if step == "light":
                check_words_whole_at_1280_with_the_file_browser(lab)
    finally:
        set_theme(lab, "JupyterLab Light")
    print("contrast ratios:", json.dumps(ratios))
    for step, found in ratios.items():
        for name in BODY:
            assert found[name] is not None and found[name] >= 4.5, (step, name, found)
        for name in UI_TEXT:
            assert found[name] is not None and found[name] >= 4.5, (step, name, found)
    lab.assert_no_errors()
