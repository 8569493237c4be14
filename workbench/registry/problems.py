"""What jsonschema-rs finds wrong with arguments, said as sentences for people.

The registry's validator is the only judge of arguments: ``%mcp call``, ``Workbench.call``
and the browser's form all show its verdict. Its own messages are written for programmers
(``"ten" is not of type "integer"``, a raw regular expression); ``problems_of`` turns each
``ValidationError`` into a ``Problem``: a path, a short sentence (``must be an integer``) and
a detail for whoever wants more (the pattern, the format).

``FORMATS`` is what the validator checks of ``format``: the six formats people type by hand
(date, time, date-time, email, uri, uuid), read as leniently as the servers that declare them
(pydantic's ``time`` takes ``10:00``); every other format is left to the server, so that a
check here never refuses what the tool itself accepts.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable, Iterable, Iterator
from decimal import Decimal
from typing import Any

import jsonschema_rs

ROOT = "(arguments)"
"""The path of the arguments as a whole."""
MAX_LISTED = 10
"""Longer enums are cut in the message; the detail lists them all."""
_FORMAT = "format: "
_PATTERN = "pattern: "
"""How a problem's detail starts, naming the keyword it came from."""

_Kind = jsonschema_rs.ValidationErrorKind

_TIME = r"([01]\d|2[0-3]):[0-5]\d(:([0-5]\d|60)([.,]\d+)?)?([Zz]|[+-]([01]\d|2[0-3]):?[0-5]\d)?"
_TIME_RE = re.compile(_TIME)
_DATE_TIME_RE = re.compile(r"\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt ]" + _TIME)


def _time(text: str) -> bool:
    return _TIME_RE.fullmatch(text) is not None


def _date_time(text: str) -> bool:
    return _DATE_TIME_RE.fullmatch(text) is not None


def _uuid(text: str) -> bool:
    try:
        uuid.UUID(text)
    except ValueError:
        return False
    return True


def _anything(text: str) -> bool:
    return True


_UNCHECKED = (
    "duration", "idn-email", "hostname", "idn-hostname", "ipv4", "ipv6", "uri-reference",
    "iri", "iri-reference", "uri-template", "json-pointer", "relative-json-pointer", "regex",
)  # fmt: skip
FORMATS: dict[str, Callable[[str], bool]] = {
    "time": _time,
    "date-time": _date_time,
    "uuid": _uuid,
    **dict.fromkeys(_UNCHECKED, _anything),
}
"""Format checks for ``jsonschema_rs.validator_for(..., validate_formats=True, formats=...)``;
date, email and uri keep jsonschema-rs's own."""

FORMAT_NAMES = {
    "date": "a date (e.g. 2025-05-01)",
    "time": "a time (e.g. 14:30)",
    "date-time": "a date and time (e.g. 2025-05-01T14:30:00Z)",
    "email": "an e-mail address (e.g. ada@example.org)",
    "uri": "a URI (e.g. https://example.org)",
    "uuid": "a UUID (e.g. 123e4567-e89b-12d3-a456-426614174000)",
}
_TYPE_NAMES = {
    "string": "text",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "array": "a list",
    "object": "an object",
    "null": "null",
}


class Problem(tuple[str, str]):
    """One way arguments break a schema: ``(path, message)``, plus a ``detail`` or None.

    A pair, so that callers unpack it (``for field, why in problems``) and compare it with
    tuples; ``path`` is dot-separated with array indexes (``people.0.name``), or ``(arguments)``.
    """

    detail: str | None

    def __new__(cls, path: str, message: str, detail: str | None = None) -> Problem:
        problem = super().__new__(cls, (path, message))
        problem.detail = detail
        return problem

    @property
    def path(self) -> str:
        """Where: ``people.0.name``, or ``(arguments)`` for the arguments as a whole."""
        return self[0]

    @property
    def message(self) -> str:
        """What is wrong, as a sentence without its subject: ``must be an integer``."""
        return self[1]

    def __repr__(self) -> str:
        return f"Problem({self.path!r}, {self.message!r}, detail={self.detail!r})"


