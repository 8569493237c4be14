"""``%mcp servers``: the table of connections."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.magics.magic_output import bundles

Mcp = Callable[[str], Any]


def test_servers_table(mcp: Mcp) -> None:
    value, captured = mcp("servers")
    [bundle] = bundles(captured)
    assert value is None
    assert "demo" in bundle["text/plain"] and "in-process" in bundle["text/plain"]
    assert "connected" in bundle["text/html"]
