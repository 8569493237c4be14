"""The pure schema-to-form logic: every construct, round trips through the registry's validator."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from form_schemas import PERSON_DEFS, PET_DEFINITIONS, PET_PROPERTIES, TREE

from workbench.registry.entry import ToolEntry
from workbench.widgets.form import (
    ArrayField,
    BooleanField,
    ChoiceField,
    ConstField,
    FormError,
    FormField,
    JsonField,
    NumberField,
    ObjectField,
    StringField,
    build_form,
    initial_values,
    to_arguments,
    values_from_arguments,
)

EVENT: dict[str, Any] = {
    "type": "object",
    "$defs": PERSON_DEFS,
    "properties": {
        "title": {"type": "string", "title": "Title", "maxLength": 80},
        "priority": {"type": "string", "enum": ["low", "high"], "default": "low"},
        "day": {"type": "string", "format": "date", "description": "YYYY-MM-DD"},
        "minutes": {"type": "integer", "minimum": 5, "maximum": 600, "default": 60},
        "ratio": {"type": "number", "exclusiveMinimum": 0, "multipleOf": 0.5},
        "public": {"type": "boolean", "default": False},
        "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 3},
        "people": {"type": "array", "items": {"$ref": "#/$defs/Person"}, "minItems": 1},
        "place": {
            "type": "object",
            "properties": {
                "room": {"type": "string"},
                "floor": {"type": ["integer", "null"]},
            },
            "required": ["room"],
        },
    },
    "required": ["title", "people"],
    "additionalProperties": False,
}

PET: dict[str, Any] = {
    "type": "object",
    "definitions": PET_DEFINITIONS,
    "properties": {
        **PET_PROPERTIES,
    },
    "required": ["pet"],
}


def problems(schema: dict[str, Any], arguments: dict[str, Any]) -> list[tuple[str, str]]:
    """The registry's verdict on arguments for a tool with this input schema."""
    entry = ToolEntry.from_tool("s", {"name": "t", "inputSchema": schema})
    return entry.problems(arguments)


def prop(form: FormField, name: str) -> FormField:
    """The property called ``name`` of an object form."""
    assert isinstance(form, ObjectField)
    (found,) = [field for field in form.properties if field.name == name]
    return found


def test_strings_numbers_booleans_arrays_and_objects_become_their_fields() -> None:
    form = build_form(EVENT)
    assert isinstance(form, ObjectField) and form.is_complete and form.fallbacks() == []
    assert [field.name for field in form.properties] == [
        "title", "priority", "day", "minutes", "ratio", "public", "tags", "people", "place",
    ]  # fmt: skip
    title = prop(form, "title")
    assert isinstance(title, StringField) and title.required and title.max_length == 80
    assert title.title == "Title" and title.display_name == "Title"
    priority = prop(form, "priority")
    assert isinstance(priority, StringField) and priority.choices == ("low", "high")
    assert priority.has_default and priority.default == "low" and not priority.required
    day = prop(form, "day")
    assert isinstance(day, StringField) and day.format == "date" and day.description == "YYYY-MM-DD"
    minutes = prop(form, "minutes")
    assert isinstance(minutes, NumberField) and minutes.kind == "integer"
    assert (minutes.minimum, minutes.maximum, minutes.default) == (5, 600, 60)
    ratio = prop(form, "ratio")
    assert isinstance(ratio, NumberField) and ratio.kind == "number"
    assert ratio.exclusive_minimum == 0 and ratio.multiple_of == 0.5
    assert isinstance(prop(form, "public"), BooleanField)
    tags = prop(form, "tags")
    assert isinstance(tags, ArrayField) and isinstance(tags.item, StringField)
    assert tags.max_items == 3 and tags.item.path == "tags[]"
    people = prop(form, "people")
    assert isinstance(people, ArrayField) and people.required and people.min_items == 1
    person = people.item
    assert isinstance(person, ObjectField)
    assert [(f.name, f.required) for f in person.properties] == [("name", True), ("email", False)]
    email = prop(person, "email")
    assert isinstance(email, StringField) and email.nullable and email.format == "email"
    assert email.path == "people[].email"
    floor = prop(prop(form, "place"), "floor")
    assert isinstance(floor, NumberField) and floor.integer and floor.nullable


def test_any_of_one_of_const_and_definitions_refs() -> None:
    form = build_form(PET)
    assert form.is_complete
    pet = prop(form, "pet")
    assert isinstance(pet, ChoiceField) and pet.required
    assert [option.label for option in pet.options] == ["Cat", "Dog"]
    cat = pet.options[0]
    assert isinstance(cat, ObjectField)
    kind = prop(cat, "kind")
    assert isinstance(kind, ConstField) and kind.value == "cat"
    size = prop(form, "size")
    assert isinstance(size, ChoiceField) and [o.kind for o in size.options] == [
        "integer",
        "string",
    ]
    note = prop(form, "note")
    assert isinstance(note, StringField) and note.nullable and note.has_default
    assert note.default is None


def test_a_recursive_ref_stops_at_the_depth_limit_with_a_json_field() -> None:
    form = build_form(TREE)
    assert not form.is_complete
    assert form.fallbacks() == ["root.children[].children[]"]
    (fallback,) = [field for field in form.walk() if isinstance(field, JsonField)]
    assert "recursive $ref" in fallback.reason


