"""One named server connection: a facade over a ``fastmcp.Client`` on the bridge loop.

Every coroutine here runs on the bridge loop (the Workbench submits them through the
bridge); the client is created, entered, used and closed there and nowhere else.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import importlib
import shutil
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, cast

from workbench.__about__ import __version__
from workbench.errors import ConnectionFailedError
from workbench.mcp.spec import ServerSpec
from workbench.tools.schema import ErrorKind, Observation

LOG_LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
STDERR_TAIL_LINES = 15

ProgressCallback = Callable[[float, float | None, str | None], None]


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
    ) -> None:
        self.spec = spec
        self.status = Status.DISCONNECTED
        self.last_error: str | None = None
        self.tools: list[Any] = []
        self.instructions: str | None = None
        self.log_level = log_level
        self.stderr_log: Path | None = None
        self._on_tools = on_tools
        self._on_log = on_log
        self._client: Any = None
        self._http_status: int | None = None

    @property
    def name(self) -> str:
        return self.spec.name

    # -- lifecycle (coroutines: run them on the bridge loop) ----------------------------

    async def open(self) -> None:
        """Start the client, list the tools; raise ConnectionFailedError with the reason."""
        await self._drop_client()
        self.status = Status.CONNECTING
        self._http_status = None
        if self.spec.transport != "in-process":
            # The server starts in another process: the import can overlap it. An in-process
            # server would compete with the import for this process instead.
            _warm_up_result_validation()
        try:
            self._client = self._make_client()
            await asyncio.wait_for(self._client.__aenter__(), self.spec.connect_timeout)
            self.instructions = self._client.instructions
            await self.refresh_tools()
            _warm_up_result_validation()
        except BaseException as error:
            message = self._explain_connect_failure(error)
            self.status, self.last_error = Status.FAILED, message
            await self._drop_client()
            if isinstance(error, Exception):
                raise ConnectionFailedError(message) from None
            raise
        self.status, self.last_error = Status.CONNECTED, None

    async def refresh_tools(self) -> list[Any]:
        """Fetch ``tools/list`` again and tell the registry."""
        self.tools = list(await self._client.list_tools())
        self._on_tools(self.name, self.tools)
        return self.tools

    async def close(self) -> None:
        """Stop the client (and its child process); the connection can be reopened."""
        await self._drop_client()
        self.status = Status.CLOSED

    async def call(
        self,
        tool: str,
        arguments: dict[str, Any],
        *,
        timeout: float | None = None,
        on_progress: ProgressCallback | None = None,
    ) -> Observation:
        """Call a tool; every failure becomes an error Observation.

        A connection found dead is reconnected once before the call.
        """
        started = time.perf_counter()
        if self.status is not Status.CONNECTED:
            try:
                await self.open()
            except ConnectionFailedError as error:
                return Observation.error(ErrorKind.CONNECTION, str(error), duration=0.0)
        limit = timeout if timeout is not None else self.spec.call_timeout
        try:
            result = await self._client.call_tool_mcp(
                tool,
                arguments,
                timeout=limit,
                progress_handler=_progress_handler(on_progress),
            )
        except Exception as error:
            kind, message = self._explain_call_failure(tool, error, limit)
            return Observation.error(kind, message, duration=time.perf_counter() - started)
        observation = Observation.model_validate(
            result.model_dump(by_alias=True, exclude_none=True)
        )
        update: dict[str, Any] = {"duration": time.perf_counter() - started}
        if observation.is_error:
            update |= {"error_kind": ErrorKind.TOOL_ERROR, "error_message": observation.text}
        return observation.model_copy(update=update)

    # -- internals ------------------------------------------------------------------------

    def _make_client(self) -> Any:
        import mcp.types
        from fastmcp import Client
        from fastmcp.client.messages import MessageHandler

        connection = self

        class Handler(MessageHandler):
            async def on_tool_list_changed(self, message: Any) -> None:
                await connection.refresh_tools()

        return Client(
            self._make_transport(),
            client_info=mcp.types.Implementation(name="workbench", version=__version__),
            log_handler=self._handle_log,
            message_handler=Handler(),
            init_timeout=self.spec.connect_timeout,
        )

    def _make_transport(self) -> Any:
        spec = self.spec
        if spec.transport == "in-process":
            from fastmcp.client.transports import FastMCPTransport

            return FastMCPTransport(spec.server)
        if spec.transport == "http":
            from fastmcp.client.transports import StreamableHttpTransport

            return StreamableHttpTransport(
                spec.url or "",
                headers=dict(spec.headers),
                auth=spec.token,
                httpx_client_factory=cast(Any, self._http_client),
            )
        from fastmcp.client.transports import StdioTransport

        env = spec.child_environment()
        command = spec.command or ""
        if shutil.which(command, path=env.get("PATH")) is None:
            raise FileNotFoundError(command)
        self.stderr_log = _stderr_log_path(spec.name)
        self.stderr_log.write_text("")
        return StdioTransport(
            command,
            list(spec.args),
            env=env,
            cwd=spec.cwd,
            keep_alive=False,
            log_file=self.stderr_log,
        )

    def _http_client(self, **options: Any) -> Any:
        """The SDK's HTTP client, plus a hook noting failed statuses: the SDK replaces an
        HTTP 401 or 404 with a bare JSON-RPC error, and people need the status."""
        import httpx2
        from mcp.shared._httpx_utils import MCP_DEFAULT_SSE_READ_TIMEOUT, MCP_DEFAULT_TIMEOUT

        options.setdefault(
            "timeout", httpx2.Timeout(MCP_DEFAULT_TIMEOUT, read=MCP_DEFAULT_SSE_READ_TIMEOUT)
        )
        client = httpx2.AsyncClient(**options)

        async def note(response: Any) -> None:
            if response.status_code >= 400:
                self._http_status = response.status_code

        client.event_hooks["response"].append(note)
        return client

    async def _drop_client(self) -> None:
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

    def _explain_connect_failure(self, error: BaseException) -> str:
        spec = self.spec
        where = f"Could not connect to server {spec.name!r} ({spec.transport}: {spec.describe()})"
        if isinstance(error, FileNotFoundError):
            return (
                f"{where}: the command {spec.command!r} was not found on PATH. Install it, or "
                "give its full path."
            )
        if isinstance(error, TimeoutError):
            return (
                f"{where}: it did not finish starting within {spec.connect_timeout:g} s. "
                "Pass a larger timeout if it is slow to start."
            ) + self._stderr_tail()
        http = _http_reason(error, self._http_status)
        if http:
            return f"{where}: {http}"
        if spec.transport == "stdio" and _is_connection_loss(error):
            return f"{where}: the server process exited while starting." + self._stderr_tail()
        return f"{where}: {_innermost(error)}." + self._stderr_tail()

    def _explain_call_failure(
        self, tool: str, error: Exception, limit: float
    ) -> tuple[ErrorKind, str]:
        code = getattr(getattr(error, "error", None), "code", None)
        if code == -32001 or isinstance(error, TimeoutError):
            return ErrorKind.TIMEOUT, (
                f"{self.name}.{tool} did not answer within {limit:g} s and was cancelled. "
                "Pass a larger timeout if it is expected to be slow."
            )
        if _is_connection_loss(error):
            self.status = Status.DISCONNECTED
            self.last_error = f"lost connection: {_innermost(error)}"
            return ErrorKind.CONNECTION, (
                f"The connection to {self.name!r} was lost during the call "
                f"({_innermost(error)}). The next call reconnects."
            ) + self._stderr_tail()
        return ErrorKind.TOOL_ERROR, f"{self.name}.{tool}: {_innermost(error)}"

    def _stderr_tail(self) -> str:
        if self.stderr_log is None or not self.stderr_log.exists():
            return ""
        lines = self.stderr_log.read_text(errors="replace").splitlines()[-STDERR_TAIL_LINES:]
        if not lines:
            return ""
        body = "\n".join(f"  {line}" for line in lines)
        return f"\nLast lines of its stderr (full log: {self.stderr_log}):\n{body}"


_warmed_up = False


def _warm_up_result_validation() -> None:
    """Import ``jsonschema`` in the background, once, while or after a server connects.

    The MCP SDK validates structured results with it, imported on the first such call; in
    a Jupyter environment that import costs seconds (it loads rfc3987-syntax, which builds a
    grammar), which would otherwise land on the user's first call.
    """
    global _warmed_up
    if not _warmed_up:
        _warmed_up = True
        threading.Thread(
            target=importlib.import_module, args=("jsonschema",), name="workbench-warm-up",
            daemon=True,
        ).start()  # fmt: skip


def _progress_handler(callback: ProgressCallback | None) -> Any:
    if callback is None:
        return None

    async def handle(progress: float, total: float | None, message: str | None) -> None:
        callback(progress, total, message)

    return handle


def _level_rank(level: str) -> int:
    return LOG_LEVELS.index(level) if level in LOG_LEVELS else 1


_log_dir: Path | None = None


def _stderr_log_path(name: str) -> Path:
    """One stderr log per server name, in a folder made once per process and removed when
    the process exits (every kernel that starts a server would otherwise leave one)."""
    global _log_dir
    if _log_dir is None:
        _log_dir = Path(tempfile.mkdtemp(prefix="workbench-logs-"))
        atexit.register(shutil.rmtree, _log_dir, ignore_errors=True)
    return _log_dir / f"{name}.stderr.log"


def _chain(error: BaseException) -> list[BaseException]:
    """The error, its causes and contexts, and the members of exception groups."""
    seen: list[BaseException] = []
    stack = [error]
    while stack:
        current = stack.pop()
        if current in seen:
            continue
        seen.append(current)
        stack.extend(getattr(current, "exceptions", ()))
        stack.extend(e for e in (current.__cause__, current.__context__) if e is not None)
    return seen


def _innermost(error: BaseException) -> str:
    message = str(error) or type(error).__name__
    return message.removeprefix("Client failed to connect: ")


def _is_connection_loss(error: BaseException) -> bool:
    for item in _chain(error):
        code = getattr(getattr(item, "error", None), "code", None)
        if code == -32000 and "closed" in str(item).lower():
            return True
        name = type(item).__name__
        if name in {"ClosedResourceError", "BrokenResourceError", "EndOfStream"}:
            return True
        if isinstance(item, ConnectionError) or "not connected" in str(item).lower():
            return True
    return False


def _http_reason(error: BaseException, seen_status: int | None = None) -> str | None:
    """A person's explanation of an HTTP failure: a status the client saw, or one anywhere
    in the error's chain."""
    for item in _chain(error):
        response = getattr(item, "response", None)
        status = seen_status or getattr(response, "status_code", None)
        if status in (401, 403):
            return (
                f"the server refused the request (HTTP {status}). Check the token or "
                "headers; pass token=... for a bearer token."
            )
        if status == 404:
            return "nothing answers at that URL (HTTP 404). Check the path (often /mcp)."
        if isinstance(status, int) and status >= 400:
            return f"the server answered HTTP {status}."
        if type(item).__name__ in {"ConnectError", "ConnectTimeout"}:
            return f"the URL could not be reached ({item or type(item).__name__})."
    return None
