"""Tab completion for ``%mcp``: subcommands, their options, server names, tool ids and a
tool's parameter names (``key=``); prompt names, their arguments (``key=``) and the values
their server suggests; resource URIs, a template's variables (``key=``) and their values;
log levels.

It reads only what exists: it never creates the Workbench, so completing before the first
connection costs nothing. What servers list or suggest comes through ``offers.Offers``,
kept a few seconds; a failure is no completion, never an error in IPython's completer.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from IPython.core.completer import CompletionContext, SimpleCompletion, context_matcher

from workbench.features import uri_template
from workbench.features.log_levels import LOG_LEVELS as LEVELS
from workbench.magics.offers import Offers
from workbench.magics.router import COMMANDS
from workbench.names import DEMO_SERVER, LOCAL_SERVER

if TYPE_CHECKING:
    from workbench.kernel import KernelState
    from workbench.session import Workbench

LINE = re.compile(r"\s*(?:[A-Za-z_]\w*\s*=\s*)?%mcp\s")
"""An ``%mcp`` line, maybe assigned (``obs = %mcp call ...``)."""
SERVER_ARGUMENT = {
    "disconnect", "reconnect", "logout", "servers", "tools", "resources", "prompts"
}  # fmt: skip
TAKES_VALUE = {"--server", "--limit", "--timeout", "--last", "--export", "--config", "--cursor"}
KEY = re.compile(r"[A-Za-z_][\w-]*")
"""The name before ``=`` of an argument whose value is being typed."""
NOTHING: dict[str, Any] = {"completions": [], "suppress": False}

Matcher = Callable[[CompletionContext], dict[str, Any]]
"""IPython's matcher API v2; the result is a ``SimpleMatcherResult`` dictionary."""


def make_matcher(state: KernelState) -> Matcher:
    """A matcher (IPython's API v2) for ``%mcp`` lines, reading this state's Workbench."""

    offers = Offers()

    def match_mcp(context: CompletionContext) -> dict[str, Any]:
        line = context.text_until_cursor
        start = LINE.match(line)
        if start is None:
            return NOTHING
        words = line[start.end() :].split()
        fragment = "" if line[-1].isspace() else words.pop()
        try:
            found, typed = complete(state.existing, words, fragment, offers)
        except Exception:  # a completer that raises breaks Tab for the whole line
            return NOTHING
        return {
            "completions": [SimpleCompletion(text, type="mcp") for text in found],
            "suppress": bool(found),
            "matched_fragment": typed,
        }

    matcher: Matcher = context_matcher(identifier="workbench.mcp")(match_mcp)
    return matcher


def complete(
    workbench: Workbench | None, words: list[str], fragment: str, offers: Offers | None = None
) -> tuple[list[str], str]:
    """The completions of ``fragment`` after ``words``, and the text they replace: the
    whole word, or only what follows ``key=`` when a value is being typed."""
    key, sep, typed = fragment.partition("=")
    if sep and words and KEY.fullmatch(key):
        suggested = values(workbench, words, key, typed, offers or Offers())
        return sorted(_quoted(v) for v in suggested if v.startswith(typed)), typed
    found = candidates(workbench, words, offers)
    return sorted(c for c in found if c.startswith(fragment)), fragment


def candidates(
    workbench: Workbench | None, words: list[str], offers: Offers | None = None
) -> Iterable[str]:
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
        if name in ("disconnect", "logout"):  # the notebook server: refused, never signed in
            servers = [server for server in servers if server != LOCAL_SERVER]
        tools = _tool_ids(workbench) if name == "tools" else []
        return [*options, *servers, *tools]
    if name == "call":
        positional = _positional(rest)
        if not positional:
            return [*options, *_tool_ids(workbench)]
        return [*options, *_parameters(workbench, positional[0], positional[1:])]
    if name in OFFERED:
        return [*options, *OFFERED[name](workbench, rest, offers or Offers())]
    return options


def _read(workbench: Workbench | None, rest: list[str], offers: Offers) -> list[str]:
    """``%mcp read``: URIs and templates, then a template's variables not given yet."""
    positional = _positional(rest)
    if not positional:
        return offers.uris(workbench, _server(rest)) if workbench else []
    used = {word.partition("=")[0] for word in positional[1:]}
    return [f"{name}=" for name in _variables(positional[0]) if name not in used]


def _prompt(workbench: Workbench | None, rest: list[str], offers: Offers) -> list[str]:
    """``%mcp prompt``: prompt names, then the prompt's arguments not given yet."""
    if workbench is None:
        return []
    positional = _positional(rest)
    if not positional:
        return offers.prompt_names(workbench, _server(rest))
    found = offers.prompt(workbench, positional[0], _server(rest))
    used = {word.partition("=")[0] for word in positional[1:]}
    names = [argument.name for argument in found.arguments] if found else []
    return [f"{name}=" for name in names if name not in used]


def _log_level(workbench: Workbench | None, rest: list[str], offers: Offers) -> list[str]:
    """``%mcp log-level``: a server, then a level."""
    given = len(_positional(rest))
    return _servers(workbench) if given == 0 else list(LEVELS) if given == 1 else []


OFFERED: dict[str, Callable[[Workbench | None, list[str], Offers], list[str]]] = {
    "read": _read,
    "prompt": _prompt,
    "log-level": _log_level,
}


def values(
    workbench: Workbench | None, words: list[str], key: str, typed: str, offers: Offers
) -> list[str]:
    """What the server suggests for ``key=`` of the prompt or template the line names,
    given the other ``key=value`` already written."""
    name, rest = words[0], words[1:]
    positional = _positional(rest)
    if workbench is None or name not in ("prompt", "read") or not positional:
        return []
    target = positional[0]
    if name == "read" and key not in _variables(target):
        return []
    pairs = (word.partition("=") for word in positional[1:])
    context = {k: v for k, sep, v in pairs if sep and k != key}
    return offers.values(workbench, target, key, typed, context, _server(rest))


def _variables(uri: str) -> list[str]:
    return uri_template.variables(uri) if "{" in uri else []


def _server(rest: list[str]) -> str | None:
    """The ``--server`` a line gives, if any."""
    indexes = [i for i, word in enumerate(rest[:-1]) if word == "--server"]
    return rest[indexes[-1] + 1] if indexes else None


def _quoted(value: str) -> str:
    """A suggested value as it must be typed: quoted when it has spaces or quotes."""
    if not any(char.isspace() or char in "'\"\\" for char in value):
        return value
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


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