def problems_of(errors: Iterable[jsonschema_rs.ValidationError]) -> list[Problem]:
    """Every error of ``Validator.iter_errors``, as problems for people.

    A value that breaks both its format and its pattern (an e-mail field declaring both)
    gets the format's sentence only: it says what is wanted; the pattern stays a detail."""
    found = [problem for error in errors for problem in _explain(error)]
    formats = {p.path for p in found if (p.detail or "").startswith(_FORMAT)}
    return [p for p in found if p.path not in formats or not (p.detail or "").startswith(_PATTERN)]


def path_of(error: jsonschema_rs.ValidationError, *more: str) -> str:
    """The error's place in the arguments, dot-separated (``people.0.name``)."""
    parts = [str(part) for part in error.instance_path] + list(more)
    return ".".join(parts) or ROOT


def _explain(error: jsonschema_rs.ValidationError) -> Iterator[Problem]:
    kind = error.kind
    if isinstance(kind, _Kind.Required):
        yield Problem(path_of(error, kind.property), "required but missing")
    elif isinstance(kind, (_Kind.AdditionalProperties, _Kind.UnevaluatedProperties)):
        for name in kind.unexpected:
            yield Problem(path_of(error, name), "unexpected argument")
    elif isinstance(kind, (_Kind.AnyOf, _Kind.OneOfNotValid)):
        yield from _none_matched(error, kind.context)
    elif isinstance(kind, _Kind.Pattern):
        yield Problem(
            path_of(error), "does not match the expected pattern", f"{_PATTERN}{kind.pattern}"
        )
    elif isinstance(kind, _Kind.Format):
        name = FORMAT_NAMES.get(kind.format, f"in the {kind.format} format")
        yield Problem(path_of(error), f"must be {name}", f"{_FORMAT}{kind.format}")
    else:
        message, detail = _sentence(error)
        yield Problem(path_of(error), message, detail)


def _sentence(error: jsonschema_rs.ValidationError) -> tuple[str, str | None]:
    """The sentence for every kind whose problem sits at the error's own path."""
    kind = error.kind
    if isinstance(kind, _Kind.Type):
        return f"must be {_either(_kinds(kind.types))}", None
    if isinstance(kind, _Kind.Enum):
        return _one_of(kind.options)
    if isinstance(kind, _Kind.Constant):
        return f"must be {_json(kind.expected_value)}", None
    if isinstance(kind, _Kind.Minimum):
        return f"must be at least {_number(kind.limit)}", None
    if isinstance(kind, _Kind.Maximum):
        return f"must be at most {_number(kind.limit)}", None
    if isinstance(kind, _Kind.ExclusiveMinimum):
        return f"must be greater than {_number(kind.limit)}", None
    if isinstance(kind, _Kind.ExclusiveMaximum):
        return f"must be less than {_number(kind.limit)}", None
    if isinstance(kind, _Kind.MultipleOf):
        return f"must be a multiple of {_number(kind.multiple_of)}", None
    if isinstance(kind, _Kind.MinLength):
        if kind.limit == 1:
            return "must not be empty", None
        return f"must be at least {_count(kind.limit, 'character')}", None
    if isinstance(kind, _Kind.MaxLength):
        return f"must be at most {_count(kind.limit, 'character')}", None
    if isinstance(kind, _Kind.MinItems):
        return f"needs at least {_count(kind.limit, 'item')}", None
    if isinstance(kind, _Kind.MaxItems):
        return f"can have at most {_count(kind.limit, 'item')}", None
    if isinstance(kind, _Kind.MinProperties):
        return f"needs at least {_count(kind.limit, 'entry', 'entries')}", None
    if isinstance(kind, _Kind.MaxProperties):
        return f"can have at most {_count(kind.limit, 'entry', 'entries')}", None
    return _rarer(error)


