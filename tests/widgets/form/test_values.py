"""Form values to arguments and back (``form/values.py``): conversion only, round trips
through the registry's validator, and ``FormError`` for values that cannot become JSON."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.widgets.form.form_schemas import EVENT, PET, TREE, demo_schemas, problems
from workbench.errors import FormError
from workbench.widgets.form import (
    ArrayField,
    JsonField,
    StringField,
    build_form,
    initial_values,
    to_arguments,
    values_from_arguments,
)
from workbench.widgets.form.values import fresh_values, json_text


def test_initial_values_pre_fill_defaults_and_leave_the_rest_empty() -> None:
    form = build_form(EVENT)
    values = initial_values(form)
    assert values == {
        "title": None,
        "priority": "low",
        "day": None,
        "minutes": 60,
        "ratio": None,
        "public": False,
        "tags": None,
        "people": [],
        "place": None,
    }
    pet_values = initial_values(build_form(PET))
    assert pet_values == {
        "pet": {"option": 0, "value": {"kind": "cat", "lives": None}},
        "size": {"option": 0, "value": 3},
        "note": None,
    }


def test_filled_values_become_arguments_the_registry_accepts() -> None:
    form = build_form(EVENT)
    values = initial_values(form)
    values.update(
        title="Standup",
        ratio=" 2.5 ",
        tags=["daily", "team"],
        people=[{"name": "Ada", "email": None}, {"name": "Alan", "email": "a@b.c"}],
        place={"room": "B12", "floor": "3"},
    )
    arguments = to_arguments(form, values)
    assert arguments == {
        "title": "Standup",
        "priority": "low",
        "minutes": 60,
        "ratio": 2.5,
        "public": False,
        "tags": ["daily", "team"],
        "people": [{"name": "Ada"}, {"name": "Alan", "email": "a@b.c"}],
        "place": {"room": "B12", "floor": 3},
    }
    assert problems(EVENT, arguments) == []
    assert to_arguments(form, values_from_arguments(form, arguments)) == arguments


def test_empty_optional_fields_are_omitted_and_defaults_are_not_filled_in() -> None:
    form = build_form(EVENT)
    values = {"title": "x", "people": [{"name": "Ada"}], "minutes": "", "place": None}
    assert to_arguments(form, values) == {"title": "x", "people": [{"name": "Ada"}]}
    untouched = {"title": "x", "people": [{"name": "A"}], "place": {"room": None, "floor": None}}
    assert to_arguments(form, untouched) == {"title": "x", "people": [{"name": "A"}]}


@pytest.mark.parametrize(
    ("arguments"),
    [
        {"pet": {"kind": "cat", "lives": 9}, "size": 4, "note": "calm"},
        {"pet": {"kind": "dog", "good": True}, "size": "large"},
        {"pet": {"kind": "dog"}, "note": None},
    ],
)
def test_choices_round_trip_through_values(arguments: dict[str, Any]) -> None:
    form = build_form(PET)
    values = values_from_arguments(form, arguments)
    expected = {k: v for k, v in arguments.items() if v is not None}
    assert to_arguments(form, values) == expected
    assert problems(PET, expected) == []


def test_choices_pick_the_option_the_arguments_came_from() -> None:
    form = build_form(PET)
    values = values_from_arguments(form, {"pet": {"kind": "dog", "good": False}, "size": "xl"})
    assert values["pet"] == {"option": 1, "value": {"kind": "dog", "good": False}}
    assert values["size"] == {"option": 1, "value": "xl"}
    assert values["note"] is None


def test_a_recursive_tree_round_trips_through_its_json_fallback() -> None:
    form = build_form(TREE)
    arguments = {
        "root": {
            "label": "a",
            "children": [{"label": "b", "children": [{"label": "c", "children": []}]}],
        }
    }
    values = values_from_arguments(form, arguments)
    deepest = values["root"]["children"][0]["children"]
    assert isinstance(deepest, list) and isinstance(deepest[0], str)
    assert json.loads(deepest[0]) == {"label": "c", "children": []}
    assert to_arguments(form, values) == arguments
    assert problems(TREE, arguments) == []


def test_json_fields_parse_their_text() -> None:
    schema = {"type": "object", "properties": {"meta": {"type": "object"}, "any": {}}}
    form = build_form(schema)
    assert form.fallbacks() == ["meta", "any"]
    values = {"meta": '{"a": [1, 2]}', "any": "  "}
    assert to_arguments(form, values) == {"meta": {"a": [1, 2]}}
    assert values_from_arguments(form, {"meta": {"a": 1}}) == {
        "meta": '{\n  "a": 1\n}',
        "any": None,
    }


def test_a_schema_the_form_cannot_read_at_all_takes_raw_json_arguments() -> None:
    form = build_form({"not": {}})
    assert isinstance(form, JsonField) and form.fallbacks() == ["(arguments)"]
    assert to_arguments(form, '{"a": 1}') == {"a": 1}
    with pytest.raises(FormError) as raised:
        to_arguments(form, "[1]")
    assert raised.value.path == "(arguments)"


@pytest.mark.parametrize(
    ("values", "path", "message"),
    [
        ({"title": "x", "people": [{"name": "A"}], "minutes": "ten"}, "minutes", "whole number"),
        ({"title": "x", "people": [{"name": "A"}], "minutes": "1.5"}, "minutes", "whole number"),
        ({"title": "x", "people": [{"name": "A"}], "ratio": "nan"}, "ratio", "not a number"),
        ({"title": "x", "people": [{"name": "A"}], "public": "maybe"}, "public", "true or false"),
        ({"title": 5, "people": [{"name": "A"}]}, "title", "expected text"),
        ({"title": "x", "people": "A"}, "people", "expected a list"),
        ({"title": "x", "people": [{"name": "A"}], "place": [1]}, "place", "expected an object"),
        (
            {"title": "x", "people": [{"name": "A"}], "tags": ["a", None]},
            "tags[1]",
            "needs a value",
        ),
    ],
)
def test_values_that_cannot_become_json_raise_form_errors_naming_the_field(
    values: dict[str, Any], path: str, message: str
) -> None:
    with pytest.raises(FormError) as raised:
        to_arguments(build_form(EVENT), values)
    assert raised.value.path == path and message in raised.value.message


@pytest.mark.parametrize(
    ("values", "arguments", "path"),
    [
        ({"people": [{"name": "A"}]}, {"people": [{"name": "A"}]}, "title"),
        (
            {"title": "x", "people": [{"name": None}]},
            {"title": "x", "people": [{}]},
            "people.0.name",
        ),
        (
            {"title": "x", "people": [{"name": "A"}], "place": {"floor": 2}},
            {"title": "x", "people": [{"name": "A"}], "place": {"floor": 2}},
            "place.room",
        ),
    ],
)
def test_an_empty_required_field_is_left_out_for_the_validator_to_name(
    values: dict[str, Any], arguments: dict[str, Any], path: str
) -> None:
    """The form converts and the registry judges: a missing value is the validator's call."""
    assert to_arguments(build_form(EVENT), values) == arguments
    assert problems(EVENT, arguments) == [(path, "required but missing")]


