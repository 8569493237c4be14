"""Tool, server, history and search tables: rows, tones, notes and escaping."""

from __future__ import annotations

import re
from datetime import datetime, timezone

from workbench.display import HistoryTable, SearchTable, ServerTable, ToolTable
from workbench.display.formatting import format_time
from workbench.display.mime import TABLE_MIME
from workbench.history import History
from workbench.mcp.manager import ServerInfo
from workbench.registry import Registry, SearchResults
from workbench.registry.entry import ToolEntry
from workbench.tools.schema import ErrorKind, Observation

LONG = "Reads a file from the workspace and returns its text, decoding it as UTF-8 " * 3


def tools() -> list[ToolEntry]:
    return [
        ToolEntry.from_tool(
            "fs",
            {
                "name": "read_file",
                "title": "Read file",
                "description": LONG,
                "annotations": {"readOnlyHint": True},
            },
        ),
        ToolEntry.from_tool(
            "fs",
            {
                "name": "delete",
                "description": "Deletes <script>alert(1)</script>.\n\nMore detail.",
                "annotations": {"destructiveHint": True},
            },
        ),
    ]


def test_tool_table_rows() -> None:
    table = ToolTable(tools())
    assert [cell.text for cell in table.rows[1][:3]] == [
        "fs.delete",
        "",
        "Deletes <script>alert(1)</script>.",
    ]
    description = table.rows[0][2].text
    assert len(description) <= 80 and description.endswith("…")
    assert table.rows[0][3].badges == ("read-only",)
    data = table._repr_mimebundle_()
    assert set(data) == {"text/plain", "text/html", TABLE_MIME}
    document = data[TABLE_MIME]
    assert (document["kind"], document["view"], document["title"]) == (
        "table",
        "tool-table",
        "2 tools",
    )
    assert document["headers"] == ["id", "title", "description", "hints"]
    assert document["rows"][0][0] == {"text": "fs.read_file", "tone": "accent", "mono": True}
    assert document["rows"][0][3] == {"text": "", "badges": ["read-only"]}
    plain = data["text/plain"]
    assert plain.splitlines()[0] == "2 tools"
    assert "fs.read_file" in plain and "Read file" in plain and "destructive" in plain
    html = data["text/html"]
    assert html.startswith('<div class="wb-tool-table"')
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert html.count("<tr ") == 3 and ">destructive</span>" in html


def test_empty_tool_table_says_so() -> None:
    table = ToolTable([])
    assert table.to_plain() == "0 tools\nNo tools."
    assert "No tools." in table.to_html() and "<table" not in table.to_html()


def info(name: str, status: str, error: str | None = None, tools: int = 0) -> ServerInfo:
    return ServerInfo(name, "stdio", f"uvx {name}", status, tools, error, None)


def test_server_table_rows_and_status_colours() -> None:
    table = ServerTable(
        [
            info("time", "connected", tools=2),
            info("broken", "failed", "Command not found: nope\nTraceback ...\n"),
        ]
    )
    assert [cell.text for cell in table.rows[0]] == [
        "time",
        "stdio",
        "uvx time",
        "connected",
        "2",
        "",
    ]
    assert table.rows[0][3].tone == "ok" and table.rows[1][3].tone == "error"
    assert table.rows[1][5].text == "Command not found: nope"
    plain = table.to_plain()
    assert "Traceback" not in plain and "Command not found: nope" in plain
    html = table.to_html()
    assert "var(--jp-success-color1" in html and "var(--jp-error-color1" in html


def test_empty_server_table_says_so() -> None:
    assert "No servers connected." in ServerTable([]).to_plain()


def test_history_table_rows() -> None:
    history = History()
    history.record("demo.add", "demo", {"a": 1}, Observation.from_text("3", duration=0.004))
    history.record(
        "demo.slow", "demo", {}, Observation.error(ErrorKind.TIMEOUT, "late", duration=61.0)
    )
    table = HistoryTable(history)
    first, second = ([cell.text for cell in row] for row in table.rows)
    assert first[:4] == ["1", "demo.add", "ok", "4.0 ms"]
    assert second[:4] == ["2", "demo.slow", "timeout", "61.0 s"]
    assert first[4] == format_time(history[0].started_at)
    assert table.rows[1][2].tone == "error"
    assert table.to_plain().splitlines()[0] == "2 calls"
    assert "No calls yet." in HistoryTable([]).to_plain()


def test_started_time_is_local_wall_clock() -> None:
    moment = datetime(2024, 5, 1, 12, 30, 15, tzinfo=timezone.utc)
    assert format_time(moment) == moment.astimezone().strftime("%H:%M:%S")


def test_search_table_rows() -> None:
    registry = Registry()
    registry.add_tools(
        "git",
        [
            {"name": "git_status", "description": "Show the working tree status."},
            {"name": "git_log", "description": "Show the commit log."},
        ],
    )
    results = registry.search("working tree status")
    table = SearchTable(results)
    assert [cell.text for cell in table.rows[0][:2]] == ["1", "git.git_status"]
    score = table.rows[0][2].text
    assert score == f"{results[0].score:.2f}" and len(score.split(".")[1]) == 2
    assert table.title == "Search “working tree status”: " + (
        f"{len(results)} hit" + ("" if len(results) == 1 else "s")
    )
    assert not table.notes and "No good match" not in table.to_plain()


