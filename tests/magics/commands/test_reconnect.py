"""``%mcp reconnect`` (and disconnect after it)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import pytest

from tests.magics.magic_output import shown
from workbench.kernel import KernelState

Mcp = Callable[[str], Any]


@pytest.mark.integration
def test_reconnect_and_disconnect(mcp: Mcp, state: KernelState) -> None:
    mcp(f"connect second -- {sys.executable} -m workbench.demo")
    try:
        _, captured = mcp("reconnect second")
        assert "second.add" in shown(captured)
        assert mcp("call second.add a=1 b=1")[0].structured_content == {"result": 2.0}
    finally:
        _, captured = mcp("disconnect second")
    assert captured.stdout == "Disconnected second.\n"
    assert "second.add" not in state.workbench.registry
