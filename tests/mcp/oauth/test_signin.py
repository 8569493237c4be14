"""Getting the redirect back: a pasted URL or a handler's answer raced against the real
one-shot listener; the routing to the handler, the Asker or a printed link; timeouts."""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Callable
from typing import Any, TypeVar

import anyio
import httpx
import pytest

from workbench.errors import UnansweredRequestWarning
from workbench.mcp.oauth.listener import listening
from workbench.mcp.oauth.routing import route_sign_in
from workbench.mcp.oauth.signin import (
    SignInRefused,
    SignInTimeout,
    SignInUnanswered,
    parse_redirect,
    wait_for_redirect,
)

T = TypeVar("T")
AUTHORIZE = "https://as.example.com/authorize?client_id=c&state=S"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_a_pasted_url_or_its_query_gives_code_state_and_issuer() -> None:
    url = "http://127.0.0.1:9/callback?code=C1&state=S1&iss=https%3A%2F%2Fas"
    assert parse_redirect(url) == ("C1", "S1", "https://as")
    assert parse_redirect("  ?code=C2&state=S2 ") == ("C2", "S2", None)
    with pytest.raises(SignInRefused) as refused:
        parse_redirect("http://x/cb?error=access_denied&error_description=User+said+no")
    assert refused.value.error == "access_denied"
    assert "User said no" in str(refused.value)
    with pytest.raises(SignInUnanswered, match="no code"):
        parse_redirect("http://x/cb?state=S")


class Router:
    """A sign-in router answering with ``answer(url, done)`` from a worker thread."""

    def __init__(self, answer: Callable[[str, threading.Event], str | None]) -> None:
        self.answer = answer
        self.asked: list[tuple[str, bool]] = []

    async def sign_in(
        self, server: str, url: str, *, listening: bool, done: threading.Event, timeout: float
    ) -> str | None:
        self.asked.append((url, listening))
        return await asyncio.to_thread(self.answer, url, done)


def test_a_returned_url_completes_without_a_listener() -> None:
    router = Router(lambda url, done: "http://127.0.0.1:1/callback?code=C&state=S")
    result = asyncio.run(wait_for_redirect("srv", AUTHORIZE, router, None, 5))
    assert result == ("C", "S", None)
    assert router.asked == [(AUTHORIZE, False)]


@pytest.mark.integration
def test_none_without_a_listener_is_unanswered_and_silence_times_out() -> None:
    with pytest.raises(SignInUnanswered):
        asyncio.run(wait_for_redirect("srv", AUTHORIZE, Router(lambda u, d: None), None, 5))
    never = threading.Event()

    def silent(url: str, done: threading.Event) -> str | None:
        never.wait(3)
        return None

    router = Router(silent)
    with pytest.raises(SignInTimeout, match=r"sign-in not completed within 0.5 s"):
        asyncio.run(wait_for_redirect("srv", AUTHORIZE, router, None, 0.5))
    never.set()


def test_the_listener_wins_the_race_and_tells_the_waiting_form() -> None:
    port = free_port()
    form_saw_done: list[bool] = []

    def form(url: str, done: threading.Event) -> str | None:
        # The person's browser lands on the listener; the form is told and gives up.
        httpx.get(f"http://127.0.0.1:{port}/callback?code=LC&state=LS&iss=I")
        form_saw_done.append(done.wait(5))
        return None

    async def go() -> tuple[str, str | None, str | None]:
        async with listening("127.0.0.1", port, "http://mcp") as listener:
            return await wait_for_redirect("srv", AUTHORIZE, Router(form), listener, 10)

    assert asyncio.run(go()) == ("LC", "LS", "I")
    assert form_saw_done == [True]
    with socket.socket() as sock:  # one-shot: the port is free again
        sock.bind(("127.0.0.1", port))


