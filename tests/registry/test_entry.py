"""ToolEntry: reading tools of every shape, deferred validation against JSON Schema."""

from __future__ import annotations

from typing import Any

import mcp.types
import pytest

from workbench.errors import InvalidArgumentsError, ToolListError, WorkbenchWarning
from workbench.registry import ToolEntry
from workbench.tools import tool

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "minLength": 1},
        "limit": {"type": "integer", "minimum": 1, "maximum": 100},
        "sort": {"enum": ["asc", "desc"]},
        "cursor": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        "filter": {"$ref": "#/$defs/Filter"},
        "labels": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["query"],
    "additionalProperties": False,
    "$defs": {
        "Filter": {
            "type": "object",
            "properties": {"state": {"enum": ["open", "closed"]}, "author": {"type": "string"}},
            "required": ["state"],
        }
    },
}
ENTRY = ToolEntry.from_tool("tracker", {"name": "search_issues", "inputSchema": SCHEMA})


def test_reads_dicts_in_either_spelling() -> None:
    camel = ToolEntry.from_tool(
        "s",
        {
            "name": "t",
            "title": "T",
            "description": "d",
            "inputSchema": SCHEMA,
            "outputSchema": {"type": "object"},
            "annotations": {"readOnlyHint": True},
            "_meta": {"k": 1},
        },
    )
    snake = ToolEntry.from_tool(
        "s",
        {
            "name": "t",
            "title": "T",
            "description": "d",
            "input_schema": SCHEMA,
            "output_schema": {"type": "object"},
            "annotations": {"read_only_hint": True},
            "meta": {"k": 1},
        },
    )
    for entry in (camel, snake):
        assert (entry.id, entry.title, entry.description) == ("s.t", "T", "d")
        assert entry.input_schema == SCHEMA and entry.output_schema == {"type": "object"}
        assert entry.annotations is not None and entry.annotations.read_only_hint is True
        assert entry.meta == {"k": 1}


def test_reads_mcp_sdk_tool_objects() -> None:
    sdk_tool = mcp.types.Tool(
        name="get_time",
        description="Now.",
        input_schema={"type": "object", "properties": {"tz": {"type": "string"}}},
        annotations=mcp.types.ToolAnnotations(read_only_hint=True),
    )
    entry = ToolEntry.from_tool("time", sdk_tool)
    assert entry.id == "time.get_time"
    assert entry.input_schema["properties"] == {"tz": {"type": "string"}}
    assert entry.annotations is not None and entry.annotations.read_only_hint is True


def test_reads_plain_objects_with_attributes() -> None:
    class Listed:
        def __init__(self) -> None:
            self.name = "ping"
            self.description = "Ping."
            self.inputSchema = {"type": "object"}

    assert ToolEntry.from_tool("net", Listed()).description == "Ping."


def test_missing_schema_means_any_object_and_missing_name_is_an_error() -> None:
    assert ToolEntry.from_tool("s", {"name": "t"}).input_schema == {"type": "object"}
    with pytest.raises(ToolListError, match="no name"):
        ToolEntry.from_tool("s", {"description": "nameless"})


def test_validator_is_built_on_first_use_only() -> None:
    entry = ToolEntry.from_tool("tracker", {"name": "search_issues", "inputSchema": SCHEMA})
    assert "validator" not in vars(entry)
    entry.problems({"query": "x"})
    assert "validator" in vars(entry)


@pytest.mark.parametrize(
    ("arguments", "problems"),
    [
        ({"query": "bugs"}, []),
        ({}, [("query", "required but missing")]),
        ({"query": ""}, [("query", "must not be empty")]),
        ({"query": "x", "limit": 0}, [("limit", "must be at least 1")]),
        ({"query": "x", "limit": "ten"}, [("limit", "must be an integer")]),
        ({"query": "x", "sort": "up"}, [("sort", "must be one of: asc, desc")]),
        ({"query": "x", "cursor": None}, []),
        ({"query": "x", "cursor": 5}, [("cursor", "must be text or null")]),
        ({"query": "x", "filter": {}}, [("filter.state", "required but missing")]),
        (
            {"query": "x", "filter": {"state": "merged"}},
            [("filter.state", "must be one of: open, closed")],
        ),
        ({"query": "x", "labels": ["a", 2]}, [("labels.1", "must be text")]),
        ({"query": "x", "page": 2, "size": 1}, [("page", "unexpected argument"),
                                                 ("size", "unexpected argument")]),
    ],
)  # fmt: skip
def test_problems_name_each_bad_field(arguments: dict[str, Any], problems: list[Any]) -> None:
    assert sorted(ENTRY.problems(arguments)) == sorted(problems)


def test_action_from_arguments_validates_then_carries_the_arguments() -> None:
    action = ENTRY.action_from_arguments({"query": "bugs", "labels": ["p1"]})
    assert type(action).__name__ == "SearchIssuesAction"
    assert action.to_arguments() == {"query": "bugs", "labels": ["p1"]}
    with pytest.raises(InvalidArgumentsError) as caught:
        ENTRY.action_from_arguments({"limit": 500})
    assert caught.value.tool == "tracker.search_issues"
    assert set(caught.value.problems) == {
        ("query", "required but missing"),
        ("limit", "must be at most 100"),
    }


def test_unusable_schema_warns_once_and_lets_arguments_through() -> None:
    broken = ToolEntry.from_tool(
        "s", {"name": "t", "inputSchema": {"type": "object", "properties": {"a": {"$ref": "#/x"}}}}
    )
    with pytest.warns(WorkbenchWarning, match="cannot be used for validation"):
        assert broken.problems({"a": 1}) == []
    assert broken.action_from_arguments({"a": 1}).to_arguments() == {"a": 1}


def test_entries_of_definitions_validate_with_the_definition() -> None:
    @tool
    def add(a: int, b: int = 1) -> int:
        return a + b

    entry = ToolEntry.from_tool("notebook", add)
    assert entry.definition is add
    assert entry.input_schema == add.input_schema
    assert entry.action_type is add.action_type
    with pytest.raises(InvalidArgumentsError, match="a: required but missing"):
        entry.action_from_arguments({})
    assert entry.action_from_arguments({"a": 2}).to_arguments() == {"a": 2, "b": 1}


def test_a_notebook_tool_is_judged_by_the_same_validator_as_its_form() -> None:
    @tool
    def add(a: int, b: int = 1) -> int:
        return a + b

    entry = ToolEntry.from_tool("notebook", add)
    # pydantic's lax mode alone would take "5" for an integer; the schema's validator, which
    # the browser's form shows, does not, and says so in its own words.
    assert entry.problems({"a": "5"}) == [("a", "must be an integer")]
    with pytest.raises(InvalidArgumentsError, match="a: must be an integer"):
        entry.action_from_arguments({"a": "5"})


def test_display_title_prefers_title_then_annotation_title_then_name() -> None:
    assert ToolEntry.from_tool("s", {"name": "n", "title": "T"}).display_title == "T"
    annotated = ToolEntry.from_tool("s", {"name": "n", "annotations": {"title": "A"}})
    assert annotated.display_title == "A"
    assert ToolEntry.from_tool("s", {"name": "n"}).display_title == "n"
