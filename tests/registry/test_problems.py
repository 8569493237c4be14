"""The validator's verdict in sentences (``registry/problems.py``): every kind of problem,
patterns kept out of the message, the formats people type checked before the call."""

from __future__ import annotations

from typing import Any

import jsonschema_rs
import pytest

from workbench.errors import InvalidArgumentsError
from workbench.registry import ToolEntry
from workbench.registry.problems import FORMATS, ROOT, Problem, problems_of


def verdict(schema: dict[str, Any], value: Any) -> list[Problem]:
    """The problems of ``value`` under ``schema``, validated as the registry does."""
    validator = jsonschema_rs.validator_for(schema, validate_formats=True, formats=FORMATS)
    return problems_of(validator.iter_errors(value))


def one(schema: dict[str, Any], value: Any) -> Problem:
    (problem,) = verdict({"type": "object", "properties": {"a": schema}}, {"a": value})
    assert problem.path == "a"
    return problem


@pytest.mark.parametrize(
    ("schema", "value", "message"),
    [
        ({"type": "integer"}, "ten", "must be an integer"),
        ({"type": "string"}, 1, "must be text"),
        ({"type": "boolean"}, "yes", "must be true or false"),
        ({"type": "array"}, {}, "must be a list"),
        ({"type": "object"}, [], "must be an object"),
        ({"type": ["integer", "null"]}, "x", "must be an integer or null"),
        ({"type": ["string", "number", "null"]}, [], "must be a number, text or null"),
        ({"enum": ["asc", "desc"]}, "up", "must be one of: asc, desc"),
        ({"enum": [1, None, "x"]}, 2, "must be one of: 1, null, x"),
        ({"const": "cat"}, "dog", 'must be "cat"'),
        ({"minimum": 5}, 3, "must be at least 5"),
        ({"maximum": 600}, 601, "must be at most 600"),
        ({"exclusiveMinimum": 0}, 0, "must be greater than 0"),
        ({"exclusiveMaximum": 10}, 10, "must be less than 10"),
        ({"exclusiveMinimum": 1.5}, 1.5, "must be greater than 1.5"),
        ({"multipleOf": 0.5}, 0.3, "must be a multiple of 0.5"),
        ({"minLength": 1}, "", "must not be empty"),
        ({"minLength": 3}, "ab", "must be at least 3 characters"),
        ({"maxLength": 80}, "x" * 81, "must be at most 80 characters"),
        ({"maxLength": 1}, "xy", "must be at most 1 character"),
        ({"minItems": 1}, [], "needs at least 1 item"),
        ({"minItems": 2}, [1], "needs at least 2 items"),
        ({"maxItems": 3}, [1, 2, 3, 4], "can have at most 3 items"),
        ({"uniqueItems": True}, [1, 1], "must not repeat an item"),
        ({"minProperties": 2}, {"x": 1}, "needs at least 2 entries"),
        ({"maxProperties": 1}, {"x": 1, "y": 2}, "can have at most 1 entry"),
        ({"contains": {"type": "integer"}}, ["x"], "needs an item of the expected kind"),
        ({"not": {"type": "string"}}, "s", "is not allowed here"),
        ({"propertyNames": {"maxLength": 2}}, {"abc": 1}, "has a key that is not allowed"),
        ({"oneOf": [{"type": "integer"}, {"type": "number"}]}, 1, "fits more than one"),
    ],
)
def test_each_kind_of_problem_reads_as_a_sentence(schema: Any, value: Any, message: str) -> None:
    problem = one(schema, value)
    assert problem.message.startswith(message), problem
    assert "\n" not in problem.message


def test_required_and_unexpected_name_the_property_itself() -> None:
    schema = {
        "type": "object",
        "properties": {"p": {"type": "object", "properties": {"x": {}}, "required": ["x"]}},
        "required": ["q"],
        "additionalProperties": False,
    }
    found = verdict(schema, {"p": {}, "r": 1, "s": 2})
    assert sorted(found) == [
        ("p.x", "required but missing"),
        ("q", "required but missing"),
        ("r", "unexpected argument"),
        ("s", "unexpected argument"),
    ]


def test_a_pattern_is_a_detail_never_the_message() -> None:
    problem = one({"type": "string", "pattern": "^[a-z]+-\\d+$"}, "ABC")
    assert problem == ("a", "does not match the expected pattern")
    assert problem.detail == "pattern: ^[a-z]+-\\d+$"
    assert "[a-z]" not in problem.message


@pytest.mark.parametrize(
    ("fmt", "bad", "good", "message"),
    [
        ("date", "2025-13-01", "2025-05-01", "must be a date (e.g. 2025-05-01)"),
        ("time", "25:00", "14:30", "must be a time (e.g. 14:30)"),
        ("date-time", "tomorrow", "2025-05-01T14:30:00Z", "must be a date and time"),
        ("email", "ada", "ada@example.org", "must be an e-mail address (e.g. ada@example.org)"),
        ("uri", "example", "https://example.org", "must be a URI (e.g. https://example.org)"),
        ("uuid", "1234", "123e4567-e89b-12d3-a456-426614174000", "must be a UUID"),
    ],
)
def test_the_formats_people_type_are_checked(fmt: str, bad: str, good: str, message: str) -> None:
    problem = one({"type": "string", "format": fmt}, bad)
    assert problem.message.startswith(message) and problem.detail == f"format: {fmt}"
    assert verdict({"type": "string", "format": fmt}, good) == []


