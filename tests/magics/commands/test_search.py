"""``%mcp search``: ranked hits from the registry, and a clear word when nothing matches."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.magics.magic_output import shown

Mcp = Callable[[str], Any]


def test_search_uses_the_registry(mcp: Mcp) -> None:
    _, captured = mcp("search count slowly with progress --limit 2 --server demo")
    text = shown(captured)
    assert "demo.slow_count" in text.splitlines()[3]  # best first, under the headers
    assert "2 hits" in text or "1 hit" in text


def test_search_says_when_nothing_matches(mcp: Mcp) -> None:
    _, captured = mcp("search quantum teleportation of llamas")
    assert "No good match" in shown(captured)
