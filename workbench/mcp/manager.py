"""Named connections: open, list, reconnect and close them, keeping the registry in step.

Coroutines here run on the bridge loop; the Workbench is the synchronous face.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from workbench.errors import UnknownServerError
from workbench.mcp.connection import Connection, LogRecord, Status
from workbench.mcp.spec import ServerSpec
from workbench.registry import Registry


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


class ConnectionManager:
    """Owns the Connection objects by name; each server's tools mirror into the registry."""

    def __init__(
        self, registry: Registry, on_log: Callable[[LogRecord], None], log_level: str = "info"
    ) -> None:
        self.registry = registry
        self._on_log = on_log
        self._log_level = log_level
        self._connections: dict[str, Connection] = {}

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

    def info(self) -> list[ServerInfo]:
        return [_info(self._connections[name]) for name in sorted(self._connections)]

    async def open(self, spec: ServerSpec) -> ServerInfo:
        """Connect, replacing any connection of that name only once the new one works.

        A failed re-connect leaves a working connection (and its tools) as it was and
        raises; with nothing working to keep, the failure stays listed and no tools of that
        name stay in the registry.
        """
        old = self._connections.get(spec.name)
        connection = Connection(
            spec, on_tools=self.registry.set_tools, on_log=self._on_log, log_level=self._log_level
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
    )
