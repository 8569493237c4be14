"""G3: the connection guard's rules on their own (no sockets): who is closed to make room,
who is kept, and which requests prove a connection."""

from __future__ import annotations

from typing import Any

import pytest

from workbench.serving import guard as guard_module
from workbench.serving.guard import ConnectionGuard, Limits


class Connection:
    """Stands for a GuardedProtocol: the guard only ever closes it."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.closed = False

    def close_now(self) -> None:
        self.closed = True


def opened(guard: ConnectionGuard, *names: str) -> list[Any]:
    made = [Connection(name) for name in names]
    for connection in made:
        guard.opened(connection)  # type: ignore[arg-type]
    return made


TOKEN = [(b"authorization", b"Bearer s3cret")]


def test_g3_past_the_cap_the_oldest_without_the_token_go_first() -> None:
    guard = ConnectionGuard("s3cret", Limits(max_connections=3, max_pending=3))
    client, a, b = opened(guard, "client", "a", "b")
    guard.arrived(client, TOKEN)  # proven: never closed to make room
    c, d = opened(guard, "c", "d")
    assert [x.closed for x in (client, a, b, c, d)] == [False, True, True, False, False]
    assert guard.counts.evicted == 2


def test_g3_when_every_connection_holds_the_token_a_new_one_is_refused() -> None:
    guard = ConnectionGuard("s3cret", Limits(max_connections=2, max_pending=2))
    kept = opened(guard, "a", "b")
    for connection in kept:
        guard.arrived(connection, TOKEN)
    (extra,) = opened(guard, "c")
    assert extra.closed and not any(x.closed for x in kept)
    assert guard.counts.refused == 1


def test_g3_past_the_pending_cap_only_connections_past_the_grace_go(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    guard = ConnectionGuard("s3cret", Limits(max_connections=100, max_pending=2))
    burst = opened(guard, "a", "b", "c", "d")
    assert not any(x.closed for x in burst)  # a burst of new clients is not cut
    monkeypatch.setattr(guard_module, "GRACE", 0.0)
    (e,) = opened(guard, "e")
    assert [x.closed for x in (*burst, e)] == [True, True, True, False, False]


@pytest.mark.parametrize(
    ("headers", "proven"),
    [
        (TOKEN, True),
        ([(b"authorization", b"bearer s3cret")], True),
        ([(b"authorization", b"Bearer wrong")], False),
        ([(b"authorization", b"Basic s3cret")], False),
        ([], False),
    ],
)
def test_g3_only_the_token_proves_a_connection(
    headers: list[tuple[bytes, bytes]], proven: bool
) -> None:
    assert ConnectionGuard("s3cret").authorised(headers) is proven
    assert ConnectionGuard(None).authorised(headers) is True  # no auth: any request


def test_g3_the_caps_follow_the_open_file_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(guard_module, "fd_limit", lambda: 256)
    assert Limits.for_this_process() == Limits(max_connections=128, max_pending=32)
    monkeypatch.setattr(guard_module, "fd_limit", lambda: None)
    assert Limits.for_this_process().max_connections == 1024
