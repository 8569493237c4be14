"""The words around an input, as plain text: placeholders that name a field's kind, format
and bounds, so that people see the rules before the validator has to tell them."""

from __future__ import annotations

from workbench.widgets.form.fields import NumberField, StringField

EMPTY = "—"
"""The label of the option that leaves a dropdown's field empty."""
LONG_TEXT_NAMES = frozenset(
    {"body", "code", "content", "markdown", "prompt", "script", "source", "sql", "text"}
)
"""String fields with these names get a multi-line ``Textarea``."""
FORMAT_HINTS = {
    "date": "date, e.g. 2025-05-01",
    "time": "time, e.g. 14:30",
    "date-time": "date-time, e.g. 2025-05-01T14:30:00Z",
    "email": "email, e.g. ada@example.org",
    "uri": "uri, e.g. https://example.org",
    "url": "url, e.g. https://example.org",
    "uuid": "uuid",
}


def short(number: float) -> str:
    """A bound as people write it: ``5``, not ``5.0``."""
    return str(int(number)) if float(number).is_integer() else repr(float(number))


def is_long_text(field: StringField) -> bool:
    """Whether the field's name asks for several lines (``body``, ``code``, ...)."""
    return (field.name or "").lower() in LONG_TEXT_NAMES


def string_hint(field: StringField) -> str:
    """The placeholder of a text input: ``email, e.g. ada@example.org, up to 80 characters``."""
    parts = [FORMAT_HINTS.get(field.format, field.format)] if field.format else []
    low, high = field.min_length, field.max_length
    if low is not None and high is not None:
        parts.append(f"{low}–{high} characters")
    elif high is not None:
        parts.append(f"up to {high} characters")
    elif low is not None and low > 1:
        parts.append(f"at least {low} characters")
    if field.nullable and field.required:
        parts.append("empty = null")
    return ", ".join(parts)


def number_hint(field: NumberField) -> str:
    """The placeholder of a number input: ``integer, 5..600`` (with an en dash)."""
    parts = [field.kind]
    low, high = field.minimum, field.maximum
    if low is not None and high is not None:
        parts.append(f"{short(low)}–{short(high)}")
    elif low is not None:
        parts.append(f"≥ {short(low)}")
    elif high is not None:
        parts.append(f"≤ {short(high)}")
    if field.exclusive_minimum is not None:
        parts.append(f"> {short(field.exclusive_minimum)}")
    if field.exclusive_maximum is not None:
        parts.append(f"< {short(field.exclusive_maximum)}")
    if field.multiple_of is not None:
        parts.append(f"multiple of {short(field.multiple_of)}")
    if field.nullable and field.required:
        parts.append("empty = null")
    return ", ".join(parts)
