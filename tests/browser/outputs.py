"""What the workbench writes into saved notebooks, as the browser tests count it."""

from __future__ import annotations

from typing import Any

OBSERVATION_MIME = "application/vnd.workbench.observation+json"
TOOL_MIME = "application/vnd.workbench.tool+json"
SERVERS_MIME = "application/vnd.workbench.servers+json"
TABLE_MIME = "application/vnd.workbench.table+json"
PROGRESS_MIME = "application/vnd.workbench.progress+json"
BROWSER_MIME = "application/vnd.workbench.browser+json"
DRAWN_MIMES = (OBSERVATION_MIME, TOOL_MIME, SERVERS_MIME, TABLE_MIME, PROGRESS_MIME)
"""The mime types whose outputs the extension's renderers draw as one ``.jp-wb-box``."""


def workbench_outputs(notebook: dict[str, Any]) -> dict[str, int]:
    """How many outputs of each of :data:`DRAWN_MIMES` a saved notebook holds; each must
    also carry ``text/html`` and ``text/plain`` for front ends without the extension."""
    counts = dict.fromkeys(DRAWN_MIMES, 0)
    for cell in notebook["cells"]:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            for mime in DRAWN_MIMES:
                if mime in data:
                    assert "text/html" in data and "text/plain" in data, data.keys()
                    counts[mime] += 1
    return counts