@pytest.mark.parametrize(
    ("schema", "reason"),
    [
        ({}, "no type"),
        (True, "no type"),
        ("not a schema", "not a schema"),
        ({"type": "object", "properties": {"a": {"type": "string"}}, "not": {}}, "uses not"),
        ({"type": "object", "patternProperties": {"^x": {}}}, "uses patternProperties"),
        ({"type": "object", "properties": {"a": {"$ref": "#/$defs/Nowhere"}}}, "points nowhere"),
        ({"type": "object", "properties": {"a": {"$ref": "https://x/y.json"}}}, "unsupported"),
        ({"type": "object", "properties": {"a": {"type": "widget"}}}, "type 'widget'"),
        ({"type": "object", "properties": {"a": {"properties": 5}}}, "properties is not"),
        ({"type": "object", "properties": {"a": {"type": "object"}}}, "free-form object"),
        (
            {"type": "object", "properties": {"a": {"type": "array", "prefixItems": [{}]}}},
            "uses prefixItems",
        ),
        (
            {"type": "object", "properties": {"a": {"type": "array", "items": [{}, {}]}}},
            "tuple items",
        ),
        ({"type": "object", "properties": {"a": {"anyOf": "x"}}}, "anyOf is not"),
        ({"type": "object", "properties": {"a": {"enum": []}}}, "enum is not"),
        ({"type": "object", "properties": {"a": {"minimum": "x", "type": 7}}}, "type 7"),
    ],
)
def test_what_the_form_cannot_express_falls_back_to_json_and_never_raises(
    schema: Any, reason: str
) -> None:
    form = build_form(schema)
    assert not form.is_complete
    assert any(reason in field.reason for field in form.walk() if isinstance(field, JsonField))


def test_constraint_only_any_of_all_of_merges_and_type_lists() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "string"},
            "b": {"type": "string"},
            "both": {"allOf": [{"$ref": "#/$defs/A"}, {"properties": {"y": {"type": "integer"}}}]},
            "mixed": {"type": ["string", "integer", "null"]},
            "level": {"enum": [1, 2, None]},
            "odd": {"enum": ["x", 1]},
        },
        "anyOf": [{"required": ["a"]}, {"required": ["b"]}],
        "$defs": {"A": {"type": "object", "properties": {"x": {"type": "string"}}}},
    }
    form = build_form(schema)
    assert isinstance(form, ObjectField) and form.is_complete
    both = prop(form, "both")
    assert isinstance(both, ObjectField) and [p.name for p in both.properties] == ["x", "y"]
    mixed = prop(form, "mixed")
    assert isinstance(mixed, ChoiceField) and mixed.nullable
    assert [o.label for o in mixed.options] == ["string", "integer"]
    level = prop(form, "level")
    assert isinstance(level, NumberField) and level.integer and level.choices == (1, 2)
    assert level.nullable
    odd = prop(form, "odd")
    assert isinstance(odd, ChoiceField) and [o.label for o in odd.options] == ['"x"', "1"]


def test_a_tool_without_arguments_is_an_empty_complete_form() -> None:
    for schema in ({"type": "object"}, {"type": "object", "properties": {}}):
        form = build_form(schema)
        assert isinstance(form, ObjectField) and form.is_complete and form.properties == ()
        assert to_arguments(form, initial_values(form)) == {}


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
        ({"people": [{"name": "A"}]}, "title", "needs a value"),
        ({"title": "x", "people": [{"name": None}]}, "people[0].name", "needs a value"),
        ({"title": "x", "people": [{"name": "A"}], "minutes": "ten"}, "minutes", "whole number"),
        ({"title": "x", "people": [{"name": "A"}], "minutes": "1.5"}, "minutes", "whole number"),
        ({"title": "x", "people": [{"name": "A"}], "ratio": "nan"}, "ratio", "not a number"),
        ({"title": "x", "people": [{"name": "A"}], "public": "maybe"}, "public", "true or false"),
        ({"title": 5, "people": [{"name": "A"}]}, "title", "expected text"),
        ({"title": "x", "people": "A"}, "people", "expected a list"),
        ({"title": "x", "people": [{"name": "A"}], "place": {"floor": 2}}, "place.room", "needs"),
        ({"title": "x", "people": [{"name": "A"}], "place": [1]}, "place", "expected an object"),
    ],
)
def test_bad_values_raise_form_errors_naming_the_field(
    values: dict[str, Any], path: str, message: str
) -> None:
    with pytest.raises(FormError) as raised:
        to_arguments(build_form(EVENT), values)
    assert raised.value.path == path and message in raised.value.message


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


def list_demo_tools() -> list[Any]:
    """The demo server's tools, listed in memory on a fresh event loop."""
    from fastmcp import Client

    from workbench.mcp.demo import build_demo_server

    async def listing() -> list[Any]:
        async with Client(build_demo_server()) as client:
            return list(await client.list_tools())

    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(listing())
    finally:
        loop.close()


def test_every_demo_tool_schema_gives_a_form(capsys: pytest.CaptureFixture[str]) -> None:
    tools = list_demo_tools()
    assert len(tools) >= 9
    fallbacks: dict[str, list[str]] = {}
    for tool in tools:
        schema = tool.model_dump(by_alias=True)["inputSchema"]
        form = build_form(schema)
        fallbacks[tool.name] = form.fallbacks()
        assert isinstance(form, ObjectField), tool.name
        values = initial_values(form)
        assert values_from_arguments(form, {}) == {p.name: None for p in form.properties}
        if not any(p.required for p in form.properties):
            assert problems(schema, to_arguments(form, values)) == [], tool.name
    with capsys.disabled():
        complete = sum(not paths for paths in fallbacks.values())
        print(f"\ndemo server: {complete} of {len(tools)} tool forms complete; {fallbacks}")
    assert all(not paths for paths in fallbacks.values()), fallbacks


def test_the_demo_calendar_form_round_trips_an_event() -> None:
    (tool,) = [tool for tool in list_demo_tools() if tool.name == "create_event"]
    schema = tool.model_dump(by_alias=True)["inputSchema"]
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
