"""``%mcp help NAME`` and ``%mcp NAME --help``: the same text, from the parser."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from IPython.core.error import UsageError

from workbench.kernel import KernelState
from workbench.magics.router import COMMANDS

Mcp = Callable[[str], Any]


@pytest.mark.parametrize("name", list(COMMANDS))
def test_help_for_every_subcommand(mcp: Mcp, name: str) -> None:
    _, by_help = mcp(f"help {name}")
    _, by_flag = mcp(f"{name} --help")
    assert by_help.stdout == by_flag.stdout
    assert by_help.stdout.startswith(f"%mcp {name}")
    assert COMMANDS[name].summary in by_help.stdout


def test_help_of_a_stdio_command_goes_to_the_command(mcp: Mcp, state: KernelState) -> None:
    """``--help`` after ``--`` belongs to the server's command line, not to the magic."""
    with pytest.raises(UsageError, match="no-such-server"):
        mcp("connect helped -- /no-such-server --help")
    mcp("disconnect helped")
