"""Where async notebook tools run: on the kernel's loop when it is free, never on the bridge's.

On the bridge loop a tool that blocks would hold up every server's calls and timeouts, and the
kernel's asyncio objects would wake it late or not at all. So a tool is offered to the kernel's
loop (``Handoff``); while the main thread is blocked on the bridge - a sync call - a worker
thread with a loop of its own runs it instead (``Worker``), and gives the asyncio objects it
bound back when it ends (``bound_to``, which reads CPython's ``_LoopBoundMixin``).

A displaced tool that waits on what only the blocked kernel's loop could provide (an asyncio
object a cell would set, work handed to that loop) runs until its call's timeout; the caller
hears of the displacement (``run_in_notebook``'s ``on_displaced``), so that a timeout can wait
for the worker to give back what the tool bound and say to ``await`` the call instead.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import contextvars
import gc
import re
import threading
import time
from asyncio.mixins import _LoopBoundMixin
from collections.abc import Callable, Coroutine
from typing import Any, Generic, TypeVar

from workbench.bridge.loops import Host, create_task
from workbench.bridge.waiting import resolve

T = TypeVar("T")

# How long an async notebook tool waits for the kernel's loop to take it when the loop is busy
# with something other than a wait on the bridge (then a worker thread runs it), and how often
# that wait looks whether the main thread has started blocking on the bridge meanwhile.
_HOST_CLAIM_WAIT = 0.25
_HOST_POLL = 0.01
# What asyncio says when an object or future of one loop is used from another.
_OTHER_LOOP = re.compile(r"(bound to|attached to|belongs to) a different (event )?loop")


class _Handoff(Generic[T]):
    """An async notebook tool offered to the kernel's loop: whoever claims it first runs it,
    the kernel's loop or (when that loop does not take it) a worker thread."""

    def __init__(
        self,
        make: Callable[[], Coroutine[Any, Any, T]],
        ctx: contextvars.Context,
        host: Host,
        label: str,
    ):
        self._make = make
        self._ctx = ctx
        self._host = host
        self._label = label
        self._lock = threading.Lock()
        self._owner = ""
        self._claimed = threading.Event()
        self._waiter: asyncio.Future[None] | None = None  # on the bridge loop: woken at claim
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[T] | None = None
        self._cancel_asked = False  # by whoever awaits result(): its own cancellation
        self.future: concurrent.futures.Future[T] = concurrent.futures.Future()

    def claim(self, who: str) -> bool:
        with self._lock:
            if self._owner:
                return False
            self._owner = who
            return True

    async def offer(self, loop: asyncio.AbstractEventLoop) -> bool:
        """True once the kernel's loop has taken the tool; False when the caller runs it."""
        host = self._host
        self._loop = loop
        waiter = self._waiter = asyncio.get_running_loop().create_future()
        try:
            loop.call_soon_threadsafe(self._start)
        except RuntimeError:  # closed meanwhile
            return not self.claim("worker")
        deadline = time.monotonic() + _HOST_CLAIM_WAIT
        while not self._claimed.is_set():
            if host.blocked or time.monotonic() >= deadline:
                return not self.claim("worker")
            await asyncio.wait((waiter,), timeout=_HOST_POLL)
        return True

    async def result(self) -> T:
        """Await the tool on the kernel's loop; cancelling this cancels it there."""
        try:
            return await asyncio.wrap_future(self.future)
        except BaseException:
            if self._loop is not None:
                with contextlib.suppress(RuntimeError):
                    self._loop.call_soon_threadsafe(self._cancel)
            raise

    def _start(self) -> None:
        if self._loop is None or not self.claim("host"):
            return
        self._claimed.set()
        waiter = self._waiter
        if waiter is not None:
            with contextlib.suppress(RuntimeError):  # the bridge loop is closed
                waiter.get_loop().call_soon_threadsafe(resolve, waiter)
        try:
            self._task = create_task(self._loop, self._make(), self._ctx)
        except BaseException as exc:
            _settle_future(self.future, None, exc)
            return
        self._host.tools_running[id(self)] = self._label
        self._task.add_done_callback(self._copy)

    def _copy(self, task: asyncio.Task[T]) -> None:
        self._host.tools_running.pop(id(self), None)
        if task.cancelled():
            # Cancelled on the kernel's side (its loop stopped: asyncio.run ending, a cell's
            # task cancelled), not by the caller: a CancelledError would cancel the awaiting
            # server handler from outside and end the in-process server's session with it.
            stopped = RuntimeError(
                f"{self._label} was cancelled on the kernel's event loop before it finished "
                "(the loop stopped or a cell cancelled it)."
            )
            error = asyncio.CancelledError() if self._cancel_asked else stopped
            _settle_future(self.future, None, error)
        else:
            exc = task.exception()
            _settle_future(self.future, None if exc is not None else task.result(), exc)

    def _cancel(self) -> None:
        self._cancel_asked = True
        if self._task is not None:
            self._task.cancel()


