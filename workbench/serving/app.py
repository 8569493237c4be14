"""The served server: the notebook's tools as a FastMCP server for outside clients.

Its tools come from a provider that reads the notebook's definitions at every request, so a
re-run ``%%tool`` cell is served at once, and asks the ``Surface`` whether each is shown: a
hidden tool is neither listed nor found (a call gets FastMCP's "Unknown tool"). Each call goes
through the Workbench's one call path (``call``), so it lands in the history. ``tools/list``
pages with signed cursors. ``notifications/tools/list_changed`` reaches both eras of clients:
handshake-era sessions (learned from their first message after initialize) and 2026-07-28
``subscriptions/listen`` streams.
"""

from __future__ import annotations

import asyncio
import contextvars
import hmac
from collections.abc import Awaitable, Callable, Collection, Coroutine, Mapping, Sequence
from typing import Any, cast

import mcp_types
from fastmcp.server.auth import AccessToken, TokenVerifier
from fastmcp.server.dependencies import get_context
from fastmcp.server.middleware import CallNext, Middleware, MiddlewareContext
from fastmcp.server.providers import Provider
from fastmcp.tools import Tool, ToolResult
from fastmcp.tools.base import InputRequiredToolResult
from fastmcp.utilities.versions import VersionSpec
from mcp.server.context import ServerRequestContext
from mcp.server.session import ServerSession
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ToolsListChanged
from mcp.shared.exceptions import MCPError
from mcp_types import LoggingLevel
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import PrivateAttr, TypeAdapter

from workbench.mcp.connection import LogRecord, ProgressCallback
from workbench.mcp.quiet import quiet_logging_deprecation
from workbench.names import LOCAL_SERVER
from workbench.serving.app_serving import apps_advertised
from workbench.serving.cursor import CursorError, Pages
from workbench.serving.gateway import GatewayTool
from workbench.serving.identity import VERSION, only_what_is_served
from workbench.serving.notebook_server import DefinitionTool
from workbench.serving.offer_components import OffersProvider
from workbench.serving.offer_pages import PagedOffers
from workbench.serving.offer_serving import OfferNotices
from workbench.serving.refusals import Refusals, Refused, refusal_of
from workbench.serving.rounds import Rounds
from workbench.serving.served_asking import served_call
from workbench.serving.stream_closing import closing, request_closer
from workbench.serving.surface import Surface
from workbench.serving.tasks import NotebookTasks, may_run_as_task, supports_tasks
from workbench.tools.definition import ToolDefinition
from workbench.tools.from_function import WRAP_MARKER
from workbench.tools.schema import Observation

CallFn = Callable[
    [str, dict[str, Any], ProgressCallback | None, Callable[[LogRecord], object] | None],
    Awaitable[Observation],
]
"""Calls a tool by id (``server.tool``) through the Workbench's call path, recorded as from
outside, with the call's progress and log callbacks (``Workbench.call``'s ``on_progress`` and
``on_log``)."""
Definitions = Callable[[], Mapping[str, ToolDefinition[Any, Any]]]
"""The notebook's tools now, by name."""

_CONTENT: TypeAdapter[list[Any]] = TypeAdapter(list[mcp_types.ContentBlock])


def tool_result(observation: Observation, wrapped: bool = False) -> ToolResult:
    """The Observation as FastMCP answers it; ``wrapped``: the structured content is the
    ``{"result": ...}`` wrapper of a non-object result, which FastMCP clients unwrap."""
    return ToolResult(
        content=_CONTENT.validate_python(observation.to_llm_content()),
        structured_content=observation.structured_content,
        is_error=observation.is_error,
        meta={"fastmcp": {"wrap_result": True}} if wrapped else None,
    )


class ServedTool(DefinitionTool):
    """A notebook tool as served: listed like the notebook server lists it, called through
    the Workbench (registry -> Action -> connection -> Observation -> history)."""

    _call: CallFn = PrivateAttr()
    _rounds: Rounds = PrivateAttr(default_factory=Rounds)

    @classmethod
    def serving(
        cls, definition: ToolDefinition[Any, Any], call: CallFn, rounds: Rounds | None = None
    ) -> ServedTool:
        made = cast("ServedTool", cls.wrap(definition))
        made._call = call
        if rounds is not None:  # the surface's; else one of its own
            made._rounds = rounds
        return made

    async def run(self, arguments: dict[str, Any]) -> ToolResult:
        """The call, its questions put to the client (``served_asking.py``); progress and
        logs reach the client before the answer."""
        tool_id = f"{LOCAL_SERVER}.{self.name}"
        with closing(request_closer(_served_request())):  # get_context().close_stream()
            result = await served_call(
                lambda progress, log: self._call(tool_id, arguments, progress, log),
                self._rounds,
                reporters,
            )
        if isinstance(result, mcp_types.InputRequiredResult):
            return InputRequiredToolResult(result)
        refusal = refusal_of(result, f"{tool_id}: ")
        if refusal is not None:  # the tool refused the call: the client gets the error
            return Refused(refusal)
        return tool_result(result, bool((self.output_schema or {}).get(WRAP_MARKER)))


