"""ServerDetail: one server's row and what the MCP libraries logged about it."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

from workbench.display import ServerDetail
from workbench.display.server_detail import LOG_SHOWN, has_warnings
from workbench.mcp.manager import ServerInfo


@dataclass(frozen=True)
class Line:
    level: str
    logger: str
    message: str
    created: float = 0.0


ROW = ServerInfo("junk", "stdio", "python srv.py", "connected", 9, None, None)
TRACEBACK = "Failed to parse JSONRPC message from server\nTraceback (most recent call last):\n  x"


def test_the_row_and_each_records_first_line_newest_last() -> None:
    log = [Line("error", "mcp.client.stdio", TRACEBACK), Line("info", "httpx", "HTTP 200")]
    detail = ServerDetail(ROW, log)
    plain = detail.to_plain()
    for text in ("Server junk", "stdio", "python srv.py", "connected", "9"):
        assert text in plain
    assert "Library log: 2 records (newest last)" in plain
    assert "Failed to parse JSONRPC message from server (+2 lines)" in plain
    assert plain.index("JSONRPC") < plain.index("HTTP 200")
    html = detail.to_html()
    assert 'class="wb-server-detail"' in html
    assert "<details><summary>Failed to parse JSONRPC message from server</summary>" in html
    assert "Traceback (most recent call last)" in html


def test_only_the_last_records_are_shown_and_the_note_says_where_the_rest_are() -> None:
    log = [Line("info", "mcp", f"record {n}", time.time()) for n in range(LOG_SHOWN + 5)]
    detail = ServerDetail(ROW, log, everything="wb.server_log('junk')")
    plain = detail.to_plain()
    assert f"{LOG_SHOWN + 5} records, the last {LOG_SHOWN} shown" in plain
    numbers = [int(n) for n in re.findall(r"record (\d+)$", plain, flags=re.MULTILINE)]
    assert numbers == list(range(5, LOG_SHOWN + 5))
    assert "5 earlier records not shown. wb.server_log('junk') returns them all." in plain
    assert "Library log: nothing logged." in ServerDetail(ROW, []).to_plain()


def test_everything_is_escaped_and_secrets_are_masked() -> None:
    row = ServerInfo("x", "http", "http://h/?api_key=abc123", "failed", 0, "<b>boom</b>", None)
    log = [Line("warning", "<i>lib</i>", "GET http://u:pw-123456@h/ <script>alert(1)</script>")]
    html = ServerDetail(row, log).to_html()
    plain = ServerDetail(row, log).to_plain()
    assert "<script>" not in html and "&lt;script&gt;" in html and "<i>lib" not in html
    assert "<b>boom" not in html and "&lt;b&gt;boom" in html
    for text in (html, plain):
        assert "abc123" not in text and "pw-123456" not in text


def test_has_warnings() -> None:
    assert not has_warnings([Line("info", "mcp", "fine"), Line("debug", "httpx", "")])
    assert has_warnings([Line("info", "mcp", "fine"), Line("WARNING", "mcp", "hm")])
