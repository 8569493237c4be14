"""From a tool's input JSON Schema to a tree of ``FormField``s: ``build_form``.

Anything the form cannot express (``not``, tuple items, a free-form object, an unreadable
part) becomes a ``JsonField`` that carries its reason, so ``build_form`` never raises: a
form with one raw-JSON field still beats no form.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from workbench.widgets.form.fields import (
    ArrayField,
    BooleanField,
    ChoiceField,
    ConstField,
    FormField,
    JsonField,
    ObjectField,
    join,
)
from workbench.widgets.form.leaves import (
    annotations_of,
    enum_field,
    infer_type,
    number_field,
    option_label,
    string_field,
    whole,
)
from workbench.widgets.form.refs import (
    ANNOTATIONS,
    MAX_DEPTH,
    Unusable,
    merge_all_of,
    resolve,
)

_STRUCTURE = frozenset(
    {
        "type",
        "properties",
        "items",
        "$ref",
        "const",
        "enum",
        "anyOf",
        "oneOf",
        "allOf",
        "additionalProperties",
        "prefixItems",
        "patternProperties",
        "not",
    }
)
_UNSUPPORTED = ("not", "if", "patternProperties", "prefixItems", "dependentSchemas")


def build_form(schema: Any) -> FormField:
    """Read a tool's input JSON Schema into a form; anything unusable becomes a ``json`` field."""
    return _Builder(schema).build(schema, name="", path="", required=True, refs=(), depth=0)


