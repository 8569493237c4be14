"""``@resource``: URIs and templates, the function's parameters, and what a read returns."""

from __future__ import annotations

import pytest

from workbench.errors import ToolDefinitionError
from workbench.tools.resource_definition import (
    Contents,
    ResourceDefinition,
    resource,
    template_variables,
)


def test_a_plain_uri_is_one_resource_named_after_its_function() -> None:
    @resource("data://greeting", title="Greeting")
    def greeting() -> str:
        """Says hello."""
        return "hello"

    assert isinstance(greeting, ResourceDefinition)
    assert (greeting.name, greeting.title, greeting.description) == (
        "greeting",
        "Greeting",
        "Says hello.",
    )
    assert not greeting.is_template
    assert greeting() == "hello"  # the function stays callable


@pytest.mark.parametrize(
    ("uri", "variables"),
    [
        ("data://users/{id}", ["id"]),
        ("file:///{+path}", ["path"]),
        ("data://search{?q,lang}", ["q", "lang"]),
        ("data://{a}/{a}{/rest*}", ["a", "rest"]),
        ("data://x", []),
    ],
)
def test_template_variables_follow_rfc_6570(uri: str, variables: list[str]) -> None:
    assert template_variables(uri) == variables


def test_a_template_takes_its_variables_converted_to_the_hints() -> None:
    @resource("data://users/{id}")
    def user(id: int) -> dict[str, int]:
        return {"id": id}

    assert user.is_template
    assert user.arguments({"id": "42"}) == {"id": 42}
    with pytest.raises(ValueError, match="id='x'"):
        user.arguments({"id": "x"})


@pytest.mark.parametrize(
    ("uri", "fn", "message"),
    [
        ("greeting", lambda: "", "no URI"),
        ("data://users/{id}", lambda: "", "no parameter for id"),
        ("data://x", lambda needed: "", "needed must have a default"),
    ],
)
def test_a_resource_that_cannot_be_read_is_refused_when_defined(
    uri: str, fn: object, message: str
) -> None:
    with pytest.raises(ToolDefinitionError, match=message):
        resource(uri)(fn)  # type: ignore[arg-type]


def test_what_a_read_returns_becomes_text_json_or_a_blob() -> None:
    plain = resource("data://p")(lambda: "")
    assert plain.contents("hi") == [Contents(text="hi", mime_type="text/plain")]
    assert plain.contents({"a": [1]}) == [
        Contents(text='{\n  "a": [\n    1\n  ]\n}', mime_type="application/json")
    ]
    assert plain.contents(b"\x00") == [Contents(blob=b"\x00", mime_type="application/octet-stream")]
    typed = resource("data://t", mime_type="text/markdown")(lambda: "")
    assert typed.contents("# x") == [Contents(text="# x", mime_type="text/markdown")]
    two = [Contents(text="a"), Contents(blob=b"b", mime_type="image/png")]
    assert plain.contents(two) == [Contents(text="a"), Contents(blob=b"b", mime_type="image/png")]
    with pytest.raises(TypeError, match="return str, bytes"):
        plain.contents(object())


def test_completers_are_given_as_an_option_or_attached_by_decorator() -> None:
    @resource("data://users/{org}/{id}", complete={"org": ["acme", "apex"]})
    def user(org: str, id: str) -> str:
        return f"{org}/{id}"

    @user.completer("id")
    def ids(value: str) -> list[str]:
        return [value + "1"]

    assert user.completers["org"] == ["acme", "apex"]
    assert user.completers["id"] is ids
    with pytest.raises(ToolDefinitionError, match="no template variable 'name'"):
        user.add_completer("name", ["x"])
    with pytest.raises(ToolDefinitionError, match="is a string"):
        user.add_completer("id", "abc")


def test_a_listing_names_the_mime_type_the_return_annotation_implies() -> None:
    def blob() -> bytes:
        return b""

    def data() -> dict[str, int]:
        return {}

    def text() -> str:
        return ""

    assert resource("data://b")(blob).listed_mime_type == "application/octet-stream"
    assert resource("data://d")(data).listed_mime_type == "application/json"
    assert resource("data://t")(text).listed_mime_type == "text/plain"
    assert resource("data://m", mime_type="image/png")(blob).listed_mime_type == "image/png"
