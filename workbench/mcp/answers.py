"""The client's side of MCP: answering a server's elicitation, sampling and roots requests.

One ``ClientAnswers`` per Workbench, shared by its connections. Who answers, first match:
1. the Workbench's handler (``wb.on_elicitation(fn)``, ``wb.on_sampling(fn)``), for scripts
   and tests;
2. the handler of the call that is running on that server (the browser's call panel shows a
   form in its own output);
3. the person at the notebook, through the ``Asker`` the kernel installs: a form in the
   calling cell when the kernel's loop is free (an awaited call), a typed answer (``input()``)
   in the main thread when a sync call blocks it; unless the run is unattended (``unattended``
   gives a reason, read in the calling cell's context: nbclient and papermill allow no
   input), and then the question is declined at once with a one-line note in the cell;
4. nobody (a script): elicitation is declined and sampling refused, with a warning saying
   which handler to set.
A sign-in link of an OAuth server goes the same way (``wb.on_sign_in(fn)``, then the
person, then a printed link): see ``oauth/routing.py``.
Sync handlers run in a worker thread, never on the bridge loop; every wait for a person ends
after ``timeout`` seconds, and a timeout declines.
"""

from __future__ import annotations

import asyncio
import contextvars
import inspect
import threading
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from workbench.errors import UnansweredRequestWarning
from workbench.features.asking import (
    Declined,
    ElicitationAnswer,
    ElicitationHandler,
    ElicitationRequest,
    SamplingHandler,
    SamplingMessage,
    SamplingReply,
    SamplingRequest,
    as_answer,
    as_reply,
)
from workbench.mcp.oauth.routing import SignInHandler, route_sign_in
from workbench.secrets import mask_text

T = TypeVar("T")
CALL_HANDLERS: contextvars.ContextVar[tuple[ElicitationHandler | None, SamplingHandler | None]] = (
    contextvars.ContextVar("workbench_call_handlers", default=(None, None))
)
"""The handlers of the calls started in this context (``Workbench.answering``)."""
ASK_TIMEOUT = 300.0
"""Seconds a person has to answer a server's question before it is declined."""
QUOTED = 80
"""Characters of a server's question quoted in a one-line note."""


class Asker(Protocol):
    """How the person at the notebook is asked (the kernel installs one; see kernel.py)."""

    def elicit_form(self, request: ElicitationRequest, timeout: float) -> ElicitationAnswer:
        """Show a form where the call was made and wait (in a worker thread) for the answer."""

    def elicit_text(self, request: ElicitationRequest) -> ElicitationAnswer:
        """Ask with ``input()`` in the main thread, which a sync call is blocking."""

    def sample_form(self, request: SamplingRequest, timeout: float) -> SamplingReply | None:
        """Show the request and a reply box; None when the person declines."""

    def sample_text(self, request: SamplingRequest) -> SamplingReply | None:
        """Ask for the reply with ``input()`` in the main thread."""

    def sign_in_form(
        self, server: str, url: str, listening: bool, done: threading.Event, timeout: float
    ) -> str | None:
        """Show a sign-in link and a paste box in the calling cell (in a worker thread);
        the pasted redirect URL, or None once ``done`` is set (the local listener caught
        the redirect) or at timeout."""

    def sign_in_text(self, server: str, url: str, paste: bool) -> str | None:
        """Print the link in the main thread; with ``paste``, ``input()`` the redirect
        URL, else return None at once (the local listener catches it)."""


class MainThread(Protocol):
    """What the bridge tells and does about a main thread blocked on it."""

    def main_thread_blocked(self) -> bool: ...

    async def run_in_main_thread(self, fn: Callable[[], T], timeout: float) -> T: ...


@dataclass
class CallAnswers:
    """Who answers for one running call, and where its output goes."""

    tool: str
    context: contextvars.Context
    on_elicitation: ElicitationHandler | None = None
    on_sampling: SamplingHandler | None = None

    @classmethod
    def here(cls, tool: str) -> CallAnswers:
        """For a call starting in this context: its handlers (``CALL_HANDLERS``) and a copy
        of the context, so what a person is shown lands in the calling cell."""
        on_elicitation, on_sampling = CALL_HANDLERS.get()
        return cls(tool, contextvars.copy_context(), on_elicitation, on_sampling)


