"""What a notebook tool tells its caller while it runs: progress and log messages.

``get_context()`` inside a notebook tool returns the running call's :class:`ToolContext`. The
same code works whoever called: from the notebook the progress and log lines show in the
cell (``%mcp call``, ``wb.call(on_progress=...)``, the browser); from an outside client served
by ``%mcp serve`` they arrive as MCP progress and log notifications. Called as a plain
function, outside any call, the context is silent, so a tool stays an ordinary function.

A tool may run in a worker thread or on the kernel's loop, while the MCP session lives on the
bridge loop: each report is handed to that loop, and the call's answer waits for the reports
sent before it, so a client never sees progress after the result.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from workbench.bridge import send_to_loop
from workbench.mcp.quiet import quiet_logging_deprecation

LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
"""MCP's log levels (RFC 5424's, lowest first)."""

_current: ContextVar[ToolContext | None] = ContextVar("workbench_tool_context", default=None)


class ToolContext:
    """The running call of a notebook tool, as the tool sees it."""

    def __init__(
        self, tool: str = "", request: Any = None, loop: asyncio.AbstractEventLoop | None = None
    ) -> None:
        self.tool = tool
        self._request = request  # fastmcp's Context of the call, None when silent
        self._loop = loop
        self._sent: list[concurrent.futures.Future[Any]] = []
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        state = f"call of {self.tool}" if self.active else "silent: not in a call"
        return f"<ToolContext {state}>"

    @property
    def active(self) -> bool:
        """True inside a call; False when the tool was called as a plain function."""
        return self._request is not None

    def progress(
        self, progress: float, total: float | None = None, message: str | None = None
    ) -> None:
        """Report how far the tool is (``progress`` of ``total``, if known)."""
        if self._request is not None:
            self._send(self._request.report_progress(float(progress), total, message))

    def log(self, message: str, level: str = "info") -> None:
        """Send a log message to the caller at ``level`` (one of :data:`LEVELS`)."""
        if level not in LEVELS:
            raise ValueError(f"Unknown log level {level!r}: use one of {', '.join(LEVELS)}.")
        if self._request is not None:
            self._send(self._request.log(str(message), level))

    def debug(self, message: str) -> None:
        self.log(message, "debug")

    def info(self, message: str) -> None:
        self.log(message, "info")

    def warning(self, message: str) -> None:
        self.log(message, "warning")

    def error(self, message: str) -> None:
        self.log(message, "error")

    async def sent(self) -> None:
        """Wait (on the bridge loop) until every report made so far has gone out."""
        with self._lock:
            sent, self._sent = self._sent, []
        if sent:
            await asyncio.gather(*map(asyncio.wrap_future, sent), return_exceptions=True)

    def _send(self, report: Coroutine[Any, Any, None]) -> None:
        if self._loop is None:
            report.close()
            return
        future = send_to_loop(self._loop, report)
        with self._lock:
            self._sent.append(future)


def get_context() -> ToolContext:
    """The call the running notebook tool serves; a silent context outside any call."""
    return _current.get() or ToolContext()


@contextmanager
def serving(tool: str, request: Any) -> Iterator[ToolContext]:
    """Make ``get_context()`` answer for the call of ``tool`` in this context and the threads
    and tasks it starts; ``request`` is fastmcp's Context of the call (None: silent)."""
    quiet_logging_deprecation()  # FastMCP's log reports would warn into a cell
    context = ToolContext(tool, request, asyncio.get_running_loop())
    token = _current.set(context)
    try:
        yield context
    finally:
        _current.reset(token)
