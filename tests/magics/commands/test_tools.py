"""``%mcp tools``: every tool, one server's, or one tool's card."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.magics.magic_output import bundles, shown

Mcp = Callable[[str], Any]


def test_tools_of_all_of_one_server_and_one_card(mcp: Mcp) -> None:
    _, every = mcp("tools")
    _, demo = mcp("tools demo")
    assert "demo.add" in shown(every) and "demo.add" in shown(demo)
    _, card = mcp("tools demo.add")
    [bundle] = bundles(card)
    assert "The first number." in bundle["text/plain"]  # the parameter table
    assert "tool-card" in bundle["text/html"]
