"""Who is shown a sign-in link, first match (called by ``ClientAnswers.sign_in``):

1. the Workbench's ``on_sign_in`` handler (scripts, tests): it returns the URL the browser
   was sent back to, or None to let the local listener catch it;
2. the person, through the kernel's Asker: a link and a paste box in the calling cell when
   the kernel's loop is free, or the link printed (and ``input()`` for the pasted URL in
   paste mode) in the main thread while a sync call blocks it;
3. nobody (a script): the link is printed with a warning; only the listener can finish.
"""

from __future__ import annotations

import asyncio
import contextvars
import inspect
import sys
import threading
import warnings
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from workbench.errors import UnansweredRequestWarning

if TYPE_CHECKING:
    from workbench.mcp.answers import Asker, MainThread

SignInHandler = Callable[[str], "str | Awaitable[str | None] | None"]


async def route_sign_in(
    handler: SignInHandler | None,
    asker: Asker | None,
    main_thread: MainThread | None,
    server: str,
    url: str,
    *,
    listening: bool,
    done: threading.Event,
    timeout: float,
) -> str | None:
    """The redirect URL from whoever answers, or None when the listener is to catch it."""
    if handler is not None:
        return _checked(await _run(handler, url, timeout))
    if asker is None:
        show_link(server, url, listening=listening)
        return None
    if main_thread is not None and main_thread.main_thread_blocked():
        answer = await main_thread.run_in_main_thread(
            lambda: asker.sign_in_text(server, url, not listening), timeout
        )
        return _checked(answer)
    context = contextvars.copy_context()
    form = asyncio.to_thread(context.run, asker.sign_in_form, server, url, listening, done, timeout)
    return _checked(await asyncio.wait_for(form, timeout))


def show_link(server: str, url: str, *, listening: bool) -> None:
    """The link for a script with nobody to ask: printed, and a warning saying how a
    handler would answer."""
    print(f"Sign in to {server!r}: open {url}", file=sys.stderr)
    then = (
        "waiting for the browser's redirect to the local listener"
        if listening
        else "nothing can receive the redirect (paste mode)"
    )
    warnings.warn(
        UnansweredRequestWarning(
            f"{server!r} needs a sign-in and nobody is asked here: {then}. Set "
            "wb.on_sign_in(fn) to answer with the redirect URL."
        ),
        stacklevel=2,
    )


async def _run(handler: SignInHandler, url: str, timeout: float) -> Any:
    """A handler's answer: awaited when async, else from a worker thread."""
    if inspect.iscoroutinefunction(handler):
        return await asyncio.wait_for(handler(url), timeout)
    context = contextvars.copy_context()
    answer = await asyncio.wait_for(asyncio.to_thread(context.run, handler, url), timeout)
    if inspect.isawaitable(answer):
        answer = await asyncio.wait_for(answer, timeout)
    return answer


def _checked(answer: object) -> str | None:
    if answer is None or isinstance(answer, str):
        return answer or None
    raise TypeError(
        f"a sign-in handler returns the redirect URL (a string) or None, not "
        f"{type(answer).__name__}"
    )


class _Nobody:
    """The router of a connection without ``ClientAnswers``: the printed link."""

    async def sign_in(
        self, server: str, url: str, *, listening: bool, done: threading.Event, timeout: float
    ) -> str | None:
        show_link(server, url, listening=listening)
        return None


NOBODY = _Nobody()
