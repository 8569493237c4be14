"""What a notebook tool tells its caller while it runs (progress, log messages) and asks it.

``get_context()`` inside a notebook tool returns the running call's :class:`ToolContext`. The
same code works whoever called: from the notebook the progress and log lines show in the
cell (``%mcp call``, ``wb.call(on_progress=...)``, the browser); from an outside client served
by ``%mcp serve`` they arrive as MCP progress and log notifications. Called as a plain
function, outside any call, the context is silent, so a tool stays an ordinary function.

A tool may run in a worker thread or on the kernel's loop, while the MCP session lives on the
bridge loop: each report is handed to that loop, and the call's answer waits for the reports
sent before it, so a client never sees progress after the result.

``elicit(message, schema)`` / ``elicit_url(message, url)`` ask whoever called (the asker the
call was started with, ``serving/questions.py``): a sync tool blocks its worker thread until
the answer comes, an async tool awaits it (``await get_context().elicit(...)``). Called as a
plain function, or by a caller who cannot answer, they raise ``NoOneToAsk``: a question
nobody can answer is a mistake to see, not a silent decline. ``sample(...)`` asks the caller
for a language model's reply (a client declaring sampling, the notebook's ``wb.on_sampling``);
``roots()`` asks the caller's roots (a client declaring roots, the notebook's ``wb.roots``).
MCP 2026-07-28 deprecates both (SEP-2577) but still carries them, as input requests. A
client that did not declare what a question needs raises ``MissingCapability``.

``close_stream()`` ends a served call's SSE response stream mid-call (SEP-1699 polling,
``serving/stream_closing.py``): a 2025-11-25 client reconnects and misses nothing. For every
other caller it does nothing.
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
from workbench.features.asking import (
    ElicitationRequest,
    Root,
    RootsRequest,
    SamplingMessage,
    SamplingRequest,
)
from workbench.mcp.quiet import quiet_logging_deprecation
from workbench.names import LOCAL_SERVER
from workbench.serving.forms import Form
from workbench.serving.questions import (
    Asker,
    NoOneToAsk,
    RootsAsker,
    Sampler,
    SamplingReply,
    current_asker,
    current_roots,
    current_sampler,
)
from workbench.serving.stream_closing import StreamCloser, current_closer
from workbench.serving.task_start import begin_task

LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
"""MCP's log levels (RFC 5424's, lowest first)."""

_current: ContextVar[ToolContext | None] = ContextVar("workbench_tool_context", default=None)
SAMPLING_GONE = (
    "this caller offers no sampling (deprecated in MCP 2026-07-28, SEP-2577); "
    "ask with get_context().elicit(...) instead"
)


class ToolContext:
    """The running call of a notebook tool, as the tool sees it."""

    def __init__(
        self,
        tool: str = "",
        request: Any = None,
        loop: asyncio.AbstractEventLoop | None = None,
        *,
        asker: Asker | None = None,
        sampler: Sampler | None = None,
        roots: RootsAsker | None = None,
        closer: StreamCloser | None = None,
    ) -> None:
        self.tool = tool
        self._request = request  # fastmcp's Context of the call, None when silent
        self._loop = loop
        self._asker = asker
        self._sampler = sampler
        self._roots = roots
        self._closer = closer
        self._sent: list[concurrent.futures.Future[Any]] = []
        self._asking: set[concurrent.futures.Future[Any]] = set()
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        state = f"call of {self.tool}" if self.active else "silent: not in a call"
        return f"<ToolContext {state}>"

    @property
    def active(self) -> bool:
        """True inside a call; False when the tool was called as a plain function."""
        return self._request is not None

    def begin_task(self) -> bool:
        """Begin this call's task here (a tool marked ``@asks_before_task``): the questions
        asked so far went to the client as rounds; it now polls the task. False when the
        call runs no such task (a plain call, a client without tasks): nothing changes."""
        return begin_task()

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

    # -- questions to the caller ----------------------------------------------------------

    def elicit(self, message: str, schema: Any, *, key: str | None = None) -> Any:
        """Ask the caller to fill in a form: ``schema`` is a JSON Schema object of flat
        properties, or a type (``bool``, a dataclass...). Returns an :class:`Answer`
        (``action``, ``content``, ``value``); in an async tool, ``await`` it. ``key`` names
        the question for a 2026-07-28 client (its ``inputRequests`` key)."""
        form = Form.of(schema)
        request = self._question(message, schema=form.schema, key=key)
        return self._ask(self._asker_or_raise(), request, form.answer)

    def elicit_url(self, message: str, url: str, *, key: str | None = None) -> Any:
        """Ask the caller to open ``url`` (sign-in, payment: nothing passes through the
        client); the Answer says whether they agreed. In an async tool, ``await`` it."""
        request = self._question(message, mode="url", url=str(url), key=key)
        return self._ask(self._asker_or_raise(), request, lambda answer: Form({}).answer(answer))

    def sample(
        self,
        messages: str | list[str],
        *,
        system_prompt: str | None = None,
        max_tokens: int = 100,
        temperature: float | None = None,
        key: str | None = None,
    ) -> Any:
        """Ask the caller for a language model's reply to ``messages`` (user turns); returns
        a SamplingReply (``text``, ``model``). In an async tool, ``await`` it. ``key`` names
        the request for a 2026-07-28 client."""
        if self._sampler is None:
            self._in_call("sample")
            raise NoOneToAsk(f"{self.tool or 'This tool'} cannot sample: {SAMPLING_GONE}.")
        turns = [messages] if isinstance(messages, str) else list(messages)
        request = SamplingRequest(
            server=LOCAL_SERVER,
            messages=[
                SamplingMessage("user", text, {"type": "text", "text": text}) for text in turns
            ],
            system_prompt=system_prompt,
            max_tokens=max_tokens,
            temperature=temperature,
            tool=self.tool,
            key=key,
        )
        return self._ask(self._sampler, request, _same)

    def roots(self, *, key: str | None = None) -> Any:
        """The caller's roots (a list of Root: ``uri``, ``name``): the folders it offers.
        From the notebook, the Workbench's own (``wb.roots``). In an async tool, ``await``
        it. ``key`` names the request for a 2026-07-28 client."""
        if self._roots is None:
            self._in_call("roots")
            raise NoOneToAsk(f"Whoever called {self.tool} cannot list its roots.")
        request = RootsRequest(server=LOCAL_SERVER, tool=self.tool, key=key)
        return self._ask(self._roots, request, _roots_of)

    def close_stream(self) -> Any:
        """End this call's response stream now; the call goes on. The client reconnects
        and gets what follows (nothing is lost: SEP-1699 polling), so a long call need not
        hold one HTTP response open. A no-op where the caller cannot resume (2026-07-28 or
        pre-2025-11-25 clients, the notebook's own calls). In an async tool, await it."""
        closer, loop = self._closer, self._loop
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if closer is None or loop is None:
            if running is None:
                return None
            done: asyncio.Future[None] = running.create_future()
            done.set_result(None)
            return done

        async def close() -> None:
            await closer()

        future = send_to_loop(loop, close())
        return future.result() if running is None else asyncio.wrap_future(future)

    def _asker_or_raise(self) -> Asker:
        if self._asker is not None:
            return self._asker
        self._in_call("elicit")
        raise NoOneToAsk(f"Whoever called {self.tool} cannot answer questions.")

    def _in_call(self, what: str) -> None:
        if not self.active:
            raise NoOneToAsk(
                f"get_context().{what}() asks the caller of a tool call; called as a plain "
                "function there is no caller to ask."
            )

    def _question(self, message: str, **fields: Any) -> ElicitationRequest:
        return ElicitationRequest(
            server=LOCAL_SERVER, message=str(message), tool=self.tool, **fields
        )

    def _ask(self, ask: Any, request: Any, read: Any) -> Any:
        """Hand ``ask(request)`` to the call's loop; block for it in a worker thread, or
        give an awaitable where a loop runs (an async tool)."""
        assert self._loop is not None  # an asker comes only with a call, and a call's loop
        future = send_to_loop(self._loop, ask(request))
        with self._lock:
            self._asking.add(future)
        future.add_done_callback(self._asked)
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return read(future.result())

        async def answered() -> Any:
            return read(await asyncio.wrap_future(future))

        return answered()

    def _asked(self, future: concurrent.futures.Future[Any]) -> None:
        with self._lock:
            self._asking.discard(future)

    def stop_asking(self) -> None:
        """The call ended: a question still waiting (a tool thread the call left behind)
        is cancelled, so that thread stops waiting."""
        with self._lock:
            waiting, self._asking = self._asking, set()
        for future in waiting:
            future.cancel()

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
    context = ToolContext(
        tool,
        request,
        asyncio.get_running_loop(),
        asker=current_asker(),
        sampler=current_sampler(),
        roots=current_roots(),
        closer=current_closer(),
    )
    token = _current.set(context)
    try:
        yield context
    finally:
        _current.reset(token)
        context.stop_asking()


def _same(reply: SamplingReply) -> SamplingReply:
    return reply


def _roots_of(roots: list[Root]) -> list[Root]:
    return list(roots)
