"""FormView's nested fields (``form/nested.py``): arrays that add, remove and re-number
items, optional objects behind a checkbox, choices with their sub-forms, recursive refs."""

from __future__ import annotations

import json
from typing import Any

import ipywidgets as widgets
import pytest

from tests.widgets.form.form_schemas import CLICKED_EVENT as EVENT
from tests.widgets.form.form_schemas import PET_DEFINITIONS, PET_PROPERTIES, TREE, problems, verdict
from tests.widgets.form.form_screen import (
    box_of,
    click,
    errors,
    field_input,
    having,
    remove_of,
    the,
)
from workbench.errors import FormError
from workbench.widgets.form import FormView, path_class

PET: dict[str, Any] = {
    "type": "object",
    "definitions": PET_DEFINITIONS,
    "properties": {
        **PET_PROPERTIES,
        "code": {"anyOf": [{"type": "integer"}, {"type": "string"}, {"type": "null"}]},
    },
    "required": ["pet", "code"],
}


# --- arrays, objects, choices, references -----------------------------------------------------


def test_arrays_of_objects_add_remove_and_renumber_their_items() -> None:
    view = FormView(EVENT)
    field_input(view, "title").value = "Review"
    add = field_input(view, "people", "wb-add-item")
    for _ in range(3):
        add.click()
    assert len(having(view, "wb-item")) == 3
    for index, name in enumerate(["Ada", "Bob", "Cy"]):
        field_input(view, f"people[{index}].name").value = name
    email = field_input(view, "people[2].email")
    email.value = "cy@example.org"
    remove_of(view, field_input(view, "people[0].name")).click()
    assert len(having(view, "wb-item")) == 2
    assert field_input(view, "people[0].name").value == "Bob"
    assert field_input(view, "people[1].email").value == "cy@example.org"
    assert not having(view, path_class("people[2].name"))
    arguments = view.arguments()
    assert arguments["people"] == [{"name": "Bob"}, {"name": "Cy", "email": "cy@example.org"}]
    assert problems(EVENT, arguments) == []
    field_input(view, "people[1].name").value = ""
    view.show_problems(problems(EVENT, view.arguments()))
    assert view.problems == [("people.1.name", "required but missing")]
    (error,) = having(view, "wb-error")
    assert error in box_of(view, field_input(view, "people[1].name")).children


def test_array_add_stops_at_max_items_and_an_emptied_optional_array_is_left_out() -> None:
    schema = {
        "type": "object",
        "properties": {
            "grid": {
                "type": "array",
                "maxItems": 2,
                "items": {"type": "array", "items": {"type": "integer"}},
            }
        },
    }
    view = FormView(schema)
    add = field_input(view, "grid", "wb-add-item")
    add.click()
    add.click()
    assert add.disabled
    field_input(view, "grid[1]", "wb-add-item").click()
    field_input(view, "grid[1][0]").value = "7"
    assert view.arguments() == {"grid": [[], [7]]}
    assert problems(schema, view.arguments()) == []
    remove_of(view, field_input(view, "grid[1][0]")).click()
    assert view.arguments() == {"grid": [[], []]}
    for remove in having(view, "wb-remove-item"):
        remove.click()
    assert not add.disabled
    assert view.arguments() == {}


def test_nested_objects_optional_ones_included_by_a_checkbox() -> None:
    view = FormView(EVENT, validate=verdict(EVENT))
    field_input(view, "title").value = "Review"
    click(view, "wb-add-item", path_class("people"))
    field_input(view, "people[0].name").value = "Ada"
    include = field_input(view, "place", "wb-include")
    assert not having(view, path_class("place.room"))  # not built until included
    include.value = True
    field_input(view, "place.room").value = "B12"
    field_input(view, "place.floor").value = "3"
    seats = field_input(view, "place.seats.rows")
    assert view.arguments()["place"] == {"room": "B12", "floor": 3, "seats": {"wide": False}}
    assert view.check() == [("place.seats.rows", "required but missing")]
    (error,) = having(view, "wb-error")
    assert error in box_of(view, seats).children
    seats.value = "4"
    assert isinstance(field_input(view, "place.seats.wide"), widgets.Checkbox)
    arguments = view.arguments()
    assert arguments["place"] == {"room": "B12", "floor": 3, "seats": {"rows": 4, "wide": False}}
    assert problems(EVENT, arguments) == []
    assert len(having(view, "wb-group")) >= 3  # the root, place, seats, the person
    include.value = False
    assert "place" not in view.arguments()
    include.value = True
    assert field_input(view, "place.room").value == "B12"  # kept while hidden


