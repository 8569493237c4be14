"""The browse notebook runs top to bottom in a real kernel and leaves a live browser widget."""

from __future__ import annotations

import pytest

from tests.notebooks.executed import execute, read

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


@pytest.mark.kernel
def test_browse_notebook_runs_and_shows_the_browser() -> None:
    notebook = read("browse.ipynb")
    outputs = execute(notebook)
    errors = [out for out in outputs if out["output_type"] == "error"]
    assert not errors, errors
    views = [out["data"][WIDGET_VIEW] for out in outputs if WIDGET_VIEW in out.get("data", {})]
    assert len(views) == 1, "the browser cell shows one widget"
    state = notebook.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    models = {model_id: model["state"] for model_id, model in state.items()}
    lists = [s for s in models.values() if s.get("_anywidget_id", "").endswith(".ToolList")]
    assert len(lists) == 1
    answer = lists[0]["answer"]
    ids = [row["id"] for row in answer["rows"]]
    assert "demo.create_event" in ids and "notebook.greet" in ids
    cards = [s["value"] for s in models.values() if "wb-card" in s.get("_dom_classes", ())]
    assert any("demo.add" in card for card in cards)  # browser.open(...) ran
