"""``$ref`` and ``allOf``: the parts of a schema spread over several places, read into one.

Tool schemas from pydantic put models in ``$defs`` and point at them; recursive models point
at themselves. A ``$ref`` is followed at most ``MAX_REF_REPEAT`` times on one path, after
which that part of the form is a raw-JSON field (``Unusable`` says why).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from workbench import json_pointer

MAX_REF_REPEAT = 2
"""How many times one ``$ref`` may be expanded on a single path before it becomes ``json``."""
MAX_DEPTH = 32
"""How deeply schemas may nest before the rest becomes ``json``."""

ANNOTATIONS = frozenset(
    {
        "title",
        "description",
        "default",
        "examples",
        "$comment",
        "deprecated",
        "readOnly",
        "writeOnly",
        "anyOf",
        "oneOf",
        "$schema",
        "$id",
        "$defs",
        "definitions",
    }
)
"""Keywords that say nothing about which values are allowed (or are handled on their own)."""


class Unusable(Exception):
    """This part of the schema becomes a ``json`` field, for the reason given."""


def resolve(root: Any, schema: Any, refs: tuple[str, ...]) -> tuple[Any, tuple[str, ...]]:
    """Follow ``schema``'s ``$ref`` chain inside ``root``; siblings of a ``$ref`` win over its
    target. ``refs`` are the references already followed on this path."""
    while isinstance(schema, Mapping) and "$ref" in schema:
        ref = schema["$ref"]
        if not isinstance(ref, str):
            raise Unusable(f"unsupported $ref {ref!r}")
        if not ref.startswith("#"):
            raise Unusable(json_pointer.not_followed(ref))  # never fetched nor read
        if refs.count(ref) >= MAX_REF_REPEAT or len(refs) >= MAX_DEPTH:
            raise Unusable(f"recursive $ref {ref!r}")
        target = _pointer(root, ref)
        if target is True:
            target = {}
        if not isinstance(target, Mapping):
            raise Unusable(f"$ref {ref!r} is not a schema")
        siblings = {key: value for key, value in schema.items() if key != "$ref"}
        schema = {**target, **siblings}
        refs = (*refs, ref)
    return schema, refs


def _pointer(root: Any, ref: str) -> Any:
    """What a local JSON pointer (``#/$defs/Person``) points at."""
    try:
        return json_pointer.resolve(root, ref)
    except LookupError:
        raise Unusable(f"$ref {ref!r} points nowhere") from None


def merge_all_of(root: Any, schema: Mapping[str, Any]) -> Mapping[str, Any]:
    """One schema from ``allOf``'s parts: properties and required lists joined; parts that
    disagree on anything else make it ``Unusable``."""
    parts = schema.get("allOf")
    if parts is None:
        return schema
    if not isinstance(parts, list):
        raise Unusable("allOf is not a list")
    merged: dict[str, Any] = {k: v for k, v in schema.items() if k != "allOf"}
    for part in parts:
        part, _ = resolve(root, part, ())
        if not isinstance(part, Mapping):
            raise Unusable("allOf of a non-object schema")
        part = merge_all_of(root, part)
        for key, value in part.items():
            if key == "properties" and isinstance(value, Mapping):
                merged["properties"] = {**merged.get("properties", {}), **value}
            elif key == "required" and isinstance(value, list):
                merged["required"] = [*merged.get("required", []), *value]
            elif key in merged and merged[key] != value and key not in ANNOTATIONS:
                raise Unusable(f"allOf parts disagree on {key}")
            else:
                merged.setdefault(key, value)
    return merged
