"""``%mcp log-level``: a server's logging/setLevel, confirmed in one line."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from IPython.core.error import UsageError

Mcp = Callable[[str], Any]


@pytest.mark.integration
def test_a_level_is_confirmed_in_one_line(mcp: Mcp, everything: str) -> None:
    value, captured = mcp(f"log-level {everything} debug")
    assert value is None
    assert captured.stdout == f"{everything} now sends log messages at debug and above.\n"
    mcp(f"log-level {everything} info")


def test_an_unknown_level_lists_the_levels(mcp: Mcp) -> None:
    with pytest.raises(UsageError) as raised:
        mcp("log-level demo loud")
    assert str(raised.value) == (
        "Unknown log level 'loud'; use one of debug, info, notice, warning, error, critical, "
        "alert, emergency."
    )


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("log-level nope debug", r"^No server named 'nope'"),
        ("log-level demo", "^%mcp log-level: .*LEVEL"),
    ],
)
def test_mistakes_are_one_line_usage_errors(mcp: Mcp, line: str, message: str) -> None:
    with pytest.raises(UsageError, match=message) as raised:
        mcp(line)
    assert "\n" not in str(raised.value)