def test_a_format_beside_a_pattern_says_what_is_wanted_and_keeps_the_pattern_out() -> None:
    # The demo calendar's e-mail field: pydantic writes the pattern into the string branch,
    # the declared format sits beside the anyOf; both break, one sentence says it.
    email = {
        "anyOf": [{"type": "string", "pattern": "^[^@\\s]+@[^@\\s]+$"}, {"type": "null"}],
        "format": "email",
    }
    assert verdict({"properties": {"a": email}}, {"a": "ada-at-example.org"}) == [
        ("a", "must be an e-mail address (e.g. ada@example.org)")
    ]
    other = {"type": "string", "format": "date", "pattern": "^2"}
    assert verdict(
        {"properties": {"a": other, "b": {"type": "string", "pattern": "^x"}}},
        {"a": "tomorrow", "b": "y"},
    ) == [
        ("a", "must be a date (e.g. 2025-05-01)"),
        ("b", "does not match the expected pattern"),
    ]


@pytest.mark.parametrize(
    ("fmt", "value"),
    [
        ("time", "10:00"),  # pydantic's time takes HH:MM; RFC 3339 wants seconds and an offset
        ("time", "10:00:30.5+02:00"),
        ("date-time", "2025-05-01T10:00"),
        ("date-time", "2025-05-01 10:00:00"),
        ("uuid", "123e4567e89b12d3a456426614174000"),
        ("duration", "1:30:00"),  # left to the server
        ("regex", "(?i)x"),
        ("hostname", "a_b.example"),
    ],
)
def test_formats_are_read_as_leniently_as_the_servers_that_declare_them(
    fmt: str, value: str
) -> None:
    assert verdict({"type": "string", "format": fmt}, value) == []


def test_any_of_names_the_branch_that_was_meant() -> None:
    nullable_email = {"anyOf": [{"type": "string", "format": "email"}, {"type": "null"}]}
    assert one(nullable_email, "x").message.startswith("must be an e-mail address")
    nested = {
        "anyOf": [{"type": "object", "properties": {"n": {"type": "integer"}}}, {"type": "null"}]
    }
    (problem,) = verdict({"properties": {"a": nested}}, {"a": {"n": "s"}})
    assert problem == ("a.n", "must be an integer")
    assert one({"anyOf": [{"type": "integer"}, {"type": "null"}]}, "x") == (
        "a",
        "must be an integer or null",
    )
    assert one({"oneOf": [{"const": "cat"}, {"const": "dog"}]}, "cow") == (
        "a",
        "must be one of: cat, dog",
    )
    two_meant = {"anyOf": [{"type": "string", "minLength": 5}, {"type": "string", "pattern": "^x"}]}
    assert one(two_meant, "abc").message == "does not fit any of the allowed forms"


def test_long_enums_are_cut_and_listed_whole_in_the_detail() -> None:
    problem = one({"enum": [f"v{i}" for i in range(30)]}, "w")
    assert (
        problem.message == "must be one of: v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, … (30 in all)"
    )
    assert problem.detail is not None and problem.detail.endswith("v29")


def test_problems_at_the_root_and_as_pairs() -> None:
    (problem,) = verdict({"type": "object", "minProperties": 1}, {})
    assert problem.path == ROOT == "(arguments)"
    path, why = problem
    assert (path, why) == ("(arguments)", "needs at least 1 entry")
    assert problem == ("(arguments)", "needs at least 1 entry") and problem.detail is None
    assert "detail=None" in repr(problem)
    error = InvalidArgumentsError("s.t", [problem, Problem("a", "must be text", "x")])
    assert (
        str(error)
        == "Invalid arguments for s.t: (arguments): needs at least 1 entry; a: must be text"
    )


def test_a_problem_the_module_has_no_words_for_keeps_the_validators() -> None:
    schema = {"type": "string", "contentEncoding": "base64"}
    validator = jsonschema_rs.validator_for(schema, validate_formats=True)
    errors = list(validator.iter_errors("not base64!"))
    assert [p.message for p in problems_of(errors)] == [e.message for e in errors]


def test_the_entry_flags_a_bad_format_before_any_call() -> None:
    schema = {
        "type": "object",
        "properties": {"day": {"type": "string", "format": "date"}, "code": {"pattern": "^x"}},
    }
    entry = ToolEntry.from_tool("cal", {"name": "book", "inputSchema": schema})
    assert entry.problems({"day": "2025-05-01", "code": "xy"}) == []
    with pytest.raises(InvalidArgumentsError) as raised:
        entry.action_from_arguments({"day": "May 1st", "code": "y"})
    message = str(raised.value)
    assert message == (
        "Invalid arguments for cal.book: day: must be a date (e.g. 2025-05-01); "
        "code: does not match the expected pattern"
    )
    assert "^x" not in message and "\n" not in message
