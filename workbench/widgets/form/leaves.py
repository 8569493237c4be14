"""The fields read from one schema without looking inside it: text, numbers, enums, and
the words around them (title, description, default, an option's label)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from workbench.widgets.form.fields import (
    ChoiceField,
    ConstField,
    FormField,
    JsonField,
    NumberField,
    StringField,
)
from workbench.widgets.form.refs import Unusable


def text(value: Any) -> str | None:
    """A non-empty string, else None."""
    return value if isinstance(value, str) and value else None


def whole(value: Any) -> int | None:
    """An integer (not a bool), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def number(value: Any) -> float | None:
    """A number (not a bool), else None: schemas in the wild carry odd values."""
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def annotations_of(schema: Mapping[str, Any]) -> dict[str, Any]:
    """The title, description and default every kind of field carries."""
    found: dict[str, Any] = {}
    if text(schema.get("title")):
        found["title"] = schema["title"]
    if text(schema.get("description")):
        found["description"] = schema["description"]
    if "default" in schema:
        found["default"] = schema["default"]
        found["has_default"] = True
    return found


def enum_field(schema: Mapping[str, Any], common: dict[str, Any]) -> FormField:
    """A dropdown of text or numbers; mixed values become a choice of constants."""
    values = schema["enum"]
    if not isinstance(values, list) or not values:
        raise Unusable("enum is not a non-empty list")
    if None in values:
        common["nullable"] = True
        values = [v for v in values if v is not None]
    choices = tuple(values)
    if not choices:
        return ConstField(**common, value=None)
    if all(isinstance(v, str) for v in choices):
        return StringField(**common, choices=choices, format=text(schema.get("format")))
    if all(number(v) is not None for v in choices):
        integer = schema.get("type") == "integer" or all(isinstance(v, int) for v in choices)
        return NumberField(**common, integer=integer, choices=choices)
    options = tuple(
        ConstField(
            name=common["name"],
            path=f"{common['path']}<{i}>",
            required=True,
            value=v,
            label=json.dumps(v),
        )
        for i, v in enumerate(choices)
    )
    return ChoiceField(**common, options=options)


def infer_type(schema: Mapping[str, Any]) -> str:
    """The type a schema without ``type`` means, by the keywords it uses."""
    keys = schema.keys()
    if keys & {"properties", "required", "additionalProperties"}:
        return "object"
    if keys & {"items", "minItems", "maxItems", "uniqueItems"}:
        return "array"
    if keys & {"minLength", "maxLength", "pattern", "format"}:
        return "string"
    if keys & {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}:
        return "number"
    raise Unusable("any value (no type)")


def number_field(integer: bool, schema: Mapping[str, Any], common: dict[str, Any]) -> NumberField:
    """A number with its bounds; draft 4's boolean ``exclusiveMinimum`` is read too."""
    minimum, maximum = number(schema.get("minimum")), number(schema.get("maximum"))
    low, high = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
    if low is True:  # draft 4: a flag on minimum
        low, minimum = minimum, None
    if high is True:
        high, maximum = maximum, None
    return NumberField(
        **common,
        integer=integer,
        minimum=minimum,
        maximum=maximum,
        exclusive_minimum=number(low),
        exclusive_maximum=number(high),
        multiple_of=number(schema.get("multipleOf")),
    )


def option_label(option: Any, field: FormField, index: int) -> str:
    """The name of a choice's option in its selector."""
    if isinstance(option, Mapping):
        if text(option.get("title")):
            return str(option["title"])
        ref = option.get("$ref")
        if isinstance(ref, str) and "/" in ref:
            return ref.rsplit("/", 1)[-1]
    if field.title:
        return field.title
    if isinstance(field, ConstField):
        return json.dumps(field.value)
    if isinstance(field, JsonField):
        return f"option {index + 1}"
    return field.kind


def string_field(schema: Mapping[str, Any], common: dict[str, Any]) -> StringField:
    """Text, with the format and lengths its placeholder names."""
    return StringField(
        **common,
        format=text(schema.get("format")),
        min_length=whole(schema.get("minLength")),
        max_length=whole(schema.get("maxLength")),
        pattern=text(schema.get("pattern")),
    )