def test_search_table_states_no_good_match() -> None:
    registry = Registry()
    registry.add_tools("git", [{"name": "git_status", "description": "Show status."}])
    results = registry.search("<b>quantum</b> teleport")
    assert results.no_good_match
    table = SearchTable(results)
    plain = table.to_plain()
    assert "No good match for “<b>quantum</b> teleport”." in plain
    html = table.to_html()
    assert "No good match for “&lt;b&gt;quantum&lt;/b&gt; teleport”." in html
    assert "var(--jp-warn-color1" in html


def test_search_table_with_weak_hits_points_at_them() -> None:
    registry = Registry()
    registry.add_tools("git", [{"name": "git_status", "description": "Show status."}])
    hits = list(registry.search("status"))
    table = SearchTable(SearchResults("status", hits, no_good_match=True))
    assert len(table.rows) == 1
    assert "No good match for “status”. The closest tools are listed above." in table.to_plain()


def test_server_table_hints_show_under_the_rows_and_never_alone() -> None:
    hint = "Warnings or errors were logged for a: %mcp servers NAME shows them."
    table = ServerTable([info("a", "connected")], hints=[hint])
    assert hint in table.to_plain() and "%mcp servers NAME" in table.to_html()
    assert hint not in ServerTable([], hints=[hint]).to_plain()


def test_server_table_shows_a_ping_column_only_when_a_server_was_pinged() -> None:
    assert "ping" not in ServerTable([info("a", "connected")]).headers
    pinged = ServerInfo("a", "stdio", "uvx a", "connected", 1, None, None, ping=0.00234)
    table = ServerTable([pinged, info("b", "failed", "refused")])
    assert table.headers == ("name", "transport", "target", "status", "tools", "ping", "last error")
    assert [row[5].text for row in table.rows] == ["2.3 ms", ""]
    assert table.rows[1][6].text == "refused"
    assert "2.3 ms" in table.to_plain() and ">ping</th>" in table.to_html()
    assert ServerTable.headers == ("name", "transport", "target", "status", "tools", "last error")


def test_history_table_marks_resource_reads() -> None:
    history = History()
    history.record("demo.add", "demo", {"a": 1}, Observation.from_text("3"))
    history.record("demo://guide", "demo", {}, Observation.from_text("g"), kind="resource")
    table = HistoryTable(history)
    assert [row[1].marker for row in table.rows] == ["", "read"]
    lines = table.to_plain().splitlines()
    assert "read demo://guide" in lines[-1] and "read" not in lines[-2]
    assert '<span style="color:var(--jp-ui-font-color2, #808080);">read</span> ' in (
        table.to_html()
    )


def test_a_title_and_notes_stay_whole_lines_however_long_the_path() -> None:
    """A workspace in a deep folder: "5 tools loaded" stays on the title's line (the text/plain
    of a report never wraps with the checkout's path length), and so does a long note."""
    from types import SimpleNamespace

    from workbench.display.workspace import WorkspaceTable

    root = "/home/someone" + "/a-rather-deep-folder" * 8 + "/workspace"
    rows = [
        SimpleNamespace(status="loaded", kind="tool", name=f"t{i}", source="tools/t.py", note="")
        for i in range(5)
    ]
    plain = WorkspaceTable(root, rows)._repr_mimebundle_()["text/plain"]
    assert f"Workspace {root}: 5 tools loaded" in plain.splitlines()

    empty = WorkspaceTable(root, [])._repr_mimebundle_()["text/plain"]
    assert "Nothing to load: tools/*.py and events/*.yaml are empty." in empty.splitlines()
    assert f"Workspace {root}: 0 tools loaded" in empty.splitlines()


def test_html_cells_break_lines_only_at_the_spaces_of_long_texts() -> None:
    # newcomer-3 friction 15: short cells stay whole (ids, statuses, "112.5 ms", badges); the
    # extension's tables follow the same rule (dom.ts tableCell, tests/browser).
    pinged = ServerInfo("demo", "stdio", "uvx a", "connected", 1, None, None, ping=0.1125)
    error = "Could not connect to server 'nowhere': the URL could not be reached"
    html = ServerTable([pinged, info("nowhere", "failed", error)]).to_html()
    one_line = '<span style="white-space:nowrap">'
    for short in ("demo", "stdio", "connected", "112.5 ms", "failed"):
        whole = rf"<td[^>]*>{re.escape(one_line)}(<span[^>]*>)?{short}(</span>)?</span></td>"
        assert re.search(whole, html), short
    cell = html.split(error.replace("'", "&#x27;"))[0].rsplit("<td", 1)[1]
    assert one_line not in cell  # a long text wraps at its words
    badges = ToolTable(tools()).to_html().split("read-only")[0].rsplit("<td", 1)[1]
    assert one_line in badges
