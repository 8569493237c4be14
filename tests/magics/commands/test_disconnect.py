"""``%mcp disconnect``: every server but the notebook's own."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import pytest
from IPython.core.interactiveshell import InteractiveShell

from workbench.kernel import KernelState

Mcp = Callable[[str], Any]


@pytest.mark.integration
def test_disconnect_all_keeps_the_notebook_server(
    ip: InteractiveShell, mcp: Mcp, state: KernelState
) -> None:
    ip.run_cell("%%tool\ndef kept() -> str:\n    return 'still here'\n", cell_id="kept-cell")
    mcp("connect other -- " + f"{sys.executable} -m workbench.demo")
    try:
        _, captured = mcp("disconnect --all")
        assert captured.stdout == "Disconnected demo, other.\n"
        assert [info.name for info in state.workbench.servers()] == ["notebook"]
        assert mcp("call kept")[0].text == "still here"
    finally:
        mcp("connect demo")
        ip.run_cell("%%tool\npass\n", cell_id="kept-cell")  # the same cell, emptied
    assert "notebook.kept" not in state.workbench.registry
