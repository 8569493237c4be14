"""A null for an optional parameter: dropped when the schema refuses it, kept when it takes it.

The rule lives in ``workbench/registry/entry.py``'s docstring. The conformance suite's
`http-custom-headers` (SEP-2243, sep-2243-client-omit-null) calls a tool with ``verbose: null``
for an optional boolean; the workbench used to refuse that call before sending it.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastmcp import FastMCP

from workbench.errors import InvalidArgumentsError
from workbench.registry import ToolEntry
from workbench.session import Workbench
from workbench.tools import tool

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "region": {"type": "string", "x-mcp-header": "Region"},
        "verbose": {"type": "boolean", "x-mcp-header": "Verbose"},
        "cursor": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        "limit": {"$ref": "#/$defs/Limit"},
    },
    "required": ["region"],
    "$defs": {"Limit": {"type": "integer", "minimum": 1}},
}
ENTRY = ToolEntry.from_tool("srv", {"name": "t", "inputSchema": SCHEMA})


def test_a_null_the_schema_refuses_for_an_optional_parameter_is_dropped() -> None:
    arguments = {"region": "us-east1", "verbose": None, "limit": None}
    assert ENTRY.problems(arguments) == []
    assert ENTRY.action_from_arguments(arguments).to_arguments() == {"region": "us-east1"}


def test_a_null_the_schema_takes_is_sent_as_is() -> None:
    arguments = {"region": "us-east1", "cursor": None}
    assert ENTRY.action_from_arguments(arguments).to_arguments() == arguments


def test_a_null_for_a_required_parameter_is_still_refused() -> None:
    with pytest.raises(InvalidArgumentsError, match="region"):
        ENTRY.action_from_arguments({"region": None, "verbose": None})


def test_other_wrong_values_are_still_refused() -> None:
    with pytest.raises(InvalidArgumentsError, match="verbose"):
        ENTRY.action_from_arguments({"region": "x", "verbose": "yes"})


def test_a_notebook_tool_gets_its_default_for_a_dropped_null() -> None:
    @tool
    def greet(name: str, loud: bool = False) -> str:
        return name.upper() if loud else name

    entry = ToolEntry.from_tool("notebook", greet)
    assert entry.action_from_arguments({"name": "ada", "loud": None}).to_arguments() == {
        "name": "ada",
        "loud": False,
    }


def test_a_call_with_a_null_optional_reaches_a_real_server_without_it() -> None:
    server = FastMCP("nulls")

    @server.tool
    def lookup(region: str, verbose: bool = False) -> str:
        return f"{region} verbose={verbose}"

    with Workbench() as wb:
        wb.connect("nulls", server=server)
        observation = wb.call("nulls.lookup", {"region": "us-east1", "verbose": None})
        assert not observation.is_error, observation.error_message
        assert observation.text == "us-east1 verbose=False"
