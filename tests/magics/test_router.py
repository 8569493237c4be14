"""The ``%mcp`` router: ``%mcp`` alone and ``%mcp?`` show every usage."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

from workbench.magics.router import COMMANDS

Mcp = Callable[[str], Any]


def test_question_mark_and_bare_mcp_show_every_usage(ip: InteractiveShell, mcp: Mcp) -> None:
    _, bare = mcp("")
    with capture_output() as pinfo:
        ip.run_line_magic("pinfo", "%mcp")
    for name, command in COMMANDS.items():
        assert f"%mcp {name}" in bare.stdout
        assert command.usage.splitlines()[0] in pinfo.stdout
    assert "%%tool" in bare.stdout


def test_the_unknown_subcommand_message_lists_subcommands_without_wrapping_mid_word(
    ip: InteractiveShell,
) -> None:
    """Notebooks break an overlong output line anywhere ("to|ols"): every line stays short."""
    with capture_output() as captured:
        ip.run_cell("%mcp cal demo.add")
    assert captured.stderr == "UsageError: Unknown %mcp subcommand 'cal'. Did you mean call?\n"
    lines = captured.stdout.splitlines()
    assert all(len(line) <= 60 for line in lines), lines
    listed = " ".join(lines).replace(",", " ").replace(".", " ").split()
    assert set(COMMANDS) <= set(listed)
