"""Every notebook, opened in JupyterLab and left alone, stays unmodified (no ● on its tab), so
closing it asks nothing and autosave never rewrites it. Lab writes the started kernel's own
description into a notebook's metadata (kernelspec display name, language_info version) and
marks it modified; the extension keeps it unmodified while the kernel is the one the file
names (labextension/src/clean.ts). A real change still marks it."""

from __future__ import annotations

import json
import time

from playwright.sync_api import expect

from tests.browser.jupyter_browser import ROOT, LabPage

NOTEBOOKS = sorted(path.name for path in (ROOT / "notebooks").glob("*.ipynb"))
TABS = ".lm-DockPanel-tabBar .lm-TabBar-tab"


def test_every_notebook_opened_and_left_alone_stays_unmodified(lab: LabPage) -> None:
    first, *others = NOTEBOOKS
    saved = {name: (lab.workdir / "notebooks" / name).read_text() for name in NOTEBOOKS}
    # ipywidgets' manager asks each fresh kernel for its widgets over a control comm; a kernel
    # that has not imported ipywidgets closes it, and the page may log that close as a
    # "Comm not found" (stock JupyterLab + ipywidgets, as in test_lab_snapshot.py).
    for _kernel in NOTEBOOKS:
        lab.allow_error("Comm not found for comm id")
    lab.open_notebook(f"notebooks/{first}")
    for name in others:  # each in a tab of the same page, from the file browser
        lab.page.locator(".jp-DirListing-item", has_text=name).dblclick()
        expect(lab.page.locator(f"{TABS}.lm-mod-current")).to_contain_text(name)
    expect(lab.page.locator(TABS)).to_have_count(len(NOTEBOOKS))
    for name in NOTEBOOKS:  # their kernels started side by side; each is idle in turn
        lab.page.locator(TABS, has_text=name).click()
        lab.wait_for_kernel()
    time.sleep(1)  # a kernel's description arrives once it is idle
    lab.screenshot("all-open")
    dirty = lab.page.locator(f"{TABS}.jp-mod-dirty")
    assert dirty.count() == 0, f"marked modified when opened: {dirty.all_inner_texts()}"
    for name, text in saved.items():
        assert (lab.workdir / "notebooks" / name).read_text() == text, name
        json.loads(text)  # still the committed file

    # A real change still marks the notebook modified.
    lab.cells().first.click()
    lab.page.keyboard.press("Escape")
    lab.page.keyboard.press("b")  # command mode: a new cell below
    expect(lab.page.locator(f"{TABS}.lm-mod-current.jp-mod-dirty")).to_have_count(1)
