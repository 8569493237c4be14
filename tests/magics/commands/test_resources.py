"""``%mcp resources``: resources and templates of every server or of one, as a table."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from IPython.core.error import UsageError

from tests.magics.magic_output import bundles, shown

Mcp = Callable[[str], Any]


def test_resources_of_every_server(mcp: Mcp) -> None:
    value, captured = mcp("resources")
    assert value is None
    [bundle] = bundles(captured)
    # The table, not IPython's way of printing a list (the listing is no list subclass).
    assert bundle["text/plain"].startswith("2 resources from 1 server")
    assert "demo://guide" in bundle["text/plain"] and "demo://chart.png" in bundle["text/plain"]
    assert "demo://numbers/{n}" not in bundle["text/plain"]


def test_templates_of_one_server(mcp: Mcp) -> None:
    _, captured = mcp("resources demo --templates")
    assert "demo://numbers/{n}" in shown(captured)
    assert "demo://guide" not in shown(captured)


def test_an_unknown_server_is_a_one_line_usage_error(mcp: Mcp) -> None:
    with pytest.raises(UsageError, match=r"^No server named 'nope' \(connected: .*\)\.$"):
        mcp("resources nope")


def test_a_cursor_needs_a_server(mcp: Mcp) -> None:
    with pytest.raises(UsageError, match=r"^%mcp resources: --cursor pages through one server"):
        mcp("resources --cursor abc")


@pytest.mark.integration
def test_resources_and_templates_of_server_everything(mcp: Mcp, everything: str) -> None:
    _, captured = mcp(f"resources {everything}")
    assert "demo://resource/static/document/" in shown(captured)
    _, templates = mcp(f"resources {everything} --templates")
    assert "demo://resource/dynamic/text/{resourceId}" in shown(templates)
