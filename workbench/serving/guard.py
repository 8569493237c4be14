"""Connections held open are bounded before any request is read (finding G3).

uvicorn (h11) waits without limit for a request's headers, and the bearer check comes after
them, so any local process could hold connections open until the serving process (a kernel)
ran out of file descriptors. Here, at the socket and protocol level, below the ASGI app:

- a request's headers must arrive within ``header_timeout`` of the connection (or of the
  previous response) and its body within ``body_timeout`` of its headers, or the connection
  is closed;
- a connection is *proven* once a request carrying the bearer token arrived (any request
  when serving without auth); the others are *pending*: past ``max_pending`` of them the
  oldest (older than ``GRACE``, so a burst of new clients is not cut) are closed, and past
  ``max_connections`` in all the oldest pending go first, then the new one: the token's
  holders keep their connections while an attacker's are shed;
- a listening socket that hits the file-descriptor limit sheds the connection it cannot
  accept (with a spare descriptor kept for that) instead of asyncio logging a traceback per
  attempt; each kind of trouble is logged once a minute at most, as one warning line.

The token check here only counts: FastMCP's bearer check still decides who is answered.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import hmac
import logging
import os
import socket
import time
from dataclasses import dataclass, field
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

_log = logging.getLogger(__name__)

HEADER_TIMEOUT = 5.0
"""Seconds a connection may take to send a request's headers."""
BODY_TIMEOUT = 30.0
"""Seconds a request's body may take after its headers."""
GRACE = 1.0
"""A pending connection younger than this is not closed to make room (a burst of clients)."""
NOTE_EVERY = 60.0
"""Seconds between two warnings of the same kind."""
SHED_AT_ONCE = 64
"""Connections a socket out of file descriptors sheds at most per accept call."""
ACCEPT_AT_ONCE = 32
"""Connections accepted in one turn of the event loop, before the guard sees them."""
_OUT_OF_FDS = (errno.EMFILE, errno.ENFILE)
_ASYNCIO_ACCEPT_ERROR = "socket.accept() out of system resource"


def fd_limit() -> int | None:
    """This process's soft limit of open files, or None when unknown or unlimited."""
    try:
        import resource  # Unix only
    except ImportError:  # pragma: no cover - Windows
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else int(soft)


