"""Workbench: the one object per kernel that owns the bridge, connections, registry, history.

Every capability is a method here, usable from plain Python; magics and widgets only parse,
call and display. Every tool call, whatever its origin, takes one path:
registry -> Action -> connection -> Observation -> history.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
import warnings
import weakref
from collections.abc import Callable, Coroutine, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar, overload

from workbench.apps.hosting import AppHost
from workbench.bridge import Bridge
from workbench.config import read_specs
from workbench.config.spec import ConnectOptions, ServerSpec, server_spec
from workbench.display import install_views
from workbench.errors import (
    AmbiguousToolError,
    ConfigError,
    ConnectionWarning,
    InvalidArgumentsError,
    OneLineError,
    ToolNotFoundError,
    WorkbenchClosedError,
)
from workbench.events import EventLog
from workbench.history import CALL_SOURCE, OUTSIDE, History
from workbench.listeners import Listeners
from workbench.mcp.answers import ClientAnswers
from workbench.mcp.connection import LogRecord, ProgressCallback, ServerChange
from workbench.mcp.direct import DirectCall
from workbench.mcp.manager import ConnectionManager, ServerInfo
from workbench.mcp.release import Release, weakly
from workbench.names import LOCAL_SERVER
from workbench.registry import Registry, ToolEntry, call_input
from workbench.session.logs import LogCallback, ServerLogs
from workbench.session.notebook_offers import NotebookOffers
from workbench.session.offerings import Offerings
from workbench.session.publishing import Publishing
from workbench.session.signing import Signing
from workbench.session.task_calls import Tasks
from workbench.session.tasks import TaskHandle
from workbench.tools.definition import ToolDefinition
from workbench.tools.from_function import tool as make_tool
from workbench.tools.schema import ErrorKind, Observation

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from workbench.serving import ServeHandle
    from workbench.serving.notebook_server import LocalServer
    from workbench.workspace import Workspace

T = TypeVar("T")


@dataclass(frozen=True)
class ToolChange:
    """What a change of notebook tools did: the entries now served, the names it removed."""

    entries: list[ToolEntry]
    removed: list[str]


class Workbench(ServerLogs, Offerings, NotebookOffers, Publishing, Signing, Tasks):
    """Connections to MCP servers, every tool in one registry, and a history of calls."""

    def __init__(self, *, log_level: str = "info") -> None:
        install_views()  # its Observations, listings and prompts show as the magics show them
        self.registry = Registry()
        self.history = History()
        self.events = EventLog()  # what event tools emitted (workbench/events.py)
        self._workspaces: dict[Path, Workspace] = {}
        self._logs: Listeners[LogRecord] = Listeners("server logs")
        self._call_logs: dict[str, Listeners[LogRecord]] = {}
        self._bridge = Bridge()
        self._answers = ClientAnswers(self._bridge)
        self._changes: Listeners[ServerChange] = Listeners("server changes")
        # Connections live on the bridge thread: they reach the Workbench only weakly.
        self._manager = ConnectionManager(
            self.registry,
            weakly(self._dispatch_log),
            log_level,
            answers=self._answers,
            on_change=weakly(self._changes.notify),
            demo_server=_build_demo_server,
        )
        self.app_host = AppHost(  # MCP Apps of UI tools' calls (workbench/apps/)
            self._bridge, self._manager, self.registry, self.history, self._changes
        )
        self._local: LocalServer | None = None
        self._served: ServeHandle | None = None  # what serve() served last
        self._closed = False
        # Closes the servers and the bridge at close(), at exit, or when nobody references
        # this Workbench any more (a re-run `wb = Workbench()` cell), whichever comes first.
        self._release = weakref.finalize(self, Release(self._bridge, self._manager))
        self._release.atexit = False  # Release registers its own hook, after the bridge's

    # -- connections ----------------------------------------------------------------------

    def connect(self, name: str, **options: Unpack[ConnectOptions]) -> ServerInfo:
        """Connect a server by name: a stdio ``command``, an HTTP ``url``, an in-process
        FastMCP ``server``, or ``"demo"`` (the embedded demo server). The options, all by
        keyword: ``command``, ``args``, ``env``, ``cwd``, ``url``, ``headers``, ``token``,
        ``server``, ``timeout``, ``connect_timeout``, ``inherit_env``, ``shown``, ``oauth``.

        ``timeout`` is the default per-call timeout of this server (60 s);
        ``connect_timeout`` bounds the start (30 s). A stdio server gets only HOME, PATH,
        locale and the like of the kernel's environment, plus ``env``; ``inherit_env=True``
        gives it every variable, the kernel's tokens too (risky: only for servers you
        trust). ``shown`` is how tables and errors show the target, e.g. the URL as
        written with its ``${env:KEY}`` templates (their values are never printed).
        ``oauth`` (True, a mapping or OAuthSettings) signs in to a URL server with OAuth
        (see ``on_sign_in``; ``aconnect`` keeps the kernel's loop free meanwhile).
        Raises ConnectionFailedError saying why.
        """
        return self._run(self._manager.open(server_spec(name, **options)))

    def connect_config(
        self, path: str | Path, names: Iterable[str] | None = None
    ) -> list[ServerInfo]:
        """Connect the servers of an mcp.json file (all, or ``names``) concurrently.

        Each becomes its own named connection. One that fails, or whose entry is wrong
        (a ConfigError naming it), stays listed as failed with its reason, here and in
        ``servers()``, (and a ConnectionWarning says so) while the others connect; until
        it is reconnected, disconnected or the file is read again. Errors of the file
        itself are a one-line ConfigError.
        """
        source = str(Path(path).expanduser())
        wanted, specs, reasons = read_specs(path, names)
        self._manager.forget_refused(source, None if names is None else wanted)
        refused: dict[str, ServerInfo] = {}
        for name, reason in reasons.items():
            refused[name] = self._refuse_entry(name, source, reason)
            warnings.warn(reason, ConnectionWarning, stacklevel=2)
        outcomes = self._run(self._manager.open_many(specs))
        for outcome in outcomes:
            if isinstance(outcome, BaseException):
                warnings.warn(str(outcome), ConnectionWarning, stacklevel=2)
        rows = {info.name: info for info in self.servers()} | refused
        return [rows[name] for name in wanted if name in rows]

    def disconnect(self, *names: str) -> None:
        """Close connections (stopping their processes) and drop their tools from the
        registry. Every name is checked before any is closed.

        Disconnecting ``notebook`` drops every notebook tool: the next ``%%tool`` cell or
        ``add_tools`` starts a fresh notebook server with only its own tools."""
        for name in names:
            self._manager.check(name)  # UnknownServerError before anything is closed
        for name in names:
            self._run(self._manager.close(name))
            if name == LOCAL_SERVER:
                self._local = None

    def reconnect(self, name: str) -> ServerInfo:
        """Reopen a connection with the settings it was made with; a server whose config
        entry was refused is read from its file again (a ConfigError if still wrong)."""
        row = self._manager.refused(name)
        if row is None:
            return self._run(self._manager.reconnect(name))
        _, specs, reasons = read_specs(row.target, [name])
        if name in reasons:
            self._refuse_entry(name, row.target, reasons[name])
            raise ConfigError(reasons[name])
        return self._run(self._manager.open(specs[0]))

    def servers(self, *, ping: bool = False) -> list[ServerInfo]:
        """Every connection: name, transport, status, tool count and last error; and each
        server of a config file whose entry was refused, as failed. ``ping`` also times a
        round trip to each connected server (in parallel)."""
        self._check_open()
        return self._run(self._pinged()) if ping else self._manager.info()

    # -- notebook tools -------------------------------------------------------------------

    def add_tools(
        self, *tools: ToolDefinition[Any, Any] | Callable[..., Any], owner: str = ""
    ) -> list[ToolEntry]:
        """Serve tools (ToolDefinitions, or plain functions made tools with ``@tool``) on the
        local ``notebook`` server; they are called like any other server's tools."""
        definitions = [t if isinstance(t, ToolDefinition) else make_tool(t) for t in tools]
        local = self._local_server()
        for definition in definitions:
            local.add(definition, owner)
        return self._sync_local([d.name for d in definitions])

    def set_owned_tools(self, owner: str, tools: Iterable[ToolDefinition[Any, Any]]) -> ToolChange:
        """Make ``tools`` the only tools of ``owner`` (a cell): re-running a cell replaces
        its tools and removes the ones it no longer defines (named in the result)."""
        definitions = list(tools)
        removed = self._local_server().replace_owned(owner, definitions)
        return ToolChange(self._sync_local([d.name for d in definitions]), removed)

    def tool_owner(self, name: str) -> str | None:
        """Who defined the notebook tool ``name`` (``add_tools``' or ``set_owned_tools``'
        owner), or None when there is no such notebook tool."""
        return None if self._local is None else self._local.owner_of(name)

    def remove_tool(self, name: str) -> bool:
        """Remove a notebook tool; False if there is none by that name."""
        removed = self._local_server().remove(name)
        self._sync_local([])
        return removed

    # -- calls --------------------------------------------------------------------------

    @overload
    def call(
        self, tool_id: str, arguments: Mapping[str, Any] | None = None, *,
        timeout: float | None = None, on_progress: ProgressCallback | None = None,
        on_log: LogCallback | None = None, task: Literal[False] = False,
    ) -> Observation: ...  # fmt: skip

    @overload
    def call(
        self, tool_id: str, arguments: Mapping[str, Any] | None = None, *,
        timeout: float | None = None, on_progress: ProgressCallback | None = None,
        on_log: LogCallback | None = None, task: Literal[True],
    ) -> TaskHandle | Observation: ...  # fmt: skip

    def call(
        self,
        tool_id: str,
        arguments: Mapping[str, Any] | None = None,
        *,
        timeout: float | None = None,
        on_progress: ProgressCallback | None = None,
        on_log: LogCallback | None = None,
        task: bool = False,
    ) -> TaskHandle | Observation:
        """Call a tool by ``server.tool`` id (or unique bare name); never raises for a
        failed call: the Observation says what went wrong.

        ``on_progress(progress, total, message)`` follows the call's progress; ``on_log``
        gets the log records the tool's server sends while the call runs (that server's
        only). Both are called on the bridge thread. ``task=True``: start it as a task on a
        server that offers tasks and return its TaskHandle at once (``handle.result()``
        waits; an Observation when the server answered at once anyway).
        """
        if task:
            return self._run(self._start_task(tool_id, arguments))
        return self._run(self._call(tool_id, arguments, timeout, on_progress, on_log))

    @overload
    async def acall(
        self, tool_id: str, arguments: Mapping[str, Any] | None = None, *,
        timeout: float | None = None, on_progress: ProgressCallback | None = None,
        on_log: LogCallback | None = None, task: Literal[False] = False,
    ) -> Observation: ...  # fmt: skip

    @overload
    async def acall(
        self, tool_id: str, arguments: Mapping[str, Any] | None = None, *,
        timeout: float | None = None, on_progress: ProgressCallback | None = None,
        on_log: LogCallback | None = None, task: Literal[True],
    ) -> TaskHandle | Observation: ...  # fmt: skip

    async def acall(
        self,
        tool_id: str,
        arguments: Mapping[str, Any] | None = None,
        *,
        timeout: float | None = None,
        on_progress: ProgressCallback | None = None,
        on_log: LogCallback | None = None,
        task: bool = False,
    ) -> TaskHandle | Observation:
        """``call`` for ``await``: the kernel's loop keeps running while the call does."""
        self._check_open()
        if task:
            return await self._bridge.arun(self._start_task(tool_id, arguments))
        return await self._bridge.arun(self._call(tool_id, arguments, timeout, on_progress, on_log))

    def submit(
        self,
        tool_id: str,
        arguments: Mapping[str, Any] | None = None,
        *,
        timeout: float | None = None,
        on_progress: ProgressCallback | None = None,
        on_log: LogCallback | None = None,
    ) -> concurrent.futures.Future[Observation]:
        """Start a call and return at once, for views that must not block (widgets).

        The future's result is the Observation; ``future.cancel()`` cancels the call on the
        server, and the history records it as cancelled. An interrupt while waiting on it,
        with ``future.result()`` or ``await asyncio.wrap_future(future)``, cancels it too.
        """
        self._check_open()
        return self._bridge.submit(self._call(tool_id, arguments, timeout, on_progress, on_log))

    # -- lifecycle ------------------------------------------------------------------------

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Close every connection (no orphaned server processes) and stop the bridge."""
        if self._closed:
            return
        if self._served is not None:
            self._served.stop()
        self._closed = True
        self._release()

    def __enter__(self) -> Workbench:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._closed else f"{len(self._manager.info())} servers"
        return f"<Workbench: {state}, {len(self.registry)} tools>"

    # -- internals ------------------------------------------------------------------------

    def _check_open(self) -> None:
        if self._closed:
            raise WorkbenchClosedError("This Workbench is closed; create a new one.")

    def _run(self, coro: Coroutine[Any, Any, T]) -> T:
        if self._closed:
            coro.close()
            raise WorkbenchClosedError("This Workbench is closed; create a new one.")
        try:
            return self._bridge.run(coro)
        except OneLineError as error:  # its frames on the bridge and its context say nothing
            error.__context__ = None  # (IPython renders a context holding a group natively)
            raise error.with_traceback(None) from None

    async def _call(
        self,
        tool_id: str,
        arguments: Mapping[str, Any] | None,
        timeout: float | None,
        on_progress: ProgressCallback | None,
        on_log: LogCallback | None,
    ) -> Observation:
        # Whatever a caller hands over, the call ends as a recorded Observation.
        raw = call_input.recordable(arguments)
        bad_id = call_input.tool_id_problem(tool_id)
        if bad_id is not None:
            readable = call_input.shown(tool_id)
            return self._refuse(readable, "", raw, ErrorKind.INVALID_ARGUMENTS, bad_id)
        try:
            entry = self.registry.get(tool_id)
        except (ToolNotFoundError, AmbiguousToolError) as error:
            server = tool_id.partition(".")[0]
            return self._refuse(tool_id, server, raw, ErrorKind.NOT_FOUND, str(error))
        problems = call_input.argument_problems(arguments)
        bad_timeout = call_input.timeout_problem(timeout)
        if bad_timeout is not None:
            problems.append(("timeout", bad_timeout))
        if problems:
            message = str(InvalidArgumentsError(entry.id, problems))
            return self._refuse(entry.id, entry.server, raw, ErrorKind.INVALID_ARGUMENTS, message)
        started = time.perf_counter()
        stop_logs = self._follow_call_logs(entry.server, on_log)
        try:
            observation = await self._dispatch(entry, raw, timeout, on_progress)
            observation = observation.model_copy(update={"tool_id": entry.id})
        except asyncio.CancelledError:
            cancelled = self._cancelled(entry, started)
            self.history.record(entry.id, entry.server, raw, cancelled)
            raise
        finally:
            stop_logs()
        if self._closed and observation.is_error:
            # Closing the Workbench ended this call; it did not fail on its own (F16).
            observation = self._cancelled(entry, started, " when the Workbench was closed")
        try:
            app = await self.app_host.prepare(entry, observation)  # a UI tool's App (apps/)
        finally:  # recorded even when the call is cancelled while its App is read
            call = self.history.record(entry.id, entry.server, raw, observation)
        return self.app_host.attach(observation, entry, raw, call.id, app)

    def _refuse_entry(self, name: str, source: str, reason: str) -> ServerInfo:
        """List a server whose config entry is wrong as failed."""
        return self._run(self._manager.refuse(name, source, reason))

    def _refuse(
        self, tool_id: str, server: str, raw: dict[str, Any], kind: ErrorKind, message: str
    ) -> Observation:
        """A call that never started: recorded with its reason, like any other call."""
        observation = Observation.error(kind, message, duration=0.0)
        self.history.record(tool_id, server, raw, observation)
        return observation

    @staticmethod
    def _cancelled(entry: ToolEntry, started: float, why: str = "") -> Observation:
        return Observation.error(
            ErrorKind.CANCELLED,
            f"{entry.id} was cancelled{why}.",
            duration=time.perf_counter() - started,
            tool_id=entry.id,
        )

    async def _dispatch(
        self,
        entry: ToolEntry,
        raw: dict[str, Any],
        timeout: float | None,
        on_progress: ProgressCallback | None,
    ) -> Observation:
        try:
            action = entry.action_from_arguments(raw)
        except InvalidArgumentsError as error:
            return Observation.error(ErrorKind.INVALID_ARGUMENTS, str(error), duration=0.0)
        except (TypeError, ValueError) as error:  # a model that refuses what the schema took
            message = f"Invalid arguments for {entry.id}: {' '.join(str(error).split())}"
            return Observation.error(ErrorKind.INVALID_ARGUMENTS, message, duration=0.0)
        if entry.server in self._manager:
            connection = self._manager.get(entry.server)
            call = connection.call(
                entry.name, action.to_arguments(), timeout=timeout, on_progress=on_progress,
                direct=self._direct(entry.server),
            )  # fmt: skip
            if entry.server != LOCAL_SERVER:
                return await call
            # A notebook tool a sync call displaced: its timeout says to await it instead.
            from workbench.serving.notebook_server import explain_timeout, noting_displaced
            from workbench.session.tool_questions import answered_here

            with noting_displaced() as displaced, answered_here(self._answers, entry.name):
                observation = await call
            return await explain_timeout(observation, displaced)
        message = f"{entry.id} belongs to {entry.server!r}, which is not connected."
        if entry.server == LOCAL_SERVER:
            message += " Notebook tools are served with Workbench.add_tools(...) or %%tool."
        return Observation.error(ErrorKind.CONNECTION, message, duration=0.0)

    def _direct(self, server: str) -> DirectCall | None:
        """Who answers a served call of a notebook tool in process, without the MCP hop
        inside the kernel (``serving/direct.py``); None: the connection's client does."""
        if server != LOCAL_SERVER or self._local is None or CALL_SOURCE.get() != OUTSIDE:
            return None
        from workbench.serving.direct import DirectCalls

        return DirectCalls(self._local)

    def _local_server(self) -> LocalServer:
        """The notebook server, (re)connected when it is not (first use, or disconnected)."""
        from workbench.serving.notebook_server import LocalServer

        if self._local is None:
            self._local = LocalServer()
        if LOCAL_SERVER not in self._manager:
            spec = ServerSpec(LOCAL_SERVER, "in-process", server=self._local.server)
            self._run(self._manager.open(spec))
        return self._local

    def _sync_local(self, names: list[str]) -> list[ToolEntry]:
        self._run(self._manager.get(LOCAL_SERVER).refresh_tools())
        return [self.registry.get(f"{LOCAL_SERVER}.{name}") for name in names]

    def _notebook_definitions(self) -> dict[str, ToolDefinition[Any, Any]]:
        return {d.name: d for d in ([] if self._local is None else self._local.definitions())}

    async def _served_call(
        self, tool_id: str, arguments: dict[str, Any],
        progress: ProgressCallback | None, log: LogCallback | None,
    ) -> Observation:  # fmt: skip
        """A call from an outside client of ``serve``: the one call path, recorded as such."""
        CALL_SOURCE.set(OUTSIDE)  # this request's context: every call in it is from outside
        return await self._call(tool_id, arguments, None, progress, log)


def _build_demo_server() -> object:
    """The embedded demo server, imported only when someone connects it."""
    from workbench.demo import build_demo_server

    return build_demo_server()
