"""The workshop notebook in JupyterLab, as a participant first meets it: Run All stops at the
first check, which shows its hint in a box and one line, never a traceback of the folded
check's code; each solution is a closed "Solution to exercise N" that never runs."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.jupyter_browser import LabPage


def test_run_all_stops_at_check_1_with_its_hint_and_the_solutions_stay_closed(
    lab: LabPage,
) -> None:
    lab.open_notebook("notebooks/workshop.ipynb")
    lab.run_all()
    panel = lab.page.locator(".jp-NotebookPanel:visible")
    box = panel.locator(".wb-check")
    expect(box).to_have_count(1)  # Run All stopped at the first check
    expect(box).to_contain_text("Check 1: not yet")
    expect(box).to_contain_text("word_count('a b') should be 2, got None")
    stderr = panel.locator('[data-mime-type="application/vnd.jupyter.stderr"]')
    expect(stderr).to_have_count(1)
    assert stderr.inner_text().strip() == "Check 1 is not passed yet, so Run All stops here."
    shown = lab.output_text()
    for code in ("Traceback", "assert", "AssertionError", "CheckFailed"):
        assert code not in shown, code

    solutions = panel.locator(".jp-MarkdownCell details")
    expect(solutions).to_have_count(5)
    for n in range(1, 6):
        summary = solutions.nth(n - 1).locator("summary")
        expect(summary).to_contain_text(f"Solution to exercise {n}")
        assert solutions.nth(n - 1).get_attribute("open") is None  # closed until clicked
    solutions.first.locator("summary").click()
    expect(solutions.first.locator("pre")).to_contain_text("len(text.split())")
    box.scroll_into_view_if_needed()
    lab.screenshot("stopped-at-check-1")
