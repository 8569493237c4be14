"""The notebook of everything a server offers besides tools runs top to bottom in a real
kernel and shows each feature: resources, templates, prompts, completions, elicitation (run
unattended, as CI runs it, the form's question is declined at once with a note; then Python
handlers), sampling and roots."""

from __future__ import annotations

import pytest

from tests.notebooks.executed import execute, read, text_of

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
FORM_CELL = 'await wb.acall("demo.book_table"'
UNATTENDED = "declined, since this notebook is running unattended"


@pytest.mark.kernel
def test_the_notebook_shows_everything_a_server_offers() -> None:
    notebook = read("beyond_tools.ipynb")
    [form_cell] = [cell for cell in notebook.cells if FORM_CELL in cell.source]
    # nbclient allows no input: the question must not wait its 300 s for a person.
    outputs = execute(notebook, timeout=60)
    errors = [out for out in outputs if out["output_type"] == "error"]
    assert not errors, errors
    shown = "\n".join(text_of(out) for out in outputs)
    assert "demo://guide" in shown and "demo://chart.png" in shown  # %mcp resources
    assert "demo://numbers/{n}" in shown  # --templates
    assert "Guide" in shown or "guide" in shown  # the guide's text
    assert '"square": 49' in shown  # the template read, JSON pretty-printed
    assert "image/png" in shown  # the chart resource
    assert "('resource', 'demo://numbers/12')" in shown  # a read in the history
    assert "explain_tool" in shown and "user" in shown and "assistant" in shown  # the prompt
    assert "['user', 'assistant']" in shown  # to_messages()
    form_outputs = list(form_cell.outputs)
    assert not any(WIDGET_VIEW in out.get("data", {}) for out in form_outputs), form_outputs
    form_shown = "\n".join(text_of(out) for out in form_outputs)
    assert "demo asked 'Book a table at Trattoria Roma" in form_shown, form_shown
    assert UNATTENDED in form_shown and "Declined: the user said no" in form_shown, form_shown
    assert shown.count(UNATTENDED) == 1  # the handlers answer the later questions
    assert "for 4 people at 19:30, on the terrace" in shown  # the handler's answer
    assert "Declined: the user said no" in shown.split("4 people at 19:30")[1]  # None declines
    assert "A fox jumps over a dog, quickly." in shown  # sampling answered by the handler
    assert "[]" in shown and "file://" in shown  # no roots, then the notebook's folder
    assert "ping" in shown.lower()  # %mcp servers with each server's ping
