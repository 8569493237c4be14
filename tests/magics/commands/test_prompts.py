"""``%mcp prompts``: the prompts of every server or of one, as a table."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from IPython.core.error import UsageError

from tests.magics.magic_output import bundles, shown

Mcp = Callable[[str], Any]


def test_prompts_of_every_server(mcp: Mcp) -> None:
    value, captured = mcp("prompts")
    assert value is None
    [bundle] = bundles(captured)
    assert "explain_tool" in bundle["text/plain"]


@pytest.mark.integration
def test_prompts_of_one_server(mcp: Mcp, everything: str) -> None:
    _, captured = mcp(f"prompts {everything}")
    assert "args-prompt" in shown(captured) and "explain_tool" not in shown(captured)
    _, demo = mcp("prompts demo")
    assert "explain_tool" in shown(demo) and "args-prompt" not in shown(demo)


def test_an_unknown_server_is_a_one_line_usage_error(mcp: Mcp) -> None:
    with pytest.raises(UsageError, match=r"^No server named 'nope' \(connected: .*\)\.$"):
        mcp("prompts nope")


def test_a_cursor_needs_a_server(mcp: Mcp) -> None:
    with pytest.raises(UsageError, match=r"^%mcp prompts: --cursor pages through one server"):
        mcp("prompts --cursor abc")