def reporters(
    reports: list[asyncio.Task[None]],
) -> tuple[ProgressCallback | None, Callable[[LogRecord], object] | None]:
    """The call's progress and log records sent on to the outside client as MCP progress
    and log notifications. The Workbench calls them on the bridge loop, where this request
    runs, but from the notebook server's tasks: each becomes a task in this request's own
    context (its progress token, its session), awaited before the result goes out."""
    try:
        context = get_context()
    except RuntimeError:  # no request (a direct call): nobody to tell
        return None, None
    quiet_logging_deprecation()
    request = contextvars.copy_context()

    def send(report: Coroutine[Any, Any, None]) -> None:
        reports.append(request.run(asyncio.ensure_future, report))

    def progress(done: float, total: float | None, message: str | None) -> None:
        send(context.report_progress(done, total, message))

    def log(record: LogRecord) -> None:
        level = cast("LoggingLevel", record.level)
        send(context.log(record.message, level=level, logger_name=record.logger))

    return progress, log


def _served_request() -> Any:
    """fastmcp's Context of the request in flight, or None (a direct call)."""
    try:
        return get_context()
    except RuntimeError:
        return None


class NotebookProvider(Provider):
    """The notebook's tools that the surface shows, read at each request; and the gateway's
    pair, when asked for (``notebook=False``: the pair only)."""

    def __init__(
        self,
        definitions: Definitions,
        surface: Surface,
        call: CallFn,
        *,
        gateway: Mapping[str, ToolDefinition[Any, Any]] | None = None,
        notebook: bool = True,
        pinned: Callable[[], Mapping[str, Tool]] | None = None,
    ) -> None:
        super().__init__()
        self._definitions = definitions
        self._pinned: Callable[[], Mapping[str, Tool]] = pinned or dict  # pins.py
        self._surface = surface
        self._call = call
        self._notebook = notebook
        self._gateway = {
            name: cast("GatewayTool", GatewayTool.wrap(definition))
            for name, definition in (gateway or {}).items()
        }
        self._made: dict[str, tuple[ToolDefinition[Any, Any], ServedTool]] = {}
        self.rounds = Rounds()
        """Served calls waiting for a 2026-07-28 client's answers (``rounds.py``)."""

    def filtered(self) -> dict[str, ToolDefinition[Any, Any]]:
        """The notebook tools the surface lets through now, by name."""
        found = self._definitions()
        return {name: found[name] for name in sorted(found) if self._surface.shows(found[name])}

    def names(self) -> list[str]:
        """Every tool served now: the gateway's pair, then the notebook's."""
        pinned = [name for name in self._pinned() if name not in self._gateway]
        taken = {*self._gateway, *pinned}
        notebook = [name for name in self._notebook_shown() if name not in taken]
        return [*self._gateway, *pinned, *notebook]

    async def _list_tools(self) -> Sequence[Tool]:
        # enabled() is notebook code: it runs in a worker thread, never on the bridge loop.
        # Without one the filters are plain set lookups, asked here (a thread hop per request
        # was a measurable share of a served call, issue 29).
        if self._notebook and any(d.enabled is not None for d in self._definitions().values()):
            shown = await asyncio.to_thread(self._notebook_shown)
        else:
            shown = self._notebook_shown()
        pinned = {n: t for n, t in self._pinned().items() if n not in self._gateway}
        taken = {*self._gateway, *pinned}
        notebook = [self._served(shown[name]) for name in shown if name not in taken]
        return [*self._gateway.values(), *pinned.values(), *notebook]

    async def _get_tool(self, name: str, version: VersionSpec | None = None) -> Tool | None:
        if name in self._gateway:
            return self._gateway[name]
        pinned = self._pinned().get(name)
        if pinned is not None:
            return pinned
        definition = self._definitions().get(name) if self._notebook else None
        if definition is None:
            return None
        if definition.enabled is None:  # no notebook code to ask: no worker thread
            shown = self._surface.shows(definition)
        else:
            shown = await asyncio.to_thread(self._surface.shows, definition)
        if not shown:
            return None
        return self._served(definition)

    def _notebook_shown(self) -> dict[str, ToolDefinition[Any, Any]]:
        return self.filtered() if self._notebook else {}

    def _served(self, definition: ToolDefinition[Any, Any]) -> ServedTool:
        made = self._made.get(definition.name)
        if made is None or made[0] is not definition:  # a re-run cell made a new one
            made = (definition, ServedTool.serving(definition, self._call, self.rounds))
            self._made[definition.name] = made
        return made[1]


