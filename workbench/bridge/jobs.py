"""A coroutine handed to the bridge: its task on the bridge loop and the future callers hold.

Every way of waiting on that future can be interrupted, and cancelling it cancels the task.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import contextvars
import sys
import threading
import time
from collections.abc import Callable, Coroutine
from typing import Any, Generic, TypeVar

from workbench.bridge.inbox import MainInbox
from workbench.bridge.loops import blocking, create_task, host_of
from workbench.bridge.waiting import WAIT_SLICE, cancel_on_sigint, keep_waking
from workbench.errors import KernelLoopBusyError

T = TypeVar("T")

STUCK_GRACE = 0.25
"""How long ``result()`` waits before saying a notebook tool it would stop could not finish."""


if sys.version_info < (3, 11):  # pragma: no cover - Python 3.10

    class _BothTimeouts(concurrent.futures.TimeoutError, TimeoutError):
        """concurrent.futures' timeout that ``except TimeoutError`` catches too, as from 3.11
        on, where the two are one class."""


class Escaped(Exception):
    """Carries KeyboardInterrupt/SystemExit out of a bridged coroutine.

    Raised raw inside a task they would propagate out of ``run_forever`` and kill the bridge.
    """

    def __init__(self, original: BaseException) -> None:
        super().__init__(repr(original))
        self.original = original


async def guarded(coro: Coroutine[Any, Any, T]) -> T:
    try:
        return await coro
    except (KeyboardInterrupt, SystemExit) as exc:
        raise Escaped(exc) from exc


class BridgedFuture(concurrent.futures.Future[T]):
    """The future of a submitted call: every way of waiting on it can be interrupted.

    ``result()`` cancels the call when its wait is interrupted (and, in the main thread, a
    SIGINT cancels it even when the kernel's own handler would only queue a callback). Awaited
    through ``asyncio.wrap_future`` it keeps the awaiting loop waking in short slices: an
    ipykernel interrupt lands only when the kernel's loop wakes, and cancelling the awaiting
    task then cancels this future, hence the bridged task.

    Blocking the main thread stops the kernel's loop: a notebook tool running there could never
    finish. So while one is, ``result()`` waits only a moment before raising
    :class:`KernelLoopBusyError`, which says to await the future instead (the call goes on).
    """

    _job: Job[T] | None = None

    def result(self, timeout: float | None = None) -> T:
        job = self._job
        if self.done() or job is None:
            return super().result(timeout)
        host = host_of(job.loop)
        stuck = host.tools_stuck_by_blocking() if host is not None else []
        try:
            with cancel_on_sigint() as target, blocking(job.loop):
                target.job = job
                if stuck and (timeout is None or timeout > STUCK_GRACE):
                    return self._result_unless_stuck(stuck)
                if host is not None and threading.current_thread() is threading.main_thread():
                    return self._result_taking_questions(host.inbox, timeout)
                return super().result(timeout)
        except concurrent.futures.CancelledError:
            if job.interrupted:
                raise KeyboardInterrupt from None
            raise
        except (concurrent.futures.TimeoutError, TimeoutError, KernelLoopBusyError) as error:
            if sys.version_info < (3, 11) and type(error) is concurrent.futures.TimeoutError:
                raise _BothTimeouts(*error.args) from None  # pragma: no cover - Python 3.10
            raise  # the caller may wait again
        except BaseException:
            self.cancel()
            raise
        finally:
            if host is not None and not host.blocked:
                host.inbox.cancel_pending()  # nobody is left to run what was posted

    def _result_taking_questions(self, inbox: MainInbox, timeout: float | None) -> T:
        """Wait in slices, running what the inbox holds meanwhile (a server's question
        asked with ``input()``), as ``Bridge.run`` does."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self.done():
            inbox.run_pending()
            left = WAIT_SLICE if deadline is None else min(WAIT_SLICE, deadline - time.monotonic())
            if left <= 0:
                break
            with contextlib.suppress(concurrent.futures.TimeoutError, TimeoutError):
                return super().result(left)
        return super().result(0)

    def _result_unless_stuck(self, stuck: list[str]) -> T:
        try:
            return super().result(STUCK_GRACE)
        except (concurrent.futures.TimeoutError, TimeoutError):
            names = ", ".join(stuck)
            raise KernelLoopBusyError(
                f"{names} runs on the kernel's event loop, which blocking on .result() stops, "
                "so the call could never finish. Await the future instead: "
                "`await asyncio.wrap_future(future)` (the call goes on meanwhile)."
            ) from None

    def add_done_callback(self, fn: Callable[[concurrent.futures.Future[T]], object]) -> None:
        super().add_done_callback(fn)
        if self.done():
            return
        with contextlib.suppress(RuntimeError):  # not called from a running loop
            keep_waking(asyncio.get_running_loop(), self)


class Job(Generic[T]):
    """One submitted coroutine: its bridge task (once started) and a thread-safe future.

    Settling the future happens on the bridge thread only, exactly once.
    """

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        coro: Coroutine[Any, Any, T],
        forget: Callable[[Job[Any]], None],
    ) -> None:
        self.loop = loop
        self.coro: Coroutine[Any, Any, T] | None = coro  # until started, so it can be closed
        self.task: asyncio.Task[T] | None = None
        self.future: BridgedFuture[T] = BridgedFuture()
        self.future._job = self
        self.done = threading.Event()
        self.cancel_requested = False
        self.interrupted = False  # set by the chained SIGINT handler
        self._settled = False
        self._forget = forget
        # The plain callback: BridgedFuture's own would keep the loop of whoever submits
        # (the kernel's, in a sync call from an async cell) waking every slice for a future
        # that only the bridge thread settles; waiters that await it add their own.
        concurrent.futures.Future.add_done_callback(self.future, self._on_future_done)

    def start(self, ctx: contextvars.Context) -> None:
        """On the bridge loop: wrap the coroutine in a task running in ``ctx``."""
        coro, self.coro = self.coro, None
        if coro is None or self._settled:
            return
        if self.cancel_requested or self.future.cancelled():
            coro.close()
            self._settle_cancelled()
            return
        wrapped = guarded(coro)
        try:
            task = create_task(self.loop, wrapped, ctx)
        except BaseException as exc:
            wrapped.close()
            coro.close()
            self._settled = True
            if self.future.set_running_or_notify_cancel():
                self.future.set_exception(exc)
            return
        self.task = task
        task.add_done_callback(self._settle)

    def cancel(self) -> None:
        """Ask the bridge loop to cancel the task; safe from any thread and signal handlers."""
        self.cancel_requested = True
        with contextlib.suppress(RuntimeError):  # loop closed: its finalizer settled every job
            self.loop.call_soon_threadsafe(self._cancel_task)

    def abandon(self) -> None:
        """The loop is gone: close a never-started coroutine and release every waiter."""
        coro, self.coro = self.coro, None
        if coro is not None:
            coro.close()
        self._settle_cancelled()

    def _cancel_task(self) -> None:
        if self.task is not None:
            self.task.cancel()

    def _settle(self, task: asyncio.Task[T]) -> None:
        if self._settled:
            return
        if task.cancelled():
            self._settle_cancelled()
            return
        self._settled = True
        if not self.future.set_running_or_notify_cancel():
            return  # cancelled through submit()'s future meanwhile
        exc = task.exception()
        if exc is None:
            self.future.set_result(task.result())
        else:
            self.future.set_exception(exc.original if isinstance(exc, Escaped) else exc)

    def _settle_cancelled(self) -> None:
        if self._settled:
            return
        self._settled = True
        self.future.cancel()
        # Moves CANCELLED to CANCELLED_AND_NOTIFIED so concurrent.futures.wait() callers wake.
        self.future.set_running_or_notify_cancel()

    def _on_future_done(self, future: concurrent.futures.Future[T]) -> None:
        self.done.set()
        if future.cancelled() and not self._settled:
            self.cancel()  # a submit() caller cancelled the future: stop the task too
        self._forget(self)
