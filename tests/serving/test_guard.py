"""G3: connections held open without the token are bounded below the app.

A served notebook runs in a process of its own (``fd_server.py``) whose open-file limit is
lowered to 256, so that what took ~1,000 connections against a kernel takes 300 here. The
attack is the probe's: ``POST /mcp HTTP/1.1`` and a Host header, then nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import selectors
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
from fastmcp import Client

from tests.polling import eventually
from tests.processes import JsonLines
from workbench.serving.guard import HEADER_TIMEOUT
from workbench.session import Workbench

SCRIPT = Path(__file__).with_name("fd_server.py")
TOKEN = "g3-test-token"
LIMIT = 256
HALF_SENT = b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n"
SLACK = 4.0
"""Seconds a loaded machine may add to the header timeout before a connection is closed."""
QUIET = 4000
"""Bytes of stderr a served process may write through an attack: a few warning lines."""

pytestmark = pytest.mark.integration


class Served(JsonLines):
    """The served notebook's process; ``ask(command)`` returns its one-line JSON answer."""

    def __init__(self, stderr: Path) -> None:
        self.stderr = stderr
        with stderr.open("wb") as err:
            super().__init__(
                [sys.executable, str(SCRIPT), str(LIMIT)],
                stderr=err,
                env=os.environ | {"WORKBENCH_TEST_TOKEN": TOKEN},
            )
        self.url: str = self.read(60)["url"]
        self.port = urlparse(self.url).port or 0

    def stop(self) -> str:
        """Stop the process; what it wrote to stderr."""
        with contextlib.suppress(AssertionError):  # it may say nothing as it goes
            self.quit(timeout=15)
        return self.stderr.read_text(errors="replace")

    def silence(self) -> str:
        return f"the served process gave no answer: {self.stderr.read_text()}"


@pytest.fixture
def served(tmp_path: Path) -> Any:
    process = Served(tmp_path / "stderr.txt")
    yield process
    process.stop()


class Holder(threading.Thread):
    """Holds ``count`` half-sent requests open, opening new ones as the server closes them
    (every 0.5 s, at most ``budget`` in all) until ``stop()``, then waits for the server to
    close the rest; notes how long each one lived."""

    def __init__(self, port: int, count: int, budget: int = 5000) -> None:
        super().__init__(daemon=True)
        self.port, self.count, self.budget = port, count, budget
        self.lifetimes: list[float] = []
        self.left_open = 0
        self.opened = 0
        self.refused = 0
        self._ending = threading.Event()
        self._open: dict[socket.socket, float] = {}
        self._lock = threading.Lock()

    @property
    def open_now(self) -> int:
        with self._lock:
            return len(self._open)

    def stop(self) -> None:
        self._ending.set()

    def run(self) -> None:
        watch = selectors.DefaultSelector()
        last_fill = 0.0
        while not self._ending.is_set():
            if time.monotonic() - last_fill >= 0.5:
                last_fill = time.monotonic()
                self._fill(watch)
            self._reap(watch, 0.05)
        deadline = time.monotonic() + HEADER_TIMEOUT + SLACK
        while self._open and time.monotonic() < deadline:
            self._reap(watch, 0.1)
        self.left_open = len(self._open)
        for sock in list(self._open):
            sock.close()

    def _fill(self, watch: selectors.BaseSelector) -> None:
        while len(self._open) < self.count and self.opened < self.budget:
            self.opened += 1
            try:
                sock = socket.create_connection(("127.0.0.1", self.port), timeout=5)
                sock.sendall(HALF_SENT)
            except OSError:
                self.refused += 1
                continue
            sock.setblocking(False)
            watch.register(sock, selectors.EVENT_READ)
            with self._lock:
                self._open[sock] = time.monotonic()

    def _reap(self, watch: selectors.BaseSelector, timeout: float) -> None:
        if not self._open:
            time.sleep(timeout)
            return
        for key, _ in watch.select(timeout):
            sock: socket.socket = key.fileobj  # type: ignore[assignment]
            try:
                if sock.recv(4096):
                    continue  # an answer (none is sent to a half-sent request): read on
            except BlockingIOError:
                continue
            except OSError:
                pass
            watch.unregister(sock)
            with self._lock:
                self.lifetimes.append(time.monotonic() - self._open.pop(sock))
            sock.close()


def authorised_call(url: str) -> Any:
    """``add(2, 3)`` from a real fastmcp client with the token, bounded in time."""

    async def main() -> Any:
        async with Client(url, auth=TOKEN) as client:
            result = await client.call_tool("add", {"a": 2, "b": 3})
            return result.data

    return asyncio.run(asyncio.wait_for(main(), 60))


