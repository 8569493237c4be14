"""RFC 6570 URI templates, as resource templates use them: their variables and expansion.

Levels 1-4 without prefix modifiers and explode of maps: ``{id}``, ``{+path}``, ``{#frag}``,
``{.ext}``, ``{/seg*}``, ``{;p}``, ``{?q,lang}``, ``{&page}``. A value may be a string, a
number or a list of them (exploded lists repeat the name for ``?`` ``&`` ``;``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from urllib.parse import quote

EXPRESSION = re.compile(r"\{([^{}]*)\}")
# operator: (first, separator, named, if-empty, allowed reserved characters)
OPERATORS: dict[str, tuple[str, str, bool, str, bool]] = {
    "": ("", ",", False, "", False),
    "+": ("", ",", False, "", True),
    "#": ("#", ",", False, "", True),
    ".": (".", ".", False, "", False),
    "/": ("/", "/", False, "", False),
    ";": (";", ";", True, "", False),
    "?": ("?", "&", True, "=", False),
    "&": ("&", "&", True, "=", False),
}
RESERVED = ":/?#[]@!$&'()*+,;="

Value = str | int | float | Sequence[str | int | float]


def variables(template: str) -> list[str]:
    """The variable names of a template, in order, each once."""
    names: list[str] = []
    for expression in EXPRESSION.findall(template):
        _, specs = _split(expression)
        for name, _explode in specs:
            if name not in names:
                names.append(name)
    return names


def expand(template: str, values: Mapping[str, Value]) -> str:
    """The URI ``template`` names with ``values``; a variable without a value is left out
    (RFC 6570), so callers check ``missing`` first when every variable is needed."""

    def replace(match: re.Match[str]) -> str:
        operator, specs = _split(match.group(1))
        first, separator, named, if_empty, reserved = OPERATORS[operator]
        parts = []
        for name, explode in specs:
            if name not in values or values[name] is None:
                continue
            parts.extend(
                _expand_one(name, values[name], explode, separator, named, if_empty, reserved)
            )
        return first + separator.join(parts) if parts else ""

    return EXPRESSION.sub(replace, template)


def missing(template: str, values: Mapping[str, object]) -> list[str]:
    """The template's variables that ``values`` does not give."""
    return [name for name in variables(template) if values.get(name) in (None, "")]


def matches(template: str, uri: str) -> bool:
    """Whether ``uri`` could come from ``template`` (each expression matches any text)."""
    pattern = "".join(
        ".+?" if index % 2 else re.escape(piece)
        for index, piece in enumerate(EXPRESSION.split(template))
    )
    return re.fullmatch(pattern, uri) is not None


def _split(expression: str) -> tuple[str, list[tuple[str, bool]]]:
    operator = expression[:1] if expression[:1] in OPERATORS and expression[:1] else ""
    body = expression[len(operator) :]
    specs = []
    for raw in body.split(","):
        raw = raw.strip()
        explode = raw.endswith("*")
        name = raw.rstrip("*").split(":", 1)[0]
        if name:
            specs.append((name, explode))
    return operator, specs


def _encode(value: str | int | float, reserved: bool) -> str:
    return quote(str(value), safe=RESERVED if reserved else "")


def _expand_one(
    name: str,
    value: Value,
    explode: bool,
    separator: str,
    named: bool,
    if_empty: str,
    reserved: bool,
) -> list[str]:
    if isinstance(value, str | int | float):
        text = _encode(value, reserved)
        if not named:
            return [text]
        return [f"{name}={text}" if text else name + if_empty]
    items = [_encode(item, reserved) for item in value]
    if not items:
        return []
    if explode:
        return [f"{name}={item}" for item in items] if named else items
    joined = ",".join(items)
    return [f"{name}={joined}"] if named else [joined]