@dataclass
class Limits:
    """How long a request may take to arrive, and how many connections may be open."""

    header_timeout: float = HEADER_TIMEOUT
    body_timeout: float = BODY_TIMEOUT
    max_connections: int = 1024
    max_pending: int = 256

    @classmethod
    def for_this_process(cls) -> Limits:
        """Half the open-file limit for connections (the rest stays for the kernel's own
        files and servers), at most 1,024; a quarter of those may be pending."""
        soft = fd_limit()
        connections = 1024 if soft is None else max(32, min(1024, soft // 2))
        return cls(max_connections=connections, max_pending=max(8, connections // 4))


@dataclass
class Counts:
    """What the guard did so far (for tests and benchmarks)."""

    timed_out: int = 0
    evicted: int = 0
    refused: int = 0
    shed: int = 0


@dataclass
class ConnectionGuard:
    """The connections of one served surface, and the rules they are held to."""

    token: str | None
    limits: Limits = field(default_factory=Limits.for_this_process)
    where: str = "the served notebook"
    counts: Counts = field(default_factory=Counts)

    def __post_init__(self) -> None:
        self._open: set[GuardedProtocol] = set()
        self._pending: dict[GuardedProtocol, float] = {}  # oldest first
        self._noted: dict[str, float] = {}
        self._credential = None if self.token is None else self.token.encode()

    @property
    def open(self) -> int:
        return len(self._open)

    @property
    def pending(self) -> int:
        return len(self._pending)

    def opened(self, connection: GuardedProtocol) -> None:
        now = time.monotonic()
        self._open.add(connection)
        self._pending[connection] = now
        closed = 0
        for old, since in list(self._pending.items()):
            if len(self._pending) <= self.limits.max_pending or now - since < GRACE:
                break
            self._close(old)
            self.counts.evicted += 1
            closed += 1
        while len(self._open) > self.limits.max_connections:
            oldest = next(iter(self._pending), connection)
            self._close(oldest)
            closed += 1
            if oldest is connection:
                self.counts.refused += 1
                break
            self.counts.evicted += 1
        if closed:
            self.note(
                "crowded",
                f"{self.where}: too many connections without the token; closing the oldest "
                f"({self.pending} waiting, {self.open} open). A local process may be holding "
                "connections open.",
            )

    def arrived(self, connection: GuardedProtocol, headers: list[tuple[bytes, bytes]]) -> None:
        """A request's headers arrived on ``connection``: with the token, it is proven."""
        if connection in self._pending and self.authorised(headers):
            del self._pending[connection]

    def authorised(self, headers: list[tuple[bytes, bytes]]) -> bool:
        if self._credential is None:
            return True
        for name, value in headers:
            if name.lower() == b"authorization":
                scheme, _, credential = value.partition(b" ")
                if scheme.lower() == b"bearer":
                    return hmac.compare_digest(credential.strip(), self._credential)
        return False

    def timed_out(self, connection: GuardedProtocol, what: str) -> None:
        self._close(connection)
        self.counts.timed_out += 1
        self.note(
            "slow",
            f"{self.where}: closing connections that did not send {what} in time "
            f"({self.counts.timed_out} so far). A local process may be holding connections "
            "open.",
        )

    def closed(self, connection: GuardedProtocol) -> None:
        self._open.discard(connection)
        self._pending.pop(connection, None)

    def out_of_fds(self) -> None:
        self.note(
            "fds",
            f"{self.where}: the process is out of file descriptors; new connections are "
            "refused until some are closed.",
        )

    def note(self, kind: str, message: str) -> None:
        """Log ``message`` once a minute at most for each ``kind``."""
        now = time.monotonic()
        if now - self._noted.get(kind, -NOTE_EVERY) >= NOTE_EVERY:
            self._noted[kind] = now
            _log.warning(message)

    def _close(self, connection: GuardedProtocol) -> None:
        self.closed(connection)
        connection.close_now()


class GuardedProtocol(H11Protocol):
    """uvicorn's h11 protocol held to a ``ConnectionGuard``'s deadlines and counts.

    The deadline that applies follows h11's state of the client: IDLE (no request's
    headers yet) is the header phase, SEND_BODY the body phase; a request being answered
    (a long call, an SSE stream) has none.
    """

    guard: ConnectionGuard

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._phase: str | None = None
        self._deadline: asyncio.TimerHandle | None = None

    @classmethod
    def bound(cls, guard: ConnectionGuard) -> type[GuardedProtocol]:
        """This protocol for one guard (uvicorn makes one protocol per connection)."""
        return type("GuardedH11Protocol", (cls,), {"guard": guard})

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[arg-type]
        self.guard.opened(self)
        self._watch()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._watch()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._watch()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel()
        self.guard.closed(self)
        super().connection_lost(exc)

    def close_now(self) -> None:
        self._cancel()
        if not self.transport.is_closing():
            self.transport.close()

    def _watch(self) -> None:
        """Arm, keep or drop the deadline for the phase the client is in now."""
        if self.transport.is_closing():
            self._cancel()
            return
        state = self.conn.their_state
        phase = "headers" if state is h11.IDLE else "body" if state is h11.SEND_BODY else None
        if phase == self._phase:
            return  # a deadline runs from the start of its phase, not from the last bytes
        if self._phase == "headers":
            self.guard.arrived(self, self.headers or [])
        self._cancel()
        self._phase = phase
        if phase is not None:
            limits = self.guard.limits
            seconds = limits.header_timeout if phase == "headers" else limits.body_timeout
            what = "a request's headers" if phase == "headers" else "a request's body"
            self._deadline = self.loop.call_later(seconds, self._expired, what)

    def _expired(self, what: str) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.guard.timed_out(self, what)

    def _cancel(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None


class GuardedSocket(socket.socket):
    """A listening socket that, out of file descriptors, sheds the connections it cannot
    accept (closing a spare descriptor to accept each, then closing it) and tells once,
    instead of asyncio logging a traceback at every try."""

    guard: ConnectionGuard | None = None

    def __init__(self, family: int, kind: int) -> None:
        # IPPROTO_TCP, not 0: asyncio sets TCP_NODELAY only on sockets whose ``proto`` says
        # TCP, and an accepted socket inherits this one's. Without it every streamed response
        # (SSE) waits on Nagle and the client's delayed ACK: 40 ms a call on Linux.
        super().__init__(family, kind, socket.IPPROTO_TCP if kind == socket.SOCK_STREAM else 0)
        self._spare: int | None = _spare()
        self._resting_until = 0.0
        self._batch = 0

    def accept(self) -> tuple[socket.socket, Any]:
        if time.monotonic() < self._resting_until:
            # asyncio goes on calling accept after the error that pauses it: end its round.
            raise BlockingIOError(errno.EAGAIN, "resting")
        if self._batch >= ACCEPT_AT_ONCE:
            # asyncio accepts up to its backlog (2,048) before any connection is seen by
            # the guard: the rest wait in the queue for the next turn of the loop.
            raise BlockingIOError(errno.EAGAIN, "next turn")
        try:
            accepted = super().accept()
        except OSError as error:
            if error.errno not in _OUT_OF_FDS:
                raise
            if self.guard is not None:
                self.guard.out_of_fds()
            if self._shed():
                raise BlockingIOError(errno.EAGAIN, "connections shed") from None
            # No spare: asyncio stops accepting for a second (its log record is filtered).
            self._resting_until = time.monotonic() + 1.0
            raise
        if self._batch == 0:
            with contextlib.suppress(RuntimeError):  # no loop: no batches
                asyncio.get_running_loop().call_soon(self._next_batch)
        self._batch += 1
        return accepted

    def _next_batch(self) -> None:
        self._batch = 0

    def close(self) -> None:
        if self._spare is not None:
            os.close(self._spare)
            self._spare = None
        super().close()

    def _shed(self) -> bool:
        """Accept and close waiting connections with the spare descriptor; whether it could."""
        if self._spare is None:
            self._spare = _spare()
            if self._spare is None:
                return False
        for _ in range(SHED_AT_ONCE):
            os.close(self._spare)
            self._spare = None
            try:
                connection, _ = super().accept()
            except (BlockingIOError, InterruptedError, ConnectionAbortedError):
                break
            except OSError:
                break
            else:
                connection.close()
                if self.guard is not None:
                    self.guard.counts.shed += 1
            finally:
                self._spare = _spare()
            if self._spare is None:
                break
        return True


def _spare() -> int | None:
    try:
        return os.open(os.devnull, os.O_RDONLY)
    except OSError:
        return None


class _QuietAcceptErrors(logging.Filter):
    """Drops asyncio's 'socket.accept() out of system resource' records (a traceback per
    try): a ``GuardedSocket`` has said it once already."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith(_ASYNCIO_ACCEPT_ERROR)


_QUIET = _QuietAcceptErrors()


def quiet_accept_errors() -> None:
    """Install the filter on asyncio's logger (once per process)."""
    logger = logging.getLogger("asyncio")
    if _QUIET not in logger.filters:
        logger.addFilter(_QUIET)