def _settle_future(
    future: concurrent.futures.Future[T], result: T | None, exc: BaseException | None
) -> None:
    with contextlib.suppress(concurrent.futures.InvalidStateError):  # cancelled meanwhile
        if exc is not None:
            future.set_exception(exc)
        else:
            future.set_result(result)  # type: ignore[arg-type]


class _Worker(Generic[T]):
    """An async notebook tool run on a thread of its own with a loop of its own."""

    def __init__(self, make: Callable[[], Coroutine[Any, Any, T]], ctx: contextvars.Context):
        self.future: concurrent.futures.Future[T] = concurrent.futures.Future()
        # Done once the worker has stopped and given back what the tool bound (never fails).
        self.ended: concurrent.futures.Future[None] = concurrent.futures.Future()
        self._loop = asyncio.new_event_loop()
        self._task: asyncio.Task[T] | None = None
        threading.Thread(
            target=self._main, args=(make, ctx), name="workbench-notebook-tool", daemon=True
        ).start()

    async def result(self) -> T:
        try:
            return await asyncio.wrap_future(self.future)
        except BaseException:
            with contextlib.suppress(RuntimeError):  # finished and closed
                self._loop.call_soon_threadsafe(self._cancel)
            raise

    def _main(self, make: Callable[[], Coroutine[Any, Any, T]], ctx: contextvars.Context) -> None:
        loop = self._loop
        asyncio.set_event_loop(loop)
        result: T | None = None
        error: BaseException | None = None
        try:
            task = self._task = create_task(loop, make(), ctx)
            loop.run_until_complete(asyncio.wait((task,)))
            if task.cancelled():
                error = asyncio.CancelledError()
            else:
                error = task.exception()
                result = None if error is not None else task.result()
        except BaseException as exc:
            error = exc
        finally:
            with contextlib.suppress(Exception):
                loop.run_until_complete(loop.shutdown_asyncgens())
            asyncio.set_event_loop(None)
            _unbind(loop)  # before the caller hears back: it may use them at once
            loop.close()
            self.ended.set_result(None)
            _settle_future(self.future, result, error)

    def _cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()


def _unbind(loop: asyncio.AbstractEventLoop) -> None:
    """Release the asyncio objects (queues, events, locks) a displaced tool bound to its
    throwaway loop by waiting on them first - say a queue made in a cell - so the kernel's
    loop can use them afterwards instead of meeting "bound to a different event loop"."""
    for owner in bound_to(loop):
        owner._loop = None  # type: ignore[attr-defined]


def bound_to(loop: asyncio.AbstractEventLoop) -> list[_LoopBoundMixin]:
    """The asyncio objects (queues, events, locks) bound to ``loop`` by a first wait.

    Found through ``gc.get_referrers``, which walks the whole heap: the price of a
    displaced call (tens of ms in a kernel; ``benchmarks/stalls.py`` measures it).
    """
    bound: list[_LoopBoundMixin] = []
    for referrer in gc.get_referrers(loop):
        # Python 3.10 keeps attributes in a dict; later versions refer from the object.
        owners = gc.get_referrers(referrer) if isinstance(referrer, dict) else [referrer]
        bound.extend(
            owner
            for owner in owners
            if isinstance(owner, _LoopBoundMixin) and getattr(owner, "_loop", None) is loop
        )
    return bound


async def run_in_notebook(
    make: Callable[[], Coroutine[Any, Any, T]],
    label: str = "a notebook tool",
    on_displaced: Callable[[concurrent.futures.Future[None]], object] | None = None,
) -> tuple[T, bool]:
    """Run an async notebook tool where the notebook's objects live; ``(result, displaced)``.

    On the bridge loop a tool that blocks would hold up every server's calls and timeouts, and
    the kernel's asyncio objects would wake it late or not at all. So the kernel's loop runs
    it whenever that loop is free (awaited calls, widget calls); while the main thread is
    blocked on the bridge (a sync call) - or the loop does not take it within 0.25 s - a
    worker thread with its own loop does, and ``displaced`` is True. Elsewhere than on a
    bridge loop (a server served by another loop), the current loop awaits it.

    ``on_displaced(ended)`` is called as a worker takes the tool, with a future done once
    that worker has stopped and given back what the tool bound: a caller whose call timed
    out - the tool may have waited on the blocked kernel's loop, which it can never get -
    hears back after it, not before, and can say to await the call. ``label`` names the tool
    to a blocking ``result()`` that would stop it on the kernel's loop.
    """
    loop = asyncio.get_running_loop()
    host = getattr(loop, "host", None)
    if not isinstance(host, Host):
        return await make(), False
    ctx = contextvars.copy_context()
    kernel_loop = host.free_loop()
    if kernel_loop is not None:
        handoff = _Handoff(make, ctx, host, label)
        if await handoff.offer(kernel_loop):
            return await handoff.result(), False
    worker = _Worker(make, ctx)
    if on_displaced is not None:
        on_displaced(worker.ended)
    return await worker.result(), True


def bound_to_another_loop(message: str) -> bool:
    """Whether an error message is asyncio's for an object or future of another loop."""
    return _OTHER_LOOP.search(message) is not None
