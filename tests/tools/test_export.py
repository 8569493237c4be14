"""The four export formats, pinned for one tool."""

from __future__ import annotations

import mcp.types

from workbench.registry import ToolEntry
from workbench.tools import (
    to_anthropic_tool,
    to_mcp_tool,
    to_openai_tool,
    to_responses_tool,
    tool,
)


@tool(title="Greeter", annotations={"readOnlyHint": True})
def greet(name: str, excited: bool = False) -> str:
    """Say hello.

    Args:
        name: Who to greet.
        excited: Add an exclamation mark.
    """
    return f"Hello {name}{'!' if excited else '.'}"


SCHEMA = {
    "additionalProperties": False,
    "properties": {
        "name": {"description": "Who to greet.", "type": "string"},
        "excited": {
            "default": False,
            "description": "Add an exclamation mark.",
            "type": "boolean",
        },
    },
    "required": ["name"],
    "type": "object",
}


def test_mcp_tool() -> None:
    exported = greet.to_mcp_tool()
    assert isinstance(exported, mcp.types.Tool)
    assert exported.model_dump(by_alias=True, exclude_none=True) == {
        "name": "greet",
        "title": "Greeter",
        "description": "Say hello.",
        "inputSchema": SCHEMA,
        "annotations": {"readOnlyHint": True},
    }


def test_openai_chat_completions_tool() -> None:
    assert greet.to_openai_tool() == {
        "type": "function",
        "function": {"name": "greet", "description": "Say hello.", "parameters": SCHEMA},
    }


def test_openai_responses_tool() -> None:
    assert greet.to_responses_tool() == {
        "type": "function",
        "name": "greet",
        "description": "Say hello.",
        "parameters": SCHEMA,
    }


def test_anthropic_tool() -> None:
    assert greet.to_anthropic_tool() == {
        "name": "greet",
        "description": "Say hello.",
        "input_schema": SCHEMA,
    }


def test_output_schema_reaches_the_mcp_tool() -> None:
    @tool
    def area(w: float, h: float) -> float:
        return w * h

    exported = to_mcp_tool(area)
    assert exported.output_schema is not None
    assert exported.output_schema["properties"] == {"result": {"type": "number"}}


def test_registry_entries_export_too_with_api_safe_names() -> None:
    entry = ToolEntry.from_tool(
        "docs", {"name": "search.pages/v2", "description": "Find pages.", "inputSchema": SCHEMA}
    )
    assert to_openai_tool(entry)["function"]["name"] == "search_pages_v2"
    assert to_responses_tool(entry)["name"] == "search_pages_v2"
    assert to_anthropic_tool(entry)["input_schema"] == SCHEMA
    assert to_mcp_tool(entry).name == "search.pages/v2"
