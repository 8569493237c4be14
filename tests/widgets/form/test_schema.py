"""Schema to form (``form/schema.py``, ``refs.py``, ``leaves.py``): every construct, and what
the form cannot express falling back to a raw-JSON field without raising."""

from __future__ import annotations

from typing import Any

import pytest

from tests.widgets.form.form_schemas import EVENT, PET, TREE, demo_schemas, problems
from workbench.widgets.form import (
    ArrayField,
    BooleanField,
    ChoiceField,
    ConstField,
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
        ({"type": "object", "properties": {"a": {"$ref": "https://x/y.json"}}}, "not followed"),
        ({"type": "object", "properties": {"a": {"$ref": 5}}}, "unsupported $ref 5"),
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


def test_every_demo_tool_schema_gives_a_form(capsys: pytest.CaptureFixture[str]) -> None:
    schemas = demo_schemas()
    assert len(schemas) >= 9
    fallbacks: dict[str, list[str]] = {}
    for name, schema in schemas.items():
        form = build_form(schema)
        fallbacks[name] = form.fallbacks()
        assert isinstance(form, ObjectField), name
        values = initial_values(form)
        assert values_from_arguments(form, {}) == {p.name: None for p in form.properties}
        if not any(p.required for p in form.properties):
            assert problems(schema, to_arguments(form, values)) == [], name
    with capsys.disabled():
        complete = sum(not paths for paths in fallbacks.values())
        print(f"\ndemo server: {complete} of {len(schemas)} tool forms complete; {fallbacks}")
    assert all(not paths for paths in fallbacks.values()), fallbacks


def test_g2_the_form_names_an_external_ref_it_does_not_follow() -> None:
    ref = "file:///etc/passwd"
    form = build_form({"type": "object", "properties": {"a": {"$ref": ref}}})
    (fallback,) = [field for field in form.walk() if isinstance(field, JsonField)]
    assert fallback.reason == (
        f"external $ref {ref!r} is not followed (MCP forbids network references)"
    )
