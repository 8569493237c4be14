"""Schemas the form tests build on: ``$defs`` / ``definitions`` to refer to, a recursive
tree, the demo server's and real servers' tool schemas, and the registry's verdict on
arguments. Each module composes its own top-level schemas from the pieces."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Any

from workbench.registry.entry import ToolEntry
from workbench.registry.problems import Problem


def verdict(schema: Any) -> Callable[[Mapping[str, Any]], list[Problem]]:
    """The registry's validator for a tool with this input schema (``entry.problems``)."""
    return ToolEntry.from_tool("s", {"name": "t", "inputSchema": schema}).problems


def problems(schema: Any, arguments: dict[str, Any]) -> list[Problem]:
    """The registry's verdict on arguments for a tool with this input schema."""
    return verdict(schema)(arguments)


def list_tools(transport: Any) -> list[Any]:
    """A server's tools, listed on a fresh event loop."""
    from fastmcp import Client

    async def listing() -> list[Any]:
        async with Client(transport) as client:
            return list(await client.list_tools())

    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(listing())
    finally:
        loop.close()


def schemas_of(tools: list[Any]) -> dict[str, Any]:
    """Input schemas by tool name."""
    return {tool.name: tool.model_dump(by_alias=True)["inputSchema"] for tool in tools}


def demo_schemas() -> dict[str, Any]:
    """The embedded demo server's tool schemas by name."""
    from workbench.demo import build_demo_server

    return schemas_of(list_tools(build_demo_server()))


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

# --- whole schemas the pure tests share -----------------------------------------------------

EVENT: dict[str, Any] = {
    "type": "object",
    "$defs": PERSON_DEFS,
    "properties": {
        "title": {"type": "string", "title": "Title", "maxLength": 80},
        "priority": {"type": "string", "enum": ["low", "high"], "default": "low"},
        "day": {"type": "string", "format": "date", "description": "YYYY-MM-DD"},
        "minutes": {"type": "integer", "minimum": 5, "maximum": 600, "default": 60},
        "ratio": {"type": "number", "exclusiveMinimum": 0, "multipleOf": 0.5},
        "public": {"type": "boolean", "default": False},
        "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 3},
        "people": {"type": "array", "items": {"$ref": "#/$defs/Person"}, "minItems": 1},
        "place": {
            "type": "object",
            "properties": {
                "room": {"type": "string"},
                "floor": {"type": ["integer", "null"]},
            },
            "required": ["room"],
        },
    },
    "required": ["title", "people"],
    "additionalProperties": False,
}

PET: dict[str, Any] = {
    "type": "object",
    "definitions": PET_DEFINITIONS,
    "properties": {
        **PET_PROPERTIES,
    },
    "required": ["pet"],
}

CLICKED_EVENT: dict[str, Any] = {
    "type": "object",
    "$defs": PERSON_DEFS,
    "properties": {
        "title": {"type": "string", "title": "Title", "maxLength": 80},
        "priority": {"type": "string", "enum": ["low", "high"], "default": "low"},
        "minutes": {"type": "integer", "minimum": 5, "maximum": 600, "default": 60},
        "people": {"type": "array", "items": {"$ref": "#/$defs/Person"}, "minItems": 1},
        "place": {
            "type": "object",
            "properties": {
                "room": {"type": "string"},
                "floor": {"type": ["integer", "null"]},
                "seats": {
                    "type": "object",
                    "properties": {"rows": {"type": "integer"}, "wide": {"type": "boolean"}},
                    "required": ["rows", "wide"],
                },
            },
            "required": ["room", "seats"],
        },
    },
    "required": ["title", "people"],
    "additionalProperties": False,
}
"""An event as the widget tests click it in: a required object inside an optional one."""
