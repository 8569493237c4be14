"""Schema pieces both form test modules build on: ``$defs`` / ``definitions`` to refer to,
and a recursive tree. Each module composes its own top-level schemas from them."""

from __future__ import annotations

from typing import Any

PERSON_DEFS: dict[str, Any] = {
    "Person": {
        "type": "object",
        "properties": {
            "name": {"type": "string", "minLength": 1},
            "email": {"anyOf": [{"type": "string", "format": "email"}, {"type": "null"}]},
        },
        "required": ["name"],
    },
}

PET_DEFINITIONS: dict[str, Any] = {
    "Cat": {
        "type": "object",
        "properties": {"kind": {"const": "cat"}, "lives": {"type": "integer"}},
        "required": ["kind"],
    },
    "Dog": {
        "type": "object",
        "properties": {"kind": {"const": "dog"}, "good": {"type": "boolean"}},
        "required": ["kind"],
    },
}

PET_PROPERTIES: dict[str, Any] = {
    "pet": {"oneOf": [{"$ref": "#/definitions/Cat"}, {"$ref": "#/definitions/Dog"}]},
    "size": {"anyOf": [{"type": "integer"}, {"type": "string"}], "default": 3},
    "note": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
}

TREE: dict[str, Any] = {
    "type": "object",
    "$defs": {
        "Node": {
            "type": "object",
            "properties": {
                "label": {"type": "string"},
                "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
            },
            "required": ["label"],
        },
    },
    "properties": {"root": {"$ref": "#/$defs/Node"}},
    "required": ["root"],
}
