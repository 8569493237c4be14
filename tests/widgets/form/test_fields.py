"""The form's description (``form/fields.py``): kinds, walking the tree, paths both ways; and
the package's pure rooms load no ipywidgets."""

from __future__ import annotations

import pytest

from tests.processes import modules_after
from workbench.widgets.form import (
    ROOT_PATH,
    ArrayField,
    ChoiceField,
    JsonField,
    NumberField,
    ObjectField,
    StringField,
    path_class,
    validator_path,
)
from workbench.widgets.form.fields import join

PURE = ("fields", "refs", "leaves", "schema", "values", "hints")


@pytest.mark.integration
def test_the_pure_rooms_of_the_form_load_no_ipywidgets() -> None:
    imports = "\n".join(f"import workbench.widgets.form.{name}" for name in PURE)
    code = (
        f"{imports}\nfrom workbench.widgets.form import build_form, to_arguments\n"
        "to_arguments(build_form({'type': 'object'}), {})"
    )
    loaded = modules_after(code)
    assert "workbench.widgets.form.values" in loaded  # the check can see what was imported
    assert "ipywidgets" not in loaded and "workbench.widgets.form.view" not in loaded
    assert "ipywidgets" in modules_after("from workbench.widgets.form import FormView")


def test_kinds_and_walking_the_tree() -> None:
    name = StringField(name="name", path="people[].name", required=True)
    person = ObjectField(name="people", path="people[]", properties=(name,))
    people = ArrayField(name="people", path="people", item=person)
    count = NumberField(name="count", path="count", integer=True)
    level = ChoiceField(name="level", path="level", options=(count, JsonField(reason="x")))
    root = ObjectField(properties=(people, level))
    assert [field.kind for field in root.walk()] == [
        "object", "array", "object", "string", "choice", "integer", "json",
    ]  # fmt: skip
    assert NumberField().kind == "number"
    assert root.fallbacks() == [ROOT_PATH] and not root.is_complete  # the option has no path
    assert people.is_complete and people.fallbacks() == []
    assert name.display_name == "name" and root.display_name == ROOT_PATH
    assert StringField(name="n", title="Full name").display_name == "Full name"


@pytest.mark.parametrize(
    ("path", "css"),
    [
        ("people[0].name", "wb-path-people-0--name"),
        ("pet<1>.good", "wb-path-pet-1--good"),
        ("", "wb-path--arguments-"),
        (ROOT_PATH, "wb-path--arguments-"),
        ("naïve", "wb-path-na-ve"),
    ],
)
def test_path_class_names_an_input_by_its_path(path: str, css: str) -> None:
    assert path_class(path) == css


@pytest.mark.parametrize(
    ("form", "validator"),
    [
        ("people[0].name", "people.0.name"),
        ("grid[1][0]", "grid.1.0"),
        ("title", "title"),
        ("", ROOT_PATH),
        (ROOT_PATH, ROOT_PATH),
    ],
)
def test_validator_path_writes_form_paths_as_the_validator_does(form: str, validator: str) -> None:
    assert validator_path(form) == validator


def test_join_makes_property_paths() -> None:
    assert join("", "a") == "a" and join("a[0]", "b") == "a[0].b"
