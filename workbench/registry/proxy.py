"""The agent-facing pair: ``find_tools`` and ``call_tool`` over the whole registry.

An agent gets two small tools instead of every schema of every server: it searches, then
calls by id. The proxy is pure: it calls tools through a function it is given (the
Workbench's ``call``), so it takes the one call path like everything else.

A proxy ``limited_to`` what a caller may see (the served gateway: notebook tools the surface
hides) knows nothing else: hits, calls, "Did you mean" suggestions, the servers' summary and
their counts all come from the visible tools, so a hidden tool reads as one that is not there.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import Field

from workbench.errors import AmbiguousToolError, ToolNotFoundError
from workbench.registry.entry import ToolEntry
from workbench.registry.registry import Registry
from workbench.registry.search import hit_to_dict
from workbench.registry.visibility import model_visible
from workbench.tools.annotations import ToolAnnotations
from workbench.tools.definition import ToolDefinition
from workbench.tools.from_function import tool
from workbench.tools.schema import ErrorKind, Observation

RESULT_LIMIT = 40_000
SUMMARY_NAMES = 5
CHARS_PER_TOKEN = 4

Caller = Callable[[str, dict[str, Any]], Observation]
Visible = Callable[[str], bool]
"""Whether a caller may see the tool of this id."""


def estimate_tokens(text: str) -> int:
    """Tokens of a text, estimated as one per four characters (rounded up).

    Good to within ~20% for English prose and JSON with common tokenizers; enough to compare
    a full catalog with the proxy, not to bill anyone.
    """
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def error_text(tool_id: str, kind: ErrorKind | None, message: str) -> str:
    """The one error shape agents see: ``[Tool error] server.tool: Kind: message``."""
    return f"[Tool error] {tool_id}: {(kind or ErrorKind.TOOL_ERROR).value}: {message}"


def truncate(text: str, limit: int) -> str:
    """Cut a result to ``limit`` characters, saying how much was cut."""
    if len(text) <= limit:
        return text
    cut = len(text) - limit
    return f"{text[:limit]}\n[truncated: {cut:,} of {len(text):,} characters not shown]"


@dataclass(frozen=True)
class TokenReport:
    """Estimated tokens of handing an agent every schema versus the proxy pair."""

    tools: int
    full_schemas: int
    proxy_schemas: int
    summaries: int
    pinned: tuple[str, ...] = ()
    """Tools listed directly beside the pair (a gateway's ``--pin``), by id."""
    pinned_schemas: int = 0

    @property
    def proxy_total(self) -> int:
        return self.proxy_schemas + self.pinned_schemas + self.summaries

    @property
    def saved_fraction(self) -> float:
        return 1 - self.proxy_total / self.full_schemas if self.full_schemas else 0.0

    def __str__(self) -> str:
        return (
            f"{self.tools} tools: ~{self.full_schemas:,} tokens as full schemas; "
            f"~{self.proxy_total:,} with the proxy ({self.proxy_schemas:,} for find_tools and "
            f"call_tool, {self._pins()}{self.summaries:,} for server summaries): "
            f"{self.saved_fraction:.0%} fewer."
        )

    def _pins(self) -> str:
        if not self.pinned:
            return ""
        tools = "tool" if len(self.pinned) == 1 else "tools"
        return f"{self.pinned_schemas:,} for {len(self.pinned)} pinned {tools}, "


class ToolProxy:
    """``find_tools`` / ``call_tool`` as Python functions, ToolDefinitions and summaries."""

    def __init__(
        self,
        registry: Registry,
        call: Caller,
        *,
        result_limit: int = RESULT_LIMIT,
        instructions: Mapping[str, str | None] | None = None,
        visible: Visible | None = None,
    ) -> None:
        self.registry = registry
        self._call = call
        self.result_limit = result_limit
        self.instructions = dict(instructions or {})
        self._visible = visible

    def limited_to(self, visible: Visible) -> ToolProxy:
        """This proxy, seeing (finding, calling, naming, counting) only the tools
        ``visible`` accepts."""
        return ToolProxy(
            self.registry,
            self._call,
            result_limit=self.result_limit,
            instructions=self.instructions,
            visible=visible,
        )

    def sees(self, tool_id: str) -> bool:
        """Whether this proxy's caller may see the tool ``tool_id``."""
        return self._visible is None or self._visible(tool_id)

    def entries(self, server: str | None = None) -> list[ToolEntry]:
        """The entries this proxy sees (of one server, or of all), sorted by id: never an
        App-only tool, which is for its App and people, not for a model."""
        return [
            entry
            for entry in self.registry.tools(server)
            if model_visible(entry.meta) and self.sees(entry.id)
        ]

    def find_tools(self, query: str, limit: int = 15) -> dict[str, Any]:
        """Search every tool; hits carry their input schema so the agent can call them."""
        hidden = 0 if self._visible is None else len(self.registry) - len(self.entries())
        results = self.registry.search(query, limit=limit + hidden)
        hits = []
        for hit in [hit for hit in results if self.sees(hit.id)][: max(limit, 0)]:
            found = hit_to_dict(hit)
            found["input_schema"] = self.registry.get(hit.id).input_schema
            hits.append(found)
        answer: dict[str, Any] = {"query": query, "tools": hits}
        if results.no_good_match or not hits:
            answer["note"] = "No tool matches this well; try other words or a server name."
        return answer

    def resolve(self, name: str) -> ToolEntry:
        """The visible entry ``name`` (an id, or a bare name one visible server has), or
        ToolNotFoundError / AmbiguousToolError naming only visible tools."""
        if self._visible is None:
            entry = self.registry.get(name)
            if model_visible(entry.meta):
                return entry
            raise ToolNotFoundError(name, self.registry.suggest(name, among=self.entries()))
        seen = self.entries()
        exact = [entry for entry in seen if entry.id == name]
        bare = exact or [entry for entry in seen if entry.name == name]
        if len(bare) == 1:
            return bare[0]
        if bare:
            raise AmbiguousToolError(name, [entry.id for entry in bare])
        raise ToolNotFoundError(name, self.registry.suggest(name, among=seen))

    def call_tool(self, name: str, arguments: Mapping[str, Any] | None = None) -> str:
        """Call a tool by id or unique bare name; the result (or error) as agent text."""
        try:
            entry = self.resolve(name)
        except (ToolNotFoundError, AmbiguousToolError) as error:
            return error_text(name, ErrorKind.NOT_FOUND, str(error))
        observation = self._call(entry.id, dict(arguments or {}))
        if observation.is_error:
            message = observation.error_message or observation.text
            return truncate(
                error_text(entry.id, observation.error_kind, message), self.result_limit
            )
        return truncate(_result_text(observation), self.result_limit)

    def server_summary(self) -> str:
        """Per server: tool count, a few names, and its instructions' first line."""
        lines = []
        for server in self.registry.servers():
            names = [entry.name for entry in self.entries(server)]
            if not names:
                continue  # a server whose every tool is hidden is not named either
            shown = ", ".join(names[:SUMMARY_NAMES])
            more = f" (+{len(names) - SUMMARY_NAMES} more)" if len(names) > SUMMARY_NAMES else ""
            line = f"- {server} ({len(names)} tools): {shown}{more}"
            first = (self.instructions.get(server) or "").strip().splitlines()
            if first:
                line += f". {first[0]}"
            lines.append(line)
        return "\n".join(lines)

    def definitions(self) -> list[ToolDefinition[Any, Any]]:
        """The pair as ToolDefinitions, so every export format (MCP, OpenAI, ...) works."""
        proxy = self

        @tool(name="find_tools", annotations=ToolAnnotations(read_only_hint=True))
        def find_tools(
            query: Annotated[str, Field(description="What you want to do, in a few words.")],
            limit: Annotated[int, Field(ge=1, le=50, description="How many tools.")] = 15,
        ) -> dict[str, Any]:
            """Search every connected MCP tool by what it does; returns ids, descriptions and
            input schemas. Then use call_tool with an id."""
            return proxy.find_tools(query, limit)

        @tool(name="call_tool", annotations=ToolAnnotations(open_world_hint=True))
        def call_tool(
            name: Annotated[str, Field(description="A tool id 'server.tool' from find_tools.")],
            arguments: Annotated[
                dict[str, Any] | None, Field(description="The tool's arguments.")
            ] = None,
        ) -> str:
            """Call a tool found with find_tools, by id, with its arguments."""
            return proxy.call_tool(name, arguments)

        return [find_tools, call_tool]

    def token_report(self, pinned: Iterable[str] = ()) -> TokenReport:
        """Estimated tokens: every full schema against the proxy's pair plus summaries, and
        the full schemas of the ``pinned`` tools (ids) listed beside the pair."""
        seen = self.entries()
        full = sum(estimate_tokens(_tool_json(entry)) for entry in seen)
        pair = sum(estimate_tokens(_tool_json(d)) for d in self.definitions())
        pins = tuple(self.resolve(name).id for name in pinned)
        return TokenReport(
            tools=len(seen),
            full_schemas=full,
            proxy_schemas=pair,
            summaries=estimate_tokens(self.server_summary()),
            pinned=pins,
            pinned_schemas=sum(estimate_tokens(_tool_json(self.registry.get(i))) for i in pins),
        )


def _tool_json(spec: Any) -> str:
    return json.dumps(
        {
            "name": spec.name,
            "description": spec.description,
            "inputSchema": spec.input_schema,
        },
        separators=(",", ":"),
    )


def _result_text(observation: Observation) -> str:
    parts = []
    for block in observation.to_llm_content():
        if block["type"] == "text":
            parts.append(block["text"])
        else:
            parts.append(f"[{block['type']} content: {block.get('mimeType') or block.get('uri')}]")
    return "\n".join(parts)
