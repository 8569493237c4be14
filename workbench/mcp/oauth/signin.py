"""Getting the browser's redirect back after sign-in: whoever answers first wins.

The authorization URL goes to a router (the Workbench's ``ClientAnswers``: the
``on_sign_in`` handler, else the person through the Asker, else a printed link). What
comes back is raced against the one-shot local listener (in ``local`` mode): a pasted
redirect URL, or the listener catching the browser's redirect. Nothing here prints a code.
"""

from __future__ import annotations

import threading
from typing import Protocol
from urllib.parse import parse_qs, urlsplit

import anyio

from workbench.mcp.oauth.listener import Listener


class SignInRouter(Protocol):
    """Who is shown the authorization URL (implemented by ``ClientAnswers``)."""

    async def sign_in(
        self, server: str, url: str, *, listening: bool, done: threading.Event, timeout: float
    ) -> str | None:
        """The redirect URL pasted or returned, or None (the listener is to catch it)."""


class SignInTimeout(Exception):
    """Nobody completed the sign-in in time."""

    def __init__(self, timeout: float) -> None:
        super().__init__(f"sign-in not completed within {timeout:g} s")
        self.timeout = timeout


class SignInRefused(Exception):
    """The authorization server redirected back with ``error=`` (denied, bad scope...)."""

    def __init__(self, error: str, description: str | None) -> None:
        said = f": {description}" if description else ""
        super().__init__(f"the authorization server refused the sign-in ({error}{said})")
        self.error = error
        self.description = description


class SignInUnanswered(Exception):
    """No redirect URL was given and no listener could catch one."""


Redirect = tuple[str, str | None, str | None]


def parse_redirect(url: str) -> Redirect:
    """(code, state, iss) from the URL the browser was sent back to (or its query)."""
    text = url.strip()
    query = parse_qs(urlsplit(text).query or text.lstrip("?"))

    def one(key: str) -> str | None:
        values = query.get(key)
        return values[0] if values else None

    error = one("error")
    if error:
        raise SignInRefused(error, one("error_description"))
    code = one("code")
    if not code:
        raise SignInUnanswered(
            "the pasted address has no code=...; paste the whole address the browser shows "
            "after signing in"
        )
    return code, one("state"), one("iss")


async def wait_for_redirect(
    server: str,
    authorization_url: str,
    router: SignInRouter,
    listener: Listener | None,
    timeout: float,
) -> Redirect:
    """The first redirect to come back: pasted (or returned by the handler) or caught by
    the listener; SignInTimeout after ``timeout`` seconds."""
    done = threading.Event()  # tells a waiting form the listener caught it
    outcome: list[Redirect | BaseException] = []
    finished = anyio.Event()

    def settle(result: Redirect | BaseException) -> None:
        if not outcome:
            outcome.append(result)
        done.set()
        finished.set()

    async def caught() -> None:
        assert listener is not None
        try:
            settle(await listener.redirect())
        except Exception as error:
            settle(error)

    async def answered() -> None:
        try:
            pasted = await router.sign_in(
                server, authorization_url, listening=listener is not None, done=done,
                timeout=timeout,
            )  # fmt: skip
        except Exception as error:
            settle(error)
            return
        if pasted is not None:
            try:
                settle(parse_redirect(pasted))
            except Exception as error:
                settle(error)
        elif listener is None:
            settle(SignInUnanswered("no redirect URL was given and nothing listens for one"))

    with anyio.move_on_after(timeout):
        async with anyio.create_task_group() as group:
            if listener is not None:
                group.start_soon(caught)
            group.start_soon(answered)
            await finished.wait()
            group.cancel_scope.cancel()
    done.set()
    if not outcome:
        raise SignInTimeout(timeout)
    first = outcome[0]
    if isinstance(first, BaseException):
        raise first
    return first
