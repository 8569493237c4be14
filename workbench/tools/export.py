"""One tool, four wire formats: MCP, OpenAI chat completions, OpenAI Responses, Anthropic.

Every function takes anything shaped like a tool (a ToolDefinition or a registry entry), so
agent-facing exports work the same for notebook tools, remote tools and the proxy pair.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Protocol

from workbench.tools.annotations import ToolAnnotations
from workbench.tools.icons import Icon

if TYPE_CHECKING:
    import mcp.types

_FUNCTION_NAME_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


class ToolSpec(Protocol):
    """What an export needs to know about a tool."""

    @property
    def name(self) -> str: ...
    @property
    def title(self) -> str | None: ...
    @property
    def description(self) -> str: ...
    @property
    def input_schema(self) -> dict[str, Any]: ...
    @property
    def output_schema(self) -> dict[str, Any] | None: ...
    @property
    def annotations(self) -> ToolAnnotations | None: ...
    @property
    def icons(self) -> tuple[Icon, ...]: ...


def function_name(name: str) -> str:
    """A name the OpenAI and Anthropic APIs accept (``[A-Za-z0-9_-]{1,64}``)."""
    return _FUNCTION_NAME_UNSAFE.sub("_", name)[:64]


def to_mcp_tool(spec: ToolSpec) -> mcp.types.Tool:
    """The MCP ``Tool`` object a server lists (imports the MCP SDK's types on first use)."""
    import mcp.types

    return mcp.types.Tool(
        name=spec.name,
        title=spec.title,
        description=spec.description or None,
        input_schema=spec.input_schema,
        output_schema=spec.output_schema,
        annotations=(
            mcp.types.ToolAnnotations.model_validate(spec.annotations.to_mcp())
            if spec.annotations
            else None
        ),
        icons=[mcp.types.Icon.model_validate(icon.to_mcp()) for icon in spec.icons] or None,
    )


def to_openai_tool(spec: ToolSpec) -> dict[str, Any]:
    """An OpenAI chat-completions ``{"type": "function", "function": {...}}`` tool."""
    return {
        "type": "function",
        "function": {
            "name": function_name(spec.name),
            "description": spec.description,
            "parameters": spec.input_schema,
        },
    }


def to_responses_tool(spec: ToolSpec) -> dict[str, Any]:
    """An OpenAI Responses API function tool (flat: no nested ``function`` object)."""
    return {
        "type": "function",
        "name": function_name(spec.name),
        "description": spec.description,
        "parameters": spec.input_schema,
    }


def to_anthropic_tool(spec: ToolSpec) -> dict[str, Any]:
    """An Anthropic Messages API tool."""
    return {
        "name": function_name(spec.name),
        "description": spec.description,
        "input_schema": spec.input_schema,
    }
