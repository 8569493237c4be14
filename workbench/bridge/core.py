"""The bridge: one asyncio event loop, in a daemon thread, that owns every MCP client."""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import contextlib
import contextvars
import functools
import logging
import threading
import time
import weakref
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from workbench.bridge.inbox import await_inbox
from workbench.bridge.jobs import Job
from workbench.bridge.loops import BridgeLoop, Host
from workbench.bridge.waiting import (
    CANCEL_GRACE,
    WAIT_SLICE,
    SigintTarget,
    block_until,
    cancel_on_sigint,
    resolve,
    timeout_error,
)
from workbench.errors import BridgeError

T = TypeVar("T")

_log = logging.getLogger(__name__)
_ATEXIT_TIMEOUT = 2.0


class Bridge:
    """An event loop in a daemon thread that owns every MCP client.

    It starts lazily, on first use. Callers in any thread block with :meth:`run`, await from
    their own loop with :meth:`arun`, or fire and track with :meth:`submit`. Coroutines run with
    a copy of the caller's contextvars, so in a kernel their ``print()`` lands in the calling cell.
    """

    def __init__(self, *, name: str = "workbench-bridge") -> None:
        self._name = name
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._closed = False
        self._close_deadline: float | None = None
        self._jobs: set[Job[Any]] = set()
        self._host = Host()
        self._host.learn()  # made in a cell: the kernel's loop is running
        # Registered now, not at first use: atexit runs hooks last-in first-out, so cleanup
        # that still needs the bridge (closing clients) must be registered after creating it.
        self._atexit = functools.partial(_close_at_exit, weakref.ref(self))
        atexit.register(self._atexit)

    def __repr__(self) -> str:
        state = "closed" if self._closed else "running" if self._loop is not None else "idle"
        return f"<Bridge {self._name!r} {state}>"

    def __enter__(self) -> Bridge:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        """The bridge's event loop, starting its thread if needed; BridgeError once closed."""
        with self._lock:
            return self._started_loop()

    @property
    def closed(self) -> bool:
        """True once :meth:`close` was called (or the loop died); the bridge cannot restart."""
        return self._closed

    def in_bridge_thread(self) -> bool:
        """True when called from the bridge's own thread, where blocking would deadlock."""
        thread = self._thread
        return thread is not None and threading.current_thread() is thread

    def run(self, coro: Coroutine[Any, Any, T], timeout: float | None = None) -> T:
        """Run ``coro`` on the bridge and block this thread until it finishes.

        Safe inside a running loop (a sync call inside an async cell just blocks that loop for
        the duration). Any exception while waiting - KeyboardInterrupt included - cancels the
        bridged task; ``timeout`` cancels it and raises :class:`TimeoutError`.
        """
        if self.in_bridge_thread():
            coro.close()
            raise BridgeError(
                "Bridge.run() was called on the bridge's own thread, where blocking would "
                "deadlock; await the coroutine there instead."
            )
        target = None
        try:
            with cancel_on_sigint() as target, self._host.blocking():
                return self._wait(self._submit(coro, target), timeout)
        except BaseException:
            if target is not None and target.job is not None:
                target.job.cancel()
            raise
        finally:
            if not self._host.blocked:
                self._host.inbox.cancel_pending()

    def main_thread_blocked(self) -> bool:
        """Whether the main thread is blocked in :meth:`run` (a sync call in a cell): then it
        can neither show a widget nor take a click, only run what :meth:`run_in_main_thread`
        posts."""
        return self._host.blocked > 0

    async def run_in_main_thread(self, fn: Callable[[], T], timeout: float) -> T:
        """On the bridge loop: have the main thread, blocked in :meth:`run`, run ``fn``
        between its wait slices (``input()`` asking a server's question), and return its
        result. TimeoutError when it did not within ``timeout`` s or stopped waiting first."""
        if not self.main_thread_blocked():
            raise TimeoutError
        return await await_inbox(self._host.inbox.post(fn), timeout)

    async def arun(self, coro: Coroutine[Any, Any, T], timeout: float | None = None) -> T:
        """Await ``coro`` on the bridge from another loop without blocking that loop.

        Waits in short slices so the caller's loop wakes regularly: in ipykernel an interrupt
        during an async cell is acted on only when the kernel loop wakes. Cancelling the awaiting
        task (or any other exception here) cancels the bridged task.
        """
        try:
            caller = asyncio.get_running_loop()
        except RuntimeError:
            coro.close()
            raise
        job = self._submit(coro)
        waiter: asyncio.Future[None] = caller.create_future()

        def wake(_: object) -> None:
            with contextlib.suppress(RuntimeError):  # the caller's loop is closed
                caller.call_soon_threadsafe(resolve, waiter)

        # The plain callback: this loop already wakes every slice below.
        concurrent.futures.Future.add_done_callback(job.future, wake)
        deadline = None if timeout is None else time.monotonic() + timeout
        try:
            while not job.future.done():
                slice_ = WAIT_SLICE
                if deadline is not None:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        job.cancel()
                        await asyncio.wait((waiter,), timeout=CANCEL_GRACE)
                        raise timeout_error(timeout)
                    slice_ = min(slice_, left)
                await asyncio.wait((waiter,), timeout=slice_)
        except BaseException:
            job.cancel()
            raise
        return self._outcome(job)

    def submit(self, coro: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        """Start ``coro`` on the bridge and return at once; cancelling the future cancels it."""
        return self._submit(coro).future

    def close(self, timeout: float = 5.0) -> None:
        """Cancel pending tasks, stop the loop and join the thread. Idempotent.

        Afterwards :meth:`run`, :meth:`arun` and :meth:`submit` raise :class:`BridgeError`.
        """
        with self._lock:
            already = self._closed
            self._closed = True
            loop, thread = self._loop, self._thread
            if not already:
                self._close_deadline = time.monotonic() + timeout
        atexit.unregister(self._atexit)
        if loop is None or thread is None:
            return
        if not already:
            with contextlib.suppress(RuntimeError):  # the loop died on its own
                loop.call_soon_threadsafe(loop.stop)
        if thread is threading.current_thread():
            return  # the thread finishes once the current callback returns
        thread.join(timeout + 0.5)
        if thread.is_alive():
            _log.warning("Bridge thread %r did not stop within %.1f s.", self._name, timeout)

    # -- internals ---------------------------------------------------------------------------

    def _started_loop(self) -> asyncio.AbstractEventLoop:
        """The running loop, starting the thread on first use. Call with the lock held."""
        if self._closed:
            raise BridgeError("This bridge is closed; create a new Bridge.")
        if self._loop is None:
            loop = BridgeLoop()
            loop.host = self._host
            ready = threading.Event()
            thread = threading.Thread(
                target=self._main, args=(loop, ready), name=self._name, daemon=True
            )
            self._loop, self._thread = loop, thread
            thread.start()
            ready.wait()
        return self._loop

    def _submit(self, coro: Coroutine[Any, Any, T], target: SigintTarget | None = None) -> Job[T]:
        if not asyncio.iscoroutine(coro):
            raise TypeError(f"The bridge runs coroutine objects, not {type(coro).__name__}.")
        ctx = contextvars.copy_context()
        self._host.learn()
        with self._lock:
            try:
                loop = self._started_loop()
            except BaseException:
                coro.close()
                raise
            job = Job(loop, coro, self._forget)
            if target is not None:
                target.job = job
            try:
                loop.call_soon_threadsafe(job.start, ctx)
            except RuntimeError as exc:
                coro.close()
                raise BridgeError("The bridge's event loop has stopped.") from exc
            if not job.done.is_set():
                self._jobs.add(job)
        return job

    def _forget(self, job: Job[Any]) -> None:
        with self._lock:
            self._jobs.discard(job)

    def _wait(self, job: Job[T], timeout: float | None) -> T:
        deadline = None if timeout is None else time.monotonic() + timeout
        main = threading.current_thread() is threading.main_thread()
        while not job.done.is_set():
            if main:
                self._host.inbox.run_pending()
            if deadline is None:
                job.done.wait(WAIT_SLICE)
                continue
            left = deadline - time.monotonic()
            if left <= 0:
                job.cancel()
                block_until(job.done, CANCEL_GRACE)
                raise timeout_error(timeout)
            job.done.wait(min(WAIT_SLICE, left))
        return self._outcome(job)

    def _outcome(self, job: Job[T]) -> T:
        future = job.future
        if future.cancelled():
            if job.interrupted:
                raise KeyboardInterrupt
            if self._closed:
                raise BridgeError("The bridge was closed while a call was waiting on it.")
            raise BridgeError("The bridged coroutine was cancelled on the bridge loop.")
        if job.interrupted:
            exc = future.exception()
            if exc is not None:
                raise KeyboardInterrupt from exc
        return future.result()

    def _main(self, loop: asyncio.AbstractEventLoop, ready: threading.Event) -> None:
        """The bridge thread: run the loop until stopped, then tidy up and close it."""
        asyncio.set_event_loop(loop)
        loop.call_soon(ready.set)
        try:
            loop.run_forever()
        finally:
            ready.set()
            self._closed = True
            try:
                self._drain(loop)
            except BaseException:
                _log.exception("Error while shutting down the bridge loop.")
            finally:
                asyncio.set_event_loop(None)
                loop.close()
                with self._lock:
                    jobs = list(self._jobs)
                for job in jobs:
                    job.abandon()

    def _drain(self, loop: asyncio.AbstractEventLoop) -> None:
        """Cancel what is left and wait for it, within the close() deadline."""
        deadline = self._close_deadline or time.monotonic() + 5.0

        def left() -> float:
            return max(deadline - time.monotonic(), 0.01)

        tasks = [task for task in asyncio.all_tasks(loop) if not task.done()]
        for task in tasks:
            task.cancel()
        if tasks:
            loop.run_until_complete(asyncio.wait(tasks, timeout=left()))
            stuck = [task for task in tasks if not task.done()]
            if stuck:
                _log.warning("%d bridge task(s) ignored cancellation: %r", len(stuck), stuck)
        loop.run_until_complete(loop.shutdown_asyncgens())
        with contextlib.suppress(asyncio.TimeoutError, TimeoutError):
            loop.run_until_complete(asyncio.wait_for(loop.shutdown_default_executor(), left()))


def _close_at_exit(ref: weakref.ReferenceType[Bridge]) -> None:
    bridge = ref()
    if bridge is not None:
        bridge.close(timeout=_ATEXIT_TIMEOUT)


def start_daemon_thread(fn: Callable[..., object], *args: Any, name: str) -> threading.Thread:
    """Run ``fn(*args)`` in a new daemon thread and return it at once.

    For background work nobody waits for (importing a slow module ahead of its first use):
    a daemon thread never holds up the interpreter's exit, unlike an executor's workers.
    """
    thread = threading.Thread(target=fn, args=args, name=name, daemon=True)
    thread.start()
    return thread
