"""Placeholders (``form/hints.py``): the rules a field's input shows before anyone types."""

from __future__ import annotations

import pytest

from workbench.widgets.form import NumberField, StringField
from workbench.widgets.form.hints import is_long_text, number_hint, short, string_hint


@pytest.mark.parametrize(
    ("field", "hint"),
    [
        (StringField(), ""),
        (StringField(format="email"), "email, e.g. ada@example.org"),
        (StringField(format="time"), "time, e.g. 14:30"),
        (StringField(format="color"), "color"),
        (StringField(min_length=2, max_length=80), "2–80 characters"),
        (StringField(max_length=80), "up to 80 characters"),
        (StringField(min_length=1), ""),
        (StringField(min_length=3), "at least 3 characters"),
        (
            StringField(format="date", required=True, nullable=True),
            "date, e.g. 2025-05-01, empty = null",
        ),
    ],
)
def test_string_hints(field: StringField, hint: str) -> None:
    assert string_hint(field) == hint


@pytest.mark.parametrize(
    ("field", "hint"),
    [
        (NumberField(integer=True, minimum=5, maximum=600), "integer, 5–600"),
        (NumberField(minimum=0.5), "number, ≥ 0.5"),
        (NumberField(maximum=10.0), "number, ≤ 10"),
        (NumberField(exclusive_minimum=0), "number, > 0"),
        (NumberField(exclusive_maximum=1, multiple_of=0.25), "number, < 1, multiple of 0.25"),
        (NumberField(integer=True, required=True, nullable=True), "integer, empty = null"),
    ],
)
def test_number_hints(field: NumberField, hint: str) -> None:
    assert number_hint(field) == hint


def test_short_numbers_and_long_text_names() -> None:
    assert (short(5.0), short(2.5), short(3)) == ("5", "2.5", "3")
    assert is_long_text(StringField(name="Body")) and not is_long_text(StringField(name="title"))
