"""The event table (escaped HTML, plain text) and the live one, updated in place."""

from __future__ import annotations

from typing import Any

from workbench.display.events import EventTable, LiveEventTable
from workbench.display.workspace import WorkspaceTable
from workbench.events import EventLog
from workbench.workspace import WorkspaceRow


class Handle:
    """A display handle that keeps what it was given (IPython's has the same ``update``)."""

    def __init__(self) -> None:
        self.shown: list[Any] = []

    def update(self, obj: Any, **kwargs: Any) -> None:
        self.shown.append(obj)


def test_the_table_escapes_html_and_has_a_plain_twin() -> None:
    log = EventLog()
    log.emit("<chan>", {"text": "<script>alert(1)</script>"}, tool="t&t")
    table = EventTable(log)
    html = table.to_html()
    assert "<script>" not in html and "&lt;script&gt;" in html and "&lt;chan&gt;" in html
    plain = table.to_plain()
    assert "1 event" in plain and "<chan>" in plain and "evt-000001" in plain
    assert "No events yet." in EventTable([]).to_plain()


def test_the_live_table_redraws_on_each_event_until_closed() -> None:
    log = EventLog()
    handle = Handle()
    live = LiveEventTable(log, handle=handle, shown=2)
    for number in range(3):
        log.emit("c", {"n": number})
    assert len(handle.shown) == 3
    last = handle.shown[-1].to_plain()
    assert "3 events" in last and "The newest 2 of 3" in last and '{"n": 0}' not in last
    live.close()
    log.emit("c", {"n": 9})
    assert len(handle.shown) == 3 and not live.live


def test_outside_a_kernel_the_live_table_follows_nothing() -> None:
    log = EventLog()
    live = LiveEventTable(log)
    log.emit("c", {})
    assert not live.live and "1 event" in live.view().to_plain()


def test_the_workspace_table_lists_rows_with_their_notes() -> None:
    rows = [
        WorkspaceRow("loaded", "tool", "echo", "tools/a.py"),
        WorkspaceRow("failed", "file", "tools/b.py", "tools/b.py", "b.py:2: SyntaxError <x>"),
    ]
    table = WorkspaceTable("/w", rows)
    assert "Workspace /w: 1 tool loaded" in table.to_plain()
    assert "SyntaxError &lt;x&gt;" in table.to_html()
