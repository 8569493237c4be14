"""One named server connection: a facade over a ``fastmcp.Client`` on the bridge loop.

Every coroutine here runs on the bridge loop (the Workbench submits them through the
bridge); the client is created, entered, used and closed there and nowhere else. The
transport under the client comes from ``transports.py``; ``failures.py`` puts what went
wrong into words. A connection found dead (lost earlier, or a stdio server that exited) is
reopened once before a call, and an HTTP server restarted under its session is reconnected
and the call sent once more, so a person rarely has to mend a connection by hand.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, TypeVar

from workbench.__about__ import __version__
from workbench.config.spec import ServerSpec
from workbench.errors import ConnectionFailedError, RequestFailedError
from workbench.features.log_levels import LOG_LEVELS
from workbench.listeners import warn_raised
from workbench.mcp import lean_call
from workbench.mcp.answers import CallAnswers, ClientAnswers, ServerAnswerer
from workbench.mcp.direct import DirectCall, answer_directly
from workbench.mcp.failures import (
    explain_call_failure,
    explain_connect_failure,
    innermost,
    is_stale_session,
    json_rpc_error,
)
from workbench.mcp.live import Listening, listened_for, reconnect, start_listening
from workbench.mcp.quiet import quiet_handshake_era_requests, working_for
from workbench.mcp.roots import refused_path_note
from workbench.mcp.transports import make_transport, read_stderr_tail
from workbench.mcp.warm_up import warm_up_result_validation
from workbench.registry.call_input import timeout_problem
from workbench.tools.icons import Icon, icons_of
from workbench.tools.schema import ErrorKind, Observation

ProgressCallback = Callable[[float, float | None, str | None], None]
T = TypeVar("T")
RECONNECT = "workbench-reconnect"
"""The task reopening a connection whose listen stream took its session: ``RECONNECT:NAME``."""


@dataclass(frozen=True)
class ServerChange:
    """Something a server announced: ``resources`` or ``prompts`` (its list changed) or
    ``resource`` (the resource at ``uri`` was updated)."""

    server: str
    what: str
    uri: str | None = None


class Status(str, Enum):
    """Where a connection stands; shown in ``servers()`` tables."""

    CONNECTING = "connecting"
    CONNECTED = "connected"
    DISCONNECTED = "disconnected"
    FAILED = "failed"
    CLOSED = "closed"


@dataclass(frozen=True)
class LogRecord:
    """A log message a server sent (``notifications/message``)."""

    server: str
    level: str
    logger: str | None
    data: Any

    @property
    def message(self) -> str:
        """The text of the message (FastMCP servers wrap it as ``{"msg": ...}``)."""
        data = self.data
        if isinstance(data, dict) and isinstance(data.get("msg"), str):
            return str(data["msg"])
        return data if isinstance(data, str) else repr(data)


class Connection:
    """A named server: its spec, status, tools and the client that talks to it."""

    def __init__(
        self,
        spec: ServerSpec,
        *,
        on_tools: Callable[[str, list[Any]], object],
        on_log: Callable[[LogRecord], None],
        log_level: str = "info",
        answers: ClientAnswers | None = None,
        on_change: Callable[[ServerChange], object] | None = None,
    ) -> None:
        self.spec = spec
        self.status = Status.DISCONNECTED
        self.last_error: str | None = None
        self.tools: list[Any] = []
        self.instructions: str | None = None
        self.icons: tuple[Icon, ...] = ()
        """The server's icons (its serverInfo), kept as data (``workbench/tools/icons.py``)."""
        self.log_level = log_level
        self.stderr_log: Path | None = None
        self._on_tools = on_tools
        self._on_log = on_log
        self._client: Any = None
        self._listening: Listening | None = None  # a 2026-07-28 server's list changes
        self._recovering: asyncio.Task[None] | None = None  # reopening after it went away
        self._http_status: int | None = None
        # The last HTTP refusal (status, the server's words); a new tuple each time, so a
        # call can tell whether it was refused after it started.
        self._refusal: tuple[int, str] | None = None
        self._reopening = asyncio.Lock()  # concurrent calls that find it dead reopen it once
        self._answers = answers
        self._on_change = on_change
        # The calls running now, newest last: a server's question during a call is answered
        # for (and shown in the cell of) the newest one.
        self._running: list[CallAnswers] = []

    @property
    def name(self) -> str:
        return self.spec.name

    # -- lifecycle (coroutines: run them on the bridge loop) ----------------------------

    async def open(self) -> None:
        """Start the client, list the tools; raise ConnectionFailedError with the reason."""
        await self._drop_client()
        self.status = Status.CONNECTING
        self._http_status = None
        # A short import (see warm_up.py) that overlaps the server's start.
        warm_up_result_validation()
        # What the SDK, FastMCP and httpx log about this server stays out of the cell.
        working_for(self.name)
        quiet_handshake_era_requests()
        failed: str | None = None
        try:
            self._client = self._make_client()
            await asyncio.wait_for(self._client.__aenter__(), self._start_limit())
            self.instructions = self._client.instructions
            self.icons = icons_of(getattr(self._client.server_info, "icons", None))
            # Listen before listing: no change after the listing goes unheard.
            limit = self.spec.connect_timeout
            self._listening = await start_listening(
                self.name, self._client, limit, self._listening_again, self._lost_with_stream
            )
            await self.refresh_tools()
        except BaseException as error:
            message = explain_connect_failure(
                self.spec,
                error,
                http_status=self._http_status,
                stderr=read_stderr_tail(self.stderr_log),
                said=self._refusal[1] if self._refusal else None,
            )
            self.status, self.last_error = Status.FAILED, message
            await self._drop_client()
            if not isinstance(error, Exception):
                raise
            failed = message
        if failed is not None:
            # Raised outside the handler, so with no context: the message says it all (the
            # libraries' words are in the server's log), and IPython shows it in one line.
            raise ConnectionFailedError(failed)
        self.status, self.last_error = Status.CONNECTED, None

    async def refresh_tools(self) -> list[Any]:
        """Fetch ``tools/list`` again and tell the registry."""
        self.tools = list(await self._client.list_tools())
        self._on_tools(self.name, self.tools)
        return self.tools

    async def close(self) -> None:
        """Stop the client (and its child process); the connection can be reopened."""
        recovering = self._recovering  # kept until done: no listener starts another
        if recovering is not None:
            recovering.cancel()
            await asyncio.wait({recovering})
        await self._drop_client()
        self._recovering = None
        self.status = Status.CLOSED

    async def call(
        self,
        tool: str,
        arguments: dict[str, Any],
        *,
        timeout: float | None = None,
        on_progress: ProgressCallback | None = None,
        answers: CallAnswers | None = None,
        direct: DirectCall | None = None,
    ) -> Observation:
        """Call a tool; every failure becomes an error Observation. ``direct`` answers it
        in process instead of the client (``direct.py``).

        A connection found dead (lost in an earlier call, or a stdio server whose process
        exited since) is reconnected once before the call. An HTTP server that no longer
        knows the session (it restarted) refused the call unread: it is reconnected and the
        call sent once more. A ``timeout`` that is no positive number of seconds is
        refused: 0 never means "no limit".
        """
        # What the libraries log during the call (an in-process server's tool errors) is
        # this server's, not the unnamed buffer's.
        working_for(self.name)
        running = answers or CallAnswers.here(tool)
        self._running.append(running)
        try:
            return await self._call(tool, arguments, timeout, on_progress, direct)
        finally:
            self._running.remove(running)

    async def _call(
        self,
        tool: str,
        arguments: dict[str, Any],
        timeout: float | None,
        on_progress: ProgressCallback | None,
        direct: DirectCall | None = None,
    ) -> Observation:
        bad_timeout = timeout_problem(timeout)
        if bad_timeout is not None:
            message = f"Invalid arguments for {self.name}.{tool}: timeout: {bad_timeout}"
            return Observation.error(ErrorKind.INVALID_ARGUMENTS, message, duration=0.0)
        started = time.perf_counter()
        if self.status is not Status.CONNECTED or self._found_dead():
            try:
                await self._reopen(self._client)
            except ConnectionFailedError as error:
                return Observation.error(ErrorKind.CONNECTION, str(error), duration=0.0)
        limit = timeout if timeout is not None else self.spec.call_timeout
        client, refusal = self._client, self._refusal
        try:
            result = await self._send(tool, arguments, limit, on_progress, direct)
        except Exception as error:
            said = self._refusal if self._refusal is not refusal else None
            if said is None or not is_stale_session(error, *said):
                return self._failed(tool, error, limit, started, said)
            try:
                await self._reopen(client)
                left = max(limit - (time.perf_counter() - started), 0.001)
                result = await self._send(tool, arguments, left, on_progress, direct)
            except ConnectionFailedError as reopen_error:
                message = (
                    f"{self.name!r} no longer knows this session (HTTP {said[0]}: {said[1]}) "
                    f"and reconnecting failed. {reopen_error}"
                )
                duration = time.perf_counter() - started
                return Observation.error(ErrorKind.CONNECTION, message, duration=duration)
            except Exception as retry_error:
                return self._failed(tool, retry_error, limit, started, None)
        read = result.model_dump(by_alias=True, exclude_none=True)
        duration = time.perf_counter() - started
        observation = Observation.model_validate({**read, "duration": duration})
        if not observation.is_error:
            return observation  # one model built, not built and copied (issue 29)
        message = observation.text
        roots = self._answers.roots if self._answers is not None else []
        note = refused_path_note(self.name, message, roots)
        message = message if note is None else f"{message}\n{note}"
        update = {"error_kind": ErrorKind.TOOL_ERROR, "error_message": message}
        return observation.model_copy(update=update)

    async def request(
        self, what: str, send: Callable[[Any], Awaitable[T]], timeout: float | None = None
    ) -> T:
        """Send a request other than a tool call (``send(client)``); a connection found dead
        is reopened first. Every failure is a RequestFailedError saying what and why."""
        working_for(self.name)
        if self.status is not Status.CONNECTED or self._found_dead():
            try:
                await self._reopen(self._client)
            except ConnectionFailedError as error:
                raise RequestFailedError(str(error)) from None
        limit = timeout if timeout is not None else self.spec.call_timeout
        try:
            return await asyncio.wait_for(send(self._client), limit)
        except (TimeoutError, asyncio.TimeoutError):
            raise RequestFailedError(
                f"{self.name!r} did not answer {what} within {limit:g} s."
            ) from None
        except Exception as error:
            kind, _ = explain_call_failure(self.name, what, error, limit)
            if kind is ErrorKind.CONNECTION:
                self.status = Status.DISCONNECTED
                self.last_error = f"lost connection: {innermost(error)}"
                raise RequestFailedError(
                    f"The connection to {self.name!r} was lost during {what} "
                    f"({innermost(error)}). The next request reconnects."
                ) from None
            raise RequestFailedError(
                f"{what} on {self.name!r} failed: {innermost(error)}"
            ) from None

    @property
    def protocol_version(self) -> str | None:
        """The MCP version agreed at the handshake (``2025-11-25``, ``2026-07-28``...)."""
        version = getattr(self._client, "protocol_version", None) if self._client else None
        return str(version) if version else None

    @property
    def capabilities(self) -> dict[str, Any]:
        """What the server said it can do at the handshake (``resources``, ``prompts``,
        ``completions``, ``logging``...), as plain JSON; empty when unknown."""
        capabilities = getattr(self._client, "server_capabilities", None) if self._client else None
        if capabilities is None:
            return {}
        return dict(capabilities.model_dump(mode="json", by_alias=True, exclude_none=True))

    # -- internals ------------------------------------------------------------------------

    async def _send(
        self, tool: str, arguments: dict[str, Any], limit: float,
        on_progress: ProgressCallback | None, direct: DirectCall | None = None,
    ) -> Any:  # fmt: skip
        progress = _progress_handler(on_progress)
        if direct is not None:  # answered in process: no MCP hop (direct.py)
            return await answer_directly(direct, self, tool, arguments, limit, progress)
        return await lean_call.call_tool(self._client, tool, arguments, limit, progress)

    def _failed(
        self,
        tool: str,
        error: Exception,
        limit: float,
        started: float,
        said: tuple[int, str] | None,
    ) -> Observation:
        """The error Observation of a call that raised; the server's own words when an
        HTTP server refused it (the SDK keeps only "Server returned an error response")."""
        kind, message = explain_call_failure(
            self.name, tool, error, limit, stderr=read_stderr_tail(self.stderr_log)
        )
        if kind is ErrorKind.CONNECTION:
            self.status = Status.DISCONNECTED
            self.last_error = f"lost connection: {innermost(error)}"
        elif said is not None and said[1]:
            message += f" (HTTP {said[0]}: {said[1]})"
        refused = json_rpc_error(error) if kind is ErrorKind.TOOL_ERROR and not said else None
        kept = {} if refused is None else {"error_code": refused[0], "error_data": refused[1]}
        kind = kind if refused is None else ErrorKind.PROTOCOL  # refused, not answered
        return Observation.error(kind, message, duration=time.perf_counter() - started, **kept)

    def _found_dead(self) -> bool:
        """Whether the session ended since the last call without anyone sending a thing: a
        stdio server whose process exited (its pipes closed; the session learns it some
        milliseconds after the death). FastMCP's stdio transport knows; its attributes are
        private, so they are read defensively."""
        transport = getattr(self._client, "transport", None)
        task = getattr(transport, "_connect_task", None)
        if task is not None and task.done():
            return True
        dead = getattr(transport, "_is_session_dead", None)
        return bool(callable(dead) and dead())

    async def _listening_again(self, kinds: frozenset[str]) -> None:
        """A new listen stream after one ended (live.py): the changes made meanwhile went
        unheard, so refresh as their list_changed events would have."""
        if "tools" in kinds:
            await self.refresh_tools()
        for kind in ("prompts", "resources"):
            if kind in kinds:
                self._announce(ServerChange(self.name, kind))

    def _lost_with_stream(self) -> None:
        """A listen stream's end took the client's session (live.py; an HTTP server that
        went away): the next call reopens first, and an HTTP server is reopened in the
        background too, since at 2026-07-28 nothing else would notice."""
        listening, recovering = self._listening, self._recovering
        if listening is None or listening.task is not asyncio.current_task():
            return  # a listener being stopped (close, reconnect)
        self.status, self.last_error = Status.DISCONNECTED, "lost connection (listen stream)"
        # Not with OAuth: a background sign-in could open a browser again and again.
        if self.spec.url is None or self.spec.oauth is not None:
            return
        if recovering is None or recovering.done():
            reopening = reconnect(self.name, self._recover)
            self._recovering = asyncio.create_task(reopening, name=f"{RECONNECT}:{self.name}")

    async def _recover(self) -> None:
        async with self._reopening:
            if self.status is not Status.CONNECTED:  # else a call reopened it already
                await self.open()
        # The tools were listed again; the prompts and resources may have changed too.
        kinds = listened_for(self.protocol_version, self._client.server_capabilities)
        await self._listening_again(kinds - {"tools"})

    async def _reopen(self, broken: Any) -> None:
        """Open again, unless a concurrent call already replaced the ``broken`` client."""
        async with self._reopening:
            if self._client is broken or self.status is not Status.CONNECTED:
                await self.open()

    def _make_client(self) -> Any:
        import mcp.types
        from fastmcp import Client
        from fastmcp.client.messages import MessageHandler

        connection = self

        # A handshake-era server's list_changed notifications land here, and so do, at
        # 2026-07-28, the events of the connection's listen stream (live.py).
        class Handler(MessageHandler):
            async def on_tool_list_changed(self, message: Any) -> None:
                await connection.refresh_tools()

            async def on_resource_list_changed(self, message: Any) -> None:
                connection._announce(ServerChange(connection.name, "resources"))

            async def on_prompt_list_changed(self, message: Any) -> None:
                connection._announce(ServerChange(connection.name, "prompts"))

            async def on_resource_updated(self, message: Any) -> None:
                uri = str(message.params.uri)
                connection._announce(ServerChange(connection.name, "resource", uri))

        transport, self.stderr_log = make_transport(
            self.spec,
            on_http_status=self._note_status,
            on_http_refusal=self._note_refusal,
            sign_in=self._answers,
        )
        answering: dict[str, Any] = {}
        if self._answers is not None:
            newest = lambda: self._running[-1] if self._running else None  # noqa: E731
            answering = ServerAnswerer(self.name, self._answers, newest).client_options()
        return Client(
            transport,
            client_info=mcp.types.Implementation(name="workbench", version=__version__),
            log_handler=self._handle_log,
            message_handler=Handler(),
            init_timeout=self._start_limit(),
            **answering,
        )

    def _start_limit(self) -> float:
        """Seconds to start: an OAuth sign-in gets its own time on top."""
        oauth = self.spec.oauth
        return self.spec.connect_timeout + (oauth.timeout if oauth is not None else 0.0)

    def _announce(self, change: ServerChange) -> None:
        if self._on_change is not None:
            self._on_change(change)

    def _note_status(self, status: int) -> None:
        """Keep the last failed HTTP status: the SDK's error no longer carries it."""
        self._http_status = status

    def _note_refusal(self, status: int, said: str) -> None:
        self._refusal = (status, said)

    async def _drop_client(self) -> None:
        listening, self._listening = self._listening, None
        if listening is not None:
            await listening.stop()
        client, self._client = self._client, None
        if client is not None:
            # A client that failed half-way may not close cleanly; it is gone either way.
            with contextlib.suppress(Exception):
                await client.close()

    async def _handle_log(self, message: Any) -> None:
        level = str(getattr(message, "level", "info"))
        if _level_rank(level) >= _level_rank(self.log_level):
            self._on_log(
                LogRecord(self.name, level, getattr(message, "logger", None), message.data)
            )


def _progress_handler(callback: ProgressCallback | None) -> Any:
    """The callback as the client wants it; one that raises is warned about once per call
    (``ListenerWarning``) instead of the SDK logging a traceback at every step."""
    if callback is None:
        return None
    failed = False

    async def handle(progress: float, total: float | None, message: str | None) -> None:
        nonlocal failed
        if failed:
            return
        try:
            callback(progress, total, message)
        except Exception as error:
            failed = True
            outcome = "it gets no more progress of this call"
            warn_raised("The progress callback", callback, error, outcome, stacklevel=3)

    return handle


def _level_rank(level: str) -> int:
    return LOG_LEVELS.index(level) if level in LOG_LEVELS else 1
