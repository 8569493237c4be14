"""From a tool's input JSON Schema to a form description, and from form values to arguments.

Pure logic (no ipywidgets): ``build_form`` reads a schema into a tree of frozen ``FormField``
dataclasses, ``initial_values`` / ``values_from_arguments`` give the values a UI holds, and
``to_arguments`` turns those values back into call arguments.

Values, as a UI holds them: ``None`` is an empty field; numbers may be text; an object is a
dict by property name; an array a list; a choice ``{"option": index, "value": ...}``; a
``json`` field its raw JSON text. An optional field that is ``None`` is left out of the
arguments (the server applies defaults); a nullable required field that is ``None`` is null.
Anything the form cannot express becomes a ``json`` field; ``build_form`` never raises.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar
from urllib.parse import unquote

from workbench.errors import WorkbenchError

MAX_REF_REPEAT = 2
"""How many times one ``$ref`` may be expanded on a single path before it becomes ``json``."""
MAX_DEPTH = 32
"""How deeply schemas may nest before the rest becomes ``json``."""
ROOT_PATH = "(arguments)"
"""The path that names the arguments as a whole in ``fallbacks()`` and ``FormError``."""

_ANNOTATIONS = frozenset(
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
_OMIT: Any = object()


class FormError(WorkbenchError):
    """A form value cannot become an argument; ``path`` names it (``a.b[2]``)."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


@dataclass(frozen=True, kw_only=True)
class FormField:
    """One field of a form; subclasses add what their kind needs."""

    KIND: ClassVar[str] = "field"
    name: str = ""
    path: str = ""
    title: str | None = None
    description: str | None = None
    default: Any = None
    has_default: bool = False
    required: bool = False
    nullable: bool = False
    label: str | None = None

    @property
    def kind(self) -> str:
        """The kind of input: string, number, integer, boolean, array, object, choice, ..."""
        return self.KIND

    @property
    def display_name(self) -> str:
        """The title to show, else the name."""
        return self.title or self.label or self.name or ROOT_PATH

    def children(self) -> tuple[FormField, ...]:
        """The fields directly inside this one."""
        return ()

    def walk(self) -> Iterator[FormField]:
        """This field and every field inside it, depth first."""
        yield self
        for child in self.children():
            yield from child.walk()

    def fallbacks(self) -> list[str]:
        """The paths of every field that fell back to the raw-JSON editor."""
        return [field.path or ROOT_PATH for field in self.walk() if isinstance(field, JsonField)]

    @property
    def is_complete(self) -> bool:
        """True when nothing in this tree fell back to the raw-JSON editor."""
        return not self.fallbacks()


@dataclass(frozen=True, kw_only=True)
class JsonField(FormField):
    """The raw-JSON editor, for what the form cannot express; ``reason`` says why."""

    KIND: ClassVar[str] = "json"
    reason: str = ""
    schema: Any = None


@dataclass(frozen=True, kw_only=True)
class StringField(FormField):
    """Text; ``choices`` for an enum, ``format`` as a hint (date, email, uri, ...)."""

    KIND: ClassVar[str] = "string"
    choices: tuple[Any, ...] = ()
    format: str | None = None
    min_length: int | None = None
    max_length: int | None = None
    pattern: str | None = None


