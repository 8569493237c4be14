"""A server's questions answered in the calling cell, in real JupyterLab, typed key by key.

While ``await wb.acall(...)`` runs, the kernel handles the panel's widget messages beside the
awaiting cell. The page sends a model's next change only after the kernel's idle for its last
one, so before ``kernel.idle_after_concurrent_comms`` a typed ``10`` reached the server as
``1`` and a typed reply as its first letter (issue 27). Then the answered panels are saved
as static summaries: an untrusted copy re-opened without a kernel shows what was asked and
answered, never a raw ``VBox(...)`` repr or "model not found".
"""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Locator, expect

from tests.browser.jupyter_browser import LabPage

NOTEBOOK = "asking.ipynb"
SHARED = "asking-shared.ipynb"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
REPLY = "A fox jumps a dog and runs."
CELLS = [
    "%load_ext workbench\n%mcp connect demo\nimport workbench\nwb = workbench.current()",
    'r = await wb.acall("demo.book_table", {"restaurant": "Roma"})\nprint(r.text)',
    'r = await wb.acall("demo.summarize", {"text": "The quick brown fox."})\nprint(r.text)',
]


def write_notebook(lab: LabPage) -> None:
    cells = [
        {
            "cell_type": "code",
            "id": f"c{i}",
            "metadata": {},
            "source": source,
            "outputs": [],
            "execution_count": None,
        }
        for i, source in enumerate(CELLS)
    ]
    notebook = {
        "cells": cells,
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (lab.workdir / NOTEBOOK).write_text(json.dumps(notebook))


def start(lab: LabPage, index: int) -> Locator:
    """Run cell ``index`` in place without waiting for it to end; the cell."""
    cell = lab.cells().nth(index)
    cell.locator(".cm-content").click()
    lab.page.keyboard.press("Control+Enter")
    return cell


def saved_ok(notebook: dict[str, Any]) -> bool:
    """Saved after both questions were answered and their cells finished."""
    outputs = [cell.get("outputs", []) for cell in notebook["cells"]]
    text = json.dumps(outputs)
    return "for 10 people" in text and REPLY in text and WIDGET_VIEW not in json.dumps(outputs)


def test_typed_answers_reach_the_server_whole_and_are_saved_as_summaries(lab: LabPage) -> None:
    write_notebook(lab)
    lab.open_notebook(NOTEBOOK)
    start(lab, 0)
    lab.wait_for_idle()
    lab.wait_for_output("demo", index=0)

    # Elicitation: 20 is over the maximum and refused; corrected to 10, all of 10 is sent.
    cell = start(lab, 1)
    party = cell.locator(".wb-path-party_size input")
    party.click()
    party.press_sequentially("20", delay=60)
    cell.locator(".wb-path-time select").select_option("21:00")
    cell.locator(".wb-ask-accept").click()  # at once: no pause after the last key
    expect(cell.locator(".wb-ask-message")).to_contain_text("problem")
    party.fill("")
    party.press_sequentially("10", delay=60)
    cell.locator(".wb-ask-accept").click()
    lab.wait_for_output("Booked a table at Roma for 10 people at 21:00, inside.", index=1)
    shown = lab.wait_for_output("demo: accepted, sent party_size=10, time='21:00'", index=1)
    assert "VBox(" not in shown
    expect(cell.locator(".wb-ask")).to_have_count(0)  # the live panel became the summary

    # Sampling: the whole typed reply arrives, not its first letter.
    cell = start(lab, 2)
    reply = cell.locator(".wb-ask-reply textarea")
    reply.click()
    reply.press_sequentially(REPLY, delay=20)
    # Send at once after the last key. ipywidgets holds a text box's per-key updates while an
    # earlier one awaits the kernel but sends a click at once, so the click overtakes the
    # last keys (a fresh-clone run once sent 23 of these 27 characters); the panel's click
    # waits for them (workbench/widgets/asking/settling.py).
    cell.locator(".wb-ask-send").click()
    lab.wait_for_output(f"demo: reply sent ({len(REPLY)} characters)", index=2)
    shown = lab.wait_for_output(f"\n{REPLY}", index=2)
    lab.wait_for_idle()
    lab.screenshot("answered")

    saved = lab.save(NOTEBOOK, until=saved_ok)
    assert "VBox(" not in json.dumps(saved)
    lab.untrusted_copy(NOTEBOOK, SHARED)
    lab.leave_and_stop_kernel()

    panel = lab.reopen(SHARED, "lab")
    expect(panel.locator(".jp-Cell").nth(2)).to_contain_text("reply sent")
    text = panel.inner_text()
    assert "demo asks (calling book_table): Book a table at Roma" in text
    assert "demo: accepted, sent party_size=10, time='21:00', terrace=False" in text
    assert "demo asks (calling summarize): a language model's reply" in text
    for gone in ("VBox(", "model not found", "Error displaying widget", "Loading widget"):
        assert gone not in text
    lab.screenshot("reopened-untrusted")
