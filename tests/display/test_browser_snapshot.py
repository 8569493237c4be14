"""BrowserSnapshot's line of text/plain: clauses that read as one sentence."""

from __future__ import annotations

from workbench.display.browser_snapshot import BrowserSnapshot


def test_the_plain_line_has_no_stray_full_stops() -> None:
    snapshot = BrowserSnapshot(
        header="No servers yet.", query="chart", note="Nothing matches 'chart'."
    )
    assert snapshot.to_plain() == (
        "Tool browser (saved): No servers yet; search 'chart': Nothing matches 'chart'; "
        "run the cell for the live widget."
    )
    found = BrowserSnapshot(header="1 tool from 1 server", query="add", note="best 1 of 1 tool")
    assert found.to_plain().startswith("Tool browser (saved): 1 tool from 1 server; search 'add'")
