"""A ready-to-run ``%mcp call`` cell for a tool, written from its input schema.

The call line holds the required arguments, each with a value that runs: the schema's
default, first example, const or first enum value, a number at its lower bound, ``false``,
a format's example (``2025-05-01``) or, for free text, the field's name in angle brackets
(``text=<text>``), which reads as a blank to fill. Objects and arrays are written as JSON
with their own required parts. Optional arguments are listed in a comment above it, with
their defaults, so nothing the person did not choose is sent.

Every value is written so that ``%mcp call``'s parser (``magics/parsing.py``: shell-like
words, JSON where it parses, text otherwise) reads back exactly the value meant: a text
that would parse as JSON (``"5"``) is written as a JSON string, and quotes are added only
where the word needs them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from workbench.json_pointer import resolve

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


def call_cell(entry: ToolEntry) -> str:
    """The cell: a comment naming the tool, optional arguments, then the call line."""
    schema = entry.input_schema
    properties = _properties(schema, schema)
    required = [name for name in _required(schema, schema) if name in properties]
    words = [f"%mcp call {entry.id}"]
    for name in required:
        words.append(f"{name}={word(_value(properties[name], schema, name, 0))}")
    lines = []
    summary = " ".join(entry.description.split())
    if summary:
        cut = summary if len(summary) <= COMMENT else summary[: COMMENT - 1] + "…"
        lines.append(f"# {entry.id}: {cut}")
    optional = [
        f"{name}={word(_optional_value(properties[name], schema, name))}"
        for name in properties
        if name not in required
    ]
    if optional:
        lines.append("# optional: " + " ".join(optional))
    lines.append(" ".join(words))
    return "\n".join(lines)


def browse_cell(entry: ToolEntry) -> str:
    """A cell that opens the tool browser on this tool's server, searching its name."""
    return f"%mcp browse --server {entry.server} {word(entry.name)}"


def word(value: Any) -> str:
    """``value`` as one word of a ``%mcp call`` line that the parser reads back as it."""
    if isinstance(value, str):
        text = value if _reads_as_text(value) else json.dumps(value, ensure_ascii=False)
    else:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return _quoted(text)


def _reads_as_text(value: str) -> bool:
    """Whether the parser keeps ``value`` as text (it reads JSON first)."""
    if value == "":
        return True
    try:
        json.loads(value)
    except ValueError:
        return True
    return False


def _quoted(text: str) -> str:
    if text and not any(char.isspace() or char in "'\"\\" for char in text):
        return text
    if "'" not in text:
        return f"'{text}'"  # no escapes inside single quotes
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


def _deref(node: Any, root: Mapping[str, Any]) -> Mapping[str, Any]:
    for _ in range(DEPTH * 4):
        if not isinstance(node, Mapping):
            return {}
        ref = node.get("$ref")
        if not isinstance(ref, str):
            break
        try:
            node = resolve(root, ref)
        except LookupError:
            return {}
    if not isinstance(node, Mapping):
        return {}
    merged = dict(node)
    for part in node.get("allOf") or ():
        resolved = _deref(part, root)
        for key, value in resolved.items():
            if key == "properties":
                merged["properties"] = {**value, **(merged.get("properties") or {})}
            elif key == "required":
                merged["required"] = [*(merged.get("required") or []), *value]
            else:
                merged.setdefault(key, value)
    return merged


def _properties(schema: Any, root: Mapping[str, Any]) -> dict[str, Any]:
    properties = _deref(schema, root).get("properties")
    return dict(properties) if isinstance(properties, Mapping) else {}


def _required(schema: Any, root: Mapping[str, Any]) -> list[str]:
    required = _deref(schema, root).get("required")
    if not isinstance(required, list):
        return []
    return [name for name in required if isinstance(name, str)]


def _optional_value(node: Any, root: Mapping[str, Any], name: str) -> Any:
    schema = _deref(node, root)
    if "default" in schema:
        return schema["default"]
    return _value(schema, root, name, 0)


def _branch(schema: Mapping[str, Any], root: Mapping[str, Any]) -> Mapping[str, Any]:
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


def _value(node: Any, root: Mapping[str, Any], name: str, depth: int) -> Any:
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
    low = schema.get("minimum")
    above = schema.get("exclusiveMinimum")
    if isinstance(above, bool):  # draft 4: a flag on minimum
        above = low if above else None
        low = None if above is not None else low
    value: float = 0
    if isinstance(low, (int, float)):
        value = max(value, low) if low <= 0 else low
    if isinstance(above, (int, float)) and value <= above:
        value = above + 1 if integer else above + 0.5
    high = schema.get("maximum")
    if isinstance(high, (int, float)) and value > high:
        value = high
    return int(value) if integer or float(value).is_integer() else value


def _text(schema: Mapping[str, Any], name: str) -> str:
    fmt = schema.get("format")
    text = FORMAT_EXAMPLES.get(fmt, f"<{name}>") if isinstance(fmt, str) else f"<{name}>"
    high = schema.get("maxLength")
    if isinstance(high, int) and len(text) > high:
        text = text[: max(high, 0)]
    low = schema.get("minLength")
    if isinstance(low, int) and len(text) < low:
        text = text + "_" * (low - len(text))
    return text
