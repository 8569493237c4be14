"""Running a notebook of notebooks/ in a real kernel and reading what its cells showed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import nbformat
from nbclient import NotebookClient

NOTEBOOKS = Path(__file__).parents[2] / "notebooks"


def read(name: str) -> Any:
    return nbformat.read(NOTEBOOKS / name, as_version=4)


def execute(notebook: Any) -> list[dict[str, Any]]:
    """Run every cell (python3 kernel, 120 s a cell); every output, in order."""
    NotebookClient(notebook, timeout=120, kernel_name="python3").execute()
    return [out for cell in notebook.cells for out in cell.get("outputs", [])]


def text_of(output: dict[str, Any]) -> str:
    """A stream's text, or a display's text/plain."""
    if "text" in output:
        return str(output["text"])
    return str(output.get("data", {}).get("text/plain", ""))