@pytest.mark.integration
def test_g3_half_sent_requests_are_closed_and_the_token_holder_is_served(
    served: Served,
) -> None:
    holder = Holder(served.port, 300)
    holder.start()
    try:
        assert eventually(lambda: holder.open_now >= 100, 20), "the attack never got going"
        assert authorised_call(served.url) == 5  # (b) served during the attack
        can_open = served.ask("open")  # and the process can still open files
        during = holder.open_now
    finally:
        holder.stop()
        holder.join(60)
    counts = served.ask("counts")
    stderr = served.stop()

    assert during > 0  # the call was answered while half-sent requests were held
    assert can_open == {"opened": True}
    assert holder.left_open == 0  # (a) every one closed by the server...
    assert max(holder.lifetimes) <= HEADER_TIMEOUT + SLACK  # ...within the bound
    assert counts["open"] <= LIMIT // 2
    assert counts["timed_out"] + counts["evicted"] + counts["refused"] > 0
    # (c) a warning line or two, not a traceback per accept
    assert len(stderr) < QUIET, stderr[:3000]
    assert "Traceback" not in stderr


@pytest.mark.integration
def test_g3_out_of_file_descriptors_sheds_connections_and_says_so_once(
    served: Served,
) -> None:
    assert served.ask("exhaust")["held"] > 0
    knocking = []
    for _ in range(50):
        sock = socket.create_connection(("127.0.0.1", served.port), timeout=5)
        sock.sendall(HALF_SENT)
        knocking.append(sock)

    def closed(sock: socket.socket) -> bool:
        sock.settimeout(0.05)
        try:
            return sock.recv(1) == b""
        except TimeoutError:
            return False
        except OSError:
            return True

    try:
        assert eventually(lambda: all(closed(sock) for sock in knocking), 10)
    finally:
        for sock in knocking:
            sock.close()
    served.ask("release")
    assert authorised_call(served.url) == 5
    counts = served.ask("counts")
    stderr = served.stop()

    assert counts["shed"] >= 1
    assert len(stderr) < QUIET, stderr[:3000]
    assert "Traceback" not in stderr
    assert stderr.count("out of file descriptors") == 1


def dribbled_until_closed(sock: socket.socket, drip: bytes, seconds: float) -> float | None:
    """Send ``drip`` every 0.2 s until the server closes the connection; after how long
    (None: still open after ``seconds``)."""
    started = time.monotonic()
    sock.settimeout(0.2)
    while time.monotonic() - started < seconds:
        try:
            sock.sendall(drip)
            while sock.recv(4096):  # an answer (a 401): read on, the connection stays
                pass
            return time.monotonic() - started  # b"": closed
        except TimeoutError:
            continue
        except OSError:
            return time.monotonic() - started
    return None


def test_g3_a_dribbled_request_is_cut_at_its_deadline_not_its_last_byte(wb: Workbench) -> None:
    handle = wb.serve()
    handle.guard.limits.header_timeout = 1.0
    handle.guard.limits.body_timeout = 1.0
    with socket.create_connection(("127.0.0.1", handle.port), timeout=5) as headers:
        headers.sendall(HALF_SENT)
        lived = dribbled_until_closed(headers, b"X-Slow: 1\r\n", 6)
        assert lived is not None and lived < 1.0 + SLACK
    with socket.create_connection(("127.0.0.1", handle.port), timeout=5) as body:
        # Whole headers without the token (answered 401 at once), then a body that never ends.
        body.sendall(HALF_SENT + b"Content-Length: 100000\r\n\r\n{")
        lived = dribbled_until_closed(body, b" ", 6)
        assert lived is not None and lived < 1.0 + SLACK
    assert handle.guard.counts.timed_out == 2


def test_served_connections_send_without_waiting_for_acks(wb: Workbench) -> None:
    """Issue 29: TCP_NODELAY on every accepted connection. Without it a streamed answer
    (the SSE of a 2026-07-28 call) waits on Nagle and the client's delayed ACK, 40 ms a
    call on Linux; asyncio sets it only when the listening socket's ``proto`` says TCP."""
    handle = wb.serve()
    with socket.create_connection(("127.0.0.1", handle.port), timeout=5):
        assert eventually(lambda: handle.guard.open == 1)
        (connection,) = handle.guard._open
        accepted = connection.transport.get_extra_info("socket")
        assert accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
