"""OAuth against a real FastMCP server guarded by FastMCP's in-memory OAuth server on
127.0.0.1 (dynamic registration, an /authorize that approves at once): sign-in by a pasted
URL and by the local listener, the token cache, logout, refresh, a sign-in that never
completes, and no token anywhere it could be shown.

The person is a headless stand-in: it GETs the authorization URL without following the
redirect and either returns the Location (the pasted URL) or GETs it itself, as a browser
would, so the local listener catches it.
"""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from tests.mcp.oauth.guarded import guarded_server
from workbench.errors import ConnectionFailedError
from workbench.mcp.oauth.tokens import forget
from workbench.session import Workbench

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with guarded_server() as address:
        yield address


@pytest.fixture(autouse=True)
def data_dir(url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh cache folder; and tokens kept in memory (cache=False) forgotten after."""
    monkeypatch.setenv("WORKBENCH_DATA_DIR", str(tmp_path / "data"))
    for name in ("JUPYTERHUB_SERVICE_PREFIX", "BINDER_SERVICE_HOST", "BINDER_REQUEST"):
        monkeypatch.delenv(name, raising=False)
    yield tmp_path / "data"
    forget(url)


class Person:
    """The headless stand-in for someone signing in with a browser."""

    def __init__(self, *, via_listener: bool = False) -> None:
        self.via_listener = via_listener
        self.seen: list[str] = []
        self.landed: list[str] = []
        self.listening_during_sign_in: list[bool] = []

    def __call__(self, authorization_url: str) -> str | None:
        self.seen.append(authorization_url)
        redirect = parse_qs(urlsplit(authorization_url).query)["redirect_uri"][0]
        self.listening_during_sign_in.append(_accepts(redirect))
        response = httpx.get(authorization_url, follow_redirects=False)
        assert response.status_code == 302, response.text
        location = response.headers["location"]
        self.landed.append(location)
        if not self.via_listener:
            return location
        assert httpx.get(location).status_code == 200  # the listener's page
        return None


def _accepts(url: str) -> bool:
    parts = urlsplit(url)
    try:
        socket.create_connection((parts.hostname, parts.port or 80), timeout=1).close()
        return True
    except OSError:
        return False


def cached_tokens(data_dir: Path) -> dict[str, Any]:
    (token_file,) = [
        path for path in (data_dir / "oauth").rglob("*_tokens-*.json") if path.is_file()
    ]
    stored = json.loads(token_file.read_text())
    return dict(stored["value"]) if "value" in stored else stored


def test_pasted_redirect_signs_in_lists_and_calls(url: str, data_dir: Path) -> None:
    person = Person()
    with Workbench() as wb:
        wb.on_sign_in(person)
        info = wb.connect("guarded", url=url, oauth={"sign_in": "paste"})
        assert info.status == "connected" and info.tool_count == 1
        assert wb.call("guarded.add", {"a": 2, "b": 3}).text == "5"
    assert len(person.seen) == 1
    assert person.listening_during_sign_in == [False]  # paste mode: nothing listened


def test_a_sign_in_slower_than_the_connect_timeout_still_completes(url: str) -> None:
    """The sign-in has its own time (oauth timeout) on top of the connect timeout: the
    client's initialize, which the sign-in runs inside, is not cut off at connect_timeout."""
    person = Person()

    def slow(authorization_url: str) -> str | None:
        time.sleep(2.5)  # a person reading the consent page
        return person(authorization_url)

    with Workbench() as wb:
        wb.on_sign_in(slow)
        info = wb.connect(
            "guarded", url=url, connect_timeout=1.5, oauth={"sign_in": "paste", "timeout": 20}
        )
        assert info.status == "connected"


def test_token_cache_is_private_and_a_second_workbench_needs_no_sign_in(
    url: str, data_dir: Path
) -> None:
    person = Person()
    with Workbench() as wb:
        wb.on_sign_in(person)
        wb.connect("guarded", url=url, oauth=True)
    root = data_dir / "oauth"
    assert root.stat().st_mode & 0o777 == 0o700
    files = [path for path in root.rglob("*") if path.is_file()]
    assert files and all(path.stat().st_mode & 0o777 == 0o600 for path in files)
    assert cached_tokens(data_dir)["access_token"]

    again = Person()
    with Workbench() as wb:
        wb.on_sign_in(again)
        wb.connect("guarded", url=url, oauth=True)
        assert wb.call("guarded.add", {"a": 1, "b": 1}).text == "2"
        assert again.seen == []  # the cached token was used

        assert wb.logout("guarded") is True
        assert not [path for path in root.rglob("*") if path.is_file()]  # all forgotten
        assert wb.servers()[0].status == "closed"
        wb.reconnect("guarded")
        assert len(again.seen) == 1  # logged out: signed in again
        assert wb.logout("guarded") is True


def test_the_local_listener_catches_the_browser_redirect(url: str) -> None:
    person = Person(via_listener=True)
    with Workbench() as wb:
        wb.on_sign_in(person)
        wb.connect("guarded", url=url, oauth={"sign_in": "local", "cache": False})
        assert wb.call("guarded.add", {"a": 4, "b": 4}).text == "8"
    assert person.listening_during_sign_in == [True]
    redirect = parse_qs(urlsplit(person.seen[0]).query)["redirect_uri"][0]
    assert not _accepts(redirect)  # one-shot: the port is free again


def test_aconnect_signs_in_while_the_callers_loop_runs(url: str) -> None:
    ticks: list[float] = []

    async def person(authorization_url: str) -> str:
        async with httpx.AsyncClient() as http:
            response = await http.get(authorization_url, follow_redirects=False)
        await asyncio.sleep(0.3)
        return str(response.headers["location"])

    async def main(wb: Workbench) -> str:
        async def tick() -> None:
            while True:
                ticks.append(time.monotonic())
                await asyncio.sleep(0.05)

        ticker = asyncio.create_task(tick())
        info = await wb.aconnect("guarded", url=url, oauth={"cache": False})
        ticker.cancel()
        return info.status

    with Workbench() as wb:
        wb.on_sign_in(person)
        assert asyncio.run(main(wb)) == "connected"
    assert len(ticks) >= 5  # the loop ran during the sign-in


def test_an_expired_access_token_is_refreshed_without_signing_in(data_dir: Path) -> None:
    with guarded_server(ttl=2) as address:
        person = Person()
        with Workbench() as wb:
            wb.on_sign_in(person)
            wb.connect("short", url=address, oauth=True)
            first = cached_tokens(data_dir)["access_token"]
            time.sleep(3)
            assert wb.call("short.add", {"a": 1, "b": 2}).text == "3"
            assert cached_tokens(data_dir)["access_token"] != first
        assert len(person.seen) == 1


def test_a_sign_in_that_never_completes_times_out_saying_so(url: str) -> None:
    seen: list[str] = []
    with Workbench() as wb:
        wb.on_sign_in(lambda u: seen.append(u))  # nobody ever opens the link
        started = time.monotonic()
        with pytest.raises(ConnectionFailedError) as caught:
            wb.connect("guarded", url=url, oauth={"timeout": 2, "cache": False})
        assert time.monotonic() - started < 15
        message = str(caught.value)
        assert "sign-in not completed within 2 s" in message
        assert "HTTP" not in message  # not blamed on the sign-in's own 401
        assert wb.servers()[0].last_error == message
    assert len(seen) == 1


def test_no_token_is_shown_anywhere(
    url: str, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    person = Person()
    with Workbench() as wb:
        wb.on_sign_in(person)
        wb.connect("guarded", url=url, oauth=True)
        wb.call("guarded.add", {"a": 1, "b": 1})
        tokens = cached_tokens(data_dir)
        code = parse_qs(urlsplit(person.landed[0]).query)["code"][0]
        planted = [tokens["access_token"], tokens.get("refresh_token") or "", code]
        connection = wb._manager.get("guarded")
        shown = [
            repr(connection.spec),
            connection.spec.describe(),
            repr(wb.servers()),
            repr(wb),
            repr(list(wb.history)),
            repr(wb.server_log("guarded")),
            repr(wb.registry.get("guarded.add")),
        ]
        print(wb.servers(), list(wb.history))
    out = capsys.readouterr()
    shown += [out.out, out.err]
    for secret in filter(None, planted):
        assert len(secret) > 8
        for text in shown:
            assert secret not in text


def test_after_a_sign_in_that_timed_out_the_next_one_succeeds(url: str) -> None:
    """The failed attempt left a registration bound to its redirect port: the next sign-in
    listens there again instead of being refused for another redirect URI."""
    with Workbench() as wb:
        wb.on_sign_in(lambda u: None)
        with pytest.raises(ConnectionFailedError, match="sign-in not completed"):
            wb.connect("guarded", url=url, oauth={"timeout": 1, "cache": False})
        person = Person(via_listener=True)
        wb.on_sign_in(person)
        assert wb.reconnect("guarded").status == "connected"
        assert len(person.seen) == 1


def test_cancelling_aconnect_cancels_the_sign_in_and_frees_the_listener(url: str) -> None:
    redirects: list[str] = []

    def nobody_comes(authorization_url: str) -> None:
        redirects.append(parse_qs(urlsplit(authorization_url).query)["redirect_uri"][0])

    async def main(wb: Workbench) -> None:
        task = asyncio.create_task(wb.aconnect("guarded", url=url, oauth={"cache": False}))
        while not redirects:
            await asyncio.sleep(0.05)
        assert _accepts(redirects[0])  # listening, waiting for the browser
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    with Workbench() as wb:
        wb.on_sign_in(nobody_comes)
        asyncio.run(main(wb))
        deadline = time.monotonic() + 5
        while _accepts(redirects[0]) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _accepts(redirects[0])


def _garbage(path: Path) -> None:
    path.write_bytes(b"\xff\xfe\x00 not json at all")


def _truncated(path: Path) -> None:
    text = path.read_text()
    path.write_text(text[: len(text) // 2])


def _empty(path: Path) -> None:
    path.write_text("")


def _a_list(path: Path) -> None:
    path.write_text("[1, 2, 3]")


def _a_directory(path: Path) -> None:
    path.unlink()
    path.mkdir()


def _unreadable(path: Path) -> None:
    """A link to itself: unreadable even for root (mode 000 is not, and CI runs as root)."""
    path.unlink()
    path.symlink_to(path.name)


CORRUPTIONS = [_garbage, _truncated, _empty, _a_list, _a_directory, _unreadable]


@pytest.mark.integration
@pytest.mark.parametrize("corrupt", CORRUPTIONS, ids=lambda corrupt: corrupt.__name__[1:])
def test_g15_a_damaged_token_cache_says_to_log_out_and_logging_out_recovers(
    url: str, data_dir: Path, corrupt: Callable[[Path], None]
) -> None:
    with Workbench() as wb:
        wb.on_sign_in(Person())
        wb.connect("guarded", url=url, oauth=True)
        planted = cached_tokens(data_dir)["access_token"]
    for path in [path for path in (data_dir / "oauth").rglob("*") if path.is_file()]:
        corrupt(path)
    person = Person()
    with Workbench() as wb:
        wb.on_sign_in(person)
        with pytest.raises(ConnectionFailedError) as caught:
            wb.connect("guarded", url=url, oauth=True)
        message = str(caught.value)
        assert "\n" not in message and planted not in message
        assert "token cache" in message
        assert "%mcp logout guarded" in message and "wb.logout('guarded')" in message
        assert wb.logout("guarded") is True
        assert wb.reconnect("guarded").status == "connected"
        assert len(person.seen) == 1  # signed in anew
