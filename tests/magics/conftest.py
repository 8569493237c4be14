"""server-everything connected in the magics' shell, for the subcommands that need a real
server with every feature (subscriptions, log levels, completions of a TypeScript server).

The command line comes from the real-server tests' fixtures (``tests/mcp/conftest.py``);
the server is connected for one test module and disconnected after it, so the other
modules see the shell as they expect (demo, notebook).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

from tests.mcp.conftest import everything_js, everything_stdio

__all__ = ["everything", "everything_js", "everything_stdio"]

EVERYTHING = "everything"


@pytest.fixture(scope="module")
def everything(ip: InteractiveShell, everything_stdio: list[str]) -> Iterator[str]:
    """``%mcp connect everything -- node <js> stdio``; its name, disconnected after."""
    command = " ".join(f'"{word}"' for word in everything_stdio)
    with capture_output():  # its tool table
        ip.run_line_magic("mcp", f"connect {EVERYTHING} -- {command}")
    try:
        yield EVERYTHING
    finally:
        ip.run_line_magic("mcp", f"disconnect {EVERYTHING}")