@dataclass(frozen=True, kw_only=True)
class NumberField(FormField):
    """A number, or a whole number when ``integer``, with its bounds."""

    KIND: ClassVar[str] = "number"
    integer: bool = False
    choices: tuple[Any, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    exclusive_minimum: float | None = None
    exclusive_maximum: float | None = None
    multiple_of: float | None = None

    @property
    def kind(self) -> str:
        """``integer`` or ``number``."""
        return "integer" if self.integer else "number"


@dataclass(frozen=True, kw_only=True)
class BooleanField(FormField):
    """A checkbox."""

    KIND: ClassVar[str] = "boolean"


@dataclass(frozen=True, kw_only=True)
class ArrayField(FormField):
    """A list of ``item`` fields (add / remove)."""

    KIND: ClassVar[str] = "array"
    item: FormField = JsonField()
    min_items: int | None = None
    max_items: int | None = None
    unique_items: bool = False

    def children(self) -> tuple[FormField, ...]:
        """The item field."""
        return (self.item,)


@dataclass(frozen=True, kw_only=True)
class ObjectField(FormField):
    """Named properties in schema order, each marked ``required`` or not."""

    KIND: ClassVar[str] = "object"
    properties: tuple[FormField, ...] = ()

    def children(self) -> tuple[FormField, ...]:
        """The properties."""
        return self.properties


@dataclass(frozen=True, kw_only=True)
class ChoiceField(FormField):
    """anyOf / oneOf: a type selector over ``options``, each labelled."""

    KIND: ClassVar[str] = "choice"
    options: tuple[FormField, ...] = ()

    def children(self) -> tuple[FormField, ...]:
        """The options."""
        return self.options


@dataclass(frozen=True, kw_only=True)
class ConstField(FormField):
    """A fixed value, shown but not edited."""

    KIND: ClassVar[str] = "const"
    value: Any = None


# --- schema -> form ---------------------------------------------------------------------------


def build_form(schema: Any) -> FormField:
    """Read a tool's input JSON Schema into a form; anything unusable becomes a ``json`` field."""
    return _Builder(schema).build(schema, name="", path="", required=True, refs=(), depth=0)


class _Unusable(Exception):
    """This part of the schema becomes a ``json`` field, for the reason given."""


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _num(value: Any) -> float | None:
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class _Builder:
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
        except _Unusable as why:
            reason = str(why)
        except Exception as error:  # a malformed schema must never break the form
            reason = f"unreadable schema ({type(error).__name__}: {error})"
        if isinstance(schema, Mapping):
            common.update(self._annotations(schema))
        return JsonField(**common, reason=reason, schema=schema)

    def _annotations(self, schema: Mapping[str, Any]) -> dict[str, Any]:
        found: dict[str, Any] = {}
        if _text(schema.get("title")):
            found["title"] = schema["title"]
        if _text(schema.get("description")):
            found["description"] = schema["description"]
        if "default" in schema:
            found["default"] = schema["default"]
            found["has_default"] = True
        return found

    def _resolve(self, schema: Any, refs: tuple[str, ...]) -> tuple[Any, tuple[str, ...]]:
        while isinstance(schema, Mapping) and "$ref" in schema:
            ref = schema["$ref"]
            if not isinstance(ref, str) or not ref.startswith("#"):
                raise _Unusable(f"unsupported $ref {ref!r}")
            if refs.count(ref) >= MAX_REF_REPEAT or len(refs) >= MAX_DEPTH:
                raise _Unusable(f"recursive $ref {ref!r}")
            target: Any = self.root
            for part in ref[1:].lstrip("/").split("/") if ref not in ("#", "#/") else ():
                key = unquote(part).replace("~1", "/").replace("~0", "~")
                if isinstance(target, Mapping) and key in target:
                    target = target[key]
                elif isinstance(target, list) and key.isdigit() and int(key) < len(target):
                    target = target[int(key)]
                else:
                    raise _Unusable(f"$ref {ref!r} points nowhere")
            if target is True:
                target = {}
            if not isinstance(target, Mapping):
                raise _Unusable(f"$ref {ref!r} is not a schema")
            siblings = {key: value for key, value in schema.items() if key != "$ref"}
            schema = {**target, **siblings}
            refs = (*refs, ref)
        return schema, refs

    def _build(
        self, schema: Any, common: dict[str, Any], refs: tuple[str, ...], depth: int
    ) -> FormField:
        if depth > MAX_DEPTH:
            raise _Unusable("nested too deeply")
        if schema is True:
            raise _Unusable("any value (no type)")
        if schema is False:
            raise _Unusable("no value is allowed")
        if not isinstance(schema, Mapping):
            raise _Unusable("not a schema")
        schema, refs = self._resolve(schema, refs)
        schema = self._merge_all_of(schema)
        common.update(self._annotations(schema))
        for key in _UNSUPPORTED:
            if key in schema:
                raise _Unusable(f"uses {key}")
        if "anyOf" in schema or "oneOf" in schema:
            field = self._choice(schema, common, refs, depth)
            if field is not None:
                return field
            schema = {k: v for k, v in schema.items() if k not in ("anyOf", "oneOf")}
        if "const" in schema:
            return ConstField(**common, value=schema["const"])
        if "enum" in schema:
            return self._enum(schema, common)
        kind = schema.get("type")
        if isinstance(kind, list):
            kinds = [k for k in kind if k != "null"]
            if not kinds or not all(isinstance(k, str) for k in kinds):
                raise _Unusable(f"type {kind!r}")
            common["nullable"] = len(kinds) < len(kind)
            if len(kinds) > 1:
                options = tuple(
                    self.build(
                        {**{a: b for a, b in schema.items() if a not in _ANNOTATIONS}, "type": k},
                        name=common["name"],
                        path=f"{common['path']}<{k}>",
                        required=True,
                        refs=refs,
                        depth=depth + 1,
                    )
                    for k in kinds
                )
                options = tuple(replace(o, label=k) for o, k in zip(options, kinds, strict=True))
                return ChoiceField(**common, options=options)
            kind = kinds[0]
        if kind is None:
            kind = self._infer_type(schema)
        return self._typed(kind, schema, common, refs, depth)

    def _merge_all_of(self, schema: Mapping[str, Any]) -> Mapping[str, Any]:
        parts = schema.get("allOf")
        if parts is None:
            return schema
        if not isinstance(parts, list):
            raise _Unusable("allOf is not a list")
        merged: dict[str, Any] = {k: v for k, v in schema.items() if k != "allOf"}
        for part in parts:
            part, _ = self._resolve(part, ())
            if not isinstance(part, Mapping):
                raise _Unusable("allOf of a non-object schema")
            part = self._merge_all_of(part)
            for key, value in part.items():
                if key == "properties" and isinstance(value, Mapping):
                    merged["properties"] = {**merged.get("properties", {}), **value}
                elif key == "required" and isinstance(value, list):
                    merged["required"] = [*merged.get("required", []), *value]
                elif key in merged and merged[key] != value and key not in _ANNOTATIONS:
                    raise _Unusable(f"allOf parts disagree on {key}")
                else:
                    merged.setdefault(key, value)
        return merged

    def _choice(
        self, schema: Mapping[str, Any], common: dict[str, Any], refs: tuple[str, ...], depth: int
    ) -> FormField | None:
        if "anyOf" in schema and "oneOf" in schema:
            raise _Unusable("both anyOf and oneOf")
        key = "anyOf" if "anyOf" in schema else "oneOf"
        raw = schema[key]
        if not isinstance(raw, list) or not raw:
            raise _Unusable(f"{key} is not a non-empty list")
        base = {k: v for k, v in schema.items() if k not in _ANNOTATIONS}
        if base and all(isinstance(o, Mapping) and not (_STRUCTURE & o.keys()) for o in raw):
            return None  # options only add constraints (e.g. required): the validator checks
        options: list[Any] = []
        nullable = False
        for option in raw:
            resolved, _ = self._resolve(option, refs)
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
            field = self.build(
                inner,
                name=common["name"],
                path=f"{common['path']}<{index}>",
                required=True,
                refs=refs,
                depth=depth + 1,
            )
            built.append(replace(field, label=_label(option, field, index)))
        return ChoiceField(**common, nullable=nullable, options=tuple(built))

    def _enum(self, schema: Mapping[str, Any], common: dict[str, Any]) -> FormField:
        values = schema["enum"]
        if not isinstance(values, list) or not values:
            raise _Unusable("enum is not a non-empty list")
        if None in values:
            common["nullable"] = True
            values = [v for v in values if v is not None]
        choices = tuple(values)
        if not choices:
            return ConstField(**common, value=None)
        if all(isinstance(v, str) for v in choices):
            return StringField(**common, choices=choices, format=_text(schema.get("format")))
        if all(_is_number(v) for v in choices):
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

    def _infer_type(self, schema: Mapping[str, Any]) -> str:
        keys = schema.keys()
        if keys & {"properties", "required", "additionalProperties"}:
            return "object"
        if keys & {"items", "minItems", "maxItems", "uniqueItems"}:
            return "array"
        if keys & {"minLength", "maxLength", "pattern", "format"}:
            return "string"
        if keys & {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}:
            return "number"
        raise _Unusable("any value (no type)")

    def _typed(
        self,
        kind: Any,
        schema: Mapping[str, Any],
        common: dict[str, Any],
        refs: tuple[str, ...],
        depth: int,
    ) -> FormField:
        if kind == "string":
            return StringField(
                **common,
                format=_text(schema.get("format")),
                min_length=_int(schema.get("minLength")),
                max_length=_int(schema.get("maxLength")),
                pattern=_text(schema.get("pattern")),
            )
        if kind in ("number", "integer"):
            return self._number(kind == "integer", schema, common)
        if kind == "boolean":
            return BooleanField(**common)
        if kind == "null":
            return ConstField(**common, value=None)
        if kind == "array":
            items = schema.get("items", True)
            if isinstance(items, list):
                raise _Unusable("tuple items")
            item = self.build(
                items,
                name=common["name"],
                path=f"{common['path']}[]",
                required=True,
                refs=refs,
                depth=depth + 1,
            )
            return ArrayField(
                **common,
                item=item,
                min_items=_int(schema.get("minItems")),
                max_items=_int(schema.get("maxItems")),
                unique_items=schema.get("uniqueItems") is True,
            )
        if kind == "object":
            return self._object(schema, common, refs, depth)
        raise _Unusable(f"type {kind!r}")

    def _number(
        self, integer: bool, schema: Mapping[str, Any], common: dict[str, Any]
    ) -> NumberField:
        minimum, maximum = _num(schema.get("minimum")), _num(schema.get("maximum"))
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
            exclusive_minimum=_num(low),
            exclusive_maximum=_num(high),
            multiple_of=_num(schema.get("multipleOf")),
        )

    def _object(
        self, schema: Mapping[str, Any], common: dict[str, Any], refs: tuple[str, ...], depth: int
    ) -> ObjectField:
        properties = schema.get("properties")
        extra = schema.get("additionalProperties", True)
        if properties is None:
            # A tool without arguments is an empty form; a free-form dict needs the editor.
            if extra is False or (depth == 0 and extra in (True, {})):
                return ObjectField(**common)
            raise _Unusable("free-form object")
        if not isinstance(properties, Mapping):
            raise _Unusable("properties is not an object")
        required = schema.get("required", [])
        needed = set(required) if isinstance(required, list) else set()
        fields = tuple(
            self.build(
                sub,
                name=str(key),
                path=_join(common["path"], str(key)),
                required=key in needed,
                refs=refs,
                depth=depth + 1,
            )
            for key, sub in properties.items()
        )
        return ObjectField(**common, properties=fields)


