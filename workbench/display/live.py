"""Live progress of a long call in the calling cell: one display, updated in place.

The callbacks run on the bridge's event-loop thread, many times a second; a lock keeps the
state whole and a throttle keeps the notebook from drowning in display updates. Without a
running kernel (plain Python, a terminal) everything here quietly does nothing.
"""

from __future__ import annotations

import contextvars
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Protocol

from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text

from workbench.display import markup
from workbench.display.formatting import first_line, format_duration, shorten
from workbench.display.mime import JSON_VERSION, PROGRESS_MIME, Displayable
from workbench.display.style import CSS_COLOR, RICH_STYLE, level_tone

BAR_WIDTH = 30
LOG_WIDTH = 160


class LogLike(Protocol):
    """What a server log record offers (``workbench.mcp.connection.LogRecord``)."""

    @property
    def level(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def server(self) -> str: ...


class DisplayHandleLike(Protocol):
    """What ``IPython.display.DisplayHandle`` offers that this module uses."""

    def update(self, obj: Any, **kwargs: Any) -> None: ...


@dataclass(frozen=True)
class ProgressView(Displayable):
    """A snapshot of a call's progress: a bar line and the last log lines.

    Renders as nothing while nothing has been reported, so a quick call leaves no trace.
    ``elapsed`` is set once the call ended, ``cancelled`` when it ended by an interrupt.
    """

    json_mime = PROGRESS_MIME
    tool_id: str | None = None
    done: float | None = None
    total: float | None = None
    message: str | None = None
    logs: tuple[tuple[str, str, str], ...] = ()
    elapsed: float | None = None
    cancelled: bool = False

    @property
    def empty(self) -> bool:
        return self.done is None and not self.logs

    @property
    def fraction(self) -> float | None:
        if self.done is None or not self.total or self.total <= 0:
            return None
        return min(max(self.done / self.total, 0.0), 1.0)

    def counts(self) -> str:
        """The counts shown, like 3/10 (or just 3); empty before any progress."""
        if self.done is None:
            return ""
        if self.total:
            return f"{self.done:g}/{self.total:g}"
        return f"{self.done:g}"

    def status(self) -> str:
        """The last progress message and, once finished, the elapsed time."""
        message = shorten(self.message or "", LOG_WIDTH)
        ended = ""
        if self.elapsed is not None:
            verb = "cancelled after" if self.cancelled else "finished in"
            ended = f"{verb} {format_duration(self.elapsed)}"
        return " · ".join(part for part in (message, ended) if part)

    def rich_parts(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if self.empty:
            return
        head = Text()
        if self.tool_id:
            head.append(f"{self.tool_id} ", style="bold cyan")
        fraction = self.fraction
        if fraction is not None:
            filled = round(fraction * BAR_WIDTH)
            head.append("█" * filled, style="cyan")
            head.append("░" * (BAR_WIDTH - filled), style="dim")
            head.append(" ")
        head.append(self.counts())
        status = self.status()
        if status:
            head.append(f"  {status}", style="dim")
        if head.plain.strip():
            yield head
        for level, server, message in self.logs:
            yield Text.assemble(
                (f"[{level}] ", RICH_STYLE[level_tone(level)]), (f"{server}: ", "dim"), message
            )

    def to_json(self) -> dict[str, Any] | None:
        """The line's parts as the views show them; None while nothing was reported."""
        if self.empty:
            return None
        return {
            "kind": "progress",
            "version": JSON_VERSION,
            "toolId": self.tool_id,
            "fraction": self.fraction,
            "counts": self.counts(),
            "status": self.status(),
            "finished": self.elapsed is not None,
            "cancelled": self.cancelled,
            "logs": [
                {"level": level, "server": server, "message": message}
                for level, server, message in self.logs
            ],
        }

    def to_html(self) -> str:
        if self.empty:
            return ""
        pieces = [markup.span(self.tool_id, mono=True, bold=True) if self.tool_id else ""]
        fraction = self.fraction
        if fraction is not None:
            track = (
                "display:inline-block;width:160px;height:6px;border-radius:3px;"
                "background:rgba(128,128,128,0.25);overflow:hidden;vertical-align:middle"
            )
            width = f"{fraction * 100:.1f}%"
            fill = f"display:block;height:100%;width:{width};background:{CSS_COLOR['accent']}"
            pieces.append(f'<span style="{track}"><span style="{fill}"></span></span>')
        pieces.append(markup.span(self.counts(), mono=True))
        pieces.append(markup.span(self.status(), tone="muted"))
        logs = "".join(
            markup.block(
                markup.span(f"[{level}]", tone=level_tone(level), mono=True)
                + " "
                + markup.span(f"{server}:", tone="muted")
                + " "
                + markup.esc(message)
            )
            for level, server, message in self.logs
        )
        return markup.box("progress", markup.line(*pieces) + logs)


class CallProgress:
    """Progress and server logs of one call, shown live in the cell that made the call.

    Create it in the calling cell (that is where its display lands), hand ``on_progress`` and
    ``on_log`` to the call, and ``finish()`` afterwards (or use it as a context manager).
    In a kernel the display opens with the first report, so a call that reports nothing
    leaves no output at all (not even an empty one in the saved notebook); ``finish`` leaves
    the final state. A given ``handle`` (a widget) is updated from the start.
    """

    def __init__(
        self,
        tool_id: str | None = None,
        *,
        handle: DisplayHandleLike | None = None,
        interval: float = 0.1,
        max_logs: int = 5,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.tool_id = tool_id
        self.interval = interval
        self._clock = clock
        self._lock = threading.Lock()
        self._done: float | None = None
        self._total: float | None = None
        self._message: str | None = None
        self._logs: deque[tuple[str, str, str]] = deque(maxlen=max_logs)
        self._started = clock()
        self._last_push = float("-inf")
        self._dirty = False
        self._timer: threading.Timer | None = None
        self._finished = False
        self._handle = handle
        # The cell's context, so the display opened later from another thread lands here.
        self._context = contextvars.copy_context()
        self._can_open = handle is None and _in_a_kernel()

    @property
    def live(self) -> bool:
        """Whether updates reach a display (False outside a kernel)."""
        return self._handle is not None or self._can_open

    def on_progress(
        self, done: float, total: float | None = None, message: str | None = None
    ) -> None:
        """MCP progress (``progress``, ``total``, ``message``); callable from any thread."""
        with self._lock:
            self._done, self._total = done, total
            if message:
                self._message = message
            self._changed()

    def on_log(self, record: LogLike) -> None:
        """A server log record; the last few are shown under the bar. Any thread."""
        entry = (
            str(record.level),
            str(record.server),
            shorten(first_line(str(record.message)), LOG_WIDTH),
        )
        with self._lock:
            self._logs.append(entry)
            self._changed()

    def flush(self) -> None:
        """Show the latest state now if it has not been shown yet, throttle or not."""
        with self._lock:
            if self._dirty and not self._finished and self.live:
                self._push()

    def _on_timer(self) -> None:
        """The throttle's trailing edge: the last state shows even if no event follows it."""
        with self._lock:
            self._timer = None
            if self._dirty:
                self._changed()

    def finish(self, *, clear: bool = False, cancelled: bool = False) -> None:
        """Stop updating; leave the final state ("finished in", or "cancelled after" for a
        call that was interrupted), or clear it (always, if nothing came)."""
        with self._lock:
            if self._finished:
                return
            self._finished = True
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            elapsed = self._clock() - self._started
            self._send(ProgressView() if clear else self._view(elapsed, cancelled=cancelled))

    def __enter__(self) -> CallProgress:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.finish()

    def _view(self, elapsed: float | None = None, *, cancelled: bool = False) -> ProgressView:
        logs = tuple(self._logs)
        return ProgressView(
            self.tool_id, self._done, self._total, self._message, logs, elapsed, cancelled
        )

    def _changed(self) -> None:
        """Push now, or schedule the push for when the throttle allows. Lock held."""
        if self._finished or not self.live:
            return
        self._dirty = True
        wait = self._last_push + self.interval - self._clock()
        if wait <= 0:
            self._push()
        elif self._timer is None:
            self._timer = threading.Timer(wait, self._on_timer)
            self._timer.daemon = True
            self._timer.start()

    def _push(self) -> None:
        """Send the state to the display. Lock held, so updates never overtake each other."""
        self._dirty = False
        self._last_push = self._clock()
        self._send(self._view())

    def _send(self, view: ProgressView) -> None:
        """Update the display, opening it on the first view worth showing; one that fails (a
        closing kernel) is dropped, never raised into the call whose progress it shows. Lock
        held, so the cell's context is entered by one thread at a time."""
        try:
            if self._handle is not None:
                self._context.run(self._handle.update, view)
            elif self._can_open and not view.empty:
                self._can_open = False
                self._handle = self._context.run(_open_display, view)
        except Exception:
            self._handle, self._can_open = None, False


def _in_a_kernel() -> bool:
    """Whether a running kernel can show displays (a terminal IPython would print every update
    on a new line, so it counts as none)."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


def _open_display(view: ProgressView) -> DisplayHandleLike | None:
    """A display handle in the calling cell, showing ``view``."""
    from IPython.display import display

    handle: DisplayHandleLike | None = display(view, display_id=True)  # type: ignore[no-untyped-call]
    return handle
