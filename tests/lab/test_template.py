"""``workbench/lab/template.py``: the ``%mcp call`` cell the sidebar inserts runs as written.

Its values are read back by the real parser (``magics/parsing.py`` and ``%mcp call``'s own
value rule), and every demo tool's cell is run through ``%mcp call`` in a shell: none is
refused for its arguments.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

from workbench.kernel import KernelState
from workbench.lab.template import browse_cell, call_cell, word
from workbench.magics.commands.call import _value
from workbench.magics.parsing import split_pair, tokenize
from workbench.registry import ToolEntry
from workbench.tools.schema import Observation


def read_back(value: Any, schema: dict[str, Any] | None = None) -> Any:
    """What ``%mcp call t key=<word(value)>`` passes as ``key``."""
    tokens = tokenize(f"key={word(value)}", json_objects=True)
    assert len(tokens) == 1, tokens
    key, text = split_pair(tokens[0])
    assert key == "key"
    return _value(text, schema)


@pytest.mark.parametrize(
    "value",
    [
        "plain", "two words", "5", "true", "null", "", "it's", 'say "hi"', "back\\slash",
        "{not json}", "<text>", "tab\there", "'quoted'", "ünïcode ✓",
        0, -2.5, True, None, [], [1, "a b"], {"a": {"b": "it's \"x\""}}, {},
    ],
)  # fmt: skip
def test_each_value_reads_back_as_itself(value: Any) -> None:
    assert read_back(value) == value


def entry(schema: dict[str, Any], description: str = "Does a thing.") -> ToolEntry:
    return ToolEntry(server="srv", name="tool", description=description, input_schema=schema)


def test_required_arguments_are_on_the_line_and_optional_ones_in_a_comment() -> None:
    schema = {
        "type": "object",
        "properties": {
            "flag": {"type": "boolean", "default": True},
            "count": {"type": "integer", "minimum": 3, "maximum": 9},
            "name": {"type": "string"},
            "when": {"type": "string", "format": "date"},
            "mode": {"enum": ["fast", "slow"]},
            "ratio": {"type": "number", "exclusiveMinimum": 0},
            "maybe": {"anyOf": [{"type": "null"}, {"type": "integer"}]},
        },
        "required": ["name", "count", "when", "mode", "ratio", "maybe"],
    }
    lines = call_cell(entry(schema)).splitlines()
    assert lines == [
        "# srv.tool: Does a thing.",
        "# optional: flag=true",
        "%mcp call srv.tool name=<name> count=3 when=2025-05-01 mode=fast ratio=0.5 maybe=0",
    ]


def test_nested_objects_follow_refs_and_arrays_their_minimum() -> None:
    schema = {
        "type": "object",
        "$defs": {"Person": {"type": "object", "properties": {"email": {"type": "string",
                  "format": "email"}, "age": {"type": "integer"}}, "required": ["email"]}},
        "properties": {"people": {"type": "array", "items": {"$ref": "#/$defs/Person"},
                                  "minItems": 1}},
        "required": ["people"],
    }  # fmt: skip
    line = call_cell(entry(schema, "")).splitlines()[-1]
    assert line == '%mcp call srv.tool people=\'[{"email":"ada@example.org"}]\''
    assert read_back([{"email": "ada@example.org"}]) == [{"email": "ada@example.org"}]


def test_a_tool_without_arguments_and_the_browse_cell() -> None:
    tool = entry({"type": "object", "properties": {}}, "")
    assert call_cell(tool) == "%mcp call srv.tool"
    assert browse_cell(tool) == "%mcp browse --server srv tool"


def test_text_bounds_are_kept() -> None:
    schema = {
        "type": "object",
        "properties": {"c": {"type": "string", "maxLength": 2}, "d": {"type": "string",
                       "minLength": 12}},
        "required": ["c", "d"],
    }  # fmt: skip
    assert call_cell(entry(schema, "")).endswith(" c=<c d=<d>_________")


# The demo tools that ask the person (elicitation, sampling) need a front end to answer.
ASKING = {"demo.book_table", "demo.summarize"}


@pytest.mark.integration
def test_every_demo_tool_cell_runs_through_mcp_call(
    ip: InteractiveShell, state: KernelState
) -> None:
    """A cell runs as inserted, or, with blanks to fill, says which in one line and calls
    nothing (newcomer-3 friction 13: ``<source_timezone>`` went to the server)."""
    ran, blanks = [], {}
    for tool in state.workbench.registry.tools("demo"):
        cell = call_cell(tool)
        if "<" in cell.splitlines()[-1]:
            calls = len(state.workbench.history)
            with capture_output() as captured:
                result = ip.run_cell(cell)  # type: ignore[no-untyped-call]
            assert result.result is None and len(state.workbench.history) == calls, tool.id
            (line,) = captured.stderr.strip().splitlines()
            blanks[tool.id] = line.removeprefix("UsageError: ")
            cell = re.sub(r"<(\w+)>", r"\1", cell)  # filled in
        if tool.id in ASKING:
            continue
        with capture_output():
            result = ip.run_cell(cell)  # type: ignore[no-untyped-call]
        observation = result.result
        assert isinstance(observation, Observation), (tool.id, result.error_in_exec)
        assert observation.error_kind != "invalid_arguments", (tool.id, observation.error_message)
        ran.append(tool.id)
    assert "demo.add" in ran and "demo.create_event" in ran and len(ran) >= 8
    assert blanks["demo.text_stats"] == "%mcp call: fill in the placeholders first: text."
    assert blanks["demo.create_event"].endswith("placeholders first: event.title.")
    assert set(blanks) >= ASKING  # both ask for free text