@pytest.mark.integration
def test_a_paste_beats_a_listener_that_hears_nothing_and_the_port_is_freed() -> None:
    port = free_port()

    async def go() -> tuple[str, str | None, str | None]:
        router = Router(lambda url, done: "http://127.0.0.1/cb?code=P&state=Q")
        async with listening("127.0.0.1", port, "http://mcp") as listener:
            return await wait_for_redirect("srv", AUTHORIZE, router, listener, 10)

    assert asyncio.run(go()) == ("P", "Q", None)

    async def timing_out() -> None:
        router = Router(lambda url, done: None)
        async with listening("127.0.0.1", port, "http://mcp") as listener:
            await wait_for_redirect("srv", AUTHORIZE, router, listener, 0.3)

    with pytest.raises(SignInTimeout):
        asyncio.run(timing_out())
    with socket.socket() as sock:  # freed even though the sign-in failed
        sock.bind(("127.0.0.1", port))


def test_a_busy_port_is_said_plainly() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]

        async def go() -> None:
            async with listening("127.0.0.1", port, "http://mcp"):
                pass

        with pytest.raises(OSError, match=r"could not start .* already in use"):
            asyncio.run(go())


class Blocked:
    """A main thread that a sync call blocks (or not), running what it is given."""

    def __init__(self, blocked: bool) -> None:
        self.blocked = blocked

    def main_thread_blocked(self) -> bool:
        return self.blocked

    async def run_in_main_thread(self, fn: Callable[[], T], timeout: float) -> T:
        return fn()


class Person:
    """An Asker that records how it was asked."""

    def __init__(self) -> None:
        self.calls: list[object] = []

    def sign_in_form(
        self, server: str, url: str, listening: bool, done: threading.Event, timeout: float
    ) -> str | None:
        self.calls.append(("form", server, url, listening, timeout))
        return "http://127.0.0.1/cb?code=F&state=S"

    def sign_in_text(self, server: str, url: str, paste: bool) -> str | None:
        self.calls.append(("text", server, url, paste))
        return "http://127.0.0.1/cb?code=T&state=S" if paste else None

    def __getattr__(self, name: str) -> Any:  # the elicitation methods: unused here
        raise AttributeError(name)


def route(handler: Any, asker: Any, main: Any, *, listening: bool) -> str | None:
    done = threading.Event()
    asked = route_sign_in(
        handler, asker, main, "srv", AUTHORIZE, listening=listening, done=done, timeout=5
    )
    return asyncio.run(asked)


def test_the_handler_comes_first_sync_or_async() -> None:
    person = Person()
    assert route(lambda url: url + "&code=H", person, Blocked(False), listening=True)
    assert person.calls == []

    async def handler(url: str) -> str | None:
        await anyio.sleep(0)
        return None

    assert route(handler, person, Blocked(False), listening=True) is None
    with pytest.raises(TypeError, match="returns the redirect URL"):
        route(lambda url: 42, person, Blocked(False), listening=True)


def test_then_the_person_a_form_or_text_in_a_blocked_main_thread() -> None:
    person = Person()
    assert route(None, person, Blocked(False), listening=True) == (
        "http://127.0.0.1/cb?code=F&state=S"
    )
    assert person.calls.pop() == ("form", "srv", AUTHORIZE, True, 5)
    assert route(None, person, Blocked(True), listening=True) is None
    assert person.calls.pop() == ("text", "srv", AUTHORIZE, False)  # the listener catches it
    assert route(None, person, Blocked(True), listening=False)
    assert person.calls.pop() == ("text", "srv", AUTHORIZE, True)  # paste mode: input()


def test_nobody_prints_the_link_with_a_warning(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.warns(UnansweredRequestWarning, match=r"wb.on_sign_in\(fn\)"):
        assert route(None, None, Blocked(False), listening=True) is None
    assert AUTHORIZE in capsys.readouterr().err


@pytest.mark.integration
def test_a_cancelled_sign_in_frees_the_port_too() -> None:
    port = free_port()

    async def go() -> None:
        with anyio.move_on_after(0.3):  # the awaiting task is cancelled
            async with listening("127.0.0.1", port, "http://mcp") as listener:
                await listener.redirect()

    asyncio.run(go())
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", port))
