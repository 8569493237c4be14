"""Running a notebook of notebooks/ in a real kernel and reading what its cells showed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import nbformat
from nbclient import NotebookClient

from tests.installed import ROOT, Installed, pinned
from workbench.display.mime import OBSERVATION_MIME

NOTEBOOKS = Path(__file__).parents[2] / "notebooks"
SERVERS = Installed(ROOT / ".cache" / "servers", "servers", "MCP servers")

Outputs = dict[str, list[dict[str, Any]]]
"""Each cell's outputs by cell id (:func:`by_cell`)."""


def require_real_servers() -> None:
    """The real servers the notebooks use, at the Makefile's pins (missing: fail, not skip)."""
    SERVERS.node()
    SERVERS.npm_package("server-everything", "EVERYTHING_VERSION", SERVERS.folder / "npm")
    record = f"mcp_server_time-{pinned('TIME_SERVER_VERSION')}.dist-info"
    if not any((SERVERS.folder / "venv").glob(f"lib/python*/site-packages/{record}")):
        SERVERS.missing("mcp-server-time is not installed at the Makefile's pin.")


def observation(cells: Outputs, cell_id: str) -> dict[str, Any]:
    """The one Observation document a cell shows, with its HTML beside it."""
    [output] = [out for out in cells[cell_id] if OBSERVATION_MIME in out.get("data", {})]
    assert "text/html" in output["data"], cell_id
    document: dict[str, Any] = output["data"][OBSERVATION_MIME]
    return document


def read(name: str) -> Any:
    return nbformat.read(NOTEBOOKS / name, as_version=4)


def execute(notebook: Any, timeout: int = 120) -> list[dict[str, Any]]:
    """Run every cell as CI and ``jupyter execute`` do (python3 kernel, ``timeout`` s a cell,
    no input allowed: nobody is there to answer); every output, in order."""
    NotebookClient(notebook, timeout=timeout, kernel_name="python3").execute()
    return [out for cell in notebook.cells for out in cell.get("outputs", [])]


def text_of(output: dict[str, Any]) -> str:
    """A stream's text, or a display's text/plain."""
    if "text" in output:
        return str(output["text"])
    return str(output.get("data", {}).get("text/plain", ""))


def by_cell(notebook: Any) -> dict[str, list[dict[str, Any]]]:
    """Each code cell's outputs by cell id, once `execute` has run the notebook."""
    return {
        cell.id: list(cell.get("outputs", []))
        for cell in notebook.cells
        if cell.cell_type == "code"
    }


def shown_by(outputs: list[dict[str, Any]]) -> str:
    """The text of a cell's outputs (streams and text/plain), one after the other. A busy
    kernel may send one cell's ``print`` output as several stream outputs, split anywhere,
    even inside a line: consecutive outputs of one stream are joined as they were written,
    as a frontend shows them; a line break goes between others where the first lacks one."""
    shown = ""
    previous: dict[str, Any] | None = None
    for out in outputs:
        same_stream = (
            previous is not None
            and out.get("output_type") == previous.get("output_type") == "stream"
            and out.get("name") == previous.get("name")
        )
        if shown and not same_stream and not shown.endswith("\n"):
            shown += "\n"
        shown += text_of(out)
        previous = out
    return shown


def documents(outputs: list[dict[str, Any]], mime: str) -> list[Any]:
    """The documents a cell's outputs carry under one mime type, in order."""
    return [out["data"][mime] for out in outputs if mime in out.get("data", {})]


def check_saved(name: str) -> None:
    """A teaching notebook as committed: saved without outputs or execution counts, every
    cell with an id, opening with a markdown cell and ending with "What to try next"."""
    notebook = read(name)
    cells = notebook.cells
    assert cells[0].cell_type == "markdown" and cells[0].source.startswith("# "), cells[0]
    assert cells[-1].cell_type == "markdown", cells[-1]
    assert "what to try next" in cells[-1].source.lower(), cells[-1].source
    ids = [cell.get("id") for cell in cells]
    assert all(ids) and len(set(ids)) == len(ids), ids
    for cell in cells:
        if cell.cell_type == "code":
            assert not cell.outputs and cell.execution_count is None, (cell.id, "saved outputs")
