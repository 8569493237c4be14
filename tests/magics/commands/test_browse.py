"""``%mcp browse``: a live tool browser per cell."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from IPython.core.error import UsageError

from workbench.kernel import KernelState

Mcp = Callable[[str], Any]


def test_browse_returns_a_live_browser_with_the_search_typed_in(mcp: Mcp) -> None:
    from workbench.widgets.browser import ToolBrowser

    browser, captured = mcp("browse count slowly --server demo")
    try:
        assert isinstance(browser, ToolBrowser) and captured.outputs == []
        answer = browser.tool_list.answer
        assert (answer["query"], answer["server"]) == ("count slowly", "demo")
        assert answer["rows"][0]["id"] == "demo.slow_count"
        bundle = browser._repr_mimebundle_()
        assert "application/vnd.jupyter.widget-view+json" in bundle
    finally:
        browser.close()


def test_re_running_a_browse_cell_closes_the_browser_it_made_before(
    mcp: Mcp, state: KernelState
) -> None:
    import workbench

    registry = state.workbench.registry
    listeners = len(registry._listeners)
    state.cell_id = "cell-browse"
    first, _ = mcp("browse")
    second = workbench.browse("add")  # the Python way, same cell
    try:
        assert first.closed and not second.closed
        assert state.browsers["cell-browse"] is second
        assert len(registry._listeners) == listeners + 1
    finally:
        state.cell_id = None
        second.close()
        state.browsers.clear()
    assert len(registry._listeners) == listeners


def test_browse_names_the_connected_servers_for_an_unknown_one(mcp: Mcp) -> None:
    with pytest.raises(UsageError, match=r"no server named 'nope' \(connected: .*demo"):
        mcp("browse --server nope")
