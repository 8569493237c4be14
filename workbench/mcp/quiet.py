"""Quiet cells: what the MCP SDK, FastMCP and httpx log about a server stays with that server.

Those libraries log through Python's ``logging``: a stdio server that prints a banner gives
a ten-line "Failed to parse JSONRPC message" traceback, an in-process tool error a coloured
"Error calling tool" line, a raising progress callback a traceback per step. With no handler
configured they reach ``stderr``, which in a notebook is the cell that happened to be running.

So each library's top logger gets one router, in front of the handlers it had. A record made
while the workbench works for a server (a contextvar set when the connection opens, which the
client's tasks inherit) is kept in that server's buffer at its level (``recent(name)``); one
made elsewhere on the bridge thread goes to the unnamed buffer; every other record (the
user's own use of these libraries) goes where it went before.
"""

from __future__ import annotations

import logging
import threading
import time
import traceback
import warnings
from collections import deque
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

LIBRARIES = ("mcp", "fastmcp", "httpx", "httpx2", "httpcore")
KEPT = 200
"""Records kept per server: the recent past, not an archive."""
BRIDGE_THREAD = "workbench-bridge"
UNATTRIBUTED = ""

_server: ContextVar[str | None] = ContextVar("workbench_server", default=None)
_buffers: dict[str, deque[LibraryRecord]] = {}
_lock = threading.Lock()
_deprecation_filter: Any = None
"""The filter ``quiet_logging_deprecation`` added last."""
_routers: list[tuple[logging.Logger, logging.Handler]] = []
"""Each library's logger and the router ``install`` put in front of it."""


@dataclass(frozen=True)
class LibraryRecord:
    """One log record of a library, kept for the server it was about."""

    server: str
    level: str
    logger: str
    message: str
    created: float

    def __str__(self) -> str:
        stamp = time.strftime("%H:%M:%S", time.localtime(self.created))
        return f"{stamp} {self.level} {self.logger}: {self.message}"


def working_for(server: str) -> None:
    """Attribute what the libraries log from here on, in this task and the tasks it starts
    (a client's reader and writer), to ``server``; and make sure the routers are in place."""
    install()
    _server.set(server)


def quiet_logging_deprecation() -> None:
    """Silence the SDK's warning that logging is deprecated, where FastMCP sends a log.

    MCP 2026-07-28 deprecates server-to-client logging without a replacement on the wire, and
    FastMCP keeps sending it on purpose; the warning tells notebook users nothing they can act
    on. The filter matches only that message raised from FastMCP's context module.
    """
    from mcp import MCPDeprecationWarning

    global _deprecation_filter
    if _deprecation_filter is not None and warnings.filters[:1] == [_deprecation_filter]:
        return  # in front already: adding it again changes nothing (a call's cost, issue 29)
    warnings.filterwarnings(
        "ignore",
        message="The logging capability is deprecated",
        category=MCPDeprecationWarning,
        module=r"fastmcp\.server\.context",
    )
    _deprecation_filter = warnings.filters[0]


def recent(server: str = UNATTRIBUTED) -> list[LibraryRecord]:
    """The records kept for ``server`` (oldest first); the unnamed buffer by default."""
    with _lock:
        return list(_buffers.get(server, ()))


def forget(server: str) -> None:
    """Drop a server's records (it was removed)."""
    with _lock:
        _buffers.pop(server, None)


def install() -> None:
    """Put a router in front of each library's top logger; again if one was reconfigured
    (FastMCP replaces its handlers when it configures logging, at import)."""
    if _routers and all(router in logger.handlers for logger, router in _routers):
        return  # every router still in place: nothing to do (a call's cost, issue 29)
    import fastmcp  # noqa: F401  (configures its logger on import: route after that)

    for name in LIBRARIES:
        logger = logging.getLogger(name)
        if any(isinstance(handler, _Router) for handler in logger.handlers):
            continue
        router = _Router(list(logger.handlers), logger.propagate)
        for handler in router.downstream:
            logger.removeHandler(handler)
        logger.addHandler(router)
        logger.propagate = False
    _routers[:] = [
        (logger, handler)
        for logger in map(logging.getLogger, LIBRARIES)
        for handler in logger.handlers
        if isinstance(handler, _Router)
    ]


def _attribution() -> str | None:
    server = _server.get()
    if server is not None:
        return server
    if threading.current_thread().name.startswith(BRIDGE_THREAD):
        return UNATTRIBUTED
    return None


def _keep(server: str, record: logging.LogRecord) -> None:
    message = record.getMessage()
    if record.exc_info and record.exc_info[1] is not None:
        message += "\n" + "".join(traceback.format_exception(*record.exc_info)).rstrip()
    kept = LibraryRecord(server, record.levelname.lower(), record.name, message, record.created)
    with _lock:
        _buffers.setdefault(server, deque(maxlen=KEPT)).append(kept)


class _Router(logging.Handler):
    """Keeps the workbench's records, passes everything else on as if it were not here."""

    def __init__(self, downstream: list[logging.Handler], propagate: bool) -> None:
        super().__init__()
        self.downstream = downstream
        self.propagate = propagate

    def emit(self, record: logging.LogRecord) -> None:
        server = _attribution()
        if server is not None:
            _keep(server, record)
            return
        for handler in self.downstream:
            if record.levelno >= handler.level:
                handler.handle(record)
        if self.propagate:
            logging.getLogger().handle(record)


def quiet_handshake_era_requests() -> None:
    """Silence the SDK's warnings that subscriptions, roots and log levels leave the newest
    protocol: servers on the handshake-era protocols (most servers today) still take them,
    and the workbench sends them only to servers that advertised them."""
    from mcp import MCPDeprecationWarning

    for message in (
        "resources/subscribe is removed",
        "resources/unsubscribe is removed",
        "The roots capability is deprecated",
        "The logging capability is deprecated",
    ):
        warnings.filterwarnings("ignore", message=message, category=MCPDeprecationWarning)
