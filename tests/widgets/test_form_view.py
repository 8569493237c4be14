"""FormView: ipywidgets for a tool's input schema, driven as a user would (no kernel needed).

Inputs are found the way browser tests find them, by their CSS classes, and filled by setting
``.value`` / ``.label`` or clicking buttons; arguments are checked with the registry's validator.
"""

from __future__ import annotations

import asyncio
import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import ipywidgets as widgets
import pytest
from form_schemas import PERSON_DEFS, PET_DEFINITIONS, PET_PROPERTIES, TREE

from workbench.registry.entry import ToolEntry
from workbench.widgets.form import (
    ROOT_PATH,
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
)
from workbench.widgets.form_view import FormView, path_class

ROOT = Path(__file__).resolve().parents[2]
SERVERS = ROOT / ".cache" / "servers"
EVERYTHING_JS = SERVERS / "npm/node_modules/@modelcontextprotocol/server-everything"
TIME_SERVER = SERVERS / "venv" / "bin" / "mcp-server-time"

KINDS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "title": "Full name", "description": "Who you are."},
        "email": {"type": "string", "format": "email"},
        "size": {"enum": ["S", "M", "L"]},
        "count": {"type": "integer", "minimum": 1, "maximum": 10},
        "ratio": {"type": "number", "exclusiveMinimum": 0},
        "agree": {"type": "boolean"},
        "notify": {"type": "boolean"},
        "kind": {"const": "demo"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "meta": {"type": "object"},
        "level": {"anyOf": [{"type": "integer"}, {"type": "string"}]},
    },
    "required": ["name", "size", "count", "agree", "kind"],
    "additionalProperties": False,
}

