"""``%mcp servers``: the table of connections."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import Any

import pytest
from IPython.core.error import UsageError

from tests.magics.magic_output import bundles

Mcp = Callable[[str], Any]


def test_servers_table(mcp: Mcp) -> None:
    value, captured = mcp("servers")
    [bundle] = bundles(captured)
    assert value is None
    assert "demo" in bundle["text/plain"] and "in-process" in bundle["text/plain"]
    assert "connected" in bundle["text/html"]


def test_servers_table_shows_each_connected_servers_ping(mcp: Mcp) -> None:
    [bundle] = bundles(mcp("servers")[1])
    header, *rows = bundle["text/plain"].splitlines()[1:]
    assert "ping" in header
    [demo] = [row for row in rows if row.split()[:1] == ["demo"]]
    assert " ms" in demo or " s " in demo


BANNER = f"echo 'Welcome, not JSON-RPC'; exec {sys.executable} -m workbench.demo"


@pytest.mark.integration
def test_servers_name_shows_the_row_and_the_library_log(mcp: Mcp) -> None:
    """F20: what the SDK logged about a server (a banner on stdout) is shown on request."""
    mcp(f'connect srvlog -- sh -c "{BANNER}"')
    try:
        table = bundles(mcp("servers")[1])[0]
        # other servers may be named too (a prompt that failed on the demo logs an error)
        assert re.search(r"Warnings or errors were logged for [\w, ]*srvlog", table["text/plain"])
        assert "%mcp servers NAME" in table["text/html"]
        value, captured = mcp("servers srvlog")
        [bundle] = bundles(captured)
        assert value is None
        plain, html = bundle["text/plain"], bundle["text/html"]
        assert "Server srvlog" in plain and "connected" in plain and "stdio" in plain
        assert "Failed to parse JSONRPC message from server" in plain
        assert "mcp.client.stdio" in plain and "error" in plain
        assert 'class="wb-server-detail"' in html and "Traceback" in html
        assert "Welcome, not JSON-RPC" in html  # the line the server printed
    finally:
        mcp("disconnect srvlog")


def test_servers_name_of_an_unknown_server_is_a_one_line_usage_error(mcp: Mcp) -> None:
    with pytest.raises(UsageError, match=r"^No server named 'nope' \(connected: .*\)\.$"):
        mcp("servers nope")
