"""The local server: an in-kernel FastMCP server named ``notebook`` holding notebook tools.

Tools defined in the kernel (``@tool`` functions, ``%%tool`` cells, ToolDefinitions) are
served by a real MCP server, so they take the same call path as any remote tool and can
later be served to outside clients unchanged. Their schema is the ToolDefinition's own.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
from collections.abc import Iterable, Iterator, Mapping
from contextvars import ContextVar
from typing import Any

import mcp.types
from fastmcp import FastMCP
from fastmcp.tools import Tool, ToolResult
from pydantic import PrivateAttr, TypeAdapter

from workbench.bridge import bound_to_another_loop, run_in_notebook
from workbench.names import LOCAL_SERVER
from workbench.serving.identity import VERSION
from workbench.serving.offer_components import OffersProvider
from workbench.serving.offer_table import OfferTable
from workbench.serving.refusals import Refusals, Refused, refusal_of
from workbench.serving.tool_context import serving
from workbench.tools.definition import ToolDefinition
from workbench.tools.export import to_mcp_tool
from workbench.tools.schema import ErrorKind, Observation, TextContent

_CONTENT: TypeAdapter[list[Any]] = TypeAdapter(list[mcp.types.ContentBlock])
INSTRUCTIONS = "Tools defined in this notebook's kernel."
AWAIT_ADVICE = (
    "call it with `await wb.acall(...)` instead (in a widget or from another thread it works "
    "as is)."
)

GIVE_BACK_GRACE = 0.5
"""How long a timed-out call waits for its displaced tool's worker to stop and give back
what it bound (the cancel reaches it in milliseconds; a tool ignoring it takes the grace)."""

Displaced = list[concurrent.futures.Future[None]]
"""The workers that ran a call's notebook tools displaced: each done once it has ended."""
_displaced: ContextVar[Displaced | None] = ContextVar("workbench_displaced_tools", default=None)


@contextlib.contextmanager
def noting_displaced() -> Iterator[Displaced]:
    """Collect the workers that ran a notebook tool of the calls made in this context because
    a sync call blocked the kernel's loop (``run_definition`` appends them): the in-process
    server serves a call in its caller's context."""
    noted: Displaced = []
    token = _displaced.set(noted)
    try:
        yield noted
    finally:
        _displaced.reset(token)


async def explain_timeout(observation: Observation, displaced: Displaced) -> Observation:
    """A call that timed out while its notebook tool ran displaced may have waited on what
    only the blocked kernel's loop could provide, which it can never get: once the worker has
    given back what the tool bound (so the next cell may use it at once), say so, with the
    way out. Any other Observation is returned as it is."""
    if observation.error_kind is not ErrorKind.TIMEOUT or not displaced:
        return observation
    await asyncio.wait([asyncio.wrap_future(ended) for ended in displaced], timeout=GIVE_BACK_GRACE)
    message = (
        f"{observation.error_message} It ran on a worker loop because this synchronous call "
        "keeps the kernel's event loop busy; if it waits on something only that loop provides "
        f"(an asyncio object a cell sets, work handed to that loop), {AWAIT_ADVICE}"
    )
    return observation.model_copy(
        update={"error_message": message, "content": [TextContent(text=message)]}
    )


async def run_definition(
    definition: ToolDefinition[Any, Any], arguments: Mapping[str, Any]
) -> Observation:
    """Call a definition where the notebook's objects live, never on the bridge's loop.

    Sync executors run in a worker thread; async ones on the kernel's loop when it is free,
    else on a worker loop (``run_in_notebook``), where asyncio objects of the kernel's loop
    fail: that error says to ``await`` the call, the one way to leave the kernel's loop free.
    A displaced tool is noted for ``noting_displaced``: its timeout says the same.
    """
    if not definition.is_async:
        return await asyncio.to_thread(definition.call, arguments)
    noted = _displaced.get()
    observation, displaced = await run_in_notebook(
        lambda: definition.acall(arguments),
        f"{LOCAL_SERVER}.{definition.name}",
        None if noted is None else noted.append,
    )
    message = observation.error_message or ""
    if displaced and observation.is_error and bound_to_another_loop(message):
        why = f"needs the kernel's event loop, which this synchronous call keeps busy ({message})"
        return _needs_kernel_loop(definition, why, observation.duration)
    return observation


def _needs_kernel_loop(
    definition: ToolDefinition[Any, Any], why: str, duration: float | None
) -> Observation:
    return Observation.error(
        ErrorKind.TOOL_ERROR, f"{definition.name} {why}: {AWAIT_ADVICE}", duration=duration
    )