EVENT: dict[str, Any] = {
    "type": "object",
    "$defs": PERSON_DEFS,
    "properties": {
        "title": {"type": "string", "title": "Title", "maxLength": 80},
        "priority": {"type": "string", "enum": ["low", "high"], "default": "low"},
        "minutes": {"type": "integer", "minimum": 5, "maximum": 600, "default": 60},
        "people": {"type": "array", "items": {"$ref": "#/$defs/Person"}, "minItems": 1},
        "place": {
            "type": "object",
            "properties": {
                "room": {"type": "string"},
                "floor": {"type": ["integer", "null"]},
                "seats": {
                    "type": "object",
                    "properties": {"rows": {"type": "integer"}, "wide": {"type": "boolean"}},
                    "required": ["rows", "wide"],
                },
            },
            "required": ["room", "seats"],
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
        "code": {"anyOf": [{"type": "integer"}, {"type": "string"}, {"type": "null"}]},
    },
    "required": ["pet", "code"],
}

# --- helpers ----------------------------------------------------------------------------------


def problems(schema: Any, arguments: dict[str, Any]) -> list[tuple[str, str]]:
    """The registry's verdict on arguments for a tool with this input schema."""
    entry = ToolEntry.from_tool("s", {"name": "t", "inputSchema": schema})
    return entry.problems(arguments)


def shown(widget: Any, parent: Any = None) -> Iterator[tuple[Any, Any]]:
    """Every widget on screen under ``widget``, with its parent: what a browser would see."""
    yield widget, parent
    for child in getattr(widget, "children", ()):
        yield from shown(child, widget)


def having(view: FormView, *classes: str) -> list[Any]:
    """The widgets on screen that carry all these CSS classes."""
    return [w for w, _ in shown(view.widget) if set(classes) <= set(w._dom_classes)]


def the(view: FormView, *classes: str) -> Any:
    """The one widget on screen with these classes."""
    found = having(view, *classes)
    assert len(found) == 1, (classes, found)
    return found[0]


def field_input(view: FormView, path: str, *classes: str) -> Any:
    """The input of the field at ``path`` (``people[0].name``, ``size<1>``)."""
    return the(view, "wb-input", path_class(path), *classes)


def box_of(view: FormView, widget: Any) -> Any:
    """The ``wb-field`` box an input belongs to (its nearest one)."""
    parents = {id(w): p for w, p in shown(view.widget)}
    box = parents[id(widget)]
    while "wb-field" not in box._dom_classes:
        box = parents[id(box)]
    return box


def remove_of(view: FormView, widget: Any) -> Any:
    """The remove button of the array item ``widget`` is in (its nearest one)."""
    parents = {id(w): p for w, p in shown(view.widget)}
    row = parents[id(widget)]
    while "wb-item" not in row._dom_classes:
        row = parents[id(row)]
    button = row.children[-1]
    assert "wb-remove-item" in button._dom_classes
    return button


def errors(view: FormView) -> list[str]:
    """The texts of every error line and form message on screen."""
    return [w.value for w in having(view, "wb-error") + having(view, "wb-form-message")]


def click(view: FormView, *classes: str) -> None:
    the(view, *classes).click()


def list_tools(transport: Any) -> list[Any]:
    """A server's tools, listed on a fresh event loop."""
    from fastmcp import Client

    async def listing() -> list[Any]:
        async with Client(transport) as client:
            return list(await client.list_tools())

    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(listing())
    finally:
        loop.close()


def schemas_of(tools: list[Any]) -> dict[str, Any]:
    return {tool.name: tool.model_dump(by_alias=True)["inputSchema"] for tool in tools}


def demo_schemas() -> dict[str, Any]:
    from workbench.mcp.demo import build_demo_server

    return schemas_of(list_tools(build_demo_server()))


_OMIT = object()


def sample(field: FormField) -> Any:
    """Arguments that fill every field of a form (optional ones too), to round-trip."""
    if isinstance(field, ConstField):
        return field.value
    if isinstance(field, StringField):
        return _sample_text(field)
    if isinstance(field, NumberField):
        return _sample_number(field)
    if isinstance(field, BooleanField):
        return True
    if isinstance(field, ArrayField):
        count = max(1, field.min_items or 0)
        count = count if field.max_items is None else min(count, field.max_items)
        return [sample(field.item) for _ in range(count)]
    if isinstance(field, ObjectField):
        found = {p.name: sample(p) for p in field.properties}
        found = {k: v for k, v in found.items() if v is not _OMIT}
        # An optional object with nothing filled in is left out (form.py's rule), not {}.
        return found if found or field.required or not field.properties else _OMIT
    if isinstance(field, ChoiceField):
        return sample(field.options[0])
    assert isinstance(field, JsonField)
    return {"any": [1, "two"]} if field.required else _OMIT


def _sample_text(field: StringField) -> str:
    if field.choices:
        return str(field.choices[-1])
    formats = {
        "date": "2025-05-01",
        "time": "10:00:00",
        "date-time": "2025-05-01T10:00:00Z",
        "email": "ada@example.org",
        "uri": "https://example.org/a",
        "url": "https://example.org/a",
        "uuid": "123e4567-e89b-12d3-a456-426614174000",
    }
    text = formats.get(field.format or "", "words")
    if field.pattern:  # a few common shapes; a pattern none fits leaves the tool unsampled
        shapes = ("ada@example.org", "words", "ABC", "abc-123", "123", "2025-05-01", text)
        text = next((t for t in shapes if re.search(field.pattern, t)), text)
    text = text.ljust(field.min_length or 0, "x")
    return text[: field.max_length] if field.max_length else text


def _sample_number(field: NumberField) -> int | float:
    if field.choices:
        return field.choices[-1]
    number: float = 3
    if field.minimum is not None:
        number = field.minimum
    elif field.exclusive_minimum is not None:
        number = field.exclusive_minimum + 1
    elif field.maximum is not None:
        number = min(number, field.maximum)
    if field.multiple_of:
        number = field.multiple_of * max(1, round(number / field.multiple_of))
    if field.integer:
        return int(number)
    return (
        2.5 if field.minimum is None and field.maximum is None and not field.multiple_of else number
    )


def round_trips(schema: Any) -> str:
    """Fill a form with sample arguments both ways and read them back; what happened."""
    form = build_form(schema)
    arguments = sample(form)
    if not isinstance(arguments, dict) or problems(schema, arguments):
        return "unsampled"  # a pattern or a constraint this sampler does not meet
    view = FormView(schema)
    view.set_arguments(arguments)
    assert view.arguments() == arguments
    assert FormView(schema, arguments=arguments).arguments() == arguments
    view.json_mode = True
    assert json.loads(the(view, "wb-json-editor").value) == arguments
    view.json_mode = False
    assert view.arguments() == arguments
    return "complete" if form.is_complete else "fallback"


# --- every kind -------------------------------------------------------------------------------


def test_every_kind_gets_its_input_and_gives_arguments_the_registry_accepts() -> None:
    view = FormView(KINDS)
    assert "wb-form" in view.widget._dom_classes
    name = field_input(view, "name")
    assert isinstance(name, widgets.Text) and name.tooltip == "Who you are."
    assert "wb-field-string" in box_of(view, name)._dom_classes
    email = field_input(view, "email")
    assert isinstance(email, widgets.Text) and email.placeholder.startswith("email")
    size = field_input(view, "size")
    assert isinstance(size, widgets.Dropdown) and size.options == (
        ("S", 0),
        ("M", 1),
        ("L", 2),
    )
    count = field_input(view, "count")
    assert isinstance(count, widgets.Text) and count.placeholder == "integer, 1–10"
    assert field_input(view, "ratio").placeholder == "number, > 0"
    assert isinstance(field_input(view, "agree"), widgets.Checkbox)
    notify = field_input(view, "notify")
    assert isinstance(notify, widgets.Dropdown)
    assert [label for label, _ in notify.options] == ["—", "true", "false"]
    kind = field_input(view, "kind")
    assert isinstance(kind, widgets.HTML) and "&quot;demo&quot;" in kind.value
    assert "wb-field-const" in box_of(view, kind)._dom_classes
    tags = field_input(view, "tags", "wb-add-item")
    assert isinstance(tags, widgets.Button) and tags.description == "Add item"
    meta = field_input(view, "meta")
    assert isinstance(meta, widgets.Textarea)
    assert "free-form object" in the(view, "wb-json-reason").value
    level = field_input(view, "level", "wb-choice")
    assert [label for label, _ in level.options] == ["—", "integer", "string"]
    kinds = {c for w in having(view, "wb-field") for c in w._dom_classes}
    assert {f"wb-field-{k}" for k in ("integer", "number", "boolean", "array", "json")} <= kinds
    assert {"wb-field-choice"} <= kinds

    name.value = "Ada"
    email.value = "ada@example.org"
    size.label = "M"
    count.value = " 3 "
    field_input(view, "ratio").value = "0.5"
    field_input(view, "agree").value = True
    notify.label = "false"
    tags.click()
    field_input(view, "tags[0]").value = "x"
    meta.value = '{"a": [1]}'
    level.label = "string"
    field_input(view, "level<1>").value = "high"
    arguments = view.arguments()
    assert arguments == {
        "name": "Ada",
        "email": "ada@example.org",
        "size": "M",
        "count": 3,
        "ratio": 0.5,
        "agree": True,
        "notify": False,
        "kind": "demo",
        "tags": ["x"],
        "meta": {"a": [1]},
        "level": "high",
    }
    assert problems(KINDS, arguments) == []


def test_a_fresh_form_sends_only_what_is_set() -> None:
    view = FormView(KINDS)
    field_input(view, "name").value = "Ada"
    field_input(view, "size").label = "S"
    field_input(view, "count").value = "1"
    arguments = view.arguments()
    assert arguments == {"name": "Ada", "size": "S", "count": 1, "agree": False, "kind": "demo"}
    assert problems(KINDS, arguments) == []


def test_required_fields_are_starred_once_each() -> None:
    view = FormView(KINDS)
    starred = having(view, "wb-label", "wb-required")
    names = [
        next(n for n in ("Full name", "size", "count", "agree") if n in w.value) for w in starred
    ]
    assert names == ["Full name", "size", "count", "agree"]
    assert all('title="required">*</span>' in w.value for w in starred)
    for w in having(view, "wb-label"):
        if w not in starred:
            assert 'title="required"' not in w.value
    assert "Who you are." in starred[0].value and "name" in starred[0].value


def test_an_optional_enum_offers_empty_and_a_required_one_does_not() -> None:
    view = FormView(EVENT)
    priority = field_input(view, "priority")
    assert [label for label, _ in priority.options] == ["—", "low", "high"]
    assert priority.label == "low"  # its default
    priority.label = "—"
    field_input(view, "title").value = "Standup"
    click(view, "wb-add-item", path_class("people"))
    field_input(view, "people[0].name").value = "Ada"
    assert view.arguments() == {"title": "Standup", "minutes": 60, "people": [{"name": "Ada"}]}
    required = FormView(KINDS)
    assert "—" not in [label for label, _ in field_input(required, "size").options]
    with pytest.raises(FormError) as raised:
        required.arguments()
    assert raised.value.path == "name"


# --- errors -----------------------------------------------------------------------------------


def test_integer_bounds_and_bad_numbers_are_shown_under_the_field_until_fixed() -> None:
    view = FormView(KINDS)
    field_input(view, "name").value = "Ada"
    field_input(view, "size").label = "L"
    count = field_input(view, "count")
    for text, message in [("0", "must be at least 1"), ("11", "must be at most 10")]:
        count.value = text
        with pytest.raises(FormError) as raised:
            view.arguments()
        assert (raised.value.path, raised.value.message) == ("count", message)
        (error,) = having(view, "wb-error")
        assert message in error.value and error in box_of(view, count).children
    count.value = "2.5"
    with pytest.raises(FormError, match=r"count: '2\.5' is not a whole number"):
        view.arguments()
    assert len(errors(view)) == 1
    count.value = "10"
    field_input(view, "ratio").value = "0"
    with pytest.raises(FormError, match="ratio: must be more than 0"):
        view.arguments()
    field_input(view, "ratio").value = ""
    assert view.arguments()["count"] == 10
    assert errors(view) == []


def test_lengths_and_item_counts_are_checked_by_their_field() -> None:
    view = FormView(EVENT)
    field_input(view, "title").value = "x" * 81
    with pytest.raises(FormError, match="title: takes at most 80 characters"):
        view.arguments()
    field_input(view, "title").value = "Standup"
    with pytest.raises(FormError, match=r"people: needs at least 1 item$"):
        view.arguments()
    click(view, "wb-add-item", path_class("people"))
    with pytest.raises(FormError, match=r"people\[0\]\.name: needs a value"):
        view.arguments()
    (error,) = having(view, "wb-error")
    assert error in box_of(view, field_input(view, "people[0].name")).children
    field_input(view, "people[0].name").value = "Ada"
    assert view.arguments()["people"] == [{"name": "Ada"}]
    assert errors(view) == []


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
    with pytest.raises(FormError) as raised:
        view.arguments()
    assert raised.value.path == "people[1].name"


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
    view = FormView(EVENT)
    field_input(view, "title").value = "Review"
    click(view, "wb-add-item", path_class("people"))
    field_input(view, "people[0].name").value = "Ada"
    include = field_input(view, "place", "wb-include")
    assert not having(view, path_class("place.room"))  # not built until included
    include.value = True
    field_input(view, "place.room").value = "B12"
    field_input(view, "place.floor").value = "3"
    seats = field_input(view, "place.seats.rows")
    with pytest.raises(FormError, match=r"place\.seats\.rows: needs a value"):
        view.arguments()
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


# --- JSON mode --------------------------------------------------------------------------------


def test_json_mode_round_trips_both_ways() -> None:
    view = FormView(EVENT)
    field_input(view, "title").value = "Review"
    field_input(view, "people", "wb-add-item").click()
    field_input(view, "people[0].name").value = "Ada"
    mode = the(view, "wb-mode")
    mode.value = "JSON"
    assert view.json_mode
    editor = the(view, "wb-json-editor")
    assert not having(view, "wb-input")  # the form is out of sight
    expected = {"title": "Review", "priority": "low", "minutes": 60, "people": [{"name": "Ada"}]}
    assert json.loads(editor.value) == expected
    assert view.arguments() == expected
    edited = {"title": "Retro", "people": [{"name": "Bob", "email": "b@example.org"}]}
    editor.value = json.dumps(edited)
    assert view.arguments() == edited
    mode.value = "Form"
    assert not view.json_mode and not having(view, "wb-json-editor")
    assert field_input(view, "title").value == "Retro"
    assert field_input(view, "priority").label == "—"
    assert field_input(view, "people[0].email").value == "b@example.org"
    assert view.arguments() == edited


def test_bad_json_keeps_its_text_raises_and_stays_in_json_mode() -> None:
    view = FormView(EVENT)
    view.json_mode = True
    editor = the(view, "wb-json-editor")
    editor.value = '{"title": "x",'
    with pytest.raises(FormError) as raised:
        view.arguments()
    assert raised.value.path == ROOT_PATH and "not valid JSON" in raised.value.message
    assert any("not valid JSON" in text for text in errors(view))
    the(view, "wb-mode").value = "Form"
    assert view.json_mode and the(view, "wb-mode").value == "JSON"
    assert editor.value == '{"title": "x",'
    assert any("not valid JSON" in text for text in errors(view))
    editor.value = "[1, 2]"
    with pytest.raises(FormError, match="must be a JSON object"):
        view.arguments()
    editor.value = '{"title": "x", "people": []}'
    assert view.arguments() == {"title": "x", "people": []}
    assert errors(view) == []
    view.json_mode = False
    assert field_input(view, "title").value == "x"


def test_a_form_that_does_not_convert_keeps_the_last_json_text() -> None:
    view = FormView(KINDS, arguments={"name": "Ada", "size": "S", "count": 1, "agree": True})
    assert not view.json_mode
    field_input(view, "count").value = "many"
    view.json_mode = True
    editor = the(view, "wb-json-editor")
    assert json.loads(editor.value) == {"name": "Ada", "size": "S", "count": 1, "agree": True}
    assert any("does not convert" in text for text in errors(view))


def test_set_arguments_fills_the_form_and_the_editor() -> None:
    view = FormView(PET)
    arguments = {"pet": {"kind": "dog", "good": False}, "size": "xl", "code": None}
    view.set_arguments(arguments)
    assert field_input(view, "pet", "wb-choice").label == "Dog"
    assert field_input(view, "pet<1>.good").label == "false"
    assert view.arguments() == arguments
    view.json_mode = True
    assert json.loads(the(view, "wb-json-editor").value) == arguments


def test_arguments_the_form_has_no_field_for_are_named() -> None:
    view = FormView(EVENT)
    view.set_arguments({"title": "x", "bogus": 1, "minutes": "many", "people": []})
    (message,) = having(view, "wb-form-message")
    assert "Not in the form" in message.value and "bogus, minutes" in message.value
    assert field_input(view, "title").value == "x"
    view.json_mode = True
    the(view, "wb-json-editor").value = '{"title": "y", "people": [], "extra": true}'
    view.json_mode = False
    assert any("extra" in text for text in errors(view))
    assert field_input(view, "title").value == "y" and field_input(view, "priority").label == "—"
    with pytest.raises(FormError, match="people: needs at least 1 item"):
        view.arguments()
    assert not any("extra" in text for text in errors(view))  # the next read clears the note


# --- whole schemas ----------------------------------------------------------------------------


def test_a_schema_the_form_cannot_read_is_one_json_field() -> None:
    view = FormView({"not": {}})
    editor = field_input(view, ROOT_PATH)
    assert isinstance(editor, widgets.Textarea)
    editor.value = '{"a": 1}'
    assert view.arguments() == {"a": 1}
    editor.value = "[1]"
    with pytest.raises(FormError) as raised:
        view.arguments()
    assert raised.value.path == ROOT_PATH
    assert any("JSON object" in text for text in errors(view))


@pytest.mark.parametrize("schema", [None, {"type": "object"}, {"type": "object", "properties": {}}])
def test_a_tool_without_arguments_is_an_empty_form(schema: Any) -> None:
    view = FormView(schema)
    assert not having(view, "wb-input")
    assert view.arguments() == {}


def test_demo_tools_round_trip_through_their_forms() -> None:
    schemas = demo_schemas()
    assert len(schemas) >= 9
    outcomes = {name: round_trips(schema) for name, schema in schemas.items()}
    assert set(outcomes.values()) == {"complete"}, outcomes


def test_the_demo_calendar_form_takes_an_event_clicked_in() -> None:
    schema = demo_schemas()["create_event"]
    view = FormView(schema)
    field_input(view, "event.title").value = "Review"
    field_input(view, "event.when.date").value = "2025-05-01"
    field_input(view, "event.when.start").value = "10:00"
    add = field_input(view, "event.attendees", "wb-add-item")
    add.click()
    field_input(view, "event.attendees[0].name").value = "Ada"
    field_input(view, "event.attendees[0].email").value = "not an address"
    with pytest.raises(FormError) as raised:
        view.arguments()
    assert raised.value.path == "event.attendees[0].email"
    assert "must match" in raised.value.message
    field_input(view, "event.attendees[0].email").value = "ada@example.org"
    arguments = view.arguments()
    assert arguments["event"]["when"] == {
        "date": "2025-05-01",
        "start": "10:00",
        "duration_minutes": 60,
    }
    assert problems(schema, arguments) == []


def real_server_schemas() -> dict[str, dict[str, Any]]:
    """Tool schemas of the real servers ``make test`` installs (server-everything, time)."""
    from fastmcp.client.transports import StdioTransport

    node = shutil.which("node")
    manifest = EVERYTHING_JS / "package.json"
    if node is None or not manifest.is_file() or not TIME_SERVER.is_file():
        pytest.fail(f"the real MCP servers are not installed in {SERVERS} (run `make servers`)")
    script = EVERYTHING_JS / json.loads(manifest.read_text())["bin"]["mcp-server-everything"]
    everything = StdioTransport(node, [str(script), "stdio"], keep_alive=False)
    time_server = StdioTransport(str(TIME_SERVER), [], keep_alive=False)
    return {
        "everything": schemas_of(list_tools(everything)),
        "time": schemas_of(list_tools(time_server)),
    }


def test_real_servers_tools_round_trip_through_their_forms() -> None:
    outcomes: dict[str, str] = {}
    for server, schemas in real_server_schemas().items():
        for name, schema in schemas.items():
            outcomes[f"{server}.{name}"] = round_trips(schema)
    assert len(outcomes) >= 10
    assert sum(outcome == "unsampled" for outcome in outcomes.values()) <= 2, outcomes
