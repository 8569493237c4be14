"""Live updates over 2026-07-28: one connection's ``subscriptions/listen`` stream.

Servers on the handshake-era protocols (2025-11-25 and older) send
``notifications/tools/list_changed`` (and the prompts' and resources') as plain
notifications. At 2026-07-28 (SEP-2575) a server sends them only on a listen stream the
client opened, and advertises ``listChanged`` exactly when it serves one. So a connection at
that version, to a server advertising list changes, listens for those kinds for as long as
its client lives: ``start_listening`` after the handshake, ``Listening.stop`` before the
client closes.

The SDK tees every event frame of the stream to the client's message handler too, so the
events reach the same handler as a handshake-era server's notifications, and the registry is
refreshed the same way; the task here holds the stream open and drains it. A server that
refuses the first listen (method not found, any error) or never acknowledges it is no
failure: the connection works as before without live updates, and a debug record says why.

A stream that ends later (the server restarted on the same URL, a proxy cut it, the network
blipped) is opened again, since at 2026-07-28 nothing else notices: there is no session to
lose. Attempts back off (``backoff``: 0.5 s doubling to 30 s, jittered), each bounded by the
connect timeout and logged at debug. The server replays nothing, so after a new stream's
acknowledgment ``relistened`` refreshes as list_changed events would. A server that now
answers the listen with method not found is not asked again. A listen sent to an HTTP server
that is down ends the client's session (the SDK's doing): ``lost`` then has the connection
reopen itself (``reconnect``, same backoff), and the new connection listens anew.
"""

from __future__ import annotations

import asyncio
import logging
import math
import random
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import anyio

_log = logging.getLogger(__name__)

TASK_NAME = "workbench-listen"
"""The stream's task is ``workbench-listen:<server>`` on the bridge loop."""

KINDS = ("tools", "prompts", "resources")

FIRST_DELAY = 0.5
"""Seconds before listening again after a stream ended; doubles per failed attempt."""
MAX_DELAY = 30.0
"""The longest wait between attempts; a stream that lived this long resets the wait."""

Relistened = Callable[[frozenset[str]], Awaitable[None]]
"""Called with the kinds listened for once a stream was opened again (events were lost)."""
Lost = Callable[[], object]
"""Called when a stream's end took the client's session with it (no listen can follow)."""


def backoff() -> Iterator[float]:
    """Seconds to wait before each next attempt: ``FIRST_DELAY`` doubling up to
    ``MAX_DELAY``, each with up to 20 % jitter (clients of one restarted server spread)."""
    delay = FIRST_DELAY
    while True:
        yield delay * random.uniform(1.0, 1.2)
        delay = min(2 * delay, MAX_DELAY)


def listened_for(protocol_version: str | None, capabilities: Any) -> frozenset[str]:
    """The kinds of list (``tools``, ``prompts``, ``resources``) whose changes a server
    advertised (``listChanged``), at a version that tells them on listen streams only;
    empty when there is nothing to listen for."""
    from mcp_types.version import MODERN_PROTOCOL_VERSIONS

    if protocol_version not in MODERN_PROTOCOL_VERSIONS or capabilities is None:
        return frozenset()
    return frozenset(
        kind for kind in KINDS if getattr(getattr(capabilities, kind, None), "list_changed", None)
    )


class Listening:
    """A connection's listen stream, re-opened while it lives: its task on the bridge loop."""

    def __init__(self, task: asyncio.Task[None]) -> None:
        self.task = task

    async def stop(self) -> None:
        """End the stream or the wait to re-open it; returns once it ended."""
        self.task.cancel()
        await asyncio.wait({self.task})  # a cancellation of the caller still propagates


