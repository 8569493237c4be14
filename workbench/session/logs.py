"""The Workbench's methods for what servers log: the level shown, listeners of every
server's records and of one call's, and what the MCP libraries logged about a server.

A mixin of ``Workbench`` (``workbench.py``); the records come from the connections on the
bridge thread through ``_dispatch_log``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from workbench.errors import WorkbenchError
from workbench.features.log_levels import LOG_LEVELS
from workbench.listeners import Listeners
from workbench.mcp.connection import LogRecord

if TYPE_CHECKING:
    from workbench.mcp.manager import ConnectionManager
    from workbench.mcp.quiet import LibraryRecord

LogCallback = Callable[[LogRecord], object]


class ServerLogs:
    """Log levels and log listeners: mixed into ``Workbench``."""

    if TYPE_CHECKING:
        _manager: ConnectionManager
        _logs: Listeners[LogRecord]
        _call_logs: dict[str, Listeners[LogRecord]]

        def _check_open(self) -> None: ...

    @property
    def log_level(self) -> str:
        """The lowest level of server log messages passed to log listeners."""
        return self._manager.log_level

    @log_level.setter
    def log_level(self, level: str) -> None:
        if level not in LOG_LEVELS:
            raise WorkbenchError(
                f"Unknown log level {level!r}; use one of {', '.join(LOG_LEVELS)}."
            )
        self._manager.log_level = level

    def server_log(self, name: str) -> list[LibraryRecord]:
        """What the MCP SDK, FastMCP and httpx logged about server ``name`` (oldest first,
        the last 200 records, secrets masked): the lines they would have printed in cells,
        such as a stdio server's stdout that is not JSON-RPC."""
        self._check_open()
        return self._manager.library_log(name)

    def subscribe_logs(self, listener: LogCallback) -> Callable[[], None]:
        """Follow every server's log records (at ``log_level`` and above), on the bridge
        thread; returns the function that stops following. For one call's records, give
        ``on_log`` to ``call`` instead."""
        return self._logs.subscribe(listener)

    def _dispatch_log(self, record: LogRecord) -> None:
        self._logs.notify(record)
        per_call = self._call_logs.get(record.server)
        if per_call is not None:
            per_call.notify(record)

    def _follow_call_logs(self, server: str, on_log: LogCallback | None) -> Callable[[], None]:
        """Pass ``server``'s log records to ``on_log`` until the returned function is called."""
        if on_log is None:
            return _nothing
        listeners = self._call_logs.setdefault(server, Listeners(f"{server}'s call logs"))
        return listeners.subscribe(on_log)


def _nothing() -> None:
    """Stops following nothing (a call without ``on_log``)."""
