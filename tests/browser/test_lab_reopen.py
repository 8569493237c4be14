"""The issue's promise, end to end: run the quickstart, close the tab, shut the kernel down,
re-open the notebook, and see everything, in JupyterLab and Notebook 7, in one's own copy and
in an untrusted one.

Every output the workbench wrote with a JSON document is drawn by the extension's renderer
from it (the count on the page matches the saved file's), so the untrusted copy keeps what
sanitized HTML loses: the error's colour and the progress bar's fill.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Locator, expect

from tests.browser.jupyter_browser import UI, LabPage
from tests.browser.outputs import OBSERVATION_MIME, PROGRESS_MIME, workbench_outputs

QUICKSTART = "notebooks/quickstart.ipynb"
SHARED = "notebooks/quickstart-shared.ipynb"


def finished(notebook: dict[str, Any]) -> bool:
    """Saved after the last cell ran: every code cell has run, the progress line is final."""
    code = [cell for cell in notebook["cells"] if cell["cell_type"] == "code"]
    if any(cell.get("execution_count") is None for cell in code):
        return False
    progress = [
        output["data"][PROGRESS_MIME]
        for cell in code
        for output in cell.get("outputs", [])
        if PROGRESS_MIME in output.get("data", {})
    ]
    return len(progress) == 1 and progress[0]["finished"]


def check_everything_drawn(lab: LabPage, panel: Locator, counts: dict[str, int]) -> None:
    for mime, count in counts.items():
        expect(panel.locator(f'[data-mime-type="{mime}"] > .jp-wb-box')).to_have_count(count)
    text = panel.inner_text()
    for gone in ("model not found", "Error displaying widget", "Observation(", "VBox("):
        assert gone not in text
    # What the quickstart's cells showed, drawn again from the file.
    failed = panel.locator(".jp-wb-observation.jp-wb-is-error").filter(has_text="this is a drill")
    expect(failed).to_have_count(1)
    error_colour = lab.page.evaluate(
        "() => getComputedStyle(document.body).getPropertyValue('--jp-error-color1').trim()"
    )
    status = failed.locator(".jp-wb-status-error").first
    assert status.evaluate("n => getComputedStyle(n).color") != status.evaluate(
        "n => getComputedStyle(n.closest('.jp-wb-box')).color"
    ), f"the error status is not coloured (the theme's error colour is {error_colour})"
    fill = panel.locator(".jp-wb-progress-fill")
    expect(fill).to_have_count(1)
    assert fill.evaluate("n => n.getBoundingClientRect().width") > 100  # 4/4: a full bar
    expect(panel.locator(".jp-wb-progress")).to_contain_text("4/4")
    chart = panel.locator(".jp-wb-observation img").first
    chart.scroll_into_view_if_needed()
    expect(chart).to_be_visible()
    assert chart.evaluate("img => img.complete && img.naturalWidth > 0")
    expect(panel.locator(".jp-wb-servers")).to_contain_text("demo")
    expect(panel.locator(".jp-wb-tool-card")).to_contain_text("notebook.initials")


@pytest.mark.parametrize("ui", ["lab", "notebook"])
def test_the_quickstart_reopened_without_its_kernel_shows_everything(lab: LabPage, ui: UI) -> None:
    lab.open_notebook(QUICKSTART, ui=ui)
    lab.run_all()
    saved = lab.save(QUICKSTART, until=finished)
    counts = workbench_outputs(saved)
    assert counts[OBSERVATION_MIME] >= 5 and all(counts.values()), counts
    lab.untrusted_copy(QUICKSTART, SHARED)
    lab.leave_and_stop_kernel()

    for path, step in ((QUICKSTART, "reopened"), (SHARED, "reopened-untrusted")):
        panel = lab.reopen(path, ui)
        check_everything_drawn(lab, panel, counts)
        drill = lab.cells().filter(has_text="this is a drill").first
        drill.evaluate("cell => cell.scrollIntoView({block: 'center'})")
        lab.screenshot(step)
        box = panel.bounding_box()
        assert box is not None
        lab.page.screenshot(  # the README's picture: the notebook's part of the page
            path=str(lab.artifacts / f"{step}-notebook.png"),
            clip={"x": box["x"], "y": box["y"] + 400, "width": box["width"], "height": 1100},
        )
        lab.leave_and_stop_kernel()
