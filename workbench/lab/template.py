"""A ready-to-run ``%mcp call`` cell for a tool, written from its input schema.

The call line holds the required arguments, each with a value that runs: the schema's
default, first example, const or first enum value, a number at its lower bound, ``false``,
a format's example (``2025-05-01``) or, for free text, the field's name in angle brackets
(``text=<text>``), which reads as a blank to fill: ``%mcp call`` refuses a value still
written so, naming the blanks in one line, before any call. Objects and arrays are written as JSON
with their own required parts. Optional arguments are listed in a comment above it, with
their defaults, so nothing the person did not choose is sent.

Every value is written so that ``%mcp call``'s parser (``magics/parsing.py``: shell-like
words, JSON where it parses, text otherwise) reads back exactly the value meant: a text
that would parse as JSON (``"5"``) is written as a JSON string, and quotes are added only
where the word needs them.

A server's words are data: the cell is comment lines, then the one ``%mcp call`` line, and
nothing a server wrote can end a line early or leave the magic's arguments
(``cell_words.py``). A parameter name no ``key=value`` word can carry makes the arguments
one JSON object; a tool id no call line can name is a one-line WorkbenchError. The schema is
read totally: what is not the shape JSON Schema gives a keyword (an ``allOf`` that is no
list, ``properties`` that are no object) is ignored, and ``$ref`` and ``allOf`` loops stop.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from workbench.json_pointer import resolve
from workbench.lab import cell_words
from workbench.lab.cell_words import comment, word

if TYPE_CHECKING:
    from workbench.registry import ToolEntry

DEPTH = 4
"""Nesting levels of objects and arrays filled in; deeper ones are left empty."""
FORMAT_EXAMPLES = {
    "date": "2025-05-01",
    "time": "14:30",
    "date-time": "2025-05-01T14:30:00Z",
    "email": "ada@example.org",
    "uri": "https://example.org",
    "url": "https://example.org",
    "uuid": "00000000-0000-0000-0000-000000000000",
}
COMMENT = 100
"""Characters of the description's first line in the comment above the call."""
ALL_OF_PARTS = 64
"""``allOf`` parts merged into one schema at most, nested ones included: a loop or a fan-out
of references stops there."""
PADDING = 1000
"""Characters a ``minLength`` pads a blank with at most."""

__all__ = ["browse_cell", "call_cell", "word"]


def call_cell(entry: ToolEntry) -> str:
    """The cell: a comment naming the tool, optional arguments, then the call line."""
    schema = entry.input_schema
    properties = _properties(schema, schema)
    required = [name for name in dict.fromkeys(_required(schema, schema)) if name in properties]
    values = {name: _value(properties[name], schema, name, 0) for name in required}
    call = " ".join(["%mcp call", cell_words.tool_word(entry.id), *cell_words.arguments(values)])
    lines = []
    summary = comment(entry.description)
    if summary:
        cut = summary if len(summary) <= COMMENT else summary[: COMMENT - 1] + "…"
        lines.append(f"# {comment(entry.id)}: {cut}")
    optional = []
    for name in properties:
        if name not in values:
            value = _optional_value(properties[name], schema, name)
            optional.append(cell_words.pair(name, value) or cell_words.json_object({name: value}))
    if optional:
        lines.append(cell_words.line_safe("# optional: " + " ".join(optional)))
    lines.append(call)
    return "\n".join(lines)


def browse_cell(entry: ToolEntry) -> str:
    """A cell that opens the tool browser on this tool's server, searching its name's words
    (a leading ``-`` dropped: argparse would take the word for an option)."""
    server = cell_words.quoted(comment(entry.server), first=True)
    query = comment(entry.name).lstrip("- ")
    words = [
        "%mcp browse",
        f"--server={server}" if server.startswith("-") else f"--server {server}",
    ]
    return " ".join([*words, cell_words.quoted(query, first=True)] if query else words)


def _deref(node: Any, root: Any) -> Mapping[str, Any]:
    """``node`` with its ``$ref`` followed and its ``allOf`` parts merged in; ``{}`` for what
    is no schema. Never raises: odd shapes are ignored, loops and fan-outs bounded."""
    return _expand(node, root, (), [ALL_OF_PARTS])


def _follow(node: Any, root: Any) -> Any:
    for _ in range(DEPTH * 4):
        if not isinstance(node, Mapping):
            return None
        ref = node.get("$ref")
        if not isinstance(ref, str):
            break
        try:
            node = resolve(root, ref)
        except (LookupError, ValueError):  # ValueError: an index like "²"
            return None
    return node


