"""FormView (``form/view.py``): ipywidgets for a tool's input schema, driven as a user would
(no kernel needed), and the registry validator's problems shown under their fields.

Inputs are found the way browser tests find them, by their CSS classes (``form_screen.py``),
and filled by setting ``.value`` / ``.label`` or clicking buttons.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

import ipywidgets as widgets
import pytest

from tests.widgets.form.form_schemas import CLICKED_EVENT as EVENT
from tests.widgets.form.form_schemas import problems, verdict
from tests.widgets.form.form_screen import box_of, click, errors, field_input, having, the
from workbench.errors import FormError
from workbench.registry.problems import Problem
from workbench.widgets.form import ROOT_PATH, FormView, path_class

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
    assert required.check() == []  # no validator given: conversion only
    judged = FormView(KINDS, validate=verdict(KINDS))
    missing = [(name, "required but missing") for name in ("name", "size", "count")]
    assert sorted(judged.check()) == sorted(missing) == sorted(judged.problems)
    for name in ("name", "size", "count"):
        (error,) = box_of(judged, field_input(judged, name)).children[-1:]
        assert "wb-error" in error._dom_classes and "required but missing" in error.value


# --- conversion errors and the validator's problems --------------------------------------


def texts(view: FormView) -> list[str]:
    """The error lines and messages on screen as plain text."""
    return [html.unescape(re.sub(r"<[^>]+>", "", line)) for line in errors(view)]


def test_bounds_are_the_validators_and_shown_under_the_field_until_fixed() -> None:
    view = FormView(KINDS, validate=verdict(KINDS))
    field_input(view, "name").value = "Ada"
    field_input(view, "size").label = "L"
    count = field_input(view, "count")
    for text, message in [("0", "must be at least 1"), ("11", "must be at most 10")]:
        count.value = text
        assert view.arguments()["count"] == int(text)  # converting is not judging
        assert view.check() == [("count", message)]
        (error,) = having(view, "wb-error")
        assert texts(view) == [message] and error in box_of(view, count).children
    count.value = "10"
    field_input(view, "ratio").value = "0"
    assert view.check() == [("ratio", "must be greater than 0")]
    field_input(view, "ratio").value = ""
    assert view.check() == [] and view.problems == []
    assert errors(view) == []


def test_a_value_that_cannot_convert_is_a_form_error_under_its_field() -> None:
    view = FormView(KINDS, validate=verdict(KINDS))
    field_input(view, "name").value = "Ada"
    field_input(view, "size").label = "L"
    count = field_input(view, "count")
    count.value = "0"
    assert view.check() == [("count", "must be at least 1")]
    count.value = "2.5"
    with pytest.raises(FormError, match=r"count: '2\.5' is not a whole number"):
        view.check()
    (error,) = having(view, "wb-error")  # the problem shown before is gone
    assert texts(view) == ["'2.5' is not a whole number"]
    assert error in box_of(view, count).children
    assert view.problems == [("count", "'2.5' is not a whole number")]


def test_lengths_item_counts_and_required_fields_are_shown_by_their_field() -> None:
    view = FormView(EVENT, validate=verdict(EVENT))
    field_input(view, "title").value = "x" * 81
    assert sorted(view.check()) == [
        ("people", "needs at least 1 item"),
        ("title", "must be at most 80 characters"),
    ]
    title_box = box_of(view, field_input(view, "title"))
    assert any(
        "must be at most 80 characters" in w.value
        for w in having(view, "wb-error")
        if w in title_box.children
    )
    field_input(view, "title").value = "Standup"
    click(view, "wb-add-item", path_class("people"))
    assert view.arguments() == {
        "title": "Standup",
        "minutes": 60,
        "priority": "low",
        "people": [{}],
    }
    assert view.check() == [("people.0.name", "required but missing")]
    (error,) = having(view, "wb-error")
    assert error in box_of(view, field_input(view, "people[0].name")).children
    field_input(view, "people[0].name").value = "Ada"
    assert view.check() == []
    assert errors(view) == []


def test_show_problems_places_each_problem_by_its_path() -> None:
    view = FormView(EVENT)
    field_input(view, "people", "wb-add-item").click()
    field_input(view, "people", "wb-add-item").click()
    view.show_problems(
        [
            Problem("people.1.name", "does not match the expected pattern", "pattern: ^[A-Z]"),
            Problem("people.1.name", "must not be empty"),
            ("bogus", "unexpected argument"),
            (ROOT_PATH, "needs at least 2 entries"),
        ]
    )
    name = field_input(view, "people[1].name")
    (error,) = having(view, "wb-error")
    assert error in box_of(view, name).children
    assert 'title="pattern: ^[A-Z]"' in error.value  # the detail, as a tooltip
    assert (
        "does not match the expected pattern" in error.value and "must not be empty" in error.value
    )
    (message,) = having(view, "wb-form-message")
    assert "bogus: unexpected argument" in message.value
    assert "(arguments): needs at least 2 entries" in message.value
    assert len(view.problems) == 4
    view.show_problems([])
    assert errors(view) == [] and view.problems == []


def test_a_problem_inside_a_json_field_is_shown_under_that_field() -> None:
    schema = {
        "type": "object",
        "properties": {
            "meta": {"type": "object", "patternProperties": {"^x": {"type": "integer"}}}
        },
    }
    view = FormView(schema, validate=verdict(schema))
    field_input(view, "meta").value = '{"xa": "one"}'
    assert view.check() == [("meta.xa", "must be an integer")]
    (error,) = having(view, "wb-error")
    assert error in box_of(view, field_input(view, "meta")).children
    assert texts(view) == ["xa: must be an integer"]


def test_in_json_mode_every_problem_goes_above_the_editor() -> None:
    view = FormView(EVENT, validate=verdict(EVENT))
    view.json_mode = True
    the(view, "wb-json-editor").value = '{"title": 5, "people": []}'
    assert sorted(view.check()) == [("people", "needs at least 1 item"), ("title", "must be text")]
    assert not having(view, "wb-error")
    (message,) = having(view, "wb-form-message")
    assert (
        "people: needs at least 1 item" in message.value and "title: must be text" in message.value
    )


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
    assert view.arguments() == {"title": "y", "people": []}
    assert not any("extra" in text for text in errors(view))  # the next read clears the note
    view.show_problems(problems(EVENT, view.arguments()))
    assert view.problems == [("people", "needs at least 1 item")]


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
