"""Parameter rows and type labels from JSON Schemas of every common shape."""

from __future__ import annotations

from typing import Any

import pytest

from workbench.display.params import Parameter, parameters, type_label

DEFS: dict[str, Any] = {
    "$defs": {
        "Color": {"enum": ["red", "green"], "type": "string", "description": "A colour."},
        "Point": {"type": "object", "properties": {"x": {"type": "number"}}},
        "Loop": {"$ref": "#/$defs/Loop"},
    }
}


@pytest.mark.parametrize(
    ("schema", "label"),
    [
        ({"type": "string"}, "string"),
        ({"type": "string", "format": "date-time"}, "string (date-time)"),
        ({"anyOf": [{"type": "string"}, {"type": "null"}]}, "string | null"),
        ({"anyOf": [{"type": "null"}, {"type": "integer"}]}, "integer | null"),
        ({"type": ["string", "null"]}, "string | null"),
        ({"type": "integer", "nullable": True}, "integer | null"),
        ({"enum": ["a", "b"]}, '"a" | "b"'),
        ({"enum": ["x | y", 1]}, '"x | y" | 1'),
        ({"const": "fixed"}, '"fixed"'),
        ({"type": "array", "items": {"type": "string"}}, "array[string]"),
        ({"type": "array"}, "array"),
        (
            {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]},
            "array[string, integer]",
        ),
        ({"type": "array", "items": {"$ref": "#/$defs/Point"}}, "array[object]"),
        ({"type": "object", "properties": {}}, "object"),
        ({"properties": {"a": {}}}, "object"),
        ({"$ref": "#/$defs/Color"}, '"red" | "green"'),
        ({"anyOf": [{"$ref": "#/$defs/Color"}, {"type": "null"}]}, '"red" | "green" | null'),
        ({"allOf": [{"$ref": "#/$defs/Point"}]}, "object"),
        ({"$ref": "#/$defs/Loop"}, "any"),
        ({"$ref": "#/$defs/Missing"}, "any"),
        ({"$ref": "https://example.test/schema.json"}, "any"),
        ({}, "any"),
        (True, "any"),
        (False, "never"),
        ("nonsense", "any"),
    ],
)
def test_type_label(schema: Any, label: str) -> None:
    assert type_label(schema, DEFS) == label


def test_deeply_recursive_schema_stops() -> None:
    root = {"$defs": {"Tree": {"type": "array", "items": {"$ref": "#/$defs/Tree"}}}}
    label = type_label({"$ref": "#/$defs/Tree"}, root)
    assert label.startswith("array[array[") and "any" in label


def test_parameter_rows_with_refs_nullable_enum_arrays_and_defaults() -> None:
    schema = {
        "type": "object",
        "properties": {
            "color": {"$ref": "#/$defs/Color", "default": "red"},
            "points": {
                "type": "array",
                "items": {"$ref": "#/$defs/Point"},
                "description": "Where to draw.",
            },
            "label": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
            "count": {"type": "integer", "default": 3, "description": "How many."},
            "extra": {},
        },
        "required": ["points"],
        **DEFS,
    }
    assert parameters(schema) == [
        Parameter("color", '"red" | "green"', False, '"red"', "A colour."),
        Parameter("points", "array[object]", True, "", "Where to draw."),
        Parameter("label", "string | null", False, "null", ""),
        Parameter("count", "integer", False, "3", "How many."),
        Parameter("extra", "any", False, "", ""),
    ]


def test_schema_without_properties_has_no_parameters() -> None:
    assert parameters({"type": "object"}) == []
    assert parameters({"type": "object", "properties": "broken"}) == []


def test_root_schema_behind_a_ref() -> None:
    schema = {
        "$ref": "#/$defs/Args",
        "$defs": {"Args": {"type": "object", "properties": {"q": {"type": "string"}}}},
    }
    assert [row.name for row in parameters(schema)] == ["q"]