class BearerToken(TokenVerifier):
    """One static bearer token, compared in constant time."""

    def __init__(self, token: str) -> None:
        super().__init__()
        self._token = token

    async def verify_token(self, token: str) -> AccessToken | None:
        if not hmac.compare_digest(token.encode(), self._token.encode()):
            return None
        return AccessToken(token=token, client_id="workbench-client", scopes=[])


class Announcer(Middleware):
    """Tells connected clients that the tool list changed, in both protocol eras: on each
    handshake-era session's standalone stream (the SSE GET stream), and on every
    2026-07-28 ``subscriptions/listen`` stream. A session is learned from the first message
    it sends after initialize (``initialize`` itself carries no session id yet)."""

    def __init__(self) -> None:
        # Mcp-Session-Id -> a ServerSession of that session: its notifications go out on
        # the session's standalone stream, whichever request it came with.
        self._sessions: dict[str, ServerSession] = {}
        self.live: Callable[[], Collection[str]] = lambda: self._sessions.keys()
        """The ids of the sessions still open (the handle asks the session manager)."""
        self.bus = InMemorySubscriptionBus()
        self.listen = ListenHandler(self.bus)

    async def on_message(
        self, context: MiddlewareContext[Any], call_next: CallNext[Any, Any]
    ) -> Any:
        # Every message of a session, notifications too: a client that initializes, sends
        # notifications/initialized and opens its GET stream sends no request (G17).
        served = context.fastmcp_context
        request = None if served is None else served.request_context
        if request is not None and request.request is not None:
            session_id = request.request.headers.get("mcp-session-id")
            if session_id and request.protocol_version not in MODERN_PROTOCOL_VERSIONS:
                self._sessions[session_id] = request.session
        return await call_next(context)

    @property
    def listeners(self) -> int:
        """Open ``subscriptions/listen`` streams (2026-07-28 clients waiting for changes)."""
        return len(self.listen._streams)

    def sessions(self) -> list[ServerSession]:
        """The handshake-era sessions still open (closed ones are forgotten here)."""
        live = set(self.live())
        for session_id in [known for known in self._sessions if known not in live]:
            del self._sessions[session_id]
        return list(self._sessions.values())

    async def announce(self) -> None:
        for session in self.sessions():
            await session.send_tool_list_changed()  # best effort: it never raises
        await self.bus.publish(ToolsListChanged())


class ServedServer(PagedOffers):
    """A FastMCP server whose lists page with this server's signed cursors; with ``offers``
    it serves the notebook's resources, templates and prompts too (``offer_serving``)."""

    def __init__(
        self,
        name: str,
        *,
        provider: Provider,
        instructions: str | None,
        auth: TokenVerifier | None,
        page_size: int,
        offers: OffersProvider | None = None,
    ) -> None:
        self.announcer = Announcer()
        self.pages = Pages(page_size)
        super().__init__(
            name,
            instructions=instructions,
            version=VERSION,
            auth=auth,
            providers=[provider] if offers is None else [provider, offers],
            middleware=[self.announcer, Refusals()],
            # Each tool's schema as written ($defs and $ref kept, JSON Schema 2020-12), not
            # FastMCP's inlined copy: the conformance suite's json-schema-2020-12 checks it.
            dereference_schemas=False,
        )
        self._mcp_server.add_request_handler(
            "subscriptions/listen",
            mcp_types.SubscriptionsListenRequestParams,
            self.announcer.listen,
        )
        self.offers = None if offers is None else OfferNotices(offers)
        if offers is not None and self.offers is not None:
            self.offers.install(self._mcp_server)
            self.add_completion_handler(offers.complete)
        self.tasks = NotebookTasks(
            lambda: supports_tasks(provider), may_run=lambda name: may_run_as_task(provider, name)
        )
        self.add_extension(self.tasks)
        only_what_is_served(
            self, offers, lambda: {**self.tasks.advertised(), **apps_advertised(provider)}
        )

    async def _on_list_tools(
        self, ctx: ServerRequestContext, params: mcp_types.PaginatedRequestParams | None
    ) -> mcp_types.ListToolsResult:
        every = await super()._on_list_tools(ctx, None)
        try:
            page, next_cursor = self.pages.page(every.tools, params.cursor if params else None)
        except CursorError as error:
            raise MCPError(code=mcp_types.INVALID_PARAMS, message=str(error)) from None
        return mcp_types.ListToolsResult(tools=page, next_cursor=next_cursor)