def _label(option: Any, field: FormField, index: int) -> str:
    if isinstance(option, Mapping):
        if _text(option.get("title")):
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


# --- values -> arguments ----------------------------------------------------------------------


def to_arguments(form: FormField, values: Any) -> dict[str, Any]:
    """Turn form values into call arguments; raise ``FormError`` naming the bad field."""
    result = _convert(form, values, "")
    if result is _OMIT:
        return {}
    if not isinstance(result, dict):
        raise FormError(ROOT_PATH, "the arguments must be a JSON object")
    return result


def _empty(field: FormField, value: Any) -> bool:
    if isinstance(field, ConstField) and field.required:
        return False  # shown, not edited: a required constant is always sent
    if value is None:
        return True
    text_kinds = (NumberField, JsonField)
    return isinstance(field, text_kinds) and isinstance(value, str) and not value.strip()


def _convert(field: FormField, value: Any, where: str) -> Any:
    if _empty(field, value):
        if field.nullable and field.required:
            return None
        if field.required:
            raise FormError(where or ROOT_PATH, "needs a value")
        return _OMIT
    if isinstance(field, ObjectField):
        if not isinstance(value, Mapping):
            raise FormError(where or ROOT_PATH, "expected an object")
        if not field.required and field.properties and all(v is None for v in value.values()):
            return _OMIT
        result: dict[str, Any] = {}
        for prop in field.properties:
            converted = _convert(prop, value.get(prop.name), _join(where, prop.name))
            if converted is not _OMIT:
                result[prop.name] = converted
        return result
    if isinstance(field, ArrayField):
        if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
            raise FormError(where or ROOT_PATH, "expected a list")
        return [_convert(field.item, item, f"{where}[{i}]") for i, item in enumerate(value)]
    if isinstance(field, ChoiceField):
        return _convert_choice(field, value, where)
    if isinstance(field, JsonField):
        return _parse_json(value, where)
    return _scalar(field, value, where or ROOT_PATH)


