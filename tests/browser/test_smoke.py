"""The quickstart notebook, run top to bottom by clicking Run All in a real browser.

The same test runs in JupyterLab and in Notebook 7: what a user sees there is the rendered
HTML of each output, not the text/plain that tests/notebooks checks through nbclient.
"""

from __future__ import annotations

import re
import sys

import pytest

from tests.browser.jupyter_browser import LabPage


@pytest.mark.parametrize("ui", ["lab", "notebook"])
def test_quickstart_runs_in_the_browser(lab: LabPage, ui: str) -> None:
    lab.open_notebook("notebooks/quickstart.ipynb", ui=ui)  # type: ignore[arg-type]
    lab.screenshot("opened")

    lab.run_all()
    lab.screenshot("ran")
    shown = lab.output_text()
    assert "Traceback" not in shown
    stderr = lab.page.locator(
        '.jp-NotebookPanel:visible [data-mime-type="application/vnd.jupyter.stderr"]'
    )
    assert stderr.count() == 0, f"a cell wrote to stderr: {stderr.all_inner_texts()}"
    # The first half: @tool in plain Python.
    assert "'most_common': ['cat', 'the', 'other']" in shown  # the plain function call
    assert "Error · invalid_arguments" in shown and "txt: unexpected argument" in shown
    assert "input_schema" in shown  # the Anthropic export
    # The second half: the magics, rendered as HTML.
    assert "11 tools" in shown and "demo.slow_count" in shown  # %mcp connect demo
    assert "connected" in shown  # %mcp servers
    assert re.search(r"1\s+demo\.draw_chart", shown)  # %mcp search, best hit first
    assert "{'result': 5}" in shown  # _ after %mcp call demo.add
    assert "Error · tool_error" in shown and "this is a drill" in shown  # a failing call
    assert "4/4" in shown  # the slow count's progress bar, updated in place
    assert "notebook.initials" in shown and "read-only" in shown  # the %%tool card
    assert "A.L." in shown and "'G.H.'" in shown and "'AT'" in shown  # tool, function, Python
    assert "5 calls" in shown  # %mcp history

    # The chart arrives as an image content block and is decoded by the browser.
    chart = lab.page.locator(".jp-NotebookPanel:visible .jp-OutputArea-output img").first
    chart.scroll_into_view_if_needed()
    assert chart.evaluate("img => img.complete && img.naturalWidth > 0")
    lab.screenshot("chart")

    # The kernel the page started runs this venv's Python.
    assert lab.run_cell_with("import sys; print(sys.prefix)").strip() == sys.prefix
    lab.scroll_to(lab.cell_count() - 1)
    lab.screenshot("kernel")

    lab.assert_no_errors()  # in Notebook 7, its one stock error is allowed
