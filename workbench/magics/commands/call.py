"""``%mcp call``: call a tool with ``key=value`` arguments (or one JSON object); the
Observation is the cell's value, and a long call shows its progress and log lines live."""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from workbench.magics.arguments import argument, magic_arguments, parse, seconds
from workbench.magics.parsing import Token, fail, json_or_text, one_line, split_pair, tokenize
from workbench.magics.views import show

if TYPE_CHECKING:
    from workbench.kernel import KernelState
    from workbench.registry import ToolEntry
    from workbench.session.tasks import TaskHandle
    from workbench.tools.schema import Observation

_JSON_WORD = "\x00json:{}"
"""Stands in for a JSON object while argparse reads the words around it."""


@magic_arguments(name="mcp call")
@argument("tool", metavar="TOOL", help="A tool id (server.tool), or a name that is unique.")
@argument(
    "arguments",
    nargs="*",
    metavar="KEY=VALUE | {JSON}",
    help="Arguments: values are JSON where they parse, text otherwise; or one JSON object.",
)
@argument("--timeout", type=seconds, metavar="SECONDS", help="Give up after this long.")
@argument(
    "--task",
    action="store_true",
    help="Start it as a task (a server that offers tasks): its handle comes back at once.",
)
def call(state: KernelState, line: str) -> Observation | TaskHandle:
    """Call a tool and return its Observation (so `obs = %mcp call ...` and `_` work).

    `%mcp call demo.add a=2 b=3`, `%mcp call text_stats text="to be or not"`,
    `%mcp call demo.add {"a": 2, "b": 3}`; quote a JSON value that has spaces or quotes:
    `options='{"deep": true}'`. A failed call is an error Observation.
    """
    tokens = tokenize(line, json_objects=True)
    words = [_JSON_WORD.format(i) if t.is_json else t.text for i, t in enumerate(tokens)]
    args = parse(call, words)
    if args.tool.startswith("\x00"):
        raise fail("%mcp call: name the tool before its JSON arguments.")
    entry = _resolve(state, args.tool)
    arguments = _arguments(entry, [tokens[words.index(word)] for word in args.arguments])
    blanks = unfilled(arguments)
    if blanks:
        raise fail(f"%mcp call: fill in the placeholders first: {', '.join(blanks)}.")
    if args.task:
        return _start_task(state, entry, arguments)
    return _run(state, entry, arguments, args.timeout)


def _start_task(
    state: KernelState, entry: ToolEntry, arguments: dict[str, Any]
) -> Observation | TaskHandle:
    """The call as a task: its handle is the cell's value (shown with its id, server and TTL
    in the output's metadata), and its status and progress stay live in the cell while it
    runs (its questions asked there too); ``%mcp tasks --result ID`` waits for it."""
    from workbench.display import CallProgress
    from workbench.errors import WorkbenchError
    from workbench.session.tasks import TaskHandle

    try:
        started = state.workbench.call(entry.id, arguments, task=True)
    except WorkbenchError as error:
        raise fail(f"%mcp call --task: {error}") from None
    if isinstance(started, TaskHandle):
        progress = CallProgress(entry.id)
        started.watch(progress.on_progress, lambda _: progress.finish())
    return started


def unfilled(arguments: Mapping[str, Any], where: str = "") -> list[str]:
    """The paths of values still written as a blank to fill: ``<name>`` where ``name`` is
    the key it stands at (an array's key for its items), padded with ``_`` to a minimum
    length, as the MCP sidebar's call cells write them (``lab/template.py``)."""
    found: list[str] = []
    for key, value in arguments.items():
        path = f"{where}.{key}" if where else str(key)
        items = value if isinstance(value, list) else [value]
        for index, item in enumerate(items):
            at = f"{path}.{index}" if isinstance(value, list) else path
            if isinstance(item, str) and item.rstrip("_") == f"<{key}>":
                found.append(at)
            elif isinstance(item, Mapping):
                found.extend(unfilled(item, at))
    return found


def _resolve(state: KernelState, ref: str) -> ToolEntry:
    """The tool, or a one-line error with close ids: a typo is a usage error."""
    from workbench.errors import AmbiguousToolError, ToolNotFoundError

    try:
        return state.workbench.registry.get(ref)
    except AmbiguousToolError as error:
        raise fail(str(error)) from None
    except ToolNotFoundError as error:
        hint = f" Did you mean: {', '.join(error.suggestions)}?" if error.suggestions else ""
        raise fail(f"No tool named {one_line(ref)!r}.{hint}") from None


