"""Tab completion for ``%mcp``: subcommands, their options, server names, tool ids and a
tool's parameter names (``key=``).

It reads only what exists: it never creates the Workbench, so completing before the first
connection costs nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from IPython.core.completer import CompletionContext, SimpleCompletion, context_matcher

from workbench.magics.router import COMMANDS
from workbench.names import DEMO_SERVER, LOCAL_SERVER

if TYPE_CHECKING:
    from workbench.kernel import KernelState
    from workbench.session import Workbench

LINE = re.compile(r"\s*(?:[A-Za-z_]\w*\s*=\s*)?%mcp\s")
"""An ``%mcp`` line, maybe assigned (``obs = %mcp call ...``)."""
SERVER_ARGUMENT = {"disconnect", "reconnect", "servers", "tools"}
TAKES_VALUE = {"--server", "--limit", "--timeout", "--last", "--export", "--config"}

Matcher = Callable[[CompletionContext], dict[str, Any]]
"""IPython's matcher API v2; the result is a ``SimpleMatcherResult`` dictionary."""


def make_matcher(state: KernelState) -> Matcher:
    """A matcher (IPython's API v2) for ``%mcp`` lines, reading this state's Workbench."""

    def match_mcp(context: CompletionContext) -> dict[str, Any]:
        line = context.text_until_cursor
        start = LINE.match(line)
        if start is None:
            return {"completions": [], "suppress": False}
        words = line[start.end() :].split()
        fragment = "" if line[-1].isspace() else words.pop()
        if fragment != context.token:  # inside `key=value` or quotes: not ours
            return {"completions": [], "suppress": False}
        found = sorted(c for c in candidates(state.existing, words) if c.startswith(fragment))
        return {
            "completions": [SimpleCompletion(text, type="mcp") for text in found],
            "suppress": bool(found),
        }

    matcher: Matcher = context_matcher(identifier="workbench.mcp")(match_mcp)
    return matcher


def candidates(workbench: Workbench | None, words: list[str]) -> Iterable[str]:
    """What may come next after these complete words of an ``%mcp`` line."""
    if not words:
        return COMMANDS
    name, rest = words[0], words[1:]
    if name not in COMMANDS or "--" in rest:
        return []
    previous = rest[-1] if rest else ""
    if previous == "--server":
        return _servers(workbench)
    if previous in TAKES_VALUE:
        return []
    options = _options(name)
    if name == "help":
        return [] if rest else COMMANDS
    if name == "connect":
        return [*options, DEMO_SERVER] if not rest else options
    if name in SERVER_ARGUMENT:
        servers = _servers(workbench)
        if name == "disconnect":  # it refuses the notebook server
            servers = [server for server in servers if server != LOCAL_SERVER]
        tools = _tool_ids(workbench) if name == "tools" else []
        return [*options, *servers, *tools]
    if name == "call":
        positional = _positional(rest)
        if not positional:
            return [*options, *_tool_ids(workbench)]
        return [*options, *_parameters(workbench, positional[0], positional[1:])]
    return options


def _positional(words: list[str]) -> list[str]:
    """The words that are not options nor an option's value."""
    kept: list[str] = []
    for index, word in enumerate(words):
        if not word.startswith("-") and (index == 0 or words[index - 1] not in TAKES_VALUE):
            kept.append(word)
    return kept


def _options(name: str) -> list[str]:
    actions: list[Any] = COMMANDS[name].parser._actions
    return [option for action in actions for option in action.option_strings]


def _servers(workbench: Workbench | None) -> list[str]:
    return [info.name for info in workbench.servers()] if workbench else []


def _tool_ids(workbench: Workbench | None) -> list[str]:
    return [entry.id for entry in workbench.registry] if workbench else []


def _parameters(workbench: Workbench | None, ref: str, given: list[str]) -> list[str]:
    """``name=`` for each parameter of the tool not given yet."""
    if workbench is None or ref not in workbench.registry:
        return []
    properties = workbench.registry.get(ref).input_schema.get("properties") or {}
    used = {word.partition("=")[0] for word in given}
    return [f"{name}=" for name in properties if name not in used]
