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
refreshed the same way; the task here only holds the stream open and drains it. A server
that refuses to listen (method not found, any error), never acknowledges, or ends the stream
is no failure: the connection works as before without live updates, and a debug record says
why. No re-listen: reconnecting opens a new stream (the server replays nothing, and the
reconnect lists the tools again).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

_log = logging.getLogger(__name__)

TASK_NAME = "workbench-listen"
"""The stream's task is ``workbench-listen:<server>`` on the bridge loop."""

KINDS = ("tools", "prompts", "resources")


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
    """A connection's open listen stream: its task on the bridge loop."""

    def __init__(self, task: asyncio.Task[None]) -> None:
        self.task = task

    async def stop(self) -> None:
        """End the stream (the SDK withdraws the listen request); returns once it ended."""
        self.task.cancel()
        await asyncio.wait({self.task})  # a cancellation of the caller still propagates


async def start_listening(name: str, client: Any, limit: float) -> Listening | None:
    """Open the listen stream of an entered ``fastmcp.Client`` if its server has list
    changes to tell at this version; wait up to ``limit`` seconds for the server's
    acknowledgment, so that every change after this returns is heard. None when there is
    nothing to listen for, or the server refused or did not acknowledge in time."""
    kinds = listened_for(client.protocol_version, client.server_capabilities)
    if not kinds:
        return None
    acked = asyncio.Event()
    task = asyncio.create_task(_follow(name, client, kinds, acked), name=f"{TASK_NAME}:{name}")
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


async def _follow(name: str, client: Any, kinds: frozenset[str], acked: asyncio.Event) -> None:
    from mcp.client.subscriptions import listen

    try:
        async with listen(
            client.session,
            tools_list_changed="tools" in kinds,
            prompts_list_changed="prompts" in kinds,
            resources_list_changed="resources" in kinds,
        ) as subscription:
            acked.set()
            honored = ", ".join(kind for kind, wanted in subscription.honored if wanted)
            _log.debug("%s: listening for %s", name, honored)
            async for _ in subscription:
                pass  # the message handler has it too, and refreshes
        _log.debug("%s: the server ended its listen stream", name)
    except Exception as error:
        _log.debug("%s: no live updates (subscriptions/listen: %s)", name, error)
