"""Form values to call arguments (``to_arguments``) and back (``initial_values``,
``values_from_arguments``).

Values, as a UI holds them: ``None`` is an empty field; numbers may be text; an object is a
dict by property name; an array a list; a choice ``{"option": index, "value": ...}``; a
``json`` field its raw JSON text. An empty field is left out of the arguments (the server
applies defaults), or null when it is required and nullable.

``to_arguments`` only converts: it raises ``FormError`` for a value that cannot become JSON
at all (``abc`` in a number field, bad JSON text, an empty list item). Whether the arguments
are *valid* (bounds, lengths, patterns, required fields) is the registry validator's call,
so that the form and the call never disagree. ``convert`` reads on past such values (each
becomes null and its error is listed), so that the validator can judge the rest at once and
the person sees every problem in one round.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from workbench.errors import FormError
from workbench.widgets.form.fields import (
    ROOT_PATH,
    ArrayField,
    BooleanField,
    ChoiceField,
    ConstField,
    FormField,
    JsonField,
    NumberField,
    ObjectField,
    StringField,
    join,
)

_OMIT: Any = object()


def to_arguments(form: FormField, values: Any) -> dict[str, Any]:
    """Turn form values into call arguments; raise ``FormError`` naming a field whose value
    cannot be converted."""
    return _root(_convert(form, values, "", None))


def convert(form: FormField, values: Any) -> tuple[dict[str, Any], list[FormError]]:
    """Form values as call arguments, reading past what does not convert: each such value is
    null in the arguments (so array items keep their places) and its ``FormError`` listed."""
    errors: list[FormError] = []
    try:
        return _root(_convert(form, values, "", errors)), errors
    except FormError as error:
        return {}, [*errors, error]


def _root(result: Any) -> dict[str, Any]:
    if result is _OMIT:
        return {}
    if not isinstance(result, dict):
        raise FormError(ROOT_PATH, "the arguments must be a JSON object")
    return result


Errors = list[FormError] | None
"""Where ``_convert`` lists what does not convert; None raises the first instead."""


def _part(errors: Errors, convert_part: Any, *args: Any) -> Any:
    """One property or item, its error listed (and the value null) when errors are listed."""
    if errors is None:
        return convert_part(*args, errors)
    try:
        return convert_part(*args, errors)
    except FormError as error:
        errors.append(error)
        return None


def _empty(field: FormField, value: Any) -> bool:
    if isinstance(field, ConstField) and field.required:
        return False  # shown, not edited: a required constant is always sent
    if value is None:
        return True
    text_kinds = (NumberField, JsonField)
    return isinstance(field, text_kinds) and isinstance(value, str) and not value.strip()


def _convert(field: FormField, value: Any, where: str, errors: Errors) -> Any:
    if _empty(field, value):
        return None if field.nullable and field.required else _OMIT
    if isinstance(field, ObjectField):
        if not isinstance(value, Mapping):
            raise FormError(where or ROOT_PATH, "expected an object")
        if not field.required and field.properties and all(v is None for v in value.values()):
            return _OMIT
        result: dict[str, Any] = {}
        for prop in field.properties:
            converted = _part(errors, _convert, prop, value.get(prop.name), join(where, prop.name))
            if converted is not _OMIT:
                result[prop.name] = converted
        return result
    if isinstance(field, ArrayField):
        if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
            raise FormError(where or ROOT_PATH, "expected a list")
        return [
            _part(errors, _item, field.item, item, f"{where}[{i}]") for i, item in enumerate(value)
        ]
    if isinstance(field, ChoiceField):
        return _convert_choice(field, value, where, errors)
    if isinstance(field, JsonField):
        return _parse_json(value, where)
    return _scalar(field, value, where or ROOT_PATH)


def _item(field: FormField, value: Any, where: str, errors: Errors) -> Any:
    """An array item: an empty one cannot be left out of its list, so it is an error."""
    converted = _convert(field, value, where, errors)
    if converted is _OMIT:
        raise FormError(where, "needs a value (or remove the item)")
    return converted


def _convert_choice(field: ChoiceField, value: Any, where: str, errors: Errors) -> Any:
    option = value.get("option") if isinstance(value, Mapping) else None
    if not isinstance(option, int) or not 0 <= option < len(field.options):
        raise FormError(where or ROOT_PATH, "choose one of the options")
    chosen, inner = field.options[option], value.get("value")
    if isinstance(chosen, ConstField):
        return chosen.value
    if _empty(chosen, inner):
        return None if field.required and field.nullable else _OMIT
    return _convert(chosen, inner, where, errors)


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
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return False
        if field.choices and value not in field.choices:
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


def fresh_values(field: FormField) -> Any:
    """What a part of the form starts with when the user opens it (an item added, an option
    chosen, an optional object included): its default, else what a required field starts with."""
    value = initial_values(field)
    if value is None:
        value = initial_values(replace(field, required=True, nullable=False, has_default=False))
    return value


def json_text(arguments: Any) -> str:
    """Arguments as the raw-JSON editor shows them."""
    return json.dumps(arguments, indent=2, ensure_ascii=False, default=str)
