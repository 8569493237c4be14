"""Serving the notebook's tools (or one connection's) over streamable HTTP, and the handle
that controls it.

The server is uvicorn serving the FastMCP app as a task on the bridge loop, never blocking
the kernel. Safe by default: bound to 127.0.0.1 (another address needs ``allow_remote``), a
random bearer token (a missing or wrong one is HTTP 401 and nothing runs), Host and Origin
checked against the bound address (DNS rebinding). The token is never printed: the handle
shows it masked and gives it whole only as ``handle.token``. Connections are bounded below
the app (``guard``): a request's headers must come within seconds, and connections without
the token are capped, so no local process can hold the kernel's file descriptors.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypedDict

import uvicorn

from workbench.bridge import Bridge
from workbench.errors import ServeError
from workbench.names import LOCAL_SERVER, check_server_name
from workbench.registry import Registry
from workbench.registry.proxy import ToolProxy
from workbench.secrets import is_template
from workbench.serving.again import again, choose_token, listen_again
from workbench.serving.app import (
    BearerToken,
    CallFn,
    Definitions,
    NotebookProvider,
    ServedServer,
)
from workbench.serving.clients import client_configs, token_variable
from workbench.serving.event_store import RETRY_MS, BoundedEventStore
from workbench.serving.gateway import ALSO, GATEWAY_MODES, ONLY, gateway_definitions, guarded
from workbench.serving.guard import (
    ConnectionGuard,
    GuardedProtocol,
    GuardedSocket,
    quiet_accept_errors,
)
from workbench.serving.offer_components import OffersProvider
from workbench.serving.offer_serving import offer_names, shown_by
from workbench.serving.offer_table import OfferChange, OfferTable
from workbench.serving.pins import Pins
from workbench.serving.relay import ServerProvider
from workbench.serving.sessions import DEFAULT_IDLE_TIMEOUT, DEFAULT_MAX_SESSIONS, SessionCap
from workbench.serving.sessions import check as check_sessions
from workbench.serving.surface import Surface
from workbench.serving.token_file import remove_token, save_token
from workbench.tools.definition import ToolDefinition

PATH = "/mcp"
DEFAULT_PAGE_SIZE = 100
LOOPBACK_NAMES = frozenset({"localhost"})
GATEWAY_INSTRUCTIONS = (
    "Search the tools of every connected MCP server with find_tools, then call one with "
    "call_tool.\nServers:\n"
)


def is_loopback(host: str) -> bool:
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class ServeOptions(TypedDict, total=False):
    """What ``Workbench.serve`` takes (see ``serve``)."""

    host: str
    port: int
    token: str | None
    new_token: bool
    auth: bool
    allow_remote: bool
    expose: Iterable[str] | None
    exclude: Iterable[str]
    page_size: int
    instructions: str | None
    gateway: bool | str | None
    pin: Iterable[str]
    server: str | None
    session_idle_timeout: float
    max_sessions: int


class ServeHandle:
    """A served surface: its URL, its token (masked when shown), its clients, ``stop()``."""

    def __init__(
        self,
        bridge: Bridge,
        server: ServedServer,
        provider: NotebookProvider | ServerProvider,
        surface: Surface,
        known: Callable[[], Iterable[str]],
        listening: GuardedSocket,
        token: str | None,
        token_shown: str | None,
        session_idle_timeout: float = DEFAULT_IDLE_TIMEOUT,
        max_sessions: int = DEFAULT_MAX_SESSIONS,
    ) -> None:
        self._bridge = bridge
        self._server = server
        self._provider = provider
        self._surface = surface
        self._known = known
        self.server = provider.server if isinstance(provider, ServerProvider) else LOCAL_SERVER
        """The server whose tools are served (``notebook``: the notebook's own tools)."""
        self._socket = listening
        self._token = token
        self.token_shown = token_shown
        """The token as it may be shown: ``***``, or the ``${env:VAR}`` template given."""
        host, port = listening.getsockname()[:2]
        self.host: str = host
        self.port: int = port
        shown_host = f"[{host}]" if ":" in host else host
        self.url = f"http://{shown_host}:{port}{PATH}"
        self.notes: list[str] = []
        """What to say before anything else: filter names no tool has yet, and whether
        serving again kept the address and the token."""
        self.token_file: Path | None = None
        """The file holding the token, readable by its owner only (removed at ``stop``)."""
        self.pins: Pins | None = None
        """With the gateway: its pinned tools and its token meter (``pins.token_report()``)."""
        self.guard = ConnectionGuard(token, where=f"Serving at {self.url}")
        """The connections' deadlines and caps, and what they closed (``guard.counts``)."""
        self._app = server.http_app(
            path=PATH,
            host_origin_protection=True,
            allowed_hosts=["*"] if ipaddress.ip_address(host).is_unspecified else None,
            session_idle_timeout=session_idle_timeout,
            event_store=BoundedEventStore(),  # SSE resumption (SEP-1699)
            retry_interval=RETRY_MS,
        )
        listening.guard = self.guard
        quiet_accept_errors()
        capped = SessionCap(
            self._app,
            path=PATH,
            limit=max_sessions,
            sessions=self._sessions,
            authorised=self.guard.authorised,
        )
        config = uvicorn.Config(
            capped,
            http=GuardedProtocol.bound(self.guard),
            log_config=None,
            log_level="warning",
            access_log=False,
            lifespan="on",
            timeout_graceful_shutdown=2,
        )
        self._uvicorn = uvicorn.Server(config)
        server.announcer.live = self._session_ids
        self._done: asyncio.Event | None = None
        self._stopped = False
        self._unsubscribe: Callable[[], None] = _nothing

    # -- what it serves ---------------------------------------------------------------------

    @property
    def token(self) -> str | None:
        """The bearer token clients send (None without auth). Never printed by the workbench:
        clients read it from ``token_file`` or the ``${env:VAR}`` it came from; never print
        it in a cell (the saved notebook would keep it)."""
        return self._token

    @property
    def running(self) -> bool:
        """Whether it serves: not stopped, and the server task has not ended on its own."""
        return not self._stopped and not (self._done is not None and self._done.is_set())

    @property
    def clients(self) -> int:
        """Clients connected now: handshake-era sessions plus 2026-07-28 listen streams."""
        return len(self._session_ids()) + self._server.announcer.listeners

    def tools(self) -> list[str]:
        """Names of the tools served now: the gateway's pair if served, then the notebook
        tools the filters and their ``enabled`` let through (or ``server``'s tools the
        filters let through)."""
        return self._provider.names()

    def offers(self) -> tuple[list[str], list[str]]:
        """The notebook's resources (by URI) and prompts (by name) served now."""
        notices = self._server.offers
        if notices is None:
            return [], []
        found = notices.provider
        return [d.uri for d in found.resources()], [p.name for p in found.prompts()]

    def allow_tools(self, names: Iterable[str] | None) -> None:
        """Serve only ``names`` from now on (None: all the filters let through); connected
        clients are told the list changed."""
        self._surface.allow(None if names is None else list(names), self._known())
        self.announce()

    def announce_offers(self, change: OfferChange) -> None:
        """Tell connected clients what a change of the notebook's resources and prompts did
        (``offer_serving``); nothing when this surface serves none of them."""
        notices = self._server.offers
        if notices is None or self._stopped:
            return
        announcer = self._server.announcer
        self._bridge.submit(notices.announce(change, announcer.sessions(), announcer.bus))

    def announce(self) -> None:
        """Send ``notifications/tools/list_changed`` to connected clients (done for you on
        every change of the served server's tools and on ``allow_tools``)."""
        if not self._stopped:
            self._bridge.submit(self._server.announcer.announce())

    @property
    def token_variable(self) -> str:
        """The environment variable the client configurations read the token from."""
        return token_variable(self.token_shown)

    def client_configs(self) -> dict[str, str]:
        """Ready-to-paste client configurations; the token is a placeholder, never its value."""
        return client_configs(self.url, self.token_shown, self.token_file)

    # -- lifecycle --------------------------------------------------------------------------

    def stop(self, timeout: float = 5.0) -> None:
        """Stop serving and close the port (idempotent)."""
        if self._stopped:
            return
        self._stopped = True
        self._unsubscribe()
        remove_token(self.token_file)
        if self._bridge.closed:
            self._socket.close()
            return
        self._bridge.run(self._shutdown(timeout))

    def __repr__(self) -> str:
        state = f"{self.clients} clients" if self.running else "stopped"
        auth = f"token {self.token_shown}" if self.token_shown else "no auth"
        tools = f"{len(self.tools())} tools" + (
            "" if self.server == LOCAL_SERVER else f" of {self.server}"
        )
        return f"<ServeHandle {self.url} ({auth}, {tools}, {state})>"

    def _session_ids(self) -> list[str]:
        """The handshake-era sessions open now (the session manager's own table)."""
        return list(self._sessions())

    def _sessions(self) -> dict[str, Any]:
        """The session manager's own table of handshake-era sessions: id -> transport."""
        manager = _session_manager(self._app)
        found: dict[str, Any] = getattr(manager, "_server_instances", None) or {}
        return found

    def _follow(self, subscribe: Callable[[Callable[[str], None]], Callable[[], None]]) -> None:
        """Announce every change of the served server's tools in the registry."""

        def changed(server: str) -> None:
            if server == self.server:
                self.announce()

        self._unsubscribe = subscribe(changed)

    async def _serve(self) -> None:
        self._done = asyncio.Event()
        try:
            await self._uvicorn.serve(sockets=[self._socket])
        finally:
            self._socket.close()
            self._done.set()

    async def _started(self, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while not self._uvicorn.started:
            if self._done is not None and self._done.is_set():
                raise ServeError(f"The server at {self.url} stopped while starting.")
            if time.monotonic() > deadline:
                raise ServeError(f"The server at {self.url} did not start in {timeout:g} s.")
            await asyncio.sleep(0.01)

    async def _shutdown(self, timeout: float) -> None:
        # End the streams clients hold open first (2026-07-28 listen streams, handshake-era
        # sessions), or uvicorn waits for them until its graceful timeout.
        self._server.announcer.listen.close()
        for transport in list(self._sessions().values()):
            with contextlib.suppress(Exception):  # one already gone
                await transport.terminate()
        await asyncio.sleep(0)  # let the listen handlers send their last frame
        self._uvicorn.should_exit = True
        if self._done is None:
            self._socket.close()
            return
        try:
            await asyncio.wait_for(self._done.wait(), timeout)
        except asyncio.TimeoutError:
            self._uvicorn.force_exit = True
            await asyncio.wait_for(self._done.wait(), timeout)


def serve(
    bridge: Bridge,
    *,
    definitions: Definitions,
    call: CallFn,
    registry: Registry,
    check: Callable[[str], None],
    replacing: ServeHandle | None = None,
    host: str = "127.0.0.1",
    port: int = 0,
    token: str | None = None,
    new_token: bool = False,
    auth: bool = True,
    allow_remote: bool = False,
    expose: Iterable[str] | None = None,
    exclude: Iterable[str] = (),
    page_size: int = DEFAULT_PAGE_SIZE,
    instructions: str | None = None,
    gateway: bool | str | None = None,
    pin: Iterable[str] = (),
    proxy: Callable[[], ToolProxy] | None = None,
    server: str | None = None,
    session_idle_timeout: float = DEFAULT_IDLE_TIMEOUT,
    max_sessions: int = DEFAULT_MAX_SESSIONS,
    offers: Callable[[], OfferTable | None] | None = None,
) -> ServeHandle:
    """Start serving the notebook's tools (or connection ``server``'s); the handle controls
    it. ``replacing`` is stopped once the options are checked, before the port is bound;
    its port and token are kept, so pasted client configurations keep working.

    ``host`` (127.0.0.1; another than loopback needs ``allow_remote``), ``port`` (0: the
    replaced one's, else a free one), ``token`` (by default the replaced one's, else
    ``${env:WORKBENCH_TOKEN}`` when the kernel has it, else a random one, written to a file
    only its owner reads; a ``${env:VAR}`` template is read from the environment),
    ``new_token`` (a random one even when serving again), ``auth=False`` (no token at all,
    with a warning), ``expose`` (only these tools, those defined later too) then
    ``exclude`` (never these; it wins), ``page_size`` (tools per ``tools/list``
    page), ``instructions`` (sent to clients at initialize), ``gateway`` (``"also"`` or
    True: serve ``find_tools`` / ``call_tool`` over every connected server next to the
    notebook tools; ``"only"``: the pair alone; ``proxy`` makes it; ``pin``: connected tools
    listed directly beside the pair, see ``pins.py``), ``server`` (serve that
    connection's tools as the registry knows them, each call through ``call``; ``check``
    raises UnknownServerError for a name neither connected nor in ``registry``; ``notebook``
    is the default; not with ``gateway``, which already reaches every server),
    ``session_idle_timeout`` (seconds a handshake-era session may stay idle before it ends;
    30 min) and ``max_sessions`` (sessions open at once; past it the one idle the longest
    ends, and when all are busy a new one is refused with 503; 1,000). ``offers``: the
    notebook's resources and prompts, served beside its tools under the same filters.
    """
    if not is_loopback(host) and not allow_remote:
        raise ServeError(
            f"Serving on {host} lets other machines call the notebook's tools; pass "
            "allow_remote=True (--allow-remote) to mean it, or keep the default 127.0.0.1."
        )
    relayed = _relayed(server, registry, check, gateway)
    secret, shown = choose_token(token, auth, None if new_token else replacing)
    if isinstance(page_size, bool) or page_size < 1:
        raise ServeError(f"page_size must be a positive whole number, got {page_size!r}.")
    try:
        check_sessions(session_idle_timeout, max_sessions)
    except ValueError as error:
        raise ServeError(str(error)) from None
    mode = ALSO if gateway is True else (gateway or None)
    if mode is not None and mode not in GATEWAY_MODES:
        raise ServeError(f"gateway is {ALSO!r} or {ONLY!r} (or True), not {gateway!r}.")
    pin = list(pin)  # an iterator is read once
    if mode is None and pin:
        raise ServeError("pin lists tools beside the gateway's pair: serve with gateway too.")
    provider: NotebookProvider | ServerProvider
    offered: OffersProvider | None = None
    known: Callable[[], Iterable[str]] = definitions
    pins: Pins | None = None
    if relayed is not None:
        surface = Surface(
            expose, exclude, what=f"tool of {relayed}", appears=f"once {relayed} lists it"
        )
        provider = ServerProvider(relayed, registry, surface, call)
        known = provider.known
    else:
        surface = Surface(expose, exclude)
        pair = None
        if mode is not None:
            if proxy is None:
                raise ServeError("The gateway needs the Workbench's proxy.")

            def filtered() -> dict[str, ToolDefinition[Any, Any]]:
                found = definitions()
                return {name: found[name] for name in found if surface.shows(found[name])}

            seen = guarded(proxy(), filtered)  # hidden tools are neither named nor counted
            if instructions is None:
                summary = seen.server_summary() or "(none connected yet)"
                instructions = GATEWAY_INSTRUCTIONS + summary
            pair = gateway_definitions(seen)
            pins = Pins(seen, call, pin, taken=filtered() if mode != ONLY else ())
        provider = NotebookProvider(definitions, surface, call, gateway=pair, notebook=mode != ONLY,
                                    pinned=None if pins is None else pins.tools)  # fmt: skip
        if offers is not None and mode != ONLY:
            offered = OffersProvider(offers, shown_by(surface, definitions))
            known = _with_offers(definitions, offers)
    notes = surface.check(known(), stacklevel=4)  # check < serve < Workbench.serve < caller
    served = ServedServer(
        relayed or LOCAL_SERVER,
        provider=provider,
        instructions=instructions,
        auth=None if secret is None else BearerToken(secret),
        page_size=page_size,
        offers=offered,
    )
    if replacing is not None:
        replacing.stop()  # every option is checked: the new surface takes its place
    listening, taken = listen_again(host, port, replacing)
    handle = ServeHandle(
        bridge,
        served,
        provider,
        surface,
        known,
        listening,
        secret,
        shown,
        session_idle_timeout=session_idle_timeout,
        max_sessions=max_sessions,
    )
    bridge.submit(handle._serve())
    try:
        bridge.run(handle._started())
    except BaseException:
        handle.stop()
        raise
    handle._follow(registry.subscribe)
    handle.pins = pins
    if secret is not None and not is_template(shown or ""):
        handle.token_file = save_token(secret, handle.port)
    handle.notes = notes + again(replacing, handle, taken)
    return handle


def _relayed(
    server: str | None, registry: Registry, check: Callable[[str], None], gateway: object
) -> str | None:
    """The connection whose tools are served, or None for the notebook's own tools; an
    unknown name is an UnknownServerError (``check``), a bad one a ServerNameError."""
    if server is None or check_server_name(server) == LOCAL_SERVER:
        return None
    if server not in registry.servers():
        check(server)  # connected, failed or refused: its tools are served when it has some
    if gateway:
        raise ServeError(
            f"server={server!r} and gateway do not combine: the gateway already reaches every "
            "server's tools; serve one or the other."
        )
    return server


def _with_offers(
    definitions: Definitions, offers: Callable[[], OfferTable | None]
) -> Callable[[], list[str]]:
    """The names filters may give: the notebook's tools, resources and prompts."""
    return lambda: [*definitions(), *offer_names(offers)]


def _session_manager(app: object) -> object:
    """The streamable-HTTP session manager behind the app's MCP route (FastMCP sets it on
    the route's ASGI app at startup), or None."""
    for route in getattr(app, "routes", ()):
        found = getattr(route, "app", None)
        for _ in range(4):  # through the auth wrapper, if any
            manager = getattr(found, "session_manager", None)
            if manager is not None:
                return manager
            found = getattr(found, "app", None)
    return None


def _nothing() -> None:
    """Unsubscribes nothing (a handle not yet following the registry)."""
