"""The quickstart notebook runs top to bottom in a real kernel and shows what it promises."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOK = Path(__file__).parents[2] / "notebooks" / "quickstart.ipynb"


def _text(output: dict) -> str:  # type: ignore[type-arg]
    if "text" in output:
        return str(output["text"])
    return str(output.get("data", {}).get("text/plain", ""))


@pytest.mark.kernel
def test_quickstart_runs_and_shows_observations() -> None:
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(notebook, timeout=120, kernel_name="python3").execute()
    outputs = [out for cell in notebook.cells for out in cell.get("outputs", [])]
    assert not [out for out in outputs if out["output_type"] == "error"]
    shown = "\n".join(_text(out) for out in outputs)
    assert "'most_common': ['cat', 'the', 'other']" in shown  # the plain function call
    assert "Error · invalid_arguments" in shown  # the bad call's Observation
    assert "txt: unexpected argument" in shown
    assert "input_schema" in shown  # the Anthropic export
    bundles = [out["data"] for out in outputs if out["output_type"] == "execute_result"]
    assert sum("application/vnd.workbench.observation+json" in b for b in bundles) == 2