def _request_context() -> Any:
    """fastmcp's Context of the call being served, or None outside a request."""
    from fastmcp.server.dependencies import get_context

    try:
        return get_context()
    except RuntimeError:
        return None


class DefinitionTool(Tool):
    """A FastMCP tool that runs a workbench ToolDefinition."""

    _definition: ToolDefinition[Any, Any] = PrivateAttr()

    @classmethod
    def wrap(cls, definition: ToolDefinition[Any, Any]) -> DefinitionTool:
        """The definition as FastMCP serves it; the fields an MCP client sees come from
        ``to_mcp_tool``, the one mapping of a tool to MCP's ``Tool``."""
        listed = to_mcp_tool(definition)
        made = cls(
            name=listed.name,
            title=listed.title,
            description=listed.description,
            parameters=listed.input_schema,
            output_schema=listed.output_schema,
            annotations=listed.annotations,
            icons=listed.icons,
            tags=set(definition.tags),
            meta=definition.meta,
        )
        made._definition = definition
        return made

    async def run(self, arguments: dict[str, Any]) -> ToolResult:
        return await self.answer(arguments, _request_context())

    async def answer(self, arguments: dict[str, Any], request: Any) -> ToolResult:
        """The call answered for ``request``: fastmcp's Context of the call, or what stands
        for it on a served call that skips the MCP hop (``direct.py``); None: silent."""
        with serving(self._definition.name, request) as context:
            observation = await run_definition(self._definition, arguments)
        await context.sent()  # progress and logs reach the client before the answer
        refusal = refusal_of(observation)
        if refusal is not None:  # the tool raised ProtocolError: a JSON-RPC error
            return Refused(refusal)
        return ToolResult(
            content=_CONTENT.validate_python(observation.to_llm_content()),
            structured_content=observation.structured_content,
            is_error=observation.is_error,
        )


class LocalServer:
    """The ``notebook`` server and which of its tools each source (e.g. a cell) defined."""

    def __init__(self) -> None:
        self.server = FastMCP(
            LOCAL_SERVER, instructions=INSTRUCTIONS, version=VERSION, middleware=[Refusals()]
        )
        self._owners: dict[str, str] = {}
        self._definitions: dict[str, ToolDefinition[Any, Any]] = {}
        self._tools: dict[str, DefinitionTool] = {}  # as served, for direct calls
        # Resources, templates and prompts of cells: read from the table at each request.
        self.offers = OfferTable()
        self.offers_provider = OffersProvider(lambda: self.offers)
        self.server.add_provider(self.offers_provider)
        self.server.add_completion_handler(self.offers_provider.complete)

    def names(self) -> list[str]:
        return sorted(self._owners)

    def definitions(self) -> list[ToolDefinition[Any, Any]]:
        """The notebook tools' definitions, by name (``Workbench.export`` writes them out)."""
        return [self._definitions[name] for name in sorted(self._definitions)]

    def tool(self, name: str) -> DefinitionTool | None:
        """The tool ``name`` as this server runs it, or None."""
        return self._tools.get(name)

    def owner_of(self, name: str) -> str | None:
        """Who defined the tool ``name`` (a cell, say), or None if there is no such tool."""
        return self._owners.get(name)

    def add(self, definition: ToolDefinition[Any, Any], owner: str = "") -> None:
        """Add or replace one tool."""
        if definition.name in self._owners:
            self.server.local_provider.remove_tool(definition.name)
        served = DefinitionTool.wrap(definition)
        self.server.add_tool(served)
        self._owners[definition.name] = owner
        self._definitions[definition.name] = definition
        self._tools[definition.name] = served

    def remove(self, name: str) -> bool:
        """Remove one tool; False if there was none by that name."""
        if self._owners.pop(name, None) is None:
            return False
        del self._definitions[name]
        del self._tools[name]
        self.server.local_provider.remove_tool(name)
        return True

    def replace_owned(
        self, owner: str, definitions: Iterable[ToolDefinition[Any, Any]]
    ) -> list[str]:
        """Make ``definitions`` the tools of ``owner``: re-running a cell drops the tools it
        no longer defines. Returns the names dropped, sorted."""
        fresh = list(definitions)
        keep = {definition.name for definition in fresh}
        dropped = sorted(
            name for name, current in self._owners.items() if current == owner and name not in keep
        )
        for name in dropped:
            self.remove(name)
        for definition in fresh:
            self.add(definition, owner)
        return dropped