async def start_listening(
    name: str,
    client: Any,
    limit: float,
    relistened: Relistened | None = None,
    lost: Lost | None = None,
) -> Listening | None:
    """Open the listen stream of an entered ``fastmcp.Client`` if its server has list
    changes to tell at this version; wait up to ``limit`` seconds for the server's
    acknowledgment, so that every change after this returns is heard. None when there is
    nothing to listen for, or the server refused or did not acknowledge in time."""
    kinds = listened_for(client.protocol_version, client.server_capabilities)
    if not kinds:
        return None
    acked = asyncio.Event()
    follow = _follow(name, client, kinds, limit, acked, relistened, lost)
    task = asyncio.create_task(follow, name=f"{TASK_NAME}:{name}")
    waiting = asyncio.ensure_future(acked.wait())
    try:
        await asyncio.wait({task, waiting}, timeout=limit, return_when=asyncio.FIRST_COMPLETED)
    except BaseException:  # the open was cancelled: the stream goes with it
        task.cancel()
        raise
    finally:
        waiting.cancel()
    listening = Listening(task)
    if acked.is_set():
        return listening
    if not task.done():
        _log.debug("%s: no acknowledgment of subscriptions/listen within %g s", name, limit)
    await listening.stop()
    return None


async def _follow(
    name: str,
    client: Any,
    kinds: frozenset[str],
    limit: float,
    acked: asyncio.Event,
    relistened: Relistened | None,
    lost: Lost | None,
) -> None:
    """Hold a stream open; open another whenever it ends, until cancelled or refused."""
    waits = backoff()
    while True:
        again = acked.is_set()
        try:
            lived = await _listen_once(name, client, kinds, limit, acked, again, relistened)
        except Exception as error:
            if not again or _refused(error):
                _log.debug("%s: no live updates (subscriptions/listen: %s)", name, error)
                return
            if not client.is_connected():  # an HTTP server down: the SDK ends the session
                _log.debug("%s: the connection went with the stream (%s)", name, error)
                if lost is not None:
                    lost()
                return
            _log.debug("%s: subscriptions/listen failed: %r", name, error)
        else:
            if lived is None:
                _log.debug("%s: no live updates (the server honored none of them)", name)
                return
            if lived >= MAX_DELAY:  # not a server that ends every stream at once
                waits = backoff()
        pause = next(waits)
        _log.debug("%s: listening again in %.1f s", name, pause)
        await asyncio.sleep(pause)


async def _listen_once(
    name: str,
    client: Any,
    kinds: frozenset[str],
    limit: float,
    acked: asyncio.Event,
    again: bool,
    relistened: Relistened | None,
) -> float | None:
    """One stream, acknowledged within ``limit`` seconds (or raises), held to its end: the
    seconds it lived, None when the server honored none of ``kinds``."""
    from mcp.client.subscriptions import listen

    with anyio.fail_after(limit) as opening:
        async with listen(
            client.session,
            tools_list_changed="tools" in kinds,
            prompts_list_changed="prompts" in kinds,
            resources_list_changed="resources" in kinds,
        ) as subscription:
            opening.deadline = math.inf  # acknowledged: the stream may live for days
            acked.set()
            honored = ", ".join(kind for kind, wanted in subscription.honored if wanted)
            if not honored:
                return None
            _log.debug("%s: listening%s for %s", name, " again" if again else "", honored)
            started = time.monotonic()
            if again and relistened is not None:
                try:  # what changed while no stream was open went unheard
                    await relistened(kinds)
                except Exception as error:
                    _log.debug("%s: refresh after listening again failed: %s", name, error)
            try:
                async for _ in subscription:
                    pass  # the message handler has it too, and refreshes
                _log.debug("%s: the server ended its listen stream", name)
            except Exception as error:  # SubscriptionLost: cut without the server's close
                _log.debug("%s: the listen stream was lost: %s", name, error)
            return time.monotonic() - started


async def reconnect(name: str, reopen: Callable[[], Awaitable[object]]) -> None:
    """Reopen a connection whose session a listen stream's end took, backing off while the
    server stays away (``reopen`` raises); the new connection listens again."""
    for pause in backoff():
        _log.debug("%s: reconnecting in %.1f s", name, pause)
        await asyncio.sleep(pause)
        try:
            await reopen()
        except Exception as error:
            _log.debug("%s: reconnecting failed: %s", name, error)
        else:
            return


def _refused(error: Exception) -> bool:
    """Whether the server does not serve the listen at all (asking again is pointless)."""
    from mcp.client.subscriptions import ListenNotSupportedError
    from mcp.shared.exceptions import MCPError
    from mcp_types import METHOD_NOT_FOUND

    if isinstance(error, ListenNotSupportedError):
        return True
    return isinstance(error, MCPError) and error.code == METHOD_NOT_FOUND
