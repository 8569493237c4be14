"""Which loop is which: the bridge's own, the kernel's, and whether nest_asyncio patched one.

The bridge's loop is a subclass that nest_asyncio's class patch cannot reach; ``Host`` is the
kernel's loop as the bridge sees it, and whether the main thread is blocked waiting on the
bridge - which leaves that loop unable to run anything.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import contextvars
import sys
import threading
import warnings
from collections.abc import Coroutine, Iterator
from typing import Any, TypeVar

from workbench.bridge.inbox import MainInbox

T = TypeVar("T")

_STOCK_RUN_UNTIL_COMPLETE = asyncio.BaseEventLoop.run_until_complete

# nest_asyncio and nest-asyncio2 patch the *class* of the loop they are applied to, which is
# the class of every default loop - including one already running in another thread. A subclass
# that pins asyncio's own methods keeps the bridge loop stock and non-reentrant either way.
if sys.platform == "win32":  # pragma: no cover - the proactor overrides run_forever itself

    class BridgeLoop(asyncio.ProactorEventLoop):
        """The bridge's loop: asyncio's, immune to nest_asyncio's class patch."""

        host: Host | None = None

    _PINNED: tuple[str, ...] = ("run_until_complete", "_run_once", "_check_running")
else:

    class BridgeLoop(asyncio.SelectorEventLoop):
        """The bridge's loop: asyncio's, immune to nest_asyncio's class patch."""

        host: Host | None = None

    _PINNED = ("run_forever", "run_until_complete", "_run_once", "_check_running")

for _name in _PINNED:
    if hasattr(asyncio.BaseEventLoop, _name):
        setattr(BridgeLoop, _name, getattr(asyncio.BaseEventLoop, _name))


def create_task(
    loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, T], ctx: contextvars.Context
) -> asyncio.Task[T]:
    """Create the task in the caller's context (``create_task(context=)`` is 3.11+)."""
    if sys.version_info >= (3, 11):
        return loop.create_task(coro, context=ctx)
    return ctx.run(loop.create_task, coro)  # pragma: no cover - Python 3.10


class Host:
    """The kernel's loop (the one running in the main thread) and whether the main thread is
    blocked waiting on the bridge, which leaves that loop unable to run anything."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.blocked = 0  # changed by the main thread only
        # Notebook tools running on the kernel's loop (by id of their handoff); changed on
        # that loop, so by the main thread only.
        self.tools_running: dict[int, str] = {}
        # What the blocked main thread runs between its wait slices (inbox.py).
        self.inbox = MainInbox()

    def learn(self) -> None:
        """Note the loop running in the main thread, if this is it."""
        if threading.current_thread() is not threading.main_thread():
            return
        with contextlib.suppress(RuntimeError):
            loop = asyncio.get_running_loop()
            if not isinstance(loop, BridgeLoop):
                self.loop = loop

    @contextlib.contextmanager
    def blocking(self) -> Iterator[None]:
        """Mark the main thread as blocked on the bridge for the duration."""
        main = threading.current_thread() is threading.main_thread()
        if main:
            self.blocked += 1
        try:
            yield
        finally:
            if main:
                self.blocked -= 1

    def tools_stuck_by_blocking(self) -> list[str]:
        """The notebook tools on the kernel's loop that a blocking wait in this thread would
        stop (none unless this is the main thread, whose loop that is)."""
        if threading.current_thread() is not threading.main_thread():
            return []
        return sorted(set(self.tools_running.values()))

    def free_loop(self) -> asyncio.AbstractEventLoop | None:
        """The kernel's loop if it is running and not blocked on the bridge."""
        loop = self.loop
        if loop is None or self.blocked or loop.is_closed() or not loop.is_running():
            return None
        return loop


def send_to_loop(
    loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, T]
) -> concurrent.futures.Future[T]:
    """Run ``coro`` on ``loop`` from any thread (that loop's included), without waiting.

    For reports a notebook tool makes from a worker thread or the kernel's loop to the MCP
    session on the bridge loop; a closed loop gives a future holding the error.
    """
    try:
        return asyncio.run_coroutine_threadsafe(coro, loop)
    except RuntimeError as error:  # the loop is closed
        coro.close()
        failed: concurrent.futures.Future[T] = concurrent.futures.Future()
        failed.set_exception(error)
        return failed


def host_of(loop: asyncio.AbstractEventLoop) -> Host | None:
    """The kernel's loop as the bridge loop ``loop`` knows it (None for any other loop)."""
    host = getattr(loop, "host", None)
    return host if isinstance(host, Host) else None


def blocking(loop: asyncio.AbstractEventLoop) -> contextlib.AbstractContextManager[None]:
    host = host_of(loop)
    return host.blocking() if host is not None else contextlib.nullcontext()


def loop_patched_by_nest_asyncio(loop: asyncio.AbstractEventLoop | None = None) -> bool:
    """Whether ``nest_asyncio`` or ``nest-asyncio2`` made ``loop`` reentrant.

    By default checks the loop running in this thread, else this thread's current loop (never
    creating one). Worth knowing: the patch swaps the class's scheduler for a slower reentrant
    one and makes new tasks pure-Python. The bridge's own loop is pinned and reports False.
    """
    if loop is None:
        loop = current_loop()
        if loop is None:
            return False
    if not getattr(loop, "_nest_patched", False):
        return False
    return getattr(type(loop), "run_until_complete", None) is not _STOCK_RUN_UNTIL_COMPLETE


def current_loop() -> asyncio.AbstractEventLoop | None:
    with contextlib.suppress(RuntimeError):
        return asyncio.get_running_loop()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        policy = asyncio.get_event_loop_policy()
    # Read the policy's current loop without get_event_loop(), which would create one.
    loop = getattr(getattr(policy, "_local", None), "_loop", None)
    return loop if isinstance(loop, asyncio.AbstractEventLoop) else None
