"""Parameter rows from a tool's JSON input schema, written for people rather than validators.

Schemas come from anywhere (pydantic, zod, hand-written), so every shape is read defensively:
an unknown or broken piece becomes ``any``, never an exception in a display.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from workbench.display.formatting import to_json

MAX_DEPTH = 8
MAX_ENUM = 12


@dataclass(frozen=True)
class Parameter:
    """One top-level parameter; ``default`` is JSON text, empty when there is none."""

    name: str
    type: str
    required: bool
    default: str
    description: str


def parameters(schema: Mapping[str, Any]) -> list[Parameter]:
    """The top-level parameters of an object schema, in the schema's order."""
    root = _resolve(schema, schema)
    properties = root.get("properties")
    if not isinstance(properties, Mapping):
        return []
    required = root.get("required")
    required_names = set(required) if isinstance(required, list) else set()
    rows = []
    for name, raw in properties.items():
        prop = raw if isinstance(raw, Mapping) else {}
        target = _resolve(prop, schema)
        if "default" in prop:
            default = to_json(prop["default"])
        elif "default" in target:
            default = to_json(target["default"])
        else:
            default = ""
        description = prop.get("description") or target.get("description") or ""
        rows.append(
            Parameter(
                name=str(name),
                type=type_label(raw, schema),
                required=name in required_names,
                default=default,
                description=str(description),
            )
        )
    return rows


def type_label(schema: object, root: Mapping[str, Any]) -> str:
    """A short type: ``string | null``, ``array[object]``, ``"a" | "b"``, ``any``."""
    return " | ".join(_alternatives(schema, root, 0))


def _alternatives(schema: object, root: Mapping[str, Any], depth: int) -> list[str]:
    """The alternatives of a type, without duplicates and with ``null`` last."""
    if schema is False:
        return ["never"]
    if not isinstance(schema, Mapping) or depth > MAX_DEPTH:
        return ["any"]
    node = _resolve(schema, root)
    found = _read(node, root, depth)
    if node.get("nullable") is True:
        found.append("null")
    unique = list(dict.fromkeys(found))
    return [part for part in unique if part != "null"] + (["null"] if "null" in unique else [])


def _read(node: Mapping[str, Any], root: Mapping[str, Any], depth: int) -> list[str]:
    if "const" in node:
        return [to_json(node["const"])]
    enum = node.get("enum")
    if isinstance(enum, list) and enum:
        values = [to_json(value) for value in enum[:MAX_ENUM]]
        return values + (["…"] if len(enum) > MAX_ENUM else [])
    for key in ("anyOf", "oneOf"):
        options = node.get(key)
        if isinstance(options, list) and options:
            return [part for option in options for part in _alternatives(option, root, depth + 1)]
    every = node.get("allOf")
    if isinstance(every, list) and every:
        parts = dict.fromkeys(_inner(part, root, depth) for part in every)
        return [" & ".join(parts)]
    kind = node.get("type")
    if isinstance(kind, list):
        return [_named(str(name), node, root, depth) for name in kind]
    if isinstance(kind, str):
        return [_named(kind, node, root, depth)]
    if isinstance(node.get("properties"), Mapping):
        return ["object"]
    if "items" in node or "prefixItems" in node:
        return [_named("array", node, root, depth)]
    return ["any"]


def _named(kind: str, node: Mapping[str, Any], root: Mapping[str, Any], depth: int) -> str:
    if kind == "array":
        items = node.get("items")
        prefix = node.get("prefixItems")
        if isinstance(prefix, list) and prefix:
            inner = ", ".join(_inner(item, root, depth) for item in prefix)
            return f"array[{inner}]"
        if isinstance(items, Mapping) or items is True:
            return f"array[{_inner(items, root, depth)}]"
        return "array"
    if kind == "string" and isinstance(node.get("format"), str):
        return f"string ({node['format']})"
    return kind


def _inner(schema: object, root: Mapping[str, Any], depth: int) -> str:
    return " | ".join(_alternatives(schema, root, depth + 1))


def _resolve(node: Mapping[str, Any], root: Mapping[str, Any]) -> Mapping[str, Any]:
    """Follow local ``$ref``s; keywords beside a ``$ref`` win (a description, a default)."""
    seen: set[str] = set()
    while isinstance(node.get("$ref"), str):
        ref = node["$ref"]
        target = _lookup(ref, root)
        if ref in seen or target is None:
            return {key: value for key, value in node.items() if key != "$ref"}
        seen.add(ref)
        node = {**target, **{key: value for key, value in node.items() if key != "$ref"}}
    return node


def _lookup(ref: str, root: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """A JSON pointer into this schema (``#/$defs/Item``); remote references are not read."""
    if not ref.startswith("#"):
        return None
    node: Any = root
    for raw in ref[1:].split("/")[1:]:
        key = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, Mapping) and key in node:
            node = node[key]
        elif isinstance(node, list) and key.isdigit() and int(key) < len(node):
            node = node[int(key)]
        else:
            return None
    return node if isinstance(node, Mapping) else None