class ClientAnswers:
    """The Workbench's handlers, the person's asker and the roots it advertises."""

    def __init__(self, main_thread: MainThread, *, roots: list[str] | None = None) -> None:
        self.elicitation: ElicitationHandler | None = None
        self.sampling: SamplingHandler | None = None
        self.sign_in_handler: SignInHandler | None = None
        self.asker: Asker | None = None
        self.unattended: Callable[[], str | None] | None = None
        """Why no person can answer now (run in the asking call's context), or None."""
        self.timeout = ASK_TIMEOUT
        self.roots: list[str] = list(roots or ())  # none unless the person sets some (roots.py)
        self._main_thread = main_thread

    # -- elicitation ----------------------------------------------------------------------

    async def elicit(
        self, request: ElicitationRequest, call: CallAnswers | None
    ) -> ElicitationAnswer:
        handler = self.elicitation or (call.on_elicitation if call else None)
        if handler is not None:
            try:
                return as_answer(await self._run_handler(handler, request, call))
            except TimeoutError:
                return ElicitationAnswer.decline()
        asker = self.asker
        if asker is None:
            warnings.warn(
                UnansweredRequestWarning(
                    f"{request.server!r} asked for input ({request.message!r}) and it was "
                    "declined: nobody answers here. Set wb.on_elicitation(fn) to answer."
                ),
                stacklevel=1,
            )
            return ElicitationAnswer.decline()
        if self._nobody_there(f"asked {_quoted(request.message)}", request.server, call):
            return ElicitationAnswer.decline()
        if self._main_thread.main_thread_blocked():
            return await self._in_main_thread(
                lambda: asker.elicit_text(request), ElicitationAnswer.decline()
            )
        try:
            form = await self._run_handler(
                lambda r: asker.elicit_form(r, self.timeout), request, call
            )
        except TimeoutError:
            return ElicitationAnswer.decline()
        return as_answer(form)

    # -- sampling -------------------------------------------------------------------------

    async def sample(self, request: SamplingRequest, call: CallAnswers | None) -> SamplingReply:
        handler = self.sampling or (call.on_sampling if call else None)
        if handler is not None:
            return as_reply(await self._timed(self._run_handler(handler, request, call)))
        asker = self.asker
        if asker is None:
            message = (
                f"{request.server!r} asked for an LLM completion and it was declined: no "
                "sampling handler is set. Set wb.on_sampling(fn) to answer."
            )
            warnings.warn(UnansweredRequestWarning(message), stacklevel=1)
            raise Declined(message)
        note = self._nobody_there("asked for a language model's reply", request.server, call)
        if note:
            raise Declined(note)
        if self._main_thread.main_thread_blocked():
            reply = await self._in_main_thread(lambda: asker.sample_text(request), None)
        else:
            reply = await self._timed(
                self._run_handler(lambda r: asker.sample_form(r, self.timeout), request, call)
            )
        return as_reply(reply)

    # -- sign-in --------------------------------------------------------------------------

    async def sign_in(
        self, server: str, url: str, *, listening: bool, done: threading.Event, timeout: float
    ) -> str | None:
        """The redirect URL after signing in to ``server`` at ``url``, from the handler or
        the person; None when the local listener is to catch it (``SignInRouter``)."""
        return await route_sign_in(
            self.sign_in_handler, self.asker, self._main_thread, server, url,
            listening=listening, done=done, timeout=timeout,
        )  # fmt: skip

    # -- internals ------------------------------------------------------------------------

    def _nobody_there(self, asked: str, server: str, call: CallAnswers | None) -> str | None:
        """When the run is unattended, the note saying so, also printed in the calling cell
        (a person reading the run later sees why); None when a person may answer."""
        if self.unattended is None:
            return None
        context = call.context.copy() if call is not None else contextvars.copy_context()
        reason = context.run(self.unattended)
        if not reason:
            return None
        note = (
            f"{server} {asked}: declined, since this notebook is running unattended "
            f"(no one can answer: {reason})"
        )
        context.run(print, note)
        return note

    async def _timed(self, answer: Any) -> Any:
        """A sampling answer, or Declined once ``timeout`` passed without one."""
        try:
            return await answer
        except TimeoutError:
            raise Declined(f"No reply within {self.timeout:g} s: declined.") from None

    async def _run_handler(
        self, handler: Callable[[Any], Any], request: Any, call: CallAnswers | None
    ) -> Any:
        """A handler's answer: awaited when it is async, else from a worker thread that
        carries the calling cell's context (so what it displays lands there)."""
        if inspect.iscoroutinefunction(handler):
            return await asyncio.wait_for(handler(request), self.timeout)
        context = call.context.copy() if call is not None else contextvars.copy_context()
        answer = await asyncio.wait_for(
            asyncio.to_thread(context.run, handler, request), self.timeout
        )
        if inspect.isawaitable(answer):
            answer = await asyncio.wait_for(answer, self.timeout)
        return answer

    async def _in_main_thread(self, fn: Callable[[], T], on_timeout: T) -> T:
        try:
            return await self._main_thread.run_in_main_thread(fn, self.timeout)
        except TimeoutError:
            return on_timeout