def _convert_choice(field: ChoiceField, value: Any, where: str) -> Any:
    option = value.get("option") if isinstance(value, Mapping) else None
    if not isinstance(option, int) or not 0 <= option < len(field.options):
        raise FormError(where or ROOT_PATH, "choose one of the options")
    chosen, inner = field.options[option], value.get("value")
    if _empty(chosen, inner) and not isinstance(chosen, ConstField):
        if field.required and not field.nullable:
            raise FormError(where or ROOT_PATH, "needs a value")
        return None if field.required else _OMIT
    if isinstance(chosen, ConstField):
        return chosen.value
    return _convert(chosen, inner, where)


def _parse_json(value: Any, where: str) -> Any:
    if not isinstance(value, str):
        return value  # already parsed
    try:
        return json.loads(value)
    except json.JSONDecodeError as error:
        message = f"not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})"
        raise FormError(where or ROOT_PATH, message) from None


def _scalar(field: FormField, value: Any, where: str) -> Any:
    if isinstance(field, ConstField):
        return field.value
    if isinstance(field, StringField):
        if not isinstance(value, str):
            raise FormError(where, "expected text")
        return value
    if isinstance(field, BooleanField):
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            return value.strip().lower() == "true"
        raise FormError(where, "expected true or false")
    if isinstance(field, NumberField):
        return _number(field, value, where)
    raise FormError(where, f"cannot read a {field.kind} field")  # pragma: no cover