def test_choices_switch_between_option_sub_forms() -> None:
    view = FormView(PET)
    pet = field_input(view, "pet", "wb-choice")
    assert [label for label, _ in pet.options] == ["Cat", "Dog"]  # required: no empty option
    assert pet.label == "Cat"
    field_input(view, "pet<0>.lives").value = "9"
    size = field_input(view, "size", "wb-choice")
    assert size.label == "integer" and field_input(view, "size<0>").value == "3"  # default
    code = field_input(view, "code", "wb-choice")
    assert [label for label, _ in code.options] == ["null", "integer", "string"]
    assert view.arguments() == {"pet": {"kind": "cat", "lives": 9}, "size": 3, "code": None}

    pet.label = "Dog"
    assert not having(view, path_class("pet<0>.lives"))
    good = field_input(view, "pet<1>.good")
    good.label = "true"
    size.label = "string"
    field_input(view, "size<1>").value = "large"
    code.label = "integer"
    field_input(view, "code<0>").value = "42"
    field_input(view, "note").value = "calm"
    arguments = view.arguments()
    assert arguments == {
        "pet": {"kind": "dog", "good": True},
        "size": "large",
        "note": "calm",
        "code": 42,
    }
    assert problems(PET, arguments) == []
    pet.label = "Cat"
    assert field_input(view, "pet<0>.lives").value == "9"  # an option keeps its values
    size.label = "—"
    field_input(view, "note").value = ""
    assert view.arguments() == {"pet": {"kind": "cat", "lives": 9}, "code": 42}
    field_input(view, "code<0>").value = "x"
    with pytest.raises(FormError) as raised:
        view.arguments()
    assert raised.value.path == "code"
    assert any("whole number" in text for text in errors(view))


def test_recursive_refs_end_in_a_json_field_that_takes_json() -> None:
    view = FormView(TREE)
    field_input(view, "root.label").value = "a"
    field_input(view, "root.children", "wb-add-item").click()
    field_input(view, "root.children[0].label").value = "b"
    field_input(view, "root.children[0].children", "wb-add-item").click()
    deepest = field_input(view, "root.children[0].children[0]")
    assert isinstance(deepest, widgets.Textarea)
    assert "recursive $ref" in the(view, "wb-json-reason").value
    deepest.value = '{"label": "c", "children": []}'
    arguments = view.arguments()
    assert arguments == {
        "root": {
            "label": "a",
            "children": [{"label": "b", "children": [{"label": "c", "children": []}]}],
        }
    }
    assert problems(TREE, arguments) == []
    deepest.value = "{label: c}"
    with pytest.raises(FormError) as raised:
        view.arguments()
    assert raised.value.path == "root.children[0].children[0]"
    assert "not valid JSON" in raised.value.message


def test_defaults_are_pre_filled_and_reset_brings_them_back() -> None:
    view = FormView(EVENT)
    assert field_input(view, "priority").label == "low"
    assert field_input(view, "minutes").value == "60"
    assert field_input(view, "title").value == ""
    field_input(view, "minutes").value = "90"
    field_input(view, "people", "wb-add-item").click()
    click(view, "wb-reset")
    assert field_input(view, "minutes").value == "60"
    assert not having(view, "wb-item")
    assert view.values()["people"] == []


def test_set_arguments_fills_the_form_and_the_editor() -> None:
    view = FormView(PET)
    arguments = {"pet": {"kind": "dog", "good": False}, "size": "xl", "code": None}
    view.set_arguments(arguments)
    assert field_input(view, "pet", "wb-choice").label == "Dog"
    assert field_input(view, "pet<1>.good").label == "false"
    assert view.arguments() == arguments
    view.json_mode = True
    assert json.loads(the(view, "wb-json-editor").value) == arguments