def _arguments(entry: ToolEntry, tokens: list[Token]) -> dict[str, Any]:
    objects = [token for token in tokens if token.is_json]
    if objects:
        if len(tokens) > 1:
            raise fail("%mcp call: give key=value pairs or one JSON object, not both.")
        return dict(objects[0].value)  # a word starting with "{" is always an object
    properties = entry.input_schema.get("properties")
    schemas: Mapping[str, Any] = properties if isinstance(properties, Mapping) else {}
    arguments: dict[str, Any] = {}
    for index, token in enumerate(tokens):
        _check_unquoted_space(tokens, index)
        key, text = split_pair(token, "key=value or one JSON object")
        if key in arguments:
            raise fail(f"%mcp call: {one_line(key)} is given twice.")
        arguments[key] = _value(text, schemas.get(key))
    return arguments


def _check_unquoted_space(tokens: list[Token], index: int) -> None:
    """A bare word after ``key=value`` is most likely the rest of a value with a space in it
    (``text=hello world``): say how to quote it, rather than only that it is no pair."""
    token = tokens[index]
    if index == 0 or "=" in token.text:
        return
    start = index - 1
    while start > 0 and "=" not in tokens[start].text:
        start -= 1
    key, _, value = tokens[start].text.partition("=")
    if not key or "=" not in tokens[start].text:
        return
    following = itertools.takewhile(lambda word: "=" not in word.text, tokens[start + 1 :])
    words = [value, *(word.text for word in following)]
    quoted = one_line(f"{key}={json.dumps(' '.join(words), ensure_ascii=False)}")
    raise fail(
        f"Expected key=value or one JSON object, got {one_line(token.raw)}. "
        f"A value with spaces needs quotes: {quoted}"
    )


def _value(text: str, schema: Any) -> Any:
    """JSON where it parses, else the text; a parameter that only takes text keeps the text as
    typed, so ``zip=01234`` stays ``"01234"``."""
    value = json_or_text(text)
    if not isinstance(value, str) and _types(schema) == {"string"}:
        return text
    return value


def _types(schema: Any) -> set[str]:
    """The JSON types a parameter schema allows (empty when it does not say)."""
    if not isinstance(schema, Mapping):
        return set()
    declared = schema.get("type")
    if isinstance(declared, str):
        return {declared}
    if isinstance(declared, list):
        return {str(kind) for kind in declared}
    variants = schema.get("anyOf") or schema.get("oneOf")
    if isinstance(variants, list):
        found = [_types(variant) for variant in variants]
        return set().union(*found) if all(found) else set()
    return set()


def _run(
    state: KernelState, entry: ToolEntry, arguments: dict[str, Any], timeout: float | None
) -> Observation:
    """The call, with its progress and this server's log lines shown live in the cell.

    An interrupt (the notebook's stop button) cancels the call on the server; the cell then
    shows a ``cancelled`` Observation, as the browser's Cancel does, and ends with one line
    saying it was interrupted, never a traceback through the bridge. The cell still ends in
    an error, so a Run All that was stopped does not go on with the cells after it.
    """
    from workbench.display import CallProgress

    progress = CallProgress(entry.id)
    started = time.perf_counter()
    try:
        observation = state.workbench.call(
            entry.id,
            arguments,
            timeout=timeout,
            on_progress=progress.on_progress,
            on_log=progress.on_log,
        )
    except KeyboardInterrupt:
        progress.finish(cancelled=True)
        show(_cancelled(entry.id, time.perf_counter() - started))
        raise fail(f"Interrupted: {entry.id} was cancelled on the server.") from None
    finally:
        progress.finish()
    return observation


def _cancelled(tool_id: str, elapsed: float) -> Observation:
    """What an interrupted call shows: the history records the same call as cancelled."""
    from workbench.display.formatting import format_duration
    from workbench.tools.schema import ErrorKind, Observation

    message = f"{tool_id} was cancelled after {format_duration(elapsed)}."
    return Observation.error(ErrorKind.CANCELLED, message, duration=elapsed, tool_id=tool_id)
