"""Named connections: open, list, reconnect and close them, keeping the registry in step.

Coroutines here run on the bridge loop; the Workbench is the synchronous face. A reconnect
opens the new connection first and swaps it in only when it works, so a failed one leaves the
working connection and its tools as they were; an mcp.json entry refused before connecting
stays listed as a failed row, so a bad entry is seen rather than silently missing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace

from workbench.config.spec import ServerSpec
from workbench.errors import ServerSpecError, UnknownServerError
from workbench.mcp import quiet
from workbench.mcp.answers import ClientAnswers
from workbench.mcp.connection import Connection, LogRecord, ServerChange, Status
from workbench.mcp.quiet import LibraryRecord
from workbench.names import check_server_name
from workbench.registry import Registry
from workbench.secrets import mask_text
from workbench.tools.icons import Icon, shown_icons

REFUSED = "config"
"""The transport of a server whose settings never made a connection (a wrong config entry)."""


@dataclass(frozen=True)
class ServerInfo:
    """One row of ``servers()``: what a person needs to see about a connection."""

    name: str
    transport: str
    target: str
    status: str
    tool_count: int
    last_error: str | None
    instructions: str | None
    ping: float | None = None
    """Seconds a ping took, when asked for (``Workbench.servers(ping=True)``)."""
    icons: tuple[Icon, ...] = field(default=(), repr=False)
    """The server's icons as its serverInfo lists them, kept as data."""

    def drawable_icons(self, max_chars: int) -> dict[str, str]:
        """The icon a view may draw, by theme (``workbench/tools/icons.py``'s rule)."""
        return shown_icons(self.icons, max_chars)


class ConnectionManager:
    """Owns the Connection objects by name; each server's tools mirror into the registry."""

    def __init__(
        self,
        registry: Registry,
        on_log: Callable[[LogRecord], None],
        log_level: str = "info",
        *,
        answers: ClientAnswers | None = None,
        on_change: Callable[[ServerChange], object] | None = None,
        demo_server: Callable[[], object] | None = None,
    ) -> None:
        self.registry = registry
        # Builds the embedded demo server, which ``server_spec("demo")`` (pure) leaves out.
        self._demo_server = demo_server
        self._on_log = on_log
        self._answers = answers
        self._on_change = on_change
        self._log_level = log_level
        self._connections: dict[str, Connection] = {}
        # Servers whose settings were refused before anything started (a wrong mcp.json
        # entry): listed as failed rows until connected, disconnected or read again.
        self._refused: dict[str, ServerInfo] = {}

    @property
    def log_level(self) -> str:
        """The lowest server log level passed on (MCP levels: debug ... emergency)."""
        return self._log_level

    @log_level.setter
    def log_level(self, level: str) -> None:
        self._log_level = level
        for connection in self._connections.values():
            connection.log_level = level

    def get(self, name: str) -> Connection:
        try:
            return self._connections[name]
        except KeyError:
            known = ", ".join(sorted(self._connections)) or "none yet"
            raise UnknownServerError(f"No server named {name!r} (connected: {known}).") from None

    def __contains__(self, name: object) -> bool:
        return name in self._connections

    def check(self, name: str) -> None:
        """Raise UnknownServerError unless ``name`` is listed (connected, failed or refused)."""
        if name not in self._refused:
            self.get(name)

    def info(self) -> list[ServerInfo]:
        rows = {name: _info(connection) for name, connection in self._connections.items()}
        rows = self._refused | rows  # a connection of that name is the truer row
        return [rows[name] for name in sorted(rows)]

    def refused(self, name: str) -> ServerInfo | None:
        """The failed row of a server whose settings were refused, or None."""
        return self._refused.get(name)

    async def refuse(self, name: str, source: str, reason: str) -> ServerInfo:
        """List ``name`` as failed with ``reason``: its settings from ``source`` (a config
        file) made no connection. A working connection of that name is kept, as a failed
        re-connect keeps it; one that is not working is closed and replaced by the row."""
        row = ServerInfo(name, REFUSED, source, "failed", 0, mask_text(reason), None)
        old = self._connections.get(name)
        if old is not None and old.status is Status.CONNECTED:
            return row
        if old is not None:
            await self.close(name)
        self._refused[name] = row
        return row

    def forget_refused(self, source: str, names: Iterable[str] | None = None) -> None:
        """Drop the refused rows read from ``source`` (all, or those of ``names``): the
        file is being read again."""
        chosen = set(self._refused) if names is None else set(names)
        for name in chosen:
            row = self._refused.get(name)
            if row is not None and row.target == source:
                del self._refused[name]

    def library_log(self, name: str) -> list[LibraryRecord]:
        """What the MCP SDK, FastMCP and httpx logged about a listed server, oldest first,
        with every secret its settings know of masked."""
        check_server_name(name)
        self.check(name)
        connection = self._connections.get(name)
        mask = connection.spec.redact if connection is not None else mask_text
        return [replace(record, message=mask(record.message)) for record in quiet.recent(name)]

    async def open(self, spec: ServerSpec) -> ServerInfo:
        """Connect, replacing any connection of that name only once the new one works.

        A failed re-connect leaves a working connection (and its tools) as it was and
        raises; with nothing working to keep, the failure stays listed and no tools of that
        name stay in the registry.
        """
        self._refused.pop(spec.name, None)
        if spec.transport == "in-process" and spec.server is None:
            if self._demo_server is None:
                raise ServerSpecError(f"No server to run in-process for {spec.name!r}.")
            # Built once per connect: a reconnect keeps the same server and its state.
            spec = replace(spec, server=self._demo_server())
        old = self._connections.get(spec.name)
        if old is None:
            # A new server of that name starts with an empty library log: what an earlier
            # server of the same name (another Workbench, a disconnected one) left is not its.
            quiet.forget(spec.name)
        connection = Connection(
            spec,
            on_tools=self.registry.set_tools,
            on_log=self._on_log,
            log_level=self._log_level,
            answers=self._answers,
            on_change=self._on_change,
        )
        if old is None:
            self._connections[spec.name] = connection
        try:
            await connection.open()
        except BaseException:
            if old is not None and old.status is Status.CONNECTED:
                self.registry.set_tools(spec.name, old.tools)  # in case the new one listed some
            else:
                self._connections[spec.name] = connection
                self.registry.remove_server(spec.name)
                if old is not None:
                    await old.close()
            raise
        self._connections[spec.name] = connection
        if old is not None:
            await old.close()
        return _info(connection)

    async def open_many(self, specs: Sequence[ServerSpec]) -> list[ServerInfo | BaseException]:
        """Connect several servers at once: as slow as the slowest, and none hides another."""
        return list(
            await asyncio.gather(*(self.open(spec) for spec in specs), return_exceptions=True)
        )

    async def reconnect(self, name: str) -> ServerInfo:
        connection = self.get(name)
        await connection.open()
        return _info(connection)

    async def close(self, name: str) -> None:
        if self._refused.pop(name, None) is not None and name not in self._connections:
            return
        connection = self.get(name)
        del self._connections[name]
        await connection.close()
        self.registry.remove_server(name)

    async def close_all(self) -> None:
        await asyncio.gather(
            *(self.close(name) for name in list(self._connections)), return_exceptions=True
        )


def _info(connection: Connection) -> ServerInfo:
    return ServerInfo(
        name=connection.name,
        transport=connection.spec.transport,
        target=connection.spec.describe(),
        status=connection.status.value,
        tool_count=len(connection.tools) if connection.status is not Status.FAILED else 0,
        last_error=connection.last_error,
        instructions=connection.instructions,
        icons=connection.icons,
    )
