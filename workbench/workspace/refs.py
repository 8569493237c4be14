"""``$ref``s within one document: follow them, and make a schema that stands alone.

An AsyncAPI document points from operations to channels and messages, and from payloads to
``components/schemas``, with local JSON pointers (``#/components/schemas/User``). A tool's
input schema must stand alone, so ``bundle`` copies every schema a payload reaches under its
``$defs`` and points the ``$ref``s there; a schema that refers to itself stays recursive.
References outside the document are refused (``RefError``): nothing is fetched.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from workbench import json_pointer

MAX_HOPS = 32
"""A ``$ref`` to a ``$ref`` to ... is followed this many times at most."""


class RefError(ValueError):
    """A reference that cannot be resolved within the document, in one line."""


def pointer(document: Any, ref: str) -> Any:
    """The value a local reference (``#/a/b``) names in ``document``."""
    try:
        return json_pointer.resolve(document, ref)
    except LookupError as error:
        raise RefError(str(error)) from None


def follow(document: Any, value: Any) -> Any:
    """``value``, or what it finally points at when it is a ``{"$ref": ...}``."""
    seen: list[str] = []
    while isinstance(value, Mapping) and "$ref" in value:
        ref = value["$ref"]
        if not isinstance(ref, str):
            raise RefError(f"$ref {ref!r} is not text")
        if ref in seen or len(seen) >= MAX_HOPS:
            raise RefError(f"$ref {ref!r} leads back to itself")
        seen.append(ref)
        value = pointer(document, ref)
    return value


def ref_name(ref: str) -> str:
    """The last part of a reference, as a ``$defs`` key: ``#/components/schemas/User`` -> User."""
    last = json_pointer.unescape(ref.rstrip("/").rsplit("/", 1)[-1])
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", last).strip("_") or "schema"


def bundle(document: Any, schema: Any) -> Any:
    """``schema`` standing alone: each schema its ``$ref``s reach (resolved in ``document``)
    is copied once under ``$defs`` and the references point there. A top-level ``$ref`` is
    replaced by what it names. Raises RefError for a reference that cannot be resolved."""
    top = follow(document, schema)
    defs: dict[str, Any] = {}
    names: dict[str, str] = {}

    def name_for(ref: str) -> str:
        if ref in names:
            return names[ref]
        base = ref_name(ref)
        name, number = base, 1
        while name in defs:
            number += 1
            name = f"{base}_{number}"
        names[ref] = name
        defs[name] = True  # taken before the walk, so a recursive schema refers to itself
        defs[name] = rewrite(pointer(document, ref))
        return name

    def rewrite(node: Any) -> Any:
        if isinstance(node, Mapping):
            return {
                key: f"#/$defs/{name_for(value)}"
                if key == "$ref" and isinstance(value, str)
                else rewrite(value)
                for key, value in node.items()
            }
        if isinstance(node, list):
            return [rewrite(item) for item in node]
        return node

    result = rewrite(top)
    if defs and isinstance(result, dict):
        own = result.get("$defs")
        result["$defs"] = {**(own if isinstance(own, dict) else {}), **defs}
    return result
