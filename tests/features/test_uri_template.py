"""RFC 6570 URI templates as resource templates use them (workbench/features/uri_template.py).

The expected expansions are the RFC's own examples (section 1.2 and 3.2), with its variables.
"""

from __future__ import annotations

import pytest

from workbench.features import uri_template
from workbench.features.uri_template import Value

RFC: dict[str, Value] = {
    "var": "value",
    "hello": "Hello World!",
    "path": "/foo/bar",
    "list": ["red", "green", "blue"],
    "empty": "",
    "x": "1024",
    "y": "768",
    "emptylist": [],
}


@pytest.mark.parametrize(
    ("template", "expected"),
    [
        # level 1: simple strings, reserved characters encoded
        ("{var}", "value"),
        ("{hello}", "Hello%20World%21"),
        ("{path}", "%2Ffoo%2Fbar"),
        ("{x,y}", "1024,768"),
        # + reserved, # fragment: reserved characters kept
        ("{+var}", "value"),
        ("{+hello}", "Hello%20World!"),
        ("{+path}/here", "/foo/bar/here"),
        ("here?ref={+path}", "here?ref=/foo/bar"),
        ("{#var}", "#value"),
        ("{#hello}", "#Hello%20World!"),
        ("{#path,x}/here", "#/foo/bar,1024/here"),
        # . labels, / segments
        ("X{.var}", "X.value"),
        ("X{.x,y}", "X.1024.768"),
        ("{/var}", "/value"),
        ("{/var,x}/here", "/value/1024/here"),
        # ; path parameters (an empty value has no "="), ? and & form-style queries
        ("{;x,y}", ";x=1024;y=768"),
        ("{;x,y,empty}", ";x=1024;y=768;empty"),
        ("{?x,y}", "?x=1024&y=768"),
        ("{?x,y,empty}", "?x=1024&y=768&empty="),
        ("?fixed=yes{&x}", "?fixed=yes&x=1024"),
        ("{&x,y,empty}", "&x=1024&y=768&empty="),
        # lists, joined with commas, or exploded
        ("{list}", "red,green,blue"),
        ("{list*}", "red,green,blue"),
        ("{+list}", "red,green,blue"),
        ("{#list*}", "#red,green,blue"),
        ("X{.list}", "X.red,green,blue"),
        ("X{.list*}", "X.red.green.blue"),
        ("{/list}", "/red,green,blue"),
        ("{/list*}", "/red/green/blue"),
        ("{/list*,path}", "/red/green/blue/%2Ffoo%2Fbar"),
        ("{;list}", ";list=red,green,blue"),
        ("{;list*}", ";list=red;list=green;list=blue"),
        ("{?list}", "?list=red,green,blue"),
        ("{?list*}", "?list=red&list=green&list=blue"),
        ("{&list*}", "&list=red&list=green&list=blue"),
        # missing values and empty lists are left out, with their operator's prefix
        ("{undef}", ""),
        ("x{/undef}y", "xy"),
        ("{?undef}", ""),
        ("{?x,undef,y}", "?x=1024&y=768"),
        ("{undef,x}", "1024"),
        ("{emptylist}", ""),
        ("{?emptylist}", ""),
        ("{/emptylist*}", ""),
        # no expression: the template is the URI
        ("demo://guide", "demo://guide"),
    ],
)
def test_expansion_follows_rfc_6570(template: str, expected: str) -> None:
    assert uri_template.expand(template, RFC) == expected


def test_numbers_and_non_ascii_are_encoded_as_utf_8() -> None:
    assert uri_template.expand("n/{n}", {"n": 42}) == "n/42"
    assert uri_template.expand("{?ratio}", {"ratio": 0.5}) == "?ratio=0.5"
    assert uri_template.expand("{name}", {"name": "café"}) == "caf%C3%A9"
    assert uri_template.expand("{+name}", {"name": "a b/é"}) == "a%20b/%C3%A9"


def test_none_is_a_missing_value() -> None:
    values: dict[str, Value | None] = {"x": None, "y": "768"}
    assert uri_template.expand("{?x,y}", values) == "?y=768"  # type: ignore[arg-type]


def test_variables_in_order_each_once() -> None:
    template = "demo://{kind}/{+path}{?lang,kind}{&page*}{.ext:3}"
    assert uri_template.variables(template) == ["kind", "path", "lang", "page", "ext"]
    assert uri_template.variables("demo://guide") == []
    assert uri_template.variables("{ x , y }") == ["x", "y"]


def test_missing_names_what_a_uri_needs() -> None:
    template = "demo://resource/{kind}/{resourceId}"
    assert uri_template.missing(template, {}) == ["kind", "resourceId"]
    assert uri_template.missing(template, {"kind": "text", "resourceId": ""}) == ["resourceId"]
    assert uri_template.missing(template, {"kind": "text", "resourceId": None}) == ["resourceId"]
    assert uri_template.missing(template, {"kind": "text", "resourceId": 0}) == []


@pytest.mark.parametrize(
    ("template", "uri", "expected"),
    [
        ("demo://numbers/{n}", "demo://numbers/42", True),
        ("demo://numbers/{n}", "demo://numbers/", False),  # a value has a character at least
        ("demo://numbers/{n}", "demo://letters/42", False),
        ("demo://numbers/{n}", "demo://numbers/42/more", True),  # any text, slashes too
        ("demo://numbers/{n}", "xdemo://numbers/42", False),  # the whole URI
        ("a.b/{x}", "aXb/1", False),  # the literal parts are literal, not regexes
        ("a.b/{x}", "a.b/1", True),
        ("file:///{dir}/{name}.txt", "file:///tmp/notes.txt", True),
        ("file:///{dir}/{name}.txt", "file:///tmp/notes.md", False),
        ("demo://guide", "demo://guide", True),
        ("demo://guide", "demo://guides", False),
    ],
)
def test_matches(template: str, uri: str, expected: bool) -> None:
    assert uri_template.matches(template, uri) is expected