def _expand(
    node: Any, root: Any, open_parts: tuple[int, ...], budget: list[int]
) -> Mapping[str, Any]:
    """``_deref`` for one node; ``open_parts`` are the schemas whose ``allOf`` is being
    merged (a part that comes back to one is taken as it is), ``budget`` the parts left."""
    node = _follow(node, root)
    if not isinstance(node, Mapping):
        return {}
    parts = node.get("allOf")
    if not isinstance(parts, list) or id(node) in open_parts:
        return node
    merged = dict(node)
    for part in parts:
        if budget[0] <= 0:
            break
        budget[0] -= 1
        _merge(merged, _expand(part, root, (*open_parts, id(node)), budget))
    return merged


def _merge(merged: dict[str, Any], part: Mapping[str, Any]) -> None:
    """One ``allOf`` part into the schema: properties and required lists join, the schema's
    own keywords win; a keyword of the wrong shape is left out."""
    for key, value in part.items():
        own = merged.get(key)
        if key == "properties":
            if isinstance(value, Mapping):
                merged[key] = {**value, **(own if isinstance(own, Mapping) else {})}
        elif key == "required":
            if isinstance(value, list):
                merged[key] = [*(own if isinstance(own, list) else []), *value]
        else:
            merged.setdefault(key, value)


def _properties(schema: Any, root: Any) -> dict[str, Any]:
    properties = _deref(schema, root).get("properties")
    return dict(properties) if isinstance(properties, Mapping) else {}


def _required(schema: Any, root: Any) -> list[str]:
    required = _deref(schema, root).get("required")
    if not isinstance(required, list):
        return []
    return [name for name in required if isinstance(name, str)]


def _optional_value(node: Any, root: Any, name: str) -> Any:
    schema = _deref(node, root)
    if "default" in schema:
        return schema["default"]
    return _value(schema, root, name, 0)


def _branch(schema: Mapping[str, Any], root: Any) -> Mapping[str, Any]:
    """A nullable or a choice: the first branch that is not ``null``."""
    for key in ("anyOf", "oneOf"):
        branches = schema.get(key)
        if isinstance(branches, list) and branches:
            kept = [_deref(b, root) for b in branches]
            picked = next((b for b in kept if b.get("type") != "null"), kept[0])
            return {**{k: v for k, v in schema.items() if k != key}, **picked}
    return schema


def _type(schema: Mapping[str, Any]) -> str | None:
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), None)
    if isinstance(kind, str):
        return kind
    if "properties" in schema:
        return "object"
    if "items" in schema:
        return "array"
    return None


def _value(node: Any, root: Any, name: str, depth: int) -> Any:
    """A value of ``node``'s schema that runs, or reads as a blank to fill."""
    schema = _branch(_deref(node, root), root)
    for key in ("default", "const"):
        if key in schema:
            return schema[key]
    for key in ("examples", "enum"):
        choices = schema.get(key)
        if isinstance(choices, list) and choices:
            return choices[0]
    kind = _type(schema)
    if kind in ("integer", "number"):
        return _number(schema, kind == "integer")
    if kind == "boolean":
        return False
    if kind == "null":
        return None
    if kind == "array":
        count = schema.get("minItems") if isinstance(schema.get("minItems"), int) else 0
        if depth >= DEPTH or not count:
            return []
        return [_value(schema.get("items") or {}, root, name, depth + 1)] * min(count, 3)
    if kind == "object":
        if depth >= DEPTH:
            return {}
        properties = _properties(schema, root)
        return {
            key: _value(properties[key], root, key, depth + 1)
            for key in _required(schema, root)
            if key in properties
        }
    return _text(schema, name)


def _number(schema: Mapping[str, Any], integer: bool) -> int | float:
    low, above, high = (
        _bound(schema.get(key)) for key in ("minimum", "exclusiveMinimum", "maximum")
    )
    if isinstance(schema.get("exclusiveMinimum"), bool):  # draft 4: a flag on minimum
        above = low if schema["exclusiveMinimum"] else None
        low = None if above is not None else low
    value: int | float = 0
    if low is not None:
        value = max(value, low) if low <= 0 else low
    if above is not None and value <= above:
        value = above + 1 if integer else above + 0.5
    if high is not None and value > high:
        value = high
    if integer or (isinstance(value, float) and value.is_integer()):
        try:
            return int(value)
        except (OverflowError, ValueError):  # 1e999 reads as infinity
            return 0
    return value


def _bound(value: Any) -> int | float | None:
    """A numeric keyword's value, or None when it is no number (``true`` is none)."""
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _text(schema: Mapping[str, Any], name: str) -> str:
    fmt = schema.get("format")
    text = FORMAT_EXAMPLES.get(fmt, f"<{name}>") if isinstance(fmt, str) else f"<{name}>"
    high = schema.get("maxLength")
    if isinstance(high, int) and len(text) > high:
        text = text[: max(high, 0)]
    low = schema.get("minLength")
    if isinstance(low, int) and len(text) < low:
        text = text + "_" * min(low - len(text), PADDING)
    return text