class _Builder:
    """One schema's reader; ``root`` is where its ``$ref``s point into."""

    def __init__(self, root: Any) -> None:
        self.root = root

    def build(
        self,
        schema: Any,
        *,
        name: str,
        path: str,
        required: bool,
        refs: tuple[str, ...],
        depth: int,
    ) -> FormField:
        common: dict[str, Any] = {"name": name, "path": path, "required": required}
        try:
            return self._build(schema, common, refs, depth)
        except Unusable as why:
            reason = str(why)
        except Exception as error:  # a malformed schema must never break the form
            reason = f"unreadable schema ({type(error).__name__}: {error})"
        if isinstance(schema, Mapping):
            common.update(annotations_of(schema))
        return JsonField(**common, reason=reason, schema=schema)

    def _inner(
        self, schema: Any, common: dict[str, Any], path: str, refs: tuple[str, ...], depth: int
    ) -> FormField:
        """A part of this field (an item, an option) at ``path``, always required."""
        name = common["name"]
        return self.build(schema, name=name, path=path, required=True, refs=refs, depth=depth + 1)

    def _build(
        self, schema: Any, common: dict[str, Any], refs: tuple[str, ...], depth: int
    ) -> FormField:
        if depth > MAX_DEPTH:
            raise Unusable("nested too deeply")
        if schema is True:
            raise Unusable("any value (no type)")
        if schema is False:
            raise Unusable("no value is allowed")
        if not isinstance(schema, Mapping):
            raise Unusable("not a schema")
        schema, refs = resolve(self.root, schema, refs)
        schema = merge_all_of(self.root, schema)
        common.update(annotations_of(schema))
        for key in _UNSUPPORTED:
            if key in schema:
                raise Unusable(f"uses {key}")
        if "anyOf" in schema or "oneOf" in schema:
            field = self._choice(schema, common, refs, depth)
            if field is not None:
                return field
            schema = {k: v for k, v in schema.items() if k not in ("anyOf", "oneOf")}
        if "const" in schema:
            return ConstField(**common, value=schema["const"])
        if "enum" in schema:
            return enum_field(schema, common)
        kind = schema.get("type")
        if isinstance(kind, list):
            kinds = [k for k in kind if k != "null"]
            if not kinds or not all(isinstance(k, str) for k in kinds):
                raise Unusable(f"type {kind!r}")
            common["nullable"] = len(kinds) < len(kind)
            if len(kinds) > 1:
                constraints = {a: b for a, b in schema.items() if a not in ANNOTATIONS}
                options = []
                for k in kinds:
                    path = f"{common['path']}<{k}>"
                    option = self._inner({**constraints, "type": k}, common, path, refs, depth)
                    options.append(replace(option, label=k))
                return ChoiceField(**common, options=tuple(options))
            kind = kinds[0]
        if kind is None:
            kind = infer_type(schema)
        return self._typed(kind, schema, common, refs, depth)

    def _choice(
        self, schema: Mapping[str, Any], common: dict[str, Any], refs: tuple[str, ...], depth: int
    ) -> FormField | None:
        if "anyOf" in schema and "oneOf" in schema:
            raise Unusable("both anyOf and oneOf")
        key = "anyOf" if "anyOf" in schema else "oneOf"
        raw = schema[key]
        if not isinstance(raw, list) or not raw:
            raise Unusable(f"{key} is not a non-empty list")
        base = {k: v for k, v in schema.items() if k not in ANNOTATIONS}
        if base and all(isinstance(o, Mapping) and not (_STRUCTURE & o.keys()) for o in raw):
            return None  # options only add constraints (e.g. required): the validator checks
        options: list[Any] = []
        nullable = False
        for option in raw:
            resolved, _ = resolve(self.root, option, refs)
            if isinstance(resolved, Mapping) and (
                resolved.get("type") == "null" or resolved.get("const", 0) is None
            ):
                nullable = True
            else:
                options.append(option)
        if not options:
            return ConstField(**common, value=None, nullable=True)
        if len(options) == 1:
            inner = {**base, **options[0]} if isinstance(options[0], Mapping) else options[0]
            field = self.build(
                inner,
                name=common["name"],
                path=common["path"],
                required=common["required"],
                refs=refs,
                depth=depth + 1,
            )
            wrapper = {k: v for k, v in common.items() if k not in ("name", "path", "required")}
            return replace(field, **wrapper, nullable=nullable or field.nullable)
        built = []
        for index, option in enumerate(options):
            inner = {**base, **option} if isinstance(option, Mapping) else option
            field = self._inner(inner, common, f"{common['path']}<{index}>", refs, depth)
            built.append(replace(field, label=option_label(option, field, index)))
        return ChoiceField(**common, nullable=nullable, options=tuple(built))

    def _typed(
        self,
        kind: Any,
        schema: Mapping[str, Any],
        common: dict[str, Any],
        refs: tuple[str, ...],
        depth: int,
    ) -> FormField:
        if kind == "string":
            return string_field(schema, common)
        if kind in ("number", "integer"):
            return number_field(kind == "integer", schema, common)
        if kind == "boolean":
            return BooleanField(**common)
        if kind == "null":
            return ConstField(**common, value=None)
        if kind == "array":
            items = schema.get("items", True)
            if isinstance(items, list):
                raise Unusable("tuple items")
            return ArrayField(
                **common,
                item=self._inner(items, common, f"{common['path']}[]", refs, depth),
                min_items=whole(schema.get("minItems")),
                max_items=whole(schema.get("maxItems")),
                unique_items=schema.get("uniqueItems") is True,
            )
        if kind == "object":
            return self._object(schema, common, refs, depth)
        raise Unusable(f"type {kind!r}")

    def _object(
        self, schema: Mapping[str, Any], common: dict[str, Any], refs: tuple[str, ...], depth: int
    ) -> ObjectField:
        properties = schema.get("properties")
        extra = schema.get("additionalProperties", True)
        if properties is None:
            # A tool without arguments is an empty form; a free-form dict needs the editor.
            if extra is False or (depth == 0 and extra in (True, {})):
                return ObjectField(**common)
            raise Unusable("free-form object")
        if not isinstance(properties, Mapping):
            raise Unusable("properties is not an object")
        required = schema.get("required", [])
        needed = set(required) if isinstance(required, list) else set()
        fields = tuple(
            self.build(
                sub,
                name=str(key),
                path=join(common["path"], str(key)),
                required=key in needed,
                refs=refs,
                depth=depth + 1,
            )
            for key, sub in properties.items()
        )
        return ObjectField(**common, properties=fields)