def _number(field: NumberField, value: Any, where: str) -> int | float:
    what = "a whole number" if field.integer else "a number"
    number: int | float
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise FormError(where, f"expected {what}")
    if isinstance(value, str):
        text = value.strip().replace("_", "")
        try:
            number = int(text)
        except ValueError:
            try:
                number = float(text)
            except ValueError:
                raise FormError(where, f"{value!r} is not {what}") from None
    else:
        number = value
    if isinstance(number, float):
        if not math.isfinite(number):
            raise FormError(where, f"{value!r} is not {what}")
        if field.integer:
            if not number.is_integer():
                raise FormError(where, f"{value!r} is not {what}")
            number = int(number)
    return number


# --- arguments -> values ----------------------------------------------------------------------


def initial_values(form: FormField) -> Any:
    """The values a fresh form shows: defaults pre-filled (a dict for an object form)."""
    if form.has_default:
        return _value_of(form, form.default)
    if not form.required or form.nullable:
        return None
    if isinstance(form, ObjectField):
        return {prop.name: initial_values(prop) for prop in form.properties}
    if isinstance(form, ArrayField):
        return []
    if isinstance(form, BooleanField):
        return False
    if isinstance(form, ConstField):
        return form.value
    if isinstance(form, ChoiceField) and form.options:
        return {"option": 0, "value": initial_values(form.options[0])}
    return None


def values_from_arguments(form: FormField, arguments: Any) -> Any:
    """The form values that give back these arguments ("run again"); unknown keys are dropped."""
    value = _value_of(form, arguments)
    if isinstance(form, ObjectField) and value is None and not form.path:
        return {prop.name: None for prop in form.properties}
    return value


def _value_of(field: FormField, value: Any) -> Any:
    if value is None and not isinstance(field, ConstField):
        return None
    if isinstance(field, JsonField):
        return json.dumps(value, indent=2, ensure_ascii=False)
    if isinstance(field, ObjectField):
        if not isinstance(value, Mapping):
            return None
        return {p.name: _value_of(p, value.get(p.name)) for p in field.properties}
    if isinstance(field, ArrayField):
        if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
            return None
        return [_value_of(field.item, item) for item in value]
    if isinstance(field, ChoiceField):
        for index, option in enumerate(field.options):
            if _matches(option, value):
                return {"option": index, "value": _value_of(option, value)}
        return None
    return value if _matches(field, value) else None


def _matches(field: FormField, value: Any) -> bool:
    """Whether a value fits a field, to pick the option of a choice it came from."""
    if value is None:
        return field.nullable or (isinstance(field, ConstField) and field.value is None)
    if isinstance(field, JsonField):
        return True
    if isinstance(field, ConstField):
        return type(value) is type(field.value) and bool(value == field.value)
    if isinstance(field, StringField):
        return isinstance(value, str) and (not field.choices or value in field.choices)
    if isinstance(field, NumberField):
        if not _is_number(value) or (field.choices and value not in field.choices):
            return False
        return not field.integer or isinstance(value, int) or float(value).is_integer()
    if isinstance(field, BooleanField):
        return isinstance(value, bool)
    if isinstance(field, ArrayField):
        if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
            return False
        return all(_matches(field.item, item) for item in value)
    if isinstance(field, ObjectField):
        if not isinstance(value, Mapping):
            return False
        return all(
            _matches(p, value[p.name]) if p.name in value else not p.required
            for p in field.properties
        )
    if isinstance(field, ChoiceField):
        return any(_matches(option, value) for option in field.options)
    return False  # pragma: no cover