def _rarer(error: jsonschema_rs.ValidationError) -> tuple[str, str | None]:
    kind = error.kind
    if isinstance(kind, _Kind.UniqueItems):
        return "must not repeat an item", None
    if isinstance(kind, _Kind.Contains):
        return "needs an item of the expected kind", None
    if isinstance(kind, (_Kind.AdditionalItems, _Kind.UnevaluatedItems)):
        return "has more items than allowed", None
    if isinstance(kind, _Kind.OneOfMultipleValid):
        return "fits more than one of the allowed forms; it must fit exactly one", None
    if isinstance(kind, (_Kind.Not, _Kind.FalseSchema)):
        return "is not allowed here", None
    if isinstance(kind, _Kind.PropertyNames):
        return "has a key that is not allowed", kind.error.message
    if isinstance(kind, (_Kind.BacktrackLimitExceeded, _Kind.RegexEngineFailure)):
        return "could not be checked against its pattern", error.message
    return error.message, None  # the rare rest (content encodings, custom keywords): as is


def _none_matched(
    error: jsonschema_rs.ValidationError, branches: list[list[jsonschema_rs.ValidationError]]
) -> Iterator[Problem]:
    """anyOf / oneOf with no branch that fits. A branch that fails only because the value is
    of another kind is not what the person meant; if one branch is left, its problems are the
    answer, and if none is, the kinds and values the branches take."""
    here = list(error.instance_path)
    meant = [b for b in branches if not all(_only_kind(e, here) for e in b)]
    if len(meant) == 1:
        yield from problems_of(meant[0])
        return
    if meant:
        yield Problem(path_of(error), "does not fit any of the allowed forms")
        return
    kinds: list[str] = []
    values: list[Any] = []
    for branch in branches:
        for inner in branch:
            if isinstance(inner.kind, _Kind.Type):
                kinds.extend(_kinds(inner.kind.types))
            elif isinstance(inner.kind, _Kind.Constant):
                values.append(inner.kind.expected_value)
            elif isinstance(inner.kind, _Kind.Enum):
                values.extend(inner.kind.options)
    if values and not kinds:
        message, detail = _one_of(values)
        yield Problem(path_of(error), message, detail)
    else:
        kinds.sort(key=lambda name: name == "null")
        unique = list(dict.fromkeys([*kinds, *(_json(v) for v in values)]))
        yield Problem(path_of(error), f"must be {_either(unique)}")


def _only_kind(error: jsonschema_rs.ValidationError, here: list[str | int]) -> bool:
    """Whether this error says "the wrong kind of value" about the value itself."""
    wrong = isinstance(error.kind, (_Kind.Type, _Kind.Constant, _Kind.Enum))
    return wrong and list(error.instance_path) == here


def _one_of(options: list[Any]) -> tuple[str, str | None]:
    shown = [_bare(option) for option in options]
    if len(shown) <= MAX_LISTED:
        return f"must be one of: {', '.join(shown)}", None
    listed = ", ".join(shown[:MAX_LISTED])
    return f"must be one of: {listed}, … ({len(shown)} in all)", ", ".join(shown)


def _kinds(types: list[str]) -> list[str]:
    """JSON types as people name them, null last (jsonschema-rs sorts them by name)."""
    return [_TYPE_NAMES.get(t, t) for t in sorted(types, key=lambda t: t == "null")]


def _either(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} or {names[-1]}"


def _count(number: int, word: str, plural: str | None = None) -> str:
    return f"{number} {word if number == 1 else plural or word + 's'}"


def _number(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, Decimal):
        return format(value.normalize(), "f")
    return str(value)


def _bare(value: Any) -> str:
    """A string as itself (``asc``), anything else as JSON (``1``, ``null``)."""
    return value if isinstance(value, str) else _json(value)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