def test_constraints_are_not_the_forms_business() -> None:
    values = {"title": "x" * 81, "people": [], "minutes": "1", "ratio": "0.3", "tags": list("abcd")}
    arguments = to_arguments(build_form(EVENT), values)
    assert arguments["title"] == "x" * 81 and arguments["minutes"] == 1
    assert sorted(problems(EVENT, arguments)) == [
        ("minutes", "must be at least 5"),
        ("people", "needs at least 1 item"),
        ("ratio", "must be a multiple of 0.5"),
        ("tags", "can have at most 3 items"),
        ("title", "must be at most 80 characters"),
    ]


def test_a_required_nullable_field_left_empty_is_null() -> None:
    schema = {
        "type": "object",
        "properties": {"n": {"type": ["integer", "null"]}, "c": {"type": ["integer", "string"]}},
        "required": ["n", "c"],
    }
    form = build_form(schema)
    assert to_arguments(form, {"n": "", "c": {"option": 0, "value": None}}) == {"n": None}
    assert problems(schema, {"n": None}) == [("c", "required but missing")]


def test_fresh_values_are_what_an_opened_part_starts_with() -> None:
    form = build_form(EVENT)
    people = form.children()[7]
    assert isinstance(people, ArrayField)
    assert fresh_values(people.item) == {"name": None, "email": None}
    assert fresh_values(StringField()) is None
    assert json_text({"a": [1]}) == '{\n  "a": [\n    1\n  ]\n}'


def test_bad_json_text_and_bad_choices_raise_form_errors() -> None:
    form = build_form({"type": "object", "properties": {"meta": {"type": "object"}}})
    with pytest.raises(
        FormError, match=r"meta: not valid JSON: Expecting property name .* \(line 1, column 2\)"
    ):
        to_arguments(form, {"meta": "{'a': 1}"})
    pet = build_form(PET)
    with pytest.raises(FormError) as raised:
        to_arguments(pet, {"pet": {"option": 7, "value": None}})
    assert raised.value.path == "pet" and "choose" in raised.value.message
    with pytest.raises(FormError) as raised:
        to_arguments(pet, {"pet": {"option": 0, "value": {"lives": "many"}}})
    assert raised.value.path == "pet.lives"


def test_the_demo_calendar_form_round_trips_an_event() -> None:
    schema = demo_schemas()["create_event"]
    form = build_form(schema)
    values = initial_values(form)
    event = values["event"]
    assert event["priority"] == "normal" and event["location"] is None
    event.update(
        title="Review",
        when={"date": "2025-05-01", "start": "10:00", "duration_minutes": "30"},
        attendees=[{"name": "Ada", "email": "ada@example.org"}, {"name": "Bob", "email": None}],
        tags=["work"],
    )
    arguments = to_arguments(form, values)
    assert arguments["event"]["when"]["duration_minutes"] == 30
    assert "location" not in arguments["event"]
    assert problems(schema, arguments) == []
    assert to_arguments(form, values_from_arguments(form, arguments)) == arguments
