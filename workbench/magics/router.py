"""The ``%mcp`` router: the first word picks a subcommand module, which parses the rest.

Each subcommand is a function ``(state, line)`` decorated with ``@magic_arguments``; its
parser gives the usage shown by ``%mcp?``, ``%mcp help NAME`` and ``%mcp NAME --help``.
"""

from __future__ import annotations

import difflib
import textwrap
from argparse import ArgumentParser
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from workbench.magics.commands import (
    browse,
    call,
    connect,
    disconnect,
    events,
    export,
    help,
    history,
    load_workspace,
    log_level,
    logout,
    prompt,
    prompts,
    read,
    reconnect,
    resources,
    search,
    search_eval,
    serve,
    servers,
    tasks,
    tools,
)
from workbench.magics.parsing import fail, one_line, usage_errors

if TYPE_CHECKING:
    from workbench.kernel import KernelState

Run = Callable[["KernelState", str], Any]

INTRO = """\
Connect MCP servers; call their tools, read their resources, get their prompts.
Subcommands (%mcp help NAME for more):
"""
OUTRO = """
Write a tool in a cell with %%tool (see %%tool?), a resource with %%resource URI and a
prompt with %%prompt NAME. From Python: workbench.current() is the Workbench these magics
use."""


@dataclass(frozen=True)
class Command:
    """One subcommand: its name and its ``@magic_arguments`` function."""

    name: str
    run: Run

    @property
    def parser(self) -> ArgumentParser:
        parser: ArgumentParser = self.run.parser  # type: ignore[attr-defined]
        return parser

    @property
    def summary(self) -> str:
        """The first line of the subcommand's docstring."""
        return (self.parser.description or "").strip().splitlines()[0]

    @property
    def usage(self) -> str:
        return _plain(self.parser.format_usage())

    @property
    def help(self) -> str:
        return _plain(self.parser.format_help())


def _plain(text: str) -> str:
    """argparse text without IPython's reST code-block prefix (``::``), dedented."""
    return textwrap.dedent(text.removeprefix("::\n\n")).strip()


LIST_WIDTH = 60
"""Characters per line of the subcommand list: narrow enough for a projector's notebook."""

COMMANDS: dict[str, Command] = {
    command.name: command
    for command in (
        Command("connect", connect.connect),
        Command("servers", servers.servers),
        Command("disconnect", disconnect.disconnect),
        Command("reconnect", reconnect.reconnect),
        Command("logout", logout.logout),
        Command("log-level", log_level.log_level),
        Command("tools", tools.tools),
        Command("search", search.search),
        Command("search-eval", search_eval.search_eval),
        Command("call", call.call),
        Command("resources", resources.resources),
        Command("read", read.read),
        Command("prompts", prompts.prompts),
        Command("prompt", prompt.prompt),
        Command("history", history.history),
        Command("tasks", tasks.tasks),
        Command("browse", browse.browse),
        Command("export", export.export),
        Command("load-workspace", load_workspace.load_workspace),
        Command("events", events.events),
        Command("serve", serve.serve),
        Command("help", help.help),
    )
}


def command(name: str) -> Command:
    """The subcommand of this name; an unknown one is a usage error with a suggestion."""
    found = COMMANDS.get(name)
    if found is not None:
        return found
    close = difflib.get_close_matches(name, list(COMMANDS), n=1)
    hint = f" Did you mean {close[0]}?" if close else ""
    print(subcommand_list())
    raise fail(f"Unknown %mcp subcommand {one_line(name)!r}.{hint}")


def subcommand_list(width: int = LIST_WIDTH) -> str:
    """The subcommands in short lines, shown above an unknown one's error: notebooks break an
    overlong line anywhere, even mid-word, so the error stays one short line."""
    listed = ", ".join(COMMANDS)
    return textwrap.fill(
        f"%mcp subcommands: {listed}.", width, subsequent_indent="  ", break_on_hyphens=False
    )


def overview() -> str:
    """Every subcommand's summary and usage: what ``%mcp?`` and ``%mcp help`` show."""
    parts = [INTRO]
    for item in COMMANDS.values():
        parts.append(f"\n{item.name}: {item.summary}\n{textwrap.indent(item.usage, '  ')}\n")
    parts.append(OUTRO)
    return "".join(parts)


def dispatch(state: KernelState, line: str) -> Any:
    """Run ``%mcp LINE``: route the first word, hand the rest to its subcommand."""
    words = line.split(maxsplit=1)
    if not words:
        print(overview())
        return None
    found = command(words[0])
    rest = words[1] if len(words) > 1 else ""
    if _asks_for_help(rest):
        print(found.help)
        return None
    with usage_errors():
        return found.run(state, rest)


def _asks_for_help(rest: str) -> bool:
    """``-h`` or ``--help`` among the subcommand's own words (not a stdio command's)."""
    words = rest.split()
    own = words[: words.index("--")] if "--" in words else words
    return "-h" in own or "--help" in own
