"""``%mcp serve --gateway --pin A,B``: pinned tools listed beside the pair, and the
gateway's token meter in what the magic prints."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from workbench.kernel import KernelState

Mcp = Callable[[str], Any]


@pytest.mark.integration
def test_the_serve_magic_pins_and_shows_the_token_meter(mcp: Mcp, state: KernelState) -> None:
    wb = state.workbench  # the shell has the demo server connected
    try:
        _, captured = mcp("serve --gateway only --pin demo.add,demo.summarize")
        handle = wb.served
        assert handle.tools() == ["find_tools", "call_tool", "add", "summarize"]
        out = captured.stdout
        assert "Serving 4 tools at " in out and "(find_tools, call_tool, add, summarize)" in out
        assert handle.pins is not None
        assert f"Gateway tokens: {handle.pins.token_report()}" in out
        assert " for 2 pinned tools, " in out
    finally:
        if wb.serving is not None:
            wb.serving.stop()
