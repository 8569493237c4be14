"""The Servers tab's words: columns under their names, plurals that agree."""

from __future__ import annotations

from workbench.session import Workbench
from workbench.widgets.servers_view import HEADER, ServersView, server_label


def test_each_column_sits_under_its_name() -> None:
    rows = [
        server_label("demo", "connected", 11, False),
        server_label("notebook", "failed", 1, True),
    ]
    status, end = HEADER.index("status"), HEADER.index("tools") + len("tools")
    assert [row[status:].split()[0] for row in rows] == ["connected", "failed"]
    assert [row[:end].split()[-1] for row in rows] == ["11", "1"]
    assert "tools" not in rows[1]  # the column says it: no "1 tools"
    assert rows[1].endswith("⚠ log")


def test_one_server_is_one_server(wb: Workbench) -> None:
    wb.connect("demo")
    view = ServersView(wb)
    assert ">1 server<" in view.summary.value
    assert "server" in view.columns.value and "tools" in view.columns.value
