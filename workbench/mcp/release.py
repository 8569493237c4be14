"""How a Workbench lets go of its servers: once, at ``close()``, at exit, or when nobody
references it any more, without anything on the bridge keeping it alive."""

from __future__ import annotations

import atexit
import weakref
from collections.abc import Callable
from typing import TypeVar

from workbench.bridge import Bridge
from workbench.mcp.manager import ConnectionManager

V = TypeVar("V")


class Release:
    """Closes a Workbench's connections (stopping their processes) and its bridge, once.

    It holds the bridge and the manager, never the Workbench, so the finalizer and the
    exit hook holding it cannot keep a Workbench alive.
    """

    def __init__(self, bridge: Bridge, manager: ConnectionManager) -> None:
        self._bridge = bridge
        self._manager = manager
        self._done = False
        # Registered after the bridge's own hook: atexit runs this first, while the bridge
        # can still close the clients.
        atexit.register(self)

    def __call__(self) -> None:
        if self._done:
            return
        self._done = True
        atexit.unregister(self)
        bridge = self._bridge
        if bridge.closed:
            return
        if bridge.in_bridge_thread():
            # The last reference went on the bridge's own thread (a call that held it
            # ended there): blocking would deadlock, so the bridge stops once all closed.
            done = bridge.submit(self._manager.close_all())
            done.add_done_callback(lambda _: bridge.close())
            return
        try:
            bridge.run(self._manager.close_all(), timeout=10)
        finally:
            bridge.close()


def weakly(method: Callable[[V], None]) -> Callable[[V], None]:
    """``method`` without keeping its object alive: the bridge's tasks hold what the
    connections hold, and a bound method there would keep its Workbench forever."""
    ref = weakref.WeakMethod(method)

    def call(record: V) -> None:
        target = ref()
        if target is not None:
            target(record)

    return call
