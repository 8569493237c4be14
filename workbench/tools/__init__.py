"""The tool model: Action in, Observation out, described by a ToolDefinition.

Pure Python and pydantic: no IPython, no MCP client, no event loop.
"""

from workbench.tools.annotations import ToolAnnotations
from workbench.tools.definition import ToolDefinition, ToolExecutor
from workbench.tools.export import (
    to_anthropic_tool,
    to_mcp_tool,
    to_openai_tool,
    to_responses_tool,
)
from workbench.tools.from_function import FunctionTool, tool
from workbench.tools.schema import (
    Action,
    AudioContent,
    BlobResourceContents,
    ContentBlock,
    EmbeddedResource,
    ErrorKind,
    ImageContent,
    Observation,
    ResourceLink,
    TextContent,
    TextResourceContents,
)

__all__ = [
    "Action",
    "AudioContent",
    "BlobResourceContents",
    "ContentBlock",
    "EmbeddedResource",
    "ErrorKind",
    "FunctionTool",
    "ImageContent",
    "Observation",
    "ResourceLink",
    "TextContent",
    "TextResourceContents",
    "ToolAnnotations",
    "ToolDefinition",
    "ToolExecutor",
    "to_anthropic_tool",
    "to_mcp_tool",
    "to_openai_tool",
    "to_responses_tool",
    "tool",
]