class ServerAnswerer:
    """The fastmcp client callbacks of one connection: its server's questions, answered
    through the Workbench's ``ClientAnswers`` for the newest call running on it."""

    def __init__(
        self,
        server: str,
        answers: ClientAnswers,
        newest_call: Callable[[], CallAnswers | None],
    ) -> None:
        self.server = server
        self.answers = answers
        self.newest_call = newest_call

    def client_options(self) -> dict[str, Any]:
        return {
            "elicitation_handler": self.elicit,
            "sampling_handler": self.sample,
            "roots": self.roots,
        }

    async def elicit(self, message: str, response_type: Any, params: Any, context: Any) -> Any:
        import mcp_types

        call = self.newest_call()
        request = elicitation_request(self.server, params, call.tool if call else None)
        answer = await self.answers.elicit(request, call)
        content = answer.content if answer.action == "accept" else None
        return mcp_types.ElicitResult(action=answer.action, content=content)

    async def sample(self, messages: list[Any], params: Any, context: Any) -> Any:
        """A decline reaches the server as an error with the reason."""
        import mcp_types

        call = self.newest_call()
        request = sampling_request(self.server, messages, params, call.tool if call else None)
        try:
            reply = await self.answers.sample(request, call)
        except Declined as declined:
            raise RuntimeError(str(declined)) from None
        return mcp_types.CreateMessageResult(
            role="assistant",
            model=reply.model,
            content=mcp_types.TextContent(type="text", text=reply.text),
            stop_reason=reply.stop_reason,
        )

    def roots(self, context: Any) -> list[str]:
        """The roots advertised now (``Workbench.roots``), read at each ``roots/list``."""
        return list(self.answers.roots)


def _quoted(message: str) -> str:
    """A server's question on one line, shortened, secrets masked, quoted: data in a note."""
    line = " ".join(mask_text(message).split())
    return repr(line if len(line) <= QUOTED else line[: QUOTED - 1] + "…")


def elicitation_request(server: str, params: Any, tool: str | None) -> ElicitationRequest:
    """MCP's ``ElicitRequestParams`` (form or URL mode) as plain data."""
    url = getattr(params, "url", None)
    schema = getattr(params, "requested_schema", None) or {}
    return ElicitationRequest(
        server=server,
        message=str(getattr(params, "message", "")),
        schema=dict(schema),
        mode="url" if url else "form",
        url=str(url) if url else None,
        tool=tool,
    )


def sampling_request(
    server: str, messages: list[Any], params: Any, tool: str | None
) -> SamplingRequest:
    """MCP's ``CreateMessageRequestParams`` as plain data."""
    preferences = getattr(params, "model_preferences", None)
    return SamplingRequest(
        server=server,
        messages=[_sampling_message(message) for message in messages],
        system_prompt=getattr(params, "system_prompt", None),
        max_tokens=getattr(params, "max_tokens", None),
        temperature=getattr(params, "temperature", None),
        stop_sequences=list(getattr(params, "stop_sequences", None) or []),
        model_preferences=preferences.model_dump(exclude_none=True) if preferences else {},
        tool=tool,
    )


def _sampling_message(message: Any) -> SamplingMessage:
    content = message.content
    blocks = content if isinstance(content, list) else [content]
    texts = []
    for block in blocks:
        text = getattr(block, "text", None)
        if isinstance(text, str):
            texts.append(text)
        else:
            kind = getattr(block, "type", "content")
            mime = getattr(block, "mime_type", None)
            texts.append(f"[{kind}{' ' + mime if mime else ''}]")
    dumped = [b.model_dump(mode="json", by_alias=True, exclude_none=True) for b in blocks]
    return SamplingMessage(
        role=str(message.role),
        text="\n".join(texts),
        content=dumped[0] if len(dumped) == 1 else {"blocks": dumped},
    )
